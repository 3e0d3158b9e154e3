// Efficiency metrics of a profile (docs/kite-profile.md, "Efficiency"):
// the POP Centre of Excellence's additive model for threads, fed one
// sample at a time by kite-profile-analyze. Each sample's thread time goes
// to one bucket (useful, runtime, waiting, serialization, other) after its
// descheduled part (runnable but not running) is taken out; a region's load
// imbalance comes from its instances' useful time per thread, not from
// waiting, so descheduling cannot pass for imbalance.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace kite_profile {

// kEffMpi: inside an MPI call (the calling thread), or waiting for a
// thread that is (an idle pool thread, a barrier): the MPI model's time,
// apart from the OpenMP losses (docs/kite-profile.md, "MPI").
enum EffBucket { kEffUseful, kEffRuntime, kEffWait, kEffSerial, kEffOther, kEffMpi, kEffBucketCount };

// What one sample spent, in seconds (weight = cpu + delay + the rest).
struct SampleTime {
  double weight = 0;
  double delay = 0;      // runnable but not running (descheduled)
  double cpu = -1;       // on a CPU; < 0 when unknown
  // Waiting only: the share of it spent waiting for a thread that was
  // itself descheduled at that moment (its culprits' own delay share).
  double culprit_delay_share = 0;
  // In a region: the part of the sample's period before the region began
  // (seconds), where a worker that starts the region within the period
  // was still idling.
  double before_region = 0;
};

struct EffTotals {
  double thread = 0, bucket[kEffBucketCount] = {}, delay = 0;
  double delay_waiting = 0;  // the part of delay waiting for descheduled threads
  double wait_cpu = 0, wait_known = 0;  // waiting with a known CPU share: spinning part
  double imbalance = 0;                 // sum over instances of (team x max - sum) useful
  double balanced_max = 0;              // sum over instances of team x max useful
  double useful_in_regions = 0;
  double region_thread = 0;             // sum over instances of team x elapsed
  std::vector<double> counters;         // deltas, sample_extras order after the clocks
};

// The metrics of one set of totals: efficiencies and shares of its thread
// time (docs/kite-profile.md).
struct Metrics {
  double parallel_efficiency, load_balance, serialization, runtime_overhead, synchronization,
      imbalance, descheduled, wait_spinning, mpi;
};
Metrics metrics_of(const EffTotals &t);

class Efficiency {
 public:
  void set_counters(const std::vector<std::string> &names) { counter_names_ = names; }
  // A parallel region instance (before its samples are added).
  void instance(uint64_t parallel, uint64_t construct, unsigned team, double elapsed_s);
  // One sample of thread `thread` (construct 0: outside any region);
  // initial: the thread is the program's initial thread.
  // in_mpi_window: the sample lies between MPI_Init and MPI_Finalize
  // (the MPI model's part of the run; every sample when there is no MPI).
  void add(uint32_t thread, bool initial, uint64_t parallel, uint64_t construct, EffBucket b,
           const SampleTime &t, const double *counter_deltas, uint32_t line,
           bool in_mpi_window = true);
  void finish();
  double region_imbalance_s(uint64_t construct) const;
  Metrics region_metrics(uint64_t construct) const;
  bool has_cpu() const { return cpu_known_; }
  const EffTotals &program() const { return program_; }
  const EffTotals &mpi_window() const { return window_; }
  double serial_fraction() const;
  // Adds another process's totals (an MPI job's rank): its constructs and
  // lines renamed into this one's by the maps given.
  void merge(const Efficiency &o, const std::map<uint64_t, uint64_t> &construct_of,
             const std::vector<uint32_t> &line_of);

  void print_text(FILE *out) const;
  // The program's "efficiency" object and a region's (by construct).
  // extra: more members (",\"name\":value...") at the object's end.
  void json_program(FILE *f, const std::string &extra = std::string()) const;
  void json_region(FILE *f, uint64_t construct) const;
  // "line_counters": per source line, the counters' deltas (by line id).
  template <class Name>
  void json_line_counters(FILE *f, Name name) const;
  std::vector<std::string> unavailable;  // "cycles: perf_event_open: ..."

 private:
  struct Instance {
    uint64_t construct = 0;
    unsigned team = 0;
    double elapsed = 0;
    std::unordered_map<uint32_t, double> useful;  // by thread
  };
  std::unordered_map<uint64_t, Instance> instances_;
  std::map<uint64_t, EffTotals> regions_;  // by construct
  EffTotals program_;
  EffTotals window_;  // the samples between MPI_Init and MPI_Finalize
  double worker_thread_ = 0, worker_serial_ = 0;  // non-initial threads: time, serialization
  double worker_delay_ = 0;
  std::map<uint32_t, std::vector<double>> line_counters_;
  std::unordered_map<uint32_t, double> cpu_carry_;  // by thread: see add()
  std::unordered_map<uint32_t, EffBucket> last_bucket_;  // by thread: see add()
  std::vector<std::string> counter_names_;
  bool cpu_known_ = false;
};


template <class Name>
void Efficiency::json_line_counters(FILE *f, Name name) const {
  fprintf(f, "[");
  const char *sep = "";
  for (const auto &kv : line_counters_) {
    fprintf(f, "%s\n{%s,\"counters\":{", sep, name(kv.first).c_str());
    for (size_t i = 0; i < counter_names_.size() && i < kv.second.size(); ++i)
      fprintf(f, "%s\"%s\":%.0f", i ? "," : "", counter_names_[i].c_str(), kv.second[i]);
    fprintf(f, "}");
    int cy = -1, in = -1;
    for (size_t i = 0; i < counter_names_.size(); ++i) {
      if (counter_names_[i] == "cycles") cy = int(i);
      if (counter_names_[i] == "instructions") in = int(i);
    }
    if (cy >= 0 && in >= 0 && kv.second[size_t(cy)] > 0)
      fprintf(f, ",\"ipc\":%.3f", kv.second[size_t(in)] / kv.second[size_t(cy)]);
    fprintf(f, "}");
    sep = ",";
  }
  fprintf(f, "]");
}

}  // namespace kite_profile
