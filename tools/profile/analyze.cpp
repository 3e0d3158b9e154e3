// kite-profile-analyze: reads what libkite-profile.so recorded (samples and
// events per thread, profile_format.h), stitches each sample's user frames
// under the call path that created its parallel region or task, shifts the
// blame for waiting to the code that caused it, and writes the report:
// text on stdout and the JSON document of docs/kite-profile.md.
//
//   kite-profile-analyze [--json FILE] [--rank R] [--top N] RAWDIR
//
// Blame (each waiting sample keeps where it was observed and where its
// blame went; the culprits' samples are the ones nearest in time, within
// five sampling periods):
//   lock      waiting for a lock, critical, atomic or ordered: the holder
//             of the wait id at that moment, what it was executing;
//   barrier   waiting at a barrier: the team's threads still working;
//   taskwait  waiting at a taskwait or taskgroup: the team's threads working;
//   serial    an idle pool thread: what the initial thread executes;
//   task_starvation  waiting at a barrier, taskwait or taskgroup of a
//             region whose tasks are still being created (between its first
//             and last task creation): the producers' code.
#include <omp-tools.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "efficiency.h"
#include "profile_format.h"
#include "raw_format.h"
#include "reader.h"
#include "symbols.h"
#include "text.h"
#include "views.h"

using namespace kite_trace;
using namespace kite_profile;

namespace {

bool debug;  // KITE_PROFILE_DEBUG=1: every sample on stderr

[[noreturn]] void die(const std::string &msg) {
  fprintf(stderr, "kite-profile-analyze: %s\n", msg.c_str());
  exit(1);
}


enum Category { kWork, kWaitLock, kWaitBarrier, kWaitTask, kIdle, kOther };

// States deprecated by OpenMP 5.1 that runtimes still report (LLVM's libomp
// 14 reports every implicit barrier as wait_barrier_implicit).
constexpr unsigned kStateWaitBarrier = 0x010, kStateWaitBarrierImplicit = 0x013;

// The wait at a parallel region's closing barrier (its imbalance).
bool region_end_wait(unsigned state) {
  return state == ompt_state_wait_barrier_implicit_parallel || state == kStateWaitBarrierImplicit;
}

Category category(unsigned state) {
  switch (state) {
    case ompt_state_work_serial:
    case ompt_state_work_parallel:
    case ompt_state_work_reduction: return kWork;
    case ompt_state_wait_mutex:
    case ompt_state_wait_lock:
    case ompt_state_wait_critical:
    case ompt_state_wait_atomic:
    case ompt_state_wait_ordered: return kWaitLock;
    case kStateWaitBarrier:
    case kStateWaitBarrierImplicit:
    case ompt_state_wait_barrier_implicit_parallel:
    case ompt_state_wait_barrier_implicit_workshare:
    case ompt_state_wait_barrier_explicit:
    case ompt_state_wait_barrier_implementation:
    case ompt_state_wait_barrier_teams: return kWaitBarrier;
    case ompt_state_wait_taskwait:
    case ompt_state_wait_taskgroup: return kWaitTask;
    case ompt_state_idle: return kIdle;
  }
  return kOther;
}

const char *wait_kind_name(unsigned state) {
  switch (state) {
    case ompt_state_wait_mutex: return "mutex";
    case ompt_state_wait_lock: return "lock";
    case ompt_state_wait_critical: return "critical";
    case ompt_state_wait_atomic: return "atomic";
    case ompt_state_wait_ordered: return "ordered";
    case kStateWaitBarrier: return "barrier";
    case kStateWaitBarrierImplicit: return "barrier_implicit";
    case ompt_state_wait_barrier_implicit_parallel: return "barrier_implicit_parallel";
    case ompt_state_wait_barrier_implicit_workshare: return "barrier_implicit_workshare";
    case ompt_state_wait_barrier_explicit: return "barrier_explicit";
    case ompt_state_wait_barrier_implementation: return "barrier_implementation";
    case ompt_state_wait_barrier_teams: return "barrier_teams";
    case ompt_state_wait_taskwait: return "taskwait";
    case ompt_state_wait_taskgroup: return "taskgroup";
    case ompt_state_idle: return "idle";
    case ompt_state_overhead: return "overhead";
  }
  return "other";
}

const char *const kBlameKinds[] = {"lock", "barrier", "taskwait", "serial", "task_starvation"};
enum BlameKind { kBlameLock, kBlameBarrier, kBlameTaskwait, kBlameSerial, kBlameStarvation,
                 kBlameCount };

struct Loc {
  std::string function, file;
  int line = 0;
  std::string signature;  // the full demangled signature, "" when it adds nothing
  bool system = false;  // a system library's or the vDSO's: not the user's code
};

bool system_module(const std::string &m) {
  return m.empty() || m[0] == '[' || m.rfind("/lib/", 0) == 0 || m.rfind("/lib64/", 0) == 0 ||
         m.rfind("/usr/lib/", 0) == 0 || m.rfind("/usr/lib64/", 0) == 0;
}

struct Sample {
  uint64_t time;
  uint64_t wait_id, parallel, task;
  uint32_t thread;  // position in threads_
  uint16_t state;
  uint8_t flags;
  double weight_s;
  uint32_t leaf_loc;      // innermost user frame (or ~0u)
  uint32_t node;          // call tree node of the stitched path
  uint32_t words_at, words_len;  // its frames in Analyzer::words_
  SampleTime clocks;      // its CPU and descheduled parts (sample_clocks.h)
  uint32_t extras_at = ~0u;  // its running totals in Analyzer::extras_
  uint32_t counters_at = ~0u;  // its counters' deltas in Analyzer::counter_deltas_
};

bool working(const Sample &s) { return category(s.state) == kWork; }

struct Region {  // one parallel region instance
  uint64_t parent = 0, codeptr = 0, begin = 0, end = 0;
  uint32_t thread = 0;
  unsigned team = 0;
  std::vector<uint64_t> frames;  // creating call path (raw words)
  bool initial_parent = false;
};

struct TaskMade {
  uint64_t codeptr = 0, parallel = 0;
};

struct Hold {
  uint64_t begin, end;
  uint32_t thread;
  uint64_t codeptr;
  unsigned kind;  // ompt_mutex_t
};

// Whether a thread waiting in `state` waits for a mutex of `kind`.
bool mutex_matches(unsigned state, unsigned kind) {
  switch (state) {
    case ompt_state_wait_lock:
      return kind == ompt_mutex_lock || kind == ompt_mutex_test_lock ||
             kind == ompt_mutex_nest_lock || kind == ompt_mutex_test_nest_lock;
    case ompt_state_wait_critical: return kind == ompt_mutex_critical;
    case ompt_state_wait_atomic: return kind == ompt_mutex_atomic;
    case ompt_state_wait_ordered: return kind == ompt_mutex_ordered;
  }
  return true;
}

struct Node {
  uint32_t loc;
  uint32_t parent;
  std::map<uint32_t, uint32_t> children;  // loc -> node
  double self_work = 0, self_blame = 0;
};

class Analyzer {
 public:
  Analyzer(std::string raw, std::string stem) : raw_(std::move(raw)), stem_(std::move(stem)) {}
  void load();
  void analyze();
  void print_text(FILE *out, int top) const;
  void write_json(const std::string &path) const;

 private:
  uint32_t intern_loc(uint64_t addr, bool is_pc);
  const std::vector<uint32_t> &intern_levels(uint64_t addr, bool is_pc);
  uint32_t child(uint32_t node, uint32_t loc);
  void path_of_region(uint64_t parallel, std::vector<uint32_t> &out, int depth);
  uint32_t stitch(const std::vector<uint64_t> &words, bool first_is_pc, uint64_t parallel,
                  uint64_t task, bool initial);
  template <class Ok>
  const Sample *nearest_if(uint32_t thread, uint64_t t, uint64_t span, Ok ok) const;
  void blame(BlameKind kind, const Sample &victim, const std::vector<const Sample *> &culprits);
  void json_tree(FILE *f, uint32_t node, bool blame_view, int depth) const;
  Views views() const;
  double node_total(uint32_t node, bool blame_view) const;
  // Efficiency (efficiency.h): the clocks' deltas, each sample's bucket.
  void sample_clocks(std::vector<Sample> &samples);
  void account(const Sample &s, EffBucket b);
  void account_wait(BlameKind kind, const Sample &victim, const std::vector<const Sample *> &culprits);
  void print_efficiency(FILE *out, int top) const;
  Efficiency eff_;
  std::vector<std::string> extra_names_;  // the meta's sample_extras
  std::vector<uint64_t> extras_;          // every sample's extra words
  std::vector<double> counter_deltas_;
  uint32_t initial_ = 0;

  std::string raw_, stem_;
  std::map<std::string, std::string> meta_;
  std::unique_ptr<Symbolizer> sym_;
  size_t window_ = 0;
  TimeMap clock_;
  uint64_t period_ns_ = 1000000;
  struct Thread {
    uint32_t index;
    uint64_t tid = 0;
    int type = 0;
    std::vector<Sample> samples;
  };
  std::vector<Thread> threads_;
  std::unordered_map<uint64_t, Region> regions_;
  std::unordered_map<uint64_t, TaskMade> tasks_;
  struct Producers {  // the task creations in one region instance
    uint64_t first = UINT64_MAX, last = 0;
    std::vector<uint32_t> threads;
  };
  std::unordered_map<uint64_t, Producers> producers_;  // by parallel id
  std::unordered_map<uint64_t, std::vector<Hold>> holds_;  // wait id -> holds, by begin
  std::vector<Loc> locs_;
  std::map<std::tuple<std::string, std::string, int>, uint32_t> loc_index_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> addr_loc_;
  std::vector<Node> nodes_;
  std::vector<uint64_t> words_;  // every sample's frames, one after another
  void region_paths();
  uint64_t start_ = 0, end_ = 0;

  // results
  struct RegionStats {
    uint64_t calls = 0;
    double elapsed = 0, work = 0, imbalance = 0;
    unsigned team = 0;
    std::map<std::string, double> wait;
  };
  std::map<uint64_t, RegionStats> region_stats_;  // by codeptr
  struct LineStats {
    double self = 0, wait = 0, blame = 0;
  };
  std::map<uint32_t, LineStats> lines_;
  std::map<std::pair<int, uint32_t>, double> blame_;  // (kind, loc) -> s
  double blame_kind_[kBlameCount] = {};
  double total_s_ = 0, work_s_ = 0, unattributed_s_ = 0;
  uint64_t samples_ = 0;
  static constexpr int kBins = 240;  // fine enough for the HTML timeline's zoom
  std::vector<std::vector<double>> timeline_;  // thread x bin x {work, wait, idle}
};

// The source-level levels at an address, outermost first: the function
// the code belongs to, then each function inlined into it (each at the line
// where it calls the next), as locations.
const std::vector<uint32_t> &Analyzer::intern_levels(uint64_t addr, bool is_pc) {
  uint64_t key = addr ^ (is_pc ? (uint64_t(1) << 63) : 0);
  auto it = addr_loc_.find(key);
  if (it != addr_loc_.end()) return it->second;
  // resolve() looks up ra - 1: give it pc + 1 for an interrupted pc.
  const SourceLocation &s = sym_->resolve(is_pc ? addr + 1 : addr);
  std::vector<SourceFrame> frames = s.frames;
  if (frames.empty()) {
    SourceFrame f;
    f.function = s.module.empty() ? "?" : s.module.substr(s.module.rfind('/') + 1);
    frames.push_back(f);
  }
  std::vector<uint32_t> ids;
  for (const SourceFrame &f : frames) {
    Loc l;
    l.function = f.function.empty() ? "?" : f.function;
    l.file = f.file;
    l.line = f.line;
    l.signature = f.signature;
    l.system = system_module(s.module);
    auto k = std::make_tuple(l.function, l.file, l.line);
    auto li = loc_index_.find(k);
    if (li != loc_index_.end()) {
      ids.push_back(li->second);
      continue;
    }
    uint32_t id = uint32_t(locs_.size());
    locs_.push_back(l);
    loc_index_.emplace(k, id);
    ids.push_back(id);
  }
  return addr_loc_.emplace(key, std::move(ids)).first->second;
}

// The innermost level at an address: its source line.
uint32_t Analyzer::intern_loc(uint64_t addr, bool is_pc) { return intern_levels(addr, is_pc).back(); }

uint32_t Analyzer::child(uint32_t node, uint32_t loc) {
  auto it = nodes_[node].children.find(loc);
  if (it != nodes_[node].children.end()) return it->second;
  uint32_t id = uint32_t(nodes_.size());
  nodes_.push_back(Node{loc, node, {}, 0, 0});
  nodes_[node].children.emplace(loc, id);
  return id;
}

bool boring_root(const Loc &l) {
  return l.function == "_start" || l.function.rfind("__libc_start", 0) == 0 ||
         l.function == "start_thread" || l.function == "clone" || l.function == "clone3";
}

// Root-first locations of the path that created a parallel region.
void Analyzer::path_of_region(uint64_t parallel, std::vector<uint32_t> &out, int depth) {
  auto it = regions_.find(parallel);
  if (it == regions_.end() || depth > 64) return;
  const Region &r = it->second;
  if (!r.initial_parent && r.parent) path_of_region(r.parent, out, depth + 1);
  // The encountering task's own part: up to its first cut, unless it is an
  // initial task (then its whole stack is the path).
  std::vector<uint64_t> mine;
  for (uint64_t w : r.frames) {
    if (w == 0) {
      if (!r.initial_parent) break;
      continue;
    }
    mine.push_back(w);
  }
  for (auto i = mine.rbegin(); i != mine.rend(); ++i)
    for (uint32_t loc : intern_levels(*i, false))
      if (!boring_root(locs_[loc])) out.push_back(loc);
}

uint32_t Analyzer::stitch(const std::vector<uint64_t> &words, bool first_is_pc, uint64_t parallel,
                          uint64_t task, bool initial) {
  std::vector<uint32_t> path;  // root first
  if (!initial && parallel) {
    path_of_region(parallel, path, 0);
    if (task) {
      auto t = tasks_.find(task);
      if (t != tasks_.end() && t->second.codeptr)
        for (uint32_t loc : intern_levels(t->second.codeptr, false)) path.push_back(loc);
    }
  }
  std::vector<size_t> own;  // positions in words, innermost first
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == 0) {
      if (!initial && parallel) break;  // the rest is below the region: its creating path
      continue;
    }
    own.push_back(i);
  }
  for (auto i = own.rbegin(); i != own.rend(); ++i)
    for (uint32_t loc : intern_levels(words[*i], first_is_pc && *i == 0))
      if (!boring_root(locs_[loc])) path.push_back(loc);
  uint32_t node = 0;
  for (uint32_t loc : path) node = child(node, loc);
  return node;
}

void Analyzer::load() {
  meta_ = read_meta(raw_ + "/" + stem_ + ".meta");
  window_ = strtoull(meta_["window_bytes"].c_str(), nullptr, 10);
  if (window_ < sizeof(Record)) die(stem_ + ".meta names no buffer size");
  clock_ = TimeMap::from_meta(meta_);
  period_ns_ = strtoull(meta_["period_ns"].c_str(), nullptr, 10);
  if (!period_ns_) period_ns_ = 1000000;
  sym_ = std::make_unique<Symbolizer>(raw_ + "/" + stem_ + ".maps");
  for (size_t at = 0; meta_.count("sample_extras") && at != std::string::npos;) {
    const std::string &v = meta_["sample_extras"];
    size_t comma = v.find(',', at);
    extra_names_.push_back(v.substr(at, comma == std::string::npos ? comma : comma - at));
    at = comma == std::string::npos ? comma : comma + 1;
  }
  for (const auto &kv : meta_)  // counter_unavailable.<name>=<why>
    if (kv.first.rfind("counter_unavailable.", 0) == 0) eff_.unavailable.push_back(kv.second);
  if (extra_names_.size() > 2)
    eff_.set_counters(std::vector<std::string>(extra_names_.begin() + 2, extra_names_.end()));
  nodes_.push_back(Node{~0u, ~0u, {}, 0, 0});

  std::string prefix = stem_ + ".thread-";
  DIR *d = opendir(raw_.c_str());
  if (!d) die("cannot read " + raw_);
  std::vector<uint32_t> indices;
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.compare(0, prefix.size(), prefix) != 0) continue;
    char *end = nullptr;
    unsigned long index = strtoul(n.c_str() + prefix.size(), &end, 10);
    if (end && !strcmp(end, ".raw")) indices.push_back(uint32_t(index));
  }
  closedir(d);
  std::sort(indices.begin(), indices.end());
  start_ = strtoull(meta_["start_ns"].c_str(), nullptr, 10);
  end_ = meta_.count("end_ns") ? strtoull(meta_["end_ns"].c_str(), nullptr, 10) : 0;

  // Events first (regions, tasks, holds), then samples (which stitch).
  for (uint32_t index : indices) {
    Thread th;
    th.index = index;
    std::string base = raw_ + "/" + prefix + std::to_string(index);
    RecordReader in(base + ".raw", window_, clock_);
    struct Open {
      uint64_t time, codeptr;
      unsigned kind;
    };
    std::map<uint64_t, std::vector<Open>> open_holds;
    while (const Record *r = in.next()) {
      end_ = std::max(end_, r->time);
      switch (r->kind) {
        case kHeader: th.tid = r->b; break;
        case kThreadBegin: th.type = r->sub; break;
        case kParallelBegin: {
          Region &reg = regions_[r->a];
          reg.parent = r->b;
          reg.codeptr = r->c;
          reg.begin = r->time;
          reg.thread = uint32_t(threads_.size());
          reg.initial_parent = r->sub & kSampleInitialTask;
          break;
        }
        case kParallelEnd: {
          auto it = regions_.find(r->a);
          if (it != regions_.end()) it->second.end = r->time;
          break;
        }
        case kImplicitTask:
          if (r->sub == ompt_scope_begin && r->a) {
            Region &reg = regions_[r->a];
            reg.team = std::max(reg.team, unsigned(r->u32));
          }
          break;
        case kTaskCreate:
          if (r->u32 & (ompt_task_explicit | ompt_task_target)) {
            tasks_[r->a] = TaskMade{r->c, r->d};
            Producers &p = producers_[r->d];
            p.first = std::min(p.first, r->time);
            p.last = std::max(p.last, r->time);
            uint32_t me = uint32_t(threads_.size());
            if (std::find(p.threads.begin(), p.threads.end(), me) == p.threads.end())
              p.threads.push_back(me);
          }
          break;
        case kMutexAcquired: open_holds[r->a].push_back({r->time, r->c, r->f16}); break;
        case kMutexReleased: {
          auto &v = open_holds[r->a];
          if (!v.empty()) {
            holds_[r->a].push_back(Hold{v.back().time, r->time, uint32_t(threads_.size()),
                                        v.back().codeptr, v.back().kind});
            v.pop_back();
          }
          break;
        }
        default: break;
      }
    }
    // Holds never released (the program ended holding them) last to the end.
    for (auto &kv : open_holds)
      for (auto &h : kv.second)
        holds_[kv.first].push_back(Hold{h.time, UINT64_MAX, uint32_t(threads_.size()), h.codeptr, h.kind});
    threads_.push_back(std::move(th));
  }
  for (auto &kv : holds_)
    std::sort(kv.second.begin(), kv.second.end(),
              [](const Hold &a, const Hold &b) { return a.begin < b.begin; });

  for (uint32_t ti = 0; ti < threads_.size(); ++ti) {
    Thread &th = threads_[ti];
    RecordReader in(raw_ + "/" + prefix + std::to_string(th.index) + ".samples.raw", window_, clock_);
    std::vector<uint64_t> words;
    while (const Record *r = in.next()) {
      if (r->kind != kSample) continue;
      Sample s;
      s.time = r->time;
      s.state = r->f16;
      s.wait_id = r->a;
      s.parallel = r->b;
      s.task = r->c;
      s.weight_s = double(r->d ? r->d : 1) * double(period_ns_) / 1e9;
      s.flags = r->sub;
      s.thread = ti;
      unsigned nw = r->u32, nx = sample_extras(r->sub);
      const uint64_t *w = in.payload(nw + nx);
      words.assign(w ? w : nullptr, w ? w + nw : nullptr);
      if (w && nx && nx == extra_names_.size()) {
        s.extras_at = uint32_t(extras_.size());
        extras_.insert(extras_.end(), w + nw, w + nw + nx);
      }
      s.flags &= 0x0f;
      bool first_is_pc = s.flags & kSampleFirstIsPc;
      // Frames of a system library (no source location) that the runtime
      // called (a cut follows them: sched_yield, futex) are the runtime's.
      auto cut = std::find(words.begin(), words.end(), uint64_t(0));
      if (cut != words.end() && cut != words.begin() &&
          std::all_of(words.begin(), cut, [&](uint64_t a) {
            return locs_[intern_loc(a, first_is_pc && a == words[0])].system;
          })) {
        words.erase(words.begin(), cut + 1);
        first_is_pc = false;
        s.flags |= kSampleLeafInRuntime;
      }
      // The sample's source line: the innermost frame of the user's code
      // (time inside a system library or the vDSO belongs to the user's
      // line that called it), else the innermost frame at all.
      s.leaf_loc = ~0u;
      for (size_t i = 0; i < words.size(); ++i) {
        if (!words[i]) continue;
        uint32_t loc = intern_loc(words[i], first_is_pc && i == 0);
        if (s.leaf_loc == ~0u) s.leaf_loc = loc;
        if (!locs_[loc].system) {
          s.leaf_loc = loc;
          break;
        }
      }
      if (!first_is_pc) s.flags &= uint8_t(~kSampleFirstIsPc);
      s.words_at = uint32_t(words_.size());
      s.words_len = uint32_t(words.size());
      words_.insert(words_.end(), words.begin(), words.end());
      s.node = 0;
      th.samples.push_back(s);
      end_ = std::max(end_, s.time);
      if (debug) {
        fprintf(stderr, "sample thread=%u t=%.6f state=%#x w=%.0f par=%#" PRIx64 " task=%#" PRIx64
                        " flags=%u:", th.index, double(s.time - start_) / 1e9, s.state,
                s.weight_s * 1e9 / double(period_ns_), s.parallel, s.task, s.flags);
        for (uint64_t w : words) {
          if (!w) {
            fprintf(stderr, " |");
            continue;
          }
          const SourceLocation &l = sym_->resolve(w);
          fprintf(stderr, " %s", l.function.empty() ? "?" : l.function.c_str());
        }
        fprintf(stderr, "\n");
      }
    }
  }
  region_paths();
  for (Thread &th : threads_) sample_clocks(th.samples);
  for (Thread &th : threads_)
    for (Sample &s : th.samples) {
      std::vector<uint64_t> w(words_.begin() + s.words_at, words_.begin() + s.words_at + s.words_len);
      s.node = stitch(w, s.flags & kSampleFirstIsPc, s.parallel, s.task, s.flags & kSampleInitialTask);
    }
}

// The call path that created each region instance, from the samples of
// the thread that began it, taken while the region ran: the frame that
// called the runtime's fork entry returns to the region's codeptr_ra, and
// from that frame on the stack is the encountering task's. (Unwinding at
// every parallel_begin instead would cost a microsecond per region.) An
// instance no sample fell in takes the path of another instance of the same
// construct; one with none at all is rooted at its construct alone.
void Analyzer::region_paths() {
  std::unordered_map<uint64_t, std::vector<uint64_t>> by_construct;
  std::vector<Region *> missing;
  for (auto &kv : regions_) {
    Region &r = kv.second;
    if (!r.codeptr || r.thread >= threads_.size()) continue;
    const auto &v = threads_[r.thread].samples;
    auto it = std::lower_bound(v.begin(), v.end(), r.begin,
                               [](const Sample &x, uint64_t t) { return x.time < t; });
    uint64_t end = r.end ? r.end : UINT64_MAX;
    bool found = false;
    for (; it != v.end() && it->time <= end && !found; ++it) {
      const uint64_t *w = words_.data() + it->words_at;
      for (uint32_t i = 0; i < it->words_len; ++i)
        if (w[i] == r.codeptr) {
          r.frames.assign(w + i, w + it->words_len);
          found = true;
          break;
        }
    }
    if (found)
      by_construct.emplace(r.codeptr, r.frames);
    else
      missing.push_back(&r);
  }
  for (Region *r : missing) {
    auto f = by_construct.find(r->codeptr);
    if (f != by_construct.end())
      r->frames = f->second;
    else
      r->frames.assign(1, r->codeptr);
  }
}

// The sample of `thread` nearest to t within `span` for which ok() holds:
// a thread descheduled for a while has no sample right at t, and its
// nearest one that fits (same region, working) still says what it did.
template <class Ok>
const Sample *Analyzer::nearest_if(uint32_t thread, uint64_t t, uint64_t span, Ok ok) const {
  const auto &v = threads_[thread].samples;
  auto it = std::lower_bound(v.begin(), v.end(), t,
                             [](const Sample &s, uint64_t x) { return s.time < x; });
  auto after = it;
  auto before = it;
  for (int steps = 0; steps < 4096; ++steps) {
    bool more = false;
    if (after != v.end() && after->time - t <= span) {
      more = true;
      if (ok(*after)) {
        // The one before may be nearer and fit too.
        for (auto b = before; b != v.begin();) {
          --b;
          if (t - b->time >= after->time - t) break;
          if (ok(*b)) return &*b;
        }
        return &*after;
      }
      ++after;
    }
    if (before != v.begin() && t - std::prev(before)->time <= span) {
      more = true;
      --before;
      if (ok(*before)) return &*before;
    }
    if (!more) break;
  }
  return nullptr;
}

void Analyzer::blame(BlameKind kind, const Sample &victim, const std::vector<const Sample *> &culprits) {
  account_wait(kind, victim, culprits);
  if (culprits.empty()) {
    unattributed_s_ += victim.weight_s;
    return;
  }
  double share = victim.weight_s / double(culprits.size());
  blame_kind_[kind] += victim.weight_s;
  for (const Sample *c : culprits) {
    if (c->leaf_loc != ~0u) {
      lines_[c->leaf_loc].blame += share;
      blame_[{kind, c->leaf_loc}] += share;
    }
    nodes_[c->node].self_blame += share;
  }
}

void Analyzer::analyze() {
  if (!start_) start_ = end_;
  uint64_t span = end_ > start_ ? end_ - start_ : 1;
  timeline_.assign(threads_.size(), std::vector<double>(kBins * 3, 0.0));
  // Region instance stats by construct.
  for (const auto &kv : regions_) {
    const Region &r = kv.second;
    RegionStats &st = region_stats_[r.codeptr];
    st.calls++;
    if (r.end > r.begin) st.elapsed += double(r.end - r.begin) / 1e9;
    st.team = std::max(st.team, r.team);
    eff_.instance(kv.first, r.codeptr, r.team, r.end > r.begin ? double(r.end - r.begin) / 1e9 : 0);
  }
  // The initial thread: the one of type initial (the first otherwise).
  uint32_t initial = 0;
  for (uint32_t i = 0; i < threads_.size(); ++i)
    if (threads_[i].type == ompt_thread_initial) {
      initial = i;
      break;
    }
  initial_ = initial;
  // The initial thread's outermost regions, by begin (their ends grow too).
  std::vector<std::pair<uint64_t, uint64_t>> initial_regions;
  for (const auto &kv : regions_)
    if (kv.second.thread == initial && kv.second.initial_parent && kv.second.end > kv.second.begin)
      initial_regions.emplace_back(kv.second.begin, kv.second.end);
  std::sort(initial_regions.begin(), initial_regions.end());
  for (uint32_t ti = 0; ti < threads_.size(); ++ti) {
    for (const Sample &s : threads_[ti].samples) {
      samples_++;
      total_s_ += s.weight_s;
      Category c = category(s.state);
      RegionStats *rs = nullptr;
      if (s.parallel) {
        auto reg = regions_.find(s.parallel);
        if (reg != regions_.end()) {
          // A pool thread that says it waits at the barrier of a region that
          // has ended is idle (LLVM's libomp 14 reports its idle workers as
          // wait_barrier_implicit in the last region they ran).
          if (c == kWaitBarrier && reg->second.end && reg->second.end < s.time)
            c = kIdle;
          else
            rs = &region_stats_[reg->second.codeptr];
        }
      }
      int bin = int(double(s.time - std::min(s.time, start_)) / double(span) * kBins);
      bin = std::min(std::max(bin, 0), kBins - 1);
      timeline_[ti][bin * 3 + (c == kWork ? 0 : c == kIdle ? 2 : 1)] += s.weight_s;
      if (c == kWork || c == kOther) {
        account(s, c == kWork && !(s.flags & kSampleLeafInRuntime) ? kEffUseful : kEffRuntime);
        work_s_ += s.weight_s;
        if (s.leaf_loc != ~0u) lines_[s.leaf_loc].self += s.weight_s;
        nodes_[s.node].self_work += s.weight_s;
        if (rs) rs->work += s.weight_s;
        continue;
      }
      // Where the waiting is observed: the user's call into the runtime, or,
      // when the runtime waits on its own (a worker at its region's closing
      // barrier), the region's construct.
      uint32_t observed = s.leaf_loc;
      if ((observed == ~0u || locs_[observed].system) && s.parallel) {
        auto reg = regions_.find(s.parallel);
        if (reg != regions_.end() && reg->second.codeptr)
          observed = intern_loc(reg->second.codeptr, false);
      }
      if (observed != ~0u && !locs_[observed].system) lines_[observed].wait += s.weight_s;
      if (rs) {
        rs->wait[wait_kind_name(s.state)] += s.weight_s;
        if (region_end_wait(s.state)) rs->imbalance += s.weight_s;
      }
      std::vector<const Sample *> culprits;
      if (c == kWaitLock) {
        // The hold the thread waits for: the one in progress (by another
        // thread) at that moment, or, between two holds (the lock is being
        // handed over), the one that ended last, within a few periods.
        const uint64_t recent = 5 * period_ns_;
        const Hold *best = nullptr;
        auto consider = [&](const Hold &h) {
          if (h.thread == ti || h.begin > s.time) return;
          if (h.end < s.time && s.time - h.end > recent) return;
          bool current = h.end >= s.time;
          bool best_current = best && best->end >= s.time;
          if (!best || (current && !best_current) || (current == best_current && h.end > best->end))
            best = &h;
        };
        auto h = holds_.find(s.wait_id);
        if (h != holds_.end()) {
          const auto &v = h->second;
          auto it = std::upper_bound(v.begin(), v.end(), s.time,
                                     [](uint64_t x, const Hold &hh) { return x < hh.begin; });
          while (it != v.begin()) {
            --it;
            consider(*it);
            if (s.time - it->begin > 10 * 1000000000ull) break;
          }
        }
        if (!best) {
          // A runtime whose state wait id differs from its mutex events'
          // (LLVM's libomp 14 for locks): the holds of a lock of the same
          // kind.
          for (const auto &kv : holds_)
            for (const Hold &hh : kv.second)
              if (mutex_matches(s.state, hh.kind)) consider(hh);
        }
        if (best) {
          // What the holder ran while it held the lock.
          uint64_t b = best->begin, e = best->end;
          if (const Sample *hs = nearest_if(best->thread, s.time, UINT64_MAX,
                                            [&](const Sample &x) { return x.time >= b && x.time <= e; }))
            culprits.push_back(hs);
        }
        blame(kBlameLock, s, culprits);
        continue;
      }
      if (c == kIdle) {
        // Idle while the initial thread runs one of its regions (a worker
        // not yet woken for it, or not in its team): no serial code runs
        // then, whatever the initial thread's nearest serial sample says.
        // Its culprit is then the initial thread's sample in that region
        // (the fork's cost: runtime), not its serial sample before it.
        const std::pair<uint64_t, uint64_t> *in_region = nullptr;
        auto r = std::upper_bound(initial_regions.begin(), initial_regions.end(), s.time,
                                  [](uint64_t t, const std::pair<uint64_t, uint64_t> &x) {
                                    return t < x.first;
                                  });
        if (r != initial_regions.begin() && std::prev(r)->second >= s.time) in_region = &*std::prev(r);
        if (ti != initial && in_region) {
          if (const Sample *p = nearest_if(initial, s.time, 5 * period_ns_, [&](const Sample &x) {
                return x.time >= in_region->first && x.time <= in_region->second;
              }))
            culprits.push_back(p);
        } else if (ti != initial) {
          if (const Sample *p = nearest_if(initial, s.time, 5 * period_ns_, [](const Sample &x) {
                return working(x) && (x.flags & kSampleInitialTask);  // serial code
              }))
            culprits.push_back(p);
        }
        blame(kBlameSerial, s, culprits);
        continue;
      }
      // Barrier, taskwait, taskgroup: while the region's tasks are still
      // being created (between its first and last task creation), the
      // thread starves and the producers are to blame; else the team's
      // threads still working.
      auto prod = producers_.find(s.parallel);
      if (s.parallel && prod != producers_.end() && prod->second.first <= s.time &&
          s.time <= prod->second.last) {
        uint64_t par = s.parallel;
        for (uint32_t o : prod->second.threads)
          if (o != ti)
            if (const Sample *p = nearest_if(o, s.time, 200 * period_ns_, [&](const Sample &x) {
                  return working(x) && x.parallel == par && !x.task;
                }))
              culprits.push_back(p);
      }
      if (!culprits.empty()) {
        blame(kBlameStarvation, s, culprits);
        continue;
      }
      for (uint32_t o = 0; o < threads_.size(); ++o) {
        if (o == ti) continue;
        // A thread of the same region instance still working: its nearest
        // working sample in that instance, however far (a descheduled thread
        // is still what the team waits for).
        uint64_t par = s.parallel;
        if (const Sample *p = nearest_if(o, s.time, 200 * period_ns_, [&](const Sample &x) {
              return working(x) && x.parallel == par;
            }))
          culprits.push_back(p);
      }
      blame(c == kWaitTask ? kBlameTaskwait : kBlameBarrier, s, culprits);
    }
  }
  // A region's imbalance: what its instances' useful time per thread says
  // (efficiency.cpp), not the waiting at its end, which also holds the
  // time a thread waits for a descheduled one.
  eff_.finish();
  for (auto &kv : region_stats_) kv.second.imbalance = eff_.region_imbalance_s(kv.first);
}

// Each sample's CPU time and descheduled time since the thread's previous
// sample, from the running totals it carries (sample_clocks.cpp), as
// shares of its weight. Without the run delay (no schedstat), a working
// sample's time off the CPU counts as descheduled: a working thread does
// not sleep.
void Analyzer::sample_clocks(std::vector<Sample> &samples) {
  const size_t nx = extra_names_.size();
  std::vector<uint64_t> prev;
  uint64_t prev_time = 0;
  for (Sample &s : samples) {
    s.clocks.weight = s.weight_s;
    if (s.extras_at == ~0u) {
      prev.clear();
      continue;
    }
    const uint64_t *cur = extras_.data() + s.extras_at;
    auto delta = [&](size_t i) {
      return prev.empty() || cur[i] == kNoValue || prev[i] == kNoValue || cur[i] < prev[i]
                 ? -1.0
                 : double(cur[i] - prev[i]);
    };
    // As shares of the time since the previous sample, applied to the
    // sample's weight: a signal delivered late in one period and early in
    // the next gives weights of one period each, while the clocks moved by
    // nearly two and by nearly nothing.
    double cpu = delta(0), delay = delta(1);
    double wall = prev.empty() ? 0 : double(s.time - prev_time);
    if (wall > 0 && cpu >= 0) {
      double cpu_share = std::min(1.0, cpu / wall);
      double delay_share = delay >= 0 ? std::min(1.0 - cpu_share, delay / wall)
                           : working(s) ? 1.0 - cpu_share : 0.0;
      s.clocks.cpu = s.weight_s * cpu_share;
      s.clocks.delay = s.weight_s * std::max(0.0, delay_share);
    }
    // The counters' deltas (0 for a thread's first sample: nothing before
    // it is known), in counter_deltas_ at the sample's counters_at.
    s.counters_at = uint32_t(counter_deltas_.size());
    for (size_t i = 2; i < nx; ++i) counter_deltas_.push_back(std::max(0.0, delta(i)));
    prev.assign(cur, cur + nx);
    prev_time = s.time;
  }
}

void Analyzer::account(const Sample &s, EffBucket b) {
  uint64_t construct = 0;
  SampleTime clocks = s.clocks;
  if (s.parallel) {
    auto reg = regions_.find(s.parallel);
    if (reg != regions_.end()) {
      if (b != kEffSerial) construct = reg->second.codeptr;
      // The part of the sample's period before its region began (the
      // period ends at the sample's time and lasts its weight).
      double before = (double(reg->second.begin) - (double(s.time) - s.weight_s * 1e9)) / 1e9;
      clocks.before_region = std::min(std::max(0.0, before), s.weight_s);
    }
  }
  const double *deltas = s.counters_at == ~0u || extra_names_.size() <= 2
                             ? nullptr
                             : counter_deltas_.data() + s.counters_at;
  eff_.add(s.thread, s.thread == initial_, s.parallel, construct, b, clocks, deltas, s.leaf_loc);
}

// Waiting for a thread that works in the user's code is waiting (lock,
// barrier, taskwait: synchronization or imbalance); waiting for a thread
// inside the runtime (forking, joining, scheduling), or at a barrier where
// no team thread works at all, is the runtime's overhead; a worker idle
// while the initial thread runs serial code is serialization.
void Analyzer::account_wait(BlameKind kind, const Sample &victim,
                            const std::vector<const Sample *> &culprits) {
  auto in_runtime = [](const Sample &x) {
    return (x.flags & kSampleLeafInRuntime) || category(x.state) != kWork;
  };
  bool all_runtime = std::all_of(culprits.begin(), culprits.end(),
                                 [&](const Sample *c) { return in_runtime(*c); });
  EffBucket b = kEffWait;
  if (kind == kBlameSerial) {
    const Sample *p = culprits.empty() ? nullptr : culprits[0];
    if (!p && victim.thread != initial_)
      p = nearest_if(initial_, victim.time, 200 * period_ns_, [](const Sample &) { return true; });
    if (victim.thread == initial_ || !p)
      b = kEffOther;
    else
      b = in_runtime(*p) || !(p->flags & kSampleInitialTask) ? kEffRuntime : kEffSerial;
  } else if (kind != kBlameLock && (culprits.empty() || all_runtime)) {
    b = kEffRuntime;
  }
  // Whether the culprits could run at that moment: the delay share of each
  // one's sample whose period covers the victim's (the first at or after
  // it), averaged.
  double share = 0;
  for (const Sample *c : culprits) {
    const auto &v = threads_[c->thread].samples;
    auto it = std::lower_bound(v.begin(), v.end(), victim.time,
                               [](const Sample &x, uint64_t t) { return x.time < t; });
    if (it == v.end()) it = std::prev(v.end());
    if (it->clocks.weight > 0) share += it->clocks.delay / it->clocks.weight;
  }
  if (!culprits.empty()) {
    Sample s = victim;
    s.clocks.culprit_delay_share = share / double(culprits.size());
    account(s, b);
    return;
  }
  account(victim, b);
}

void Analyzer::print_efficiency(FILE *out, int top) const {
  eff_.print_text(out);
  std::vector<std::pair<double, uint64_t>> regs;
  for (const auto &kv : region_stats_) regs.emplace_back(kv.second.elapsed, kv.first);
  std::sort(regs.rbegin(), regs.rend());
  if (regs.empty()) return;
  fprintf(out, "    by region:              parallel eff  load bal  imbalance  runtime  sync  descheduled\n");
  for (int i = 0; i < int(regs.size()) && i < top; ++i) {
    const SourceLocation &l = const_cast<Symbolizer &>(*sym_).resolve(regs[i].second);
    Metrics m = eff_.region_metrics(regs[i].second);
    fprintf(out, "    %-24s %12.2f %9.2f %10.2f %8.2f %5.2f %12.2f\n", l.short_label().c_str(),
            m.parallel_efficiency, m.load_balance, m.imbalance, m.runtime_overhead,
            m.synchronization, m.descheduled);
  }
}

// "function":"...", with "signature":"..." after it when the full
// signature says more (the naming rule of tools/common/symbols.h).
std::string name_fields(const std::string &function, const std::string &signature) {
  std::string s = "\"function\":\"" + json_escape(function) + "\"";
  if (!signature.empty()) s += ",\"signature\":\"" + json_escape(signature) + "\"";
  return s;
}

// What views.cpp derives its views from.
Views Analyzer::views() const {
  Views v;
  for (const Loc &l : locs_) v.locs.push_back(ViewLoc{l.function, l.signature, l.file, l.line, l.system});
  for (const Node &n : nodes_) v.nodes.push_back(ViewNode{n.loc, n.parent, n.self_work, n.self_blame});
  // Time in a system library (or the vDSO) is the user's line that called
  // it, as in the line tables: it moves up to the nearest user frame.
  for (size_t i = v.nodes.size(); i-- > 1;) {
    ViewNode &n = v.nodes[i];
    if (!locs_[n.loc].system || n.parent == ~0u || (!n.self_work && !n.self_blame)) continue;
    uint32_t up = n.parent;
    while (up != 0 && locs_[v.nodes[up].loc].system) up = v.nodes[up].parent;
    if (up == 0) continue;
    v.nodes[up].self_work += n.self_work;
    v.nodes[up].self_blame += n.self_blame;
    n.self_work = n.self_blame = 0;
  }
  for (const auto &kv : lines_)
    v.lines.push_back(ViewLine{kv.first, kv.second.self, kv.second.wait, kv.second.blame});
  v.thread_s = total_s_;
  return v;
}

double Analyzer::node_total(uint32_t node, bool blame_view) const {
  const Node &n = nodes_[node];
  double t = blame_view ? n.self_blame : n.self_work;
  for (const auto &kv : n.children) t += node_total(kv.second, blame_view);
  return t;
}

void Analyzer::json_tree(FILE *f, uint32_t node, bool blame_view, int depth) const {
  const Node &n = nodes_[node];
  double total = node_total(node, blame_view);
  const Loc *l = n.loc == ~0u ? nullptr : &locs_[n.loc];
  fprintf(f, "{%s,\"file\":\"%s\",\"line\":%d,\"self_s\":%.6f,\"total_s\":%.6f,"
             "\"children\":[",
          name_fields(l ? l->function : "all", l ? l->signature : "").c_str(), l ? json_escape(l->file).c_str() : "",
          l ? l->line : 0, blame_view ? n.self_blame : n.self_work, total);
  std::vector<std::pair<double, uint32_t>> kids;
  for (const auto &kv : n.children) {
    double t = node_total(kv.second, blame_view);
    if (t > 0) kids.emplace_back(t, kv.second);
  }
  std::sort(kids.rbegin(), kids.rend());
  const char *sep = "";
  for (const auto &k : kids) {
    fputs(sep, f);
    if (depth < 200) json_tree(f, k.second, blame_view, depth + 1);
    sep = ",";
  }
  fputs("]}", f);
}

std::string where(const Loc &l) {
  if (l.file.empty()) return l.function;
  std::string f = l.file.substr(l.file.rfind('/') + 1);
  return f + ":" + std::to_string(l.line) + " " + l.function;
}

void Analyzer::print_text(FILE *out, int top) const {
  double elapsed = end_ > start_ ? double(end_ - start_) / 1e9 : 0;
  fprintf(out, "kite profile: %s (pid %s) on %s\n", meta_.count("exe") ? meta_.at("exe").c_str() : "?",
          meta_.count("pid") ? meta_.at("pid").c_str() : "?",
          meta_.count("runtime") ? meta_.at("runtime").c_str() : "?");
  fprintf(out, "  %.3f s, %zu threads, %" PRIu64 " samples (%.0f Hz per thread), thread time %.3f s: "
               "work %.1f %%, waiting or idle %.1f %%\n",
          elapsed, threads_.size(), samples_, 1e9 / double(period_ns_), total_s_,
          total_s_ > 0 ? 100 * work_s_ / total_s_ : 0, total_s_ > 0 ? 100 * (1 - work_s_ / total_s_) : 0);
  if (!meta_.count("end_ns"))
    fprintf(out, "  the program ended without finalizing the tool: the profile covers what was sampled\n");
  std::vector<std::pair<double, uint64_t>> regs;
  for (const auto &kv : region_stats_) regs.emplace_back(kv.second.elapsed, kv.first);
  std::sort(regs.rbegin(), regs.rend());
  if (!regs.empty())
    fprintf(out, "\n  parallel regions        calls   wall s   work s   wait s  imbalance s  potential gain s\n");
  for (int i = 0; i < int(regs.size()) && i < top; ++i) {
    const RegionStats &st = region_stats_.at(regs[i].second);
    const SourceLocation &l = const_cast<Symbolizer &>(*sym_).resolve(regs[i].second);
    double wait = 0;
    for (const auto &w : st.wait) wait += w.second;
    std::string name = l.function;
    if (!l.inlined_at.empty()) name += " (inlined at " + l.inlined_at + ")";
    fprintf(out, "  %-22s %6" PRIu64 " %8.3f %8.3f %8.3f %12.3f %17.3f   %s\n",
            l.short_label().c_str(), st.calls, st.elapsed, st.work, wait, st.imbalance,
            st.team ? st.imbalance / st.team : 0.0, name.c_str());
  }
  auto list = [&](const char *title, double LineStats::*field) {
    std::vector<std::pair<double, uint32_t>> v;
    for (const auto &kv : lines_)
      if (kv.second.*field > 0) v.emplace_back(kv.second.*field, kv.first);
    std::sort(v.rbegin(), v.rend());
    if (v.empty()) return;
    fprintf(out, "\n  %s\n", title);
    for (int i = 0; i < int(v.size()) && i < top; ++i)
      fprintf(out, "    %8.3f s %5.1f %%  %s\n", v[i].first,
              total_s_ > 0 ? 100 * v[i].first / total_s_ : 0, where(locs_[v[i].second]).c_str());
  };
  list("source lines by own work:", &LineStats::self);
  print_call_paths(out, views(), top);
  list("source lines by blame received (the code others waited for):", &LineStats::blame);
  fprintf(out, "\n  waiting, by the cause it is blamed on:\n");
  for (int k = 0; k < kBlameCount; ++k) {
    if (blame_kind_[k] <= 0) continue;
    double best = 0;
    uint32_t best_loc = ~0u;
    for (const auto &kv : blame_)
      if (kv.first.first == k && kv.second > best) best = kv.second, best_loc = kv.first.second;
    fprintf(out, "    %-16s %8.3f s %5.1f %%  mostly %s\n", kBlameKinds[k], blame_kind_[k],
            total_s_ > 0 ? 100 * blame_kind_[k] / total_s_ : 0,
            best_loc == ~0u ? "?" : where(locs_[best_loc]).c_str());
  }
  if (unattributed_s_ > 0)
    fprintf(out, "    %-16s %8.3f s %5.1f %%  (no culprit sampled at the moment)\n", "unattributed",
            unattributed_s_, total_s_ > 0 ? 100 * unattributed_s_ / total_s_ : 0);
  print_efficiency(out, top);
}

void Analyzer::write_json(const std::string &path) const {
  FILE *f = fopen(path.c_str(), "we");
  if (!f) die("cannot write " + path);
  auto m = [&](const char *k) { return meta_.count(k) ? meta_.at(k) : std::string(); };
  double elapsed = end_ > start_ ? double(end_ - start_) / 1e9 : 0;
  fprintf(f, "{\"format\":\"kite-profile\",\"version\":1,\"program\":\"%s\",\"pid\":%s,\"rank\":\"%s\","
             "\"runtime\":\"%s\",\"finalized\":%s,\"elapsed_s\":%.6f,\"threads\":%zu,\"samples\":%" PRIu64
             ",\"rate_hz\":%.0f,\"thread_s\":%.6f,\"work_s\":%.6f,\"unattributed_s\":%.6f,\n",
          json_escape(m("exe")).c_str(), m("pid").empty() ? "0" : m("pid").c_str(),
          json_escape(m("rank")).c_str(), json_escape(m("runtime")).c_str(),
          meta_.count("end_ns") ? "true" : "false", elapsed, threads_.size(), samples_,
          1e9 / double(period_ns_), total_s_, work_s_, unattributed_s_);
  fprintf(f, "\"efficiency\":");
  eff_.json_program(f);
  fprintf(f, ",\n\"line_counters\":");
  eff_.json_line_counters(f, [&](uint32_t loc) {
    const Loc &l = locs_[loc];
    return "\"function\":\"" + json_escape(l.function) + "\",\"file\":\"" + json_escape(l.file) +
           "\",\"line\":" + std::to_string(l.line);
  });
  fprintf(f, ",\n\"regions\":[");
  std::vector<std::pair<double, uint64_t>> regs;
  for (const auto &kv : region_stats_) regs.emplace_back(kv.second.elapsed, kv.first);
  std::sort(regs.rbegin(), regs.rend());
  const char *sep = "";
  for (const auto &r : regs) {
    const RegionStats &st = region_stats_.at(r.second);
    const SourceLocation &l = const_cast<Symbolizer &>(*sym_).resolve(r.second);
    std::string names = name_fields(l.function, l.signature);
    if (!l.inlined_at.empty()) names += ",\"inlined_at\":\"" + json_escape(l.inlined_at) + "\"";
    fprintf(f, "%s\n{%s,\"file\":\"%s\",\"line\":%d,\"calls\":%" PRIu64
               ",\"elapsed_s\":%.6f,\"work_s\":%.6f,\"wait_s\":{",
            sep, names.c_str(), json_escape(l.file).c_str(), l.line, st.calls,
            st.elapsed, st.work);
    const char *s2 = "";
    for (const auto &w : st.wait) {
      fprintf(f, "%s\"%s\":%.6f", s2, w.first.c_str(), w.second);
      s2 = ",";
    }
    fprintf(f, "},\"imbalance_s\":%.6f,\"team\":%u,\"potential_gain_s\":%.6f,\"efficiency\":",
            st.imbalance, st.team, st.team ? st.imbalance / st.team : 0.0);
    eff_.json_region(f, r.second);
    fprintf(f, "}");
    sep = ",";
  }
  fprintf(f, "],\n\"lines\":[");
  sep = "";
  std::vector<std::pair<double, uint32_t>> lv;
  for (const auto &kv : lines_)
    lv.emplace_back(kv.second.self + kv.second.wait + kv.second.blame, kv.first);
  std::sort(lv.rbegin(), lv.rend());
  for (const auto &e : lv) {
    const Loc &l = locs_[e.second];
    const LineStats &st = lines_.at(e.second);
    fprintf(f, "%s\n{%s,\"file\":\"%s\",\"line\":%d,\"self_s\":%.6f,\"wait_s\":%.6f,"
               "\"blame_s\":%.6f}",
            sep, name_fields(l.function, l.signature).c_str(), json_escape(l.file).c_str(), l.line, st.self,
            st.wait, st.blame);
    sep = ",";
  }
  fprintf(f, "],\n\"blame\":[");
  sep = "";
  std::vector<std::pair<double, std::pair<int, uint32_t>>> bv;
  for (const auto &kv : blame_) bv.emplace_back(kv.second, kv.first);
  std::sort(bv.rbegin(), bv.rend());
  for (const auto &e : bv) {
    const Loc &l = locs_[e.second.second];
    fprintf(f, "%s\n{\"kind\":\"%s\",%s,\"file\":\"%s\",\"line\":%d,\"seconds\":%.6f}",
            sep, kBlameKinds[e.second.first], name_fields(l.function, l.signature).c_str(),
            json_escape(l.file).c_str(), l.line, e.first);
    sep = ",";
  }
  fprintf(f, "],\n\"blame_by_kind\":{");
  sep = "";
  for (int k = 0; k < kBlameCount; ++k) {
    fprintf(f, "%s\"%s\":%.6f", sep, kBlameKinds[k], blame_kind_[k]);
    sep = ",";
  }
  fprintf(f, "},\n\"timeline\":{\"bins\":%d,\"bin_s\":%.6f,\"threads\":[", kBins,
          elapsed / kBins);
  for (size_t t = 0; t < threads_.size(); ++t) {
    fprintf(f, "%s{\"thread\":%u,\"tid\":%" PRIu64 ",\"work\":[", t ? "," : "", threads_[t].index,
            threads_[t].tid);
    for (int b = 0; b < kBins; ++b) fprintf(f, "%s%.6f", b ? "," : "", timeline_[t][b * 3]);
    fprintf(f, "],\"wait\":[");
    for (int b = 0; b < kBins; ++b) fprintf(f, "%s%.6f", b ? "," : "", timeline_[t][b * 3 + 1]);
    fprintf(f, "],\"idle\":[");
    for (int b = 0; b < kBins; ++b) fprintf(f, "%s%.6f", b ? "," : "", timeline_[t][b * 3 + 2]);
    fprintf(f, "]}");
  }
  fprintf(f, "]},\n\"tree\":");
  json_tree(f, 0, false, 0);
  fprintf(f, ",\n\"blame_tree\":");
  json_tree(f, 0, true, 0);
  write_views_json(f, views());
  fprintf(f, "}\n");
  if (fclose(f) != 0) die("cannot write " + path);
}

[[noreturn]] void usage(int status) {
  fprintf(status ? stderr : stdout,
          "usage: kite-profile-analyze [--json FILE] [--rank R] [--top N] RAWDIR\n"
          "Reads what libkite-profile.so recorded into RAWDIR and prints the profile;\n"
          "--json writes the JSON document (docs/kite-profile.md). Exit status 3:\n"
          "RAWDIR holds no process's profile.\n");
  exit(status);
}

}  // namespace

int main(int argc, char **argv) {
  std::string json, rank, raw;
  bool rank_given = false;
  int top = 5;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") usage(0);
    if (a == "--json" && i + 1 < argc) json = argv[++i];
    else if (a == "--rank" && i + 1 < argc) rank = argv[++i], rank_given = true;
    else if (a == "--top" && i + 1 < argc) top = atoi(argv[++i]);
    else if (!a.empty() && a[0] == '-') usage(2);
    else if (raw.empty()) raw = a;
    else usage(2);
  }
  if (raw.empty()) usage(2);
  debug = getenv("KITE_PROFILE_DEBUG") && *getenv("KITE_PROFILE_DEBUG") == '1';
  std::vector<std::pair<uint64_t, std::string>> stems;
  DIR *d = opendir(raw.c_str());
  if (!d) die("cannot read " + raw);
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() < 6 || n.compare(n.size() - 5, 5, ".meta") != 0) continue;
    auto meta = read_meta(raw + "/" + n);
    if (rank_given && meta["rank"] != rank) continue;
    stems.emplace_back(strtoull(meta["start_ns"].c_str(), nullptr, 10), n.substr(0, n.size() - 5));
  }
  closedir(d);
  if (stems.empty()) return 3;
  std::sort(stems.begin(), stems.end());
  // One profile per process; the first process's goes to --json, the others
  // next to it with their stem.
  for (size_t i = 0; i < stems.size(); ++i) {
    Analyzer a(raw, stems[i].second);
    a.load();
    a.analyze();
    a.print_text(stdout, top);
    if (!json.empty()) {
      std::string path = json;
      if (i > 0) {
        size_t dot = path.rfind(".json");
        path = (dot == std::string::npos ? path : path.substr(0, dot)) + "-" + stems[i].second + ".json";
      }
      a.write_json(path);
      printf("  wrote %s\n", path.c_str());
    }
  }
  return 0;
}
