// Efficiency metrics (efficiency.h; the formulas are in docs/kite-profile.md).
#include "efficiency.h"

#include <algorithm>
#include <cmath>

namespace kite_profile {

namespace {
double clamp01(double x) { return std::isfinite(x) ? std::min(1.0, std::max(0.0, x)) : 0.0; }
}  // namespace

void Efficiency::instance(uint64_t parallel, uint64_t construct, unsigned team, double elapsed_s) {
  Instance &in = instances_[parallel];
  in.construct = construct;
  in.team = team;
  in.elapsed = elapsed_s;
}

void Efficiency::add(uint32_t thread, bool initial, uint64_t parallel, uint64_t construct,
                     EffBucket b, const SampleTime &t, const double *deltas, uint32_t line,
                     bool in_mpi_window) {
  if (t.cpu >= 0) cpu_known_ = true;
  // Descheduled is time a thread that had work (its own or the runtime's)
  // could not run; a waiting thread that yields or spins is runnable too,
  // but it would have waited anyway: its time stays waiting.
  // A thread waiting for one that could not run (the lock holder, the
  // team's last worker, the initial thread's serial code) waits because of
  // the descheduling: that share is descheduled too.
  double delay = b == kEffUseful || b == kEffRuntime ? t.delay : 0.0;
  double knock_on = b == kEffWait || b == kEffSerial
                        ? t.weight * std::min(1.0, std::max(0.0, t.culprit_delay_share))
                        : 0.0;
  double rest = std::max(0.0, t.weight - delay - knock_on);
  // A working sample's period may begin before its work did (the thread
  // slept in the pool, then started a region): only its CPU time is work;
  // the rest, off the CPU without being runnable, is "other" (blocked).
  // The CPU clock is read when the timer's signal arrives, and a signal
  // that comes late makes one period's CPU time long and the next one's
  // short by as much: what a sample's CPU time (with its run delay) counts
  // beyond its period is carried to the thread's next sample, up to a
  // period, so that timer jitter on a thread that never stopped running
  // is not taken for blocked time.
  double cpu = t.cpu;
  if (t.cpu >= 0) {
    double &carry = cpu_carry_[thread];
    cpu += carry;
    carry = std::min(std::max(0.0, cpu + t.delay - t.weight), t.weight);
  }
  double blocked = 0;
  if ((b == kEffUseful || b == kEffRuntime) && t.cpu >= 0 && cpu < rest) {
    blocked = rest - cpu;
    rest = cpu;
  }
  // Blocked time right after the thread idled for serial code or waited
  // (a worker that slept in the pool or at a barrier, then started work
  // within the period) is the end of that idling or waiting; after serial
  // idling, only up to the region's start: from there on the worker was
  // being woken for the region (the fork's cost, runtime).
  EffBucket blocked_to = kEffOther;
  double blocked_fork = 0;
  auto last = last_bucket_.find(thread);
  if (blocked > 0 && last != last_bucket_.end() &&
      (last->second == kEffSerial || last->second == kEffWait)) {
    blocked_to = last->second;
    if (blocked_to == kEffSerial && parallel) {
      blocked_fork = std::max(0.0, blocked - t.before_region);
      blocked -= blocked_fork;
    }
  }
  last_bucket_[thread] = b;
  auto into = [&](EffTotals &x, EffBucket blocked_bucket) {
    x.thread += t.weight;
    x.delay += delay + knock_on;
    x.delay_waiting += knock_on;
    x.bucket[b] += rest;
    x.bucket[blocked_bucket] += blocked;
    x.bucket[kEffRuntime] += blocked_fork;
    if (b == kEffWait && t.cpu >= 0 && rest > 0) {
      x.wait_known += rest;
      x.wait_cpu += std::min(t.cpu, rest);
    }
    if (deltas && !counter_names_.empty()) {
      x.counters.resize(counter_names_.size(), 0.0);
      for (size_t i = 0; i < counter_names_.size(); ++i) x.counters[i] += deltas[i];
    }
  };
  into(program_, blocked_to);
  if (in_mpi_window) into(window_, blocked_to);
  // Serial idling is outside every region: in the region's totals the
  // blocked part stays "other".
  if (construct) into(regions_[construct], blocked_to == kEffSerial ? kEffOther : blocked_to);
  if (!initial) {
    worker_thread_ += t.weight;
    worker_delay_ += delay + knock_on;
    if (b == kEffSerial) worker_serial_ += rest;
    if (blocked_to == kEffSerial) worker_serial_ += blocked;
  }
  if (b == kEffUseful && parallel) {
    auto it = instances_.find(parallel);
    if (it != instances_.end()) it->second.useful[thread] += rest;
  }
  if (deltas && !counter_names_.empty() && line != ~0u) {
    auto &v = line_counters_[line];
    v.resize(counter_names_.size(), 0.0);
    for (size_t i = 0; i < counter_names_.size(); ++i) v[i] += deltas[i];
  }
}

// POP's load balance, per construct: each thread's useful time summed over
// the construct's instances (sampling noise within one short instance
// cancels in the sums), mean / max over the team; the imbalance is what an
// even spread of the same work would save, team x max - sum, but never more
// than the time actually spent waiting there.
void Efficiency::finish() {
  std::map<uint64_t, std::pair<unsigned, std::unordered_map<uint32_t, double>>> by_construct;
  std::map<uint64_t, double> elapsed;
  for (const auto &kv : instances_) {
    const Instance &in = kv.second;
    auto &c = by_construct[in.construct];
    c.first = std::max(c.first, in.team);
    for (const auto &u : in.useful) c.second[u.first] += u.second;
    elapsed[in.construct] += in.team * in.elapsed;
  }
  for (const auto &kv : by_construct) {
    double sum = 0, max = 0;
    for (const auto &u : kv.second.second) {
      sum += u.second;
      max = std::max(max, u.second);
    }
    unsigned team = std::max<unsigned>(kv.second.first, unsigned(kv.second.second.size()));
    if (!team || max <= 0) continue;
    EffTotals &r = regions_[kv.first];
    double imbalance = std::min(team * max - sum, r.bucket[kEffWait]);
    for (EffTotals *t : {&program_, &r}) {
      t->imbalance += imbalance;
      t->balanced_max += team * max;
      t->useful_in_regions += sum;
      t->region_thread += elapsed[kv.first];
    }
  }
}

double Efficiency::region_imbalance_s(uint64_t construct) const {
  auto it = regions_.find(construct);
  return it == regions_.end() ? 0.0 : it->second.imbalance;
}

Metrics Efficiency::region_metrics(uint64_t construct) const {
  auto it = regions_.find(construct);
  return metrics_of(it == regions_.end() ? EffTotals() : it->second);
}

double Efficiency::serial_fraction() const {
  return worker_thread_ > worker_delay_ ? clamp01(worker_serial_ / (worker_thread_ - worker_delay_)) : 0.0;
}

namespace {
void add_totals(EffTotals &x, const EffTotals &o) {
  x.thread += o.thread;
  for (int b = 0; b < kEffBucketCount; ++b) x.bucket[b] += o.bucket[b];
  x.delay += o.delay;
  x.delay_waiting += o.delay_waiting;
  x.wait_cpu += o.wait_cpu;
  x.wait_known += o.wait_known;
  x.imbalance += o.imbalance;
  x.balanced_max += o.balanced_max;
  x.useful_in_regions += o.useful_in_regions;
  x.region_thread += o.region_thread;
  if (x.counters.size() < o.counters.size()) x.counters.resize(o.counters.size(), 0.0);
  for (size_t i = 0; i < o.counters.size(); ++i) x.counters[i] += o.counters[i];
}
}  // namespace

// After finish() on both: the load balance of a construct stays per process
// (each rank's team x max), summed like the constructs of one process.
void Efficiency::merge(const Efficiency &o, const std::map<uint64_t, uint64_t> &construct_of,
                       const std::vector<uint32_t> &line_of) {
  add_totals(program_, o.program_);
  add_totals(window_, o.window_);
  for (const auto &kv : o.regions_) {
    auto c = construct_of.find(kv.first);
    add_totals(regions_[c == construct_of.end() ? kv.first : c->second], kv.second);
  }
  worker_thread_ += o.worker_thread_;
  worker_serial_ += o.worker_serial_;
  worker_delay_ += o.worker_delay_;
  for (const auto &kv : o.line_counters_) {
    if (kv.first >= line_of.size()) continue;
    auto &v = line_counters_[line_of[kv.first]];
    if (v.size() < kv.second.size()) v.resize(kv.second.size(), 0.0);
    for (size_t i = 0; i < kv.second.size(); ++i) v[i] += kv.second[i];
  }
  if (counter_names_.empty()) counter_names_ = o.counter_names_;
  cpu_known_ = cpu_known_ || o.cpu_known_;
  for (const std::string &u : o.unavailable)
    if (std::find(unavailable.begin(), unavailable.end(), u) == unavailable.end()) unavailable.push_back(u);
}

Metrics metrics_of(const EffTotals &t) {
  Metrics m{};
  double T = t.thread;
  if (T <= 0) {
    m.parallel_efficiency = m.load_balance = 1;
    return m;
  }
  m.parallel_efficiency = clamp01(t.bucket[kEffUseful] / T);
  m.load_balance = t.balanced_max > 0 ? clamp01(t.useful_in_regions / t.balanced_max) : 1.0;
  m.imbalance = clamp01(t.imbalance / T);
  m.serialization = clamp01(t.bucket[kEffSerial] / T);
  m.runtime_overhead = clamp01(t.bucket[kEffRuntime] / T);
  m.synchronization = clamp01((t.bucket[kEffWait] - t.imbalance) / T);
  m.descheduled = clamp01(t.delay / T);
  m.wait_spinning = t.wait_known > 0 ? clamp01(t.wait_cpu / t.wait_known) : 0;
  m.mpi = clamp01(t.bucket[kEffMpi] / T);
  return m;
}

namespace {

void json_metrics(FILE *f, const EffTotals &t, bool cpu_known) {
  Metrics m = metrics_of(t);
  fprintf(f, "\"parallel_efficiency\":%.4f,\"load_balance\":%.4f,\"serialization\":%.4f,"
             "\"runtime_overhead\":%.4f,\"synchronization\":%.4f,\"imbalance\":%.4f,"
             "\"descheduled\":%.4f,",
          m.parallel_efficiency, m.load_balance, m.serialization, m.runtime_overhead,
          m.synchronization, m.imbalance, m.descheduled);
  fprintf(f, "\"mpi\":%.4f,\"mpi_s\":%.6f,", m.mpi, t.bucket[kEffMpi]);
  if (cpu_known)
    fprintf(f, "\"wait_spinning\":%.4f,", m.wait_spinning);
  fprintf(f, "\"thread_s\":%.6f,\"useful_s\":%.6f,\"runtime_s\":%.6f,\"waiting_s\":%.6f,"
             "\"serial_idle_s\":%.6f,\"other_s\":%.6f,\"descheduled_s\":%.6f,"
             "\"waiting_for_descheduled_s\":%.6f,\"imbalance_s\":%.6f",
          t.thread, t.bucket[kEffUseful], t.bucket[kEffRuntime], t.bucket[kEffWait],
          t.bucket[kEffSerial], t.bucket[kEffOther], t.delay, t.delay_waiting, t.imbalance);
}

void json_counters(FILE *f, const EffTotals &t, const std::vector<std::string> &names) {
  if (names.empty() || t.counters.empty()) return;
  fprintf(f, ",\"counters\":{");
  int cy = -1, in = -1;
  for (size_t i = 0; i < names.size(); ++i) {
    fprintf(f, "%s\"%s\":%.0f", i ? "," : "", names[i].c_str(), t.counters[i]);
    if (names[i] == "cycles") cy = int(i);
    if (names[i] == "instructions") in = int(i);
  }
  fprintf(f, "}");
  if (cy >= 0 && in >= 0 && t.counters[size_t(cy)] > 0)
    fprintf(f, ",\"ipc\":%.3f", t.counters[size_t(in)] / t.counters[size_t(cy)]);
}

}  // namespace

void Efficiency::json_program(FILE *f, const std::string &extra) const {
  fprintf(f, "{\"version\":2,\"model\":\"pop-additive\",\"cpu_clock\":%s,",
          cpu_known_ ? "true" : "false");
  json_metrics(f, program_, cpu_known_);
  fprintf(f, ",\"serial_fraction\":%.4f", serial_fraction());
  json_counters(f, program_, counter_names_);
  fprintf(f, ",\"counters_unavailable\":[");
  for (size_t i = 0; i < unavailable.size(); ++i) {
    std::string s;
    for (char c : unavailable[i]) {
      if (c == '"' || c == '\\') s += '\\';
      if (c >= 0 && c < 0x20) continue;
      s += c;
    }
    fprintf(f, "%s\"%s\"", i ? "," : "", s.c_str());
  }
  fprintf(f, "]%s}", extra.c_str());
}

void Efficiency::json_region(FILE *f, uint64_t construct) const {
  auto it = regions_.find(construct);
  EffTotals empty;
  const EffTotals &t = it == regions_.end() ? empty : it->second;
  fprintf(f, "{");
  json_metrics(f, t, cpu_known_);
  json_counters(f, t, counter_names_);
  fprintf(f, "}");
}

void Efficiency::print_text(FILE *out) const {
  Metrics m = metrics_of(program_);
  double sf = serial_fraction();
  fprintf(out, "\n  efficiency (POP model; shares of the thread time):\n");
  fprintf(out, "    parallel efficiency %.2f   load balance %.2f\n", m.parallel_efficiency,
          m.load_balance);
  fprintf(out, "    lost to: imbalance %.2f, serialization %.2f (serial fraction %.2f), runtime overhead "
               "%.2f, synchronization %.2f, descheduled %.2f\n",
          m.imbalance, m.serialization, sf, m.runtime_overhead, m.synchronization, m.descheduled);
  if (cpu_known_ && program_.wait_known > 0)
    fprintf(out, "    waiting: %.0f %% spinning (on a CPU), %.0f %% sleeping\n", 100 * m.wait_spinning,
            100 * (1 - m.wait_spinning));
  if (!cpu_known_)
    fprintf(out, "    (no CPU clock in the samples: descheduled time is not told from work)\n");
  if (m.descheduled > 0.05)
    fprintf(out, "  warning: threads were runnable but not running (descheduled) %.1f %% of the thread "
                 "time (or waiting for a thread that was): more threads than free cores (oversubscribed "
                 "or a busy machine); work, imbalance and waiting above exclude it\n",
            100 * m.descheduled);
  for (const std::string &u : unavailable)
    fprintf(out, "  counters: %s; the profile is made without it\n", u.c_str());
  if (!counter_names_.empty() && !program_.counters.empty()) {
    fprintf(out, "    counters:");
    int cy = -1, in = -1;
    for (size_t i = 0; i < counter_names_.size(); ++i) {
      fprintf(out, " %s %.0f", counter_names_[i].c_str(), program_.counters[i]);
      if (counter_names_[i] == "cycles") cy = int(i);
      if (counter_names_[i] == "instructions") in = int(i);
    }
    if (cy >= 0 && in >= 0 && program_.counters[size_t(cy)] > 0)
      fprintf(out, " (IPC %.2f)", program_.counters[size_t(in)] / program_.counters[size_t(cy)]);
    fprintf(out, "\n");
  }
}

}  // namespace kite_profile
