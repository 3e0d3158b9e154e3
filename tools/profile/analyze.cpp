// kite-profile-analyze: reads what libkite-profile.so recorded (samples and
// events per thread, profile_format.h), stitches each sample's user frames
// under the call path that created its parallel region or task, shifts the
// blame for waiting to the code that caused it, and writes the report:
// text on stdout and the JSON document of docs/kite-profile.md.
//
//   kite-profile-analyze [--json FILE] [--rank R] [--top N] RAWDIR
//
// The ranks of an MPI job in RAWDIR (meta mpi_world_rank= or rank=) make
// one report (Job): each rank analyzed as a process, its samples inside MPI
// calls taken as MPI time, the wait states found across ranks
// (mpi_waits.h) blamed on the culprit rank's samples, the hybrid POP
// model computed, then the ranks merged into rank 0's analysis, which
// writes the report (docs/kite-profile.md, "MPI jobs"). --rank R analyzes
// rank R alone.
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
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "efficiency.h"
#include "mpi_format.h"
#include "mpi_waits.h"
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

// The MPI wait states (mpi_waits.h) are kinds of blame too, after the
// OpenMP ones: a profile without MPI calls lists only the first five.
const char *const kBlameKinds[] = {"lock", "barrier", "taskwait", "serial", "task_starvation",
                                   "late_sender", "late_receiver", "wait_at_collective"};
enum BlameKind { kBlameLock, kBlameBarrier, kBlameTaskwait, kBlameSerial, kBlameStarvation,
                 kBlameLateSender, kBlameLateReceiver, kBlameCollective, kBlameCount };
constexpr int kOpenMpBlameKinds = kBlameLateSender;

struct Loc {
  std::string function, file;
  int line = 0;
  std::string signature;  // the full demangled signature, "" when it adds nothing
  bool system = false;  // a system library's or the vDSO's: not the user's code
};

// Kite's MPI wrappers (libkite-mpi-*.so, preloaded) count as the MPI
// library they wrap: time in them is the user's line that called MPI.
bool system_module(const std::string &m) {
  // A "frame" in one of Kite's own ring files is a word libunwind read
  // from a stack it could not unwind (seen in MPI libraries), not code.
  return m.empty() || m[0] == '[' || m.find("/libkite-mpi-") != std::string::npos ||
         m.find(".raw.tail") != std::string::npos || m.rfind("/lib/", 0) == 0 || m.rfind("/lib64/", 0) == 0 ||
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
  uint32_t mpi = 0;  // 1 + the index of the MPI call its thread was in (mpi_.calls), 0: none
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

class Job;

class Analyzer {
  friend class Job;

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
    int rank = -1;  // an MPI job's world rank (its timeline row says so)
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
    SourceLocation where;  // the construct (codeptr_ra) resolved
    struct PerRank {
      uint64_t calls = 0;
      double elapsed = 0, work = 0;
    };
    std::map<int, PerRank> ranks;  // an MPI job's: by world rank
  };
  std::map<uint64_t, RegionStats> region_stats_;  // by codeptr
  struct LineStats {
    double self = 0, wait = 0, blame = 0;
    double mpi = 0;  // sampled inside MPI calls made on this line
    std::map<int, double> rank_self;  // an MPI job's: own work by world rank
  };
  std::map<uint32_t, LineStats> lines_;
  std::map<std::pair<int, uint32_t>, double> blame_;  // (kind, loc) -> s
  double blame_kind_[kBlameCount] = {};
  double total_s_ = 0, work_s_ = 0, unattributed_s_ = 0;
  uint64_t samples_ = 0;
  static constexpr int kBins = 240;  // fine enough for the HTML timeline's zoom
  std::vector<std::vector<double>> timeline_;  // thread x bin x {work, wait, idle, mpi}

  // MPI (mpi_format.h): the calls this process recorded, local times.
  MpiRank mpi_;
  bool has_mpi_ = false;
  bool job_ = false;  // the report of a whole MPI job (Job merged the ranks into this one)
  int rank_ = -1;  // mpi_world_rank (or the launcher's rank), -1: none
  uint64_t win_start_ = 0, win_end_ = 0;  // the timeline's window when set (an MPI job's)
  // The MPI model's part of the run: from MPI_Init's return to
  // MPI_Finalize's call (the whole run without them).
  uint64_t mpi_lo_ = 0, mpi_hi_ = UINT64_MAX;
  struct MpiSiteStats {
    uint64_t calls = 0;
    double seconds = 0, sampled = 0;  // exact (enter to leave), and its threads' samples
    struct PerRank {
      uint64_t calls = 0;
      double seconds = 0, sampled = 0;
    };
    std::map<int, PerRank> ranks;
  };
  std::map<std::pair<unsigned, uint32_t>, MpiSiteStats> mpi_sites_;  // (call, site loc)
  void load_mpi_record(const Record &r, uint32_t thread, int64_t &open_call);
  // An MPI job: another rank's analysis added into this one; the samples
  // of this process that say what it did in [lo, hi] (local ns).
  void merge(Analyzer &o);
  uint32_t intern_name(const Loc &l);
  std::vector<const Sample *> samples_in(uint64_t lo, uint64_t hi, uint32_t thread) const;
  void charge_wait(BlameKind kind, const Sample &culprit, double seconds);
  // The job's parts of the reports (Job sets them).
  std::function<void(FILE *)> job_text_;
  std::function<std::string()> job_efficiency_;
  std::function<void(FILE *)> job_json_;
  void mark_mpi_samples();
  std::vector<std::vector<uint32_t>> mpi_by_thread_;  // each thread's calls, by entry
  uint64_t unfinished_calls_ = 0;  // calls the process never returned from
  bool in_mpi(uint32_t thread, uint64_t t) const;
  void mpi_call_stats();
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
  {
    const std::string &r = meta_.count("mpi_world_rank") ? meta_["mpi_world_rank"] : meta_["rank"];
    char *end = nullptr;
    long v = strtol(r.c_str(), &end, 10);
    rank_ = !r.empty() && end && !*end && v >= 0 ? int(v) : -1;
  }
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
    th.rank = rank_;
    std::string base = raw_ + "/" + prefix + std::to_string(index);
    RecordReader in(base + ".raw", window_, clock_);
    struct Open {
      uint64_t time, codeptr;
      unsigned kind;
    };
    std::map<uint64_t, std::vector<Open>> open_holds;
    int64_t open_call = -1;
    while (const Record *r = in.next()) {
      end_ = std::max(end_, r->time);
      if (r->kind >= kMpiEnter && r->kind <= kMpiCollective) {
        load_mpi_record(*r, uint32_t(threads_.size()), open_call);
        continue;
      }
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
  mark_mpi_samples();
  for (Thread &th : threads_) sample_clocks(th.samples);
  for (Thread &th : threads_)
    for (Sample &s : th.samples) {
      std::vector<uint64_t> w(words_.begin() + s.words_at, words_.begin() + s.words_at + s.words_len);
      s.node = stitch(w, s.flags & kSampleFirstIsPc, s.parallel, s.task, s.flags & kSampleInitialTask);
    }
}

// One MPI record of a thread's event stream (mpi_format.h); open_call is
// the thread's call in progress (-1: none).
void Analyzer::load_mpi_record(const Record &r, uint32_t thread, int64_t &open_call) {
  has_mpi_ = true;
  if (r.kind == kMpiEnter) {
    MpiCall c;
    c.call = r.sub;
    c.thread = thread;
    c.enter = r.time;
    c.site = r.c;
    open_call = int64_t(mpi_.calls.size());
    mpi_.calls.push_back(c);
    return;
  }
  if (open_call < 0) {
    mpi_.bad_records++;
    return;
  }
  uint32_t call = uint32_t(open_call);
  switch (r.kind) {
    case kMpiLeave:
      mpi_.calls[call].leave = r.time;
      open_call = -1;
      break;
    case kMpiSend:
    case kMpiRecvRequest:
    case kMpiRecv: {
      MpiMessage m;
      m.call = call;
      m.comm = r.a;
      m.peer = r.u32;
      m.tag = r.b;
      m.bytes = r.kind == kMpiRecvRequest ? 0 : r.d;
      m.request = r.c;
      m.time = r.time;
      (r.kind == kMpiSend ? mpi_.sends : r.kind == kMpiRecv ? mpi_.recvs : mpi_.posts).push_back(m);
      break;
    }
    case kMpiSendComplete: mpi_.send_dones.push_back(MpiSendDone{call, r.a, r.time}); break;
    case kMpiCollective: {
      MpiCollective c;
      c.call = call;
      c.op = r.sub;
      c.comm = r.a;
      c.root = r.u32;
      c.sent = r.b;
      c.received = r.d;
      mpi_.collectives.push_back(c);
      break;
    }
    default: break;
  }
}

// Each sample taken while its thread was inside an MPI call is MPI time
// (its leaf is the MPI library, charged to the line that called it): the
// call's index goes into the sample. A call never left (the program ended
// in it) lasts to the end.
void Analyzer::mark_mpi_samples() {
  if (!has_mpi_) return;
  std::vector<std::vector<uint32_t>> &by_thread = mpi_by_thread_;
  by_thread.assign(threads_.size(), {});
  for (uint32_t i = 0; i < mpi_.calls.size(); ++i) {
    MpiCall &c = mpi_.calls[i];
    if (!c.leave || c.leave < c.enter) {
      c.leave = std::max(end_, c.enter);
      unfinished_calls_++;
    }
    if (c.thread < by_thread.size()) by_thread[c.thread].push_back(i);
    if (c.call == kite_mpi::kInit || c.call == kite_mpi::kInit_thread) mpi_lo_ = std::max(mpi_lo_, c.leave);
    if (c.call == kite_mpi::kFinalize) mpi_hi_ = std::min(mpi_hi_, c.enter);
  }
  if (mpi_hi_ < mpi_lo_) mpi_lo_ = 0, mpi_hi_ = UINT64_MAX;
  for (uint32_t t = 0; t < threads_.size(); ++t) {
    auto &calls = by_thread[t];
    std::sort(calls.begin(), calls.end(),
              [&](uint32_t a, uint32_t b) { return mpi_.calls[a].enter < mpi_.calls[b].enter; });
    size_t k = 0;
    for (Sample &s : threads_[t].samples) {
      while (k < calls.size() && mpi_.calls[calls[k]].leave < s.time) ++k;
      if (k < calls.size() && mpi_.calls[calls[k]].enter <= s.time) s.mpi = calls[k] + 1;
    }
  }
}

// Whether `thread` was inside an MPI call at t.
bool Analyzer::in_mpi(uint32_t thread, uint64_t t) const {
  if (thread >= mpi_by_thread_.size()) return false;
  const auto &v = mpi_by_thread_[thread];
  auto it = std::upper_bound(v.begin(), v.end(), t,
                             [&](uint64_t x, uint32_t c) { return x < mpi_.calls[c].enter; });
  return it != v.begin() && mpi_.calls[*std::prev(it)].leave >= t;
}

// Time in MPI by call and call site: each call's exact time (enter to
// leave) and the samples its thread took in it.
void Analyzer::mpi_call_stats() {
  std::vector<std::pair<unsigned, uint32_t>> key_of(mpi_.calls.size());
  for (size_t i = 0; i < mpi_.calls.size(); ++i) {
    const MpiCall &c = mpi_.calls[i];
    uint32_t site = c.site ? intern_loc(c.site, false) : ~0u;
    key_of[i] = {c.call, site};
    MpiSiteStats &st = mpi_sites_[key_of[i]];
    double sec = double(c.leave - c.enter) / 1e9;
    st.calls++;
    st.seconds += sec;
    st.ranks[rank_].calls++;
    st.ranks[rank_].seconds += sec;
  }
  for (const Thread &th : threads_)
    for (const Sample &s : th.samples)
      if (s.mpi) {
        MpiSiteStats &st = mpi_sites_[key_of[s.mpi - 1]];
        st.sampled += s.weight_s;
        st.ranks[rank_].sampled += s.weight_s;
        uint32_t site = key_of[s.mpi - 1].second;
        if (site != ~0u) lines_[site].mpi += s.weight_s;
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
  // The timeline's window: the process's run, or the job's when set.
  uint64_t tl_start = win_end_ > win_start_ ? win_start_ : start_;
  uint64_t tl_end = win_end_ > win_start_ ? win_end_ : end_;
  uint64_t span = tl_end > tl_start ? tl_end - tl_start : 1;
  timeline_.assign(threads_.size(), std::vector<double>(kBins * 4, 0.0));
  // Region instance stats by construct.
  for (const auto &kv : regions_) {
    const Region &r = kv.second;
    RegionStats &st = region_stats_[r.codeptr];
    st.calls++;
    if (r.end > r.begin) st.elapsed += double(r.end - r.begin) / 1e9;
    st.ranks[rank_].calls++;
    if (r.end > r.begin) st.ranks[rank_].elapsed += double(r.end - r.begin) / 1e9;
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
      int bin = int(double(s.time - std::min(s.time, tl_start)) / double(span) * kBins);
      bin = std::min(std::max(bin, 0), kBins - 1);
      if (s.mpi) {
        // Inside an MPI call: neither work nor OpenMP waiting (mpi_call_stats
        // charges it to the call and its site).
        timeline_[ti][bin * 4 + 3] += s.weight_s;
        account(s, kEffMpi);
        continue;
      }
      timeline_[ti][bin * 4 + (c == kWork ? 0 : c == kIdle ? 2 : 1)] += s.weight_s;
      if (c == kWork || c == kOther) {
        account(s, c == kWork && !(s.flags & kSampleLeafInRuntime) ? kEffUseful : kEffRuntime);
        work_s_ += s.weight_s;
        if (s.leaf_loc != ~0u) {
          lines_[s.leaf_loc].self += s.weight_s;
          if (rank_ >= 0) lines_[s.leaf_loc].rank_self[rank_] += s.weight_s;
        }
        nodes_[s.node].self_work += s.weight_s;
        if (rs) {
          rs->work += s.weight_s;
          rs->ranks[rank_].work += s.weight_s;
        }
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
      if (c == kIdle && ti != initial && in_mpi(initial, s.time)) {
        // Idle while the initial thread is in an MPI call: MPI time, already
        // reported at that call's site; no OpenMP blame.
        account(s, kEffMpi);
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
  for (auto &kv : region_stats_) {
    kv.second.imbalance = eff_.region_imbalance_s(kv.first);
    kv.second.where = sym_->resolve(kv.first);
  }
  if (has_mpi_) mpi_call_stats();
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
  eff_.add(s.thread, s.thread == initial_, s.parallel, construct, b, clocks, deltas, s.leaf_loc,
           s.time >= mpi_lo_ && s.time <= mpi_hi_);
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
  // Waiting for threads that are all inside MPI calls (idle workers while
  // the initial thread receives, a team at a barrier while one thread
  // sends) is the MPI model's time.
  // A pool thread idle while the initial thread is in an MPI call is too,
  // whether or not the initial thread was sampled then.
  if ((!culprits.empty() &&
       std::all_of(culprits.begin(), culprits.end(), [](const Sample *c) { return c->mpi != 0; })) ||
      (kind == kBlameSerial && victim.thread != initial_ && in_mpi(initial_, victim.time))) {
    account(victim, kEffMpi);
    return;
  }
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
    const SourceLocation &l = region_stats_.at(regs[i].second).where;
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
  if (job_)
    fprintf(out, "kite profile: %s, MPI job (rank 0: pid %s) on %s\n",
            meta_.count("exe") ? meta_.at("exe").c_str() : "?", meta_.count("pid") ? meta_.at("pid").c_str() : "?",
            meta_.count("runtime") ? meta_.at("runtime").c_str() : "?");
  else
    fprintf(out, "kite profile: %s (pid %s) on %s\n", meta_.count("exe") ? meta_.at("exe").c_str() : "?",
            meta_.count("pid") ? meta_.at("pid").c_str() : "?",
            meta_.count("runtime") ? meta_.at("runtime").c_str() : "?");
  fprintf(out, "  %.3f s, %zu threads, %" PRIu64 " samples (%.0f Hz per thread), thread time %.3f s: "
               "work %.1f %%, waiting or idle %.1f %%\n",
          elapsed, threads_.size(), samples_, 1e9 / double(period_ns_), total_s_,
          total_s_ > 0 ? 100 * work_s_ / total_s_ : 0, total_s_ > 0 ? 100 * (1 - work_s_ / total_s_) : 0);
  if (!meta_.count("end_ns"))
    fprintf(out, "  the program ended without finalizing the tool: the profile covers what was sampled\n");
  if (job_text_) job_text_(out);
  std::vector<std::pair<double, uint64_t>> regs;
  for (const auto &kv : region_stats_) regs.emplace_back(kv.second.elapsed, kv.first);
  std::sort(regs.rbegin(), regs.rend());
  if (!regs.empty())
    fprintf(out, "\n  parallel regions        calls   wall s   work s   wait s  imbalance s  potential gain s\n");
  for (int i = 0; i < int(regs.size()) && i < top; ++i) {
    const RegionStats &st = region_stats_.at(regs[i].second);
    const SourceLocation &l = st.where;
    double wait = 0;
    for (const auto &w : st.wait) wait += w.second;
    std::string name = l.function;
    if (!l.inlined_at.empty()) name += " (inlined at " + l.inlined_at + ")";
    fprintf(out, "  %-22s %6" PRIu64 " %8.3f %8.3f %8.3f %12.3f %17.3f   %s\n",
            l.short_label().c_str(), st.calls, st.elapsed, st.work, wait, st.imbalance,
            st.team ? st.imbalance / st.team : 0.0, name.c_str());
    if (job_ && st.ranks.size() > 1) {  // the region's ranks: wall and work seconds
      std::string by;
      for (const auto &pr : st.ranks) {
        char b[96];
        snprintf(b, sizeof b, "%s%d: %.3f/%.3f", by.empty() ? "" : ", ", pr.first, pr.second.elapsed,
                 pr.second.work);
        by += b;
      }
      fprintf(out, "  %-22s by rank (wall/work s): %s\n", "", by.c_str());
    }
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
    fprintf(out, "    %-*s %8.3f s %5.1f %%  mostly %s\n", has_mpi_ ? 18 : 16, kBlameKinds[k], blame_kind_[k],
            total_s_ > 0 ? 100 * blame_kind_[k] / total_s_ : 0,
            best_loc == ~0u ? "?" : where(locs_[best_loc]).c_str());
  }
  if (unattributed_s_ > 0)
    fprintf(out, "    %-*s %8.3f s %5.1f %%  (no culprit sampled at the moment)\n", has_mpi_ ? 18 : 16,
            "unattributed",
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
          json_escape(job_ ? std::string() : m("rank")).c_str(), json_escape(m("runtime")).c_str(),
          meta_.count("end_ns") ? "true" : "false", elapsed, threads_.size(), samples_,
          1e9 / double(period_ns_), total_s_, work_s_, unattributed_s_);
  fprintf(f, "\"efficiency\":");
  eff_.json_program(f, job_efficiency_ ? job_efficiency_() : std::string());
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
    const SourceLocation &l = st.where;
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
    if (job_) {
      fprintf(f, ",\"ranks\":[");
      const char *s3 = "";
      for (const auto &pr : st.ranks) {
        fprintf(f, "%s{\"rank\":%d,\"calls\":%" PRIu64 ",\"elapsed_s\":%.6f,\"work_s\":%.6f}", s3,
                pr.first, pr.second.calls, pr.second.elapsed, pr.second.work);
        s3 = ",";
      }
      fprintf(f, "]");
    }
    fprintf(f, "}");
    sep = ",";
  }
  fprintf(f, "],\n\"lines\":[");
  sep = "";
  std::vector<std::pair<double, uint32_t>> lv;
  for (const auto &kv : lines_)
    lv.emplace_back(kv.second.self + kv.second.wait + kv.second.blame + kv.second.mpi, kv.first);
  std::sort(lv.rbegin(), lv.rend());
  for (const auto &e : lv) {
    const Loc &l = locs_[e.second];
    const LineStats &st = lines_.at(e.second);
    fprintf(f, "%s\n{%s,\"file\":\"%s\",\"line\":%d,\"self_s\":%.6f,\"wait_s\":%.6f,"
               "\"blame_s\":%.6f",
            sep, name_fields(l.function, l.signature).c_str(), json_escape(l.file).c_str(), l.line, st.self,
            st.wait, st.blame);
    if (has_mpi_) fprintf(f, ",\"mpi_s\":%.6f", st.mpi);
    if (job_) {
      fprintf(f, ",\"rank_self_s\":{");
      const char *s3 = "";
      for (const auto &pr : st.rank_self) {
        fprintf(f, "%s\"%d\":%.6f", s3, pr.first, pr.second);
        s3 = ",";
      }
      fprintf(f, "}");
    }
    fprintf(f, "}");
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
  for (int k = 0; k < (has_mpi_ ? int(kBlameCount) : kOpenMpBlameKinds); ++k) {
    fprintf(f, "%s\"%s\":%.6f", sep, kBlameKinds[k], blame_kind_[k]);
    sep = ",";
  }
  fprintf(f, "},\n\"timeline\":{\"bins\":%d,\"bin_s\":%.6f,\"threads\":[", kBins,
          elapsed / kBins);
  for (size_t t = 0; t < threads_.size(); ++t) {
    fprintf(f, "%s{\"thread\":%u,\"tid\":%" PRIu64 ",", t ? "," : "", threads_[t].index,
            threads_[t].tid);
    if (job_) fprintf(f, "\"rank\":%d,", threads_[t].rank);
    fprintf(f, "\"work\":[");
    for (int b = 0; b < kBins; ++b) fprintf(f, "%s%.6f", b ? "," : "", timeline_[t][b * 4]);
    fprintf(f, "],\"wait\":[");
    for (int b = 0; b < kBins; ++b) fprintf(f, "%s%.6f", b ? "," : "", timeline_[t][b * 4 + 1]);
    fprintf(f, "],\"idle\":[");
    for (int b = 0; b < kBins; ++b) fprintf(f, "%s%.6f", b ? "," : "", timeline_[t][b * 4 + 2]);
    if (has_mpi_) {
      fprintf(f, "],\"mpi\":[");
      for (int b = 0; b < kBins; ++b) fprintf(f, "%s%.6f", b ? "," : "", timeline_[t][b * 4 + 3]);
    }
    fprintf(f, "]}");
  }
  fprintf(f, "]},\n\"tree\":");
  json_tree(f, 0, false, 0);
  fprintf(f, ",\n\"blame_tree\":");
  json_tree(f, 0, true, 0);
  write_views_json(f, views());
  if (job_json_) job_json_(f);
  fprintf(f, "}\n");
  if (fclose(f) != 0) die("cannot write " + path);
}

// A location of another analyzer's table, by its (function, file, line).
uint32_t Analyzer::intern_name(const Loc &l) {
  auto k = std::make_tuple(l.function, l.file, l.line);
  auto it = loc_index_.find(k);
  if (it != loc_index_.end()) return it->second;
  uint32_t id = uint32_t(locs_.size());
  locs_.push_back(l);
  loc_index_.emplace(k, id);
  return id;
}

void Analyzer::merge(Analyzer &o) {
  std::vector<uint32_t> loc_of(o.locs_.size());
  for (size_t i = 0; i < o.locs_.size(); ++i) loc_of[i] = intern_name(o.locs_[i]);
  std::vector<uint32_t> node_of(o.nodes_.size(), 0);
  // A child is made after its parent: one pass in order.
  for (size_t i = 1; i < o.nodes_.size(); ++i) {
    const Node &n = o.nodes_[i];
    node_of[i] = child(node_of[n.parent], loc_of[n.loc]);
    nodes_[node_of[i]].self_work += n.self_work;
    nodes_[node_of[i]].self_blame += n.self_blame;
  }
  nodes_[0].self_work += o.nodes_[0].self_work;
  nodes_[0].self_blame += o.nodes_[0].self_blame;
  for (const auto &kv : o.lines_) {
    LineStats &l = lines_[loc_of[kv.first]];
    l.self += kv.second.self;
    l.wait += kv.second.wait;
    l.blame += kv.second.blame;
    l.mpi += kv.second.mpi;
    for (const auto &r : kv.second.rank_self) l.rank_self[r.first] += r.second;
  }
  for (const auto &kv : o.blame_) blame_[{kv.first.first, loc_of[kv.first.second]}] += kv.second;
  for (int k = 0; k < kBlameCount; ++k) blame_kind_[k] += o.blame_kind_[k];
  total_s_ += o.total_s_;
  work_s_ += o.work_s_;
  unattributed_s_ += o.unattributed_s_;
  samples_ += o.samples_;
  // Regions: one construct (function, file, line) over the ranks.
  std::map<uint64_t, uint64_t> construct_of;
  for (auto &kv : o.region_stats_) {
    const SourceLocation &w = kv.second.where;
    uint64_t key = 0;
    for (const auto &mine : region_stats_)
      if (mine.second.where.function == w.function && mine.second.where.file == w.file &&
          mine.second.where.line == w.line && mine.second.where.inlined_at == w.inlined_at) {
        key = mine.first;
        break;
      }
    if (!key) key = (uint64_t(1) << 63) | region_stats_.size();
    construct_of[kv.first] = key;
    RegionStats &st = region_stats_[key];
    const RegionStats &os = kv.second;
    if (!st.calls && st.where.function.empty()) st.where = os.where;
    st.calls += os.calls;
    st.elapsed += os.elapsed;
    st.work += os.work;
    st.imbalance += os.imbalance;
    st.team = std::max(st.team, os.team);
    for (const auto &w2 : os.wait) st.wait[w2.first] += w2.second;
    for (const auto &r : os.ranks) {
      auto &pr = st.ranks[r.first];
      pr.calls += r.second.calls;
      pr.elapsed += r.second.elapsed;
      pr.work += r.second.work;
    }
  }
  eff_.merge(o.eff_, construct_of, loc_of);
  for (auto &kv : o.mpi_sites_) {
    uint32_t site = kv.first.second == ~0u ? ~0u : loc_of[kv.first.second];
    MpiSiteStats &st = mpi_sites_[{kv.first.first, site}];
    st.calls += kv.second.calls;
    st.seconds += kv.second.seconds;
    st.sampled += kv.second.sampled;
    for (const auto &r : kv.second.ranks) {
      auto &pr = st.ranks[r.first];
      pr.calls += r.second.calls;
      pr.seconds += r.second.seconds;
      pr.sampled += r.second.sampled;
    }
  }
  has_mpi_ = has_mpi_ || o.has_mpi_;
  for (size_t t = 0; t < o.threads_.size(); ++t) {
    Thread th;
    th.rank = o.threads_[t].rank;
    th.index = o.threads_[t].index;
    th.tid = o.threads_[t].tid;
    th.type = o.threads_[t].type;
    threads_.push_back(std::move(th));
    timeline_.push_back(o.timeline_[t]);
  }
}

// What the process did in [lo, hi]: the samples whose period overlaps it,
// those working (in user code, the runtime, or an MPI call) over those
// waiting or idle; none: the sample of `thread` nearest to it.
std::vector<const Sample *> Analyzer::samples_in(uint64_t lo, uint64_t hi, uint32_t thread) const {
  std::vector<const Sample *> busy, any;
  for (const Thread &th : threads_) {
    const auto &v = th.samples;
    auto it = std::lower_bound(v.begin(), v.end(), lo, [](const Sample &x, uint64_t t) { return x.time < t; });
    for (; it != v.end(); ++it) {
      uint64_t from = it->time - std::min(it->time, uint64_t(it->weight_s * 1e9));
      if (from > hi) break;
      any.push_back(&*it);
      Category c = category(it->state);
      if (it->mpi || c == kWork || c == kOther) busy.push_back(&*it);
    }
  }
  if (!busy.empty()) return busy;
  if (!any.empty()) return any;
  if (thread < threads_.size())
    if (const Sample *p = nearest_if(thread, lo + (hi - lo) / 2, 5 * period_ns_,
                                     [](const Sample &) { return true; }))
      return {p};
  return {};
}

void Analyzer::charge_wait(BlameKind kind, const Sample &c, double seconds) {
  blame_kind_[kind] += seconds;
  if (c.leaf_loc != ~0u) {
    lines_[c.leaf_loc].blame += seconds;
    blame_[{kind, c.leaf_loc}] += seconds;
  }
  nodes_[c.node].self_blame += seconds;
}

// Each rank's times on rank 0's clock (mpi_format.h): the same clock
// domain as rank 0 needs nothing; another domain adds the offset measured
// in MPI_Init and MPI_Finalize, interpolated between them, held outside.
struct RankClock {
  bool shift = false;
  double l0 = 0, o0 = 0, l1 = 0, o1 = 0;
  bool two = false;
  double offset(double t) const {
    if (!shift) return 0;
    if (!two || t <= l0 || l1 <= l0) return t >= l1 && two ? o1 : o0;
    if (t >= l1) return o1;
    return o0 + (o1 - o0) * (t - l0) / (l1 - l0);
  }
  uint64_t to_job(uint64_t t) const { return uint64_t(int64_t(t) + int64_t(offset(double(t)))); }
  uint64_t to_local(uint64_t t) const {
    uint64_t l = uint64_t(int64_t(t) - int64_t(offset(double(t))));
    return uint64_t(int64_t(t) - int64_t(offset(double(l))));
  }
};

bool parse_offset(const std::string &v, double &l, double &o) {
  double e = 0;
  return sscanf(v.c_str(), "%lf %lf %lf", &l, &o, &e) >= 2;
}

// One report over every rank of an MPI job (docs/kite-profile.md, "MPI").
class Job {
 public:
  Job(std::string raw, std::vector<std::string> stems) : raw_(std::move(raw)), stems_(std::move(stems)) {}
  void run();
  void print_text(FILE *out, int top) { ranks_[0]->print_text(out, top); }
  void write_json(const std::string &path) { ranks_[0]->write_json(path); }

 private:
  struct RankSummary {
    int rank;
    std::string pid, host;
    size_t threads;
    uint64_t samples;
    EffTotals totals;
    Metrics metrics;
    double mpi_call_s = 0;  // the initial thread's exact time in MPI calls (Init, Finalize aside)
    double window_s = 0;    // the MPI model's part of its run
    double serial_fraction = 0;
  };
  struct Hybrid {
    double pe = 1, mpi_pe = 1, mpi_lb = 1, mpi_ce = 1, omp_pe = 1, omp_lb = 1, omp_ser = 0;
  };
  void align();
  void wait_states();
  void summarize();
  Hybrid hybrid() const;
  void text(FILE *out) const;
  std::string efficiency_json() const;
  void json(FILE *f) const;

  std::string raw_;
  std::vector<std::string> stems_;
  std::vector<std::unique_ptr<Analyzer>> ranks_;  // by world rank
  std::vector<RankClock> clocks_;
  uint64_t start_ = 0, end_ = 0;  // job clock
  bool one_domain_ = true;
  std::vector<std::string> notes_;
  std::vector<RankSummary> summary_;
  // Wait states: seconds by kind; by (victim rank, kind) and (culprit rank,
  // kind); the blamed lines by (kind, culprit rank, function, file, line).
  double wait_total_[kWaitKindCount] = {};
  uint64_t wait_count_[kWaitKindCount] = {};
  double wait_unattributed_[kWaitKindCount] = {};
  std::map<std::pair<int, int>, double> waited_, caused_;
  std::map<std::tuple<int, int, std::string, std::string, int>, double> blamed_;
  std::map<std::tuple<int, int, std::string, std::string, int>, std::string> blamed_signature_;
};

void Job::run() {
  for (const std::string &stem : stems_) {
    auto a = std::make_unique<Analyzer>(raw_, stem);
    a->load();
    a->job_ = true;
    ranks_.push_back(std::move(a));
  }
  std::stable_sort(ranks_.begin(), ranks_.end(),
                   [](const auto &a, const auto &b) { return a->rank_ < b->rank_; });
  for (size_t i = 1; i < ranks_.size(); ++i)
    if (ranks_[i]->rank_ == ranks_[i - 1]->rank_)
      notes_.push_back("rank " + std::to_string(ranks_[i]->rank_) +
                       " has more than one process in the directory; each is reported, messages "
                       "match the last");
  align();
  for (const auto &a : ranks_) {
    if (!a->meta_.count("end_ns"))
      notes_.push_back("rank " + std::to_string(a->rank_) +
                       " ended without finalizing the tool (it crashed or was killed): its part "
                       "of the report stops at its last record");
    if (a->unfinished_calls_)
      notes_.push_back("rank " + std::to_string(a->rank_) + ": " + std::to_string(a->unfinished_calls_) +
                       " MPI call(s) never returned; they last to its last record");
  }
  for (size_t i = 0; i < ranks_.size(); ++i) {
    Analyzer &a = *ranks_[i];
    a.win_start_ = clocks_[i].to_local(start_);
    a.win_end_ = clocks_[i].to_local(end_);
    a.analyze();
  }
  wait_states();
  summarize();
  Analyzer &m = *ranks_[0];
  for (size_t i = 1; i < ranks_.size(); ++i) {
    m.merge(*ranks_[i]);
    if (!ranks_[i]->meta_.count("end_ns")) m.meta_.erase("end_ns");
  }
  m.start_ = clocks_[0].to_local(start_);
  m.end_ = clocks_[0].to_local(end_);
  m.job_text_ = [this](FILE *out) { text(out); };
  m.job_efficiency_ = [this]() { return efficiency_json(); };
  m.job_json_ = [this](FILE *f) { json(f); };
}

void Job::align() {
  const auto &m0 = ranks_[0]->meta_;
  std::string domain0 = m0.count("clock_domain") ? m0.at("clock_domain") : "";
  start_ = UINT64_MAX;
  end_ = 0;
  for (auto &a : ranks_) {
    RankClock c;
    const auto &m = a->meta_;
    std::string domain = m.count("clock_domain") ? m.at("clock_domain") : "";
    if (a != ranks_[0] && (domain.empty() || domain != domain0)) {
      one_domain_ = false;
      double l, o;
      if (m.count("mpi_clock_init") && parse_offset(m.at("mpi_clock_init"), l, o)) {
        c.shift = true;
        c.l0 = l;
        c.o0 = o;
        if (m.count("mpi_clock_final") && parse_offset(m.at("mpi_clock_final"), l, o) && l > c.l0) {
          c.two = true;
          c.l1 = l;
          c.o1 = o;
        }
      } else {
        notes_.push_back("rank " + std::to_string(a->rank_) +
                         ": another clock domain than rank 0's and no mpi_clock_init offset; its "
                         "times are taken as they are");
      }
    }
    clocks_.push_back(c);
    if (a->start_) start_ = std::min(start_, c.to_job(a->start_));
    end_ = std::max(end_, c.to_job(a->end_));
  }
  if (start_ == UINT64_MAX || start_ > end_) start_ = end_;
}

void Job::wait_states() {
  std::vector<MpiRank> ranks;
  for (size_t i = 0; i < ranks_.size(); ++i) {
    MpiRank r = ranks_[i]->mpi_;
    r.rank = ranks_[i]->rank_;
    const RankClock &c = clocks_[i];
    for (MpiCall &x : r.calls) x.enter = c.to_job(x.enter), x.leave = c.to_job(x.leave);
    for (auto *v : {&r.sends, &r.posts, &r.recvs})
      for (MpiMessage &x : *v) x.time = c.to_job(x.time);
    for (MpiSendDone &x : r.send_dones) x.time = c.to_job(x.time);
    if (r.bad_records)
      notes_.push_back("rank " + std::to_string(r.rank) + ": " + std::to_string(r.bad_records) +
                       " MPI record(s) outside any call were left out");
    ranks.push_back(std::move(r));
  }
  std::map<uint64_t, size_t> comm_size;
  for (const auto &a : ranks_) {
    for (const auto &kv : a->meta_) {
      if (kv.first.rfind("mpi_comm.", 0) != 0) continue;
      uint64_t id = strtoull(kv.first.c_str() + 9, nullptr, 10);
      comm_size[id] = size_t(std::count(kv.second.begin(), kv.second.end(), ',') + 1);
    }
    auto ws = a->meta_.find("mpi_world_size");
    if (ws != a->meta_.end()) comm_size[kite_mpi::kWorldComm] = strtoull(ws->second.c_str(), nullptr, 10);
  }
  if (!comm_size.count(kite_mpi::kWorldComm)) comm_size[kite_mpi::kWorldComm] = ranks_.size();
  if (ranks_.size() < comm_size[kite_mpi::kWorldComm])
    notes_.push_back("the directory holds " + std::to_string(ranks_.size()) + " of the " +
                     std::to_string(comm_size[kite_mpi::kWorldComm]) + " ranks of MPI_COMM_WORLD");
  for (const WaitState &w : find_wait_states(ranks, comm_size, notes_)) {
    double seconds = double(w.hi - w.lo) / 1e9;
    wait_total_[w.kind] += seconds;
    wait_count_[w.kind]++;
    int victim = ranks_[size_t(w.victim)]->rank_, culprit = ranks_[size_t(w.culprit)]->rank_;
    waited_[{victim, w.kind}] += seconds;
    caused_[{culprit, w.kind}] += seconds;
    Analyzer &c = *ranks_[size_t(w.culprit)];
    const RankClock &cc = clocks_[size_t(w.culprit)];
    uint32_t thread = ranks[size_t(w.culprit)].calls[w.culprit_call].thread;
    std::vector<const Sample *> who = c.samples_in(cc.to_local(w.lo), cc.to_local(w.hi), thread);
    double weight = 0;
    for (const Sample *p : who) weight += p->weight_s;
    if (who.empty() || weight <= 0) {
      wait_unattributed_[w.kind] += seconds;
      continue;
    }
    BlameKind kind = BlameKind(kBlameLateSender + int(w.kind));
    for (const Sample *p : who) {
      double share = seconds * p->weight_s / weight;
      c.charge_wait(kind, *p, share);
      if (p->leaf_loc == ~0u) continue;
      const Loc &l = c.locs_[p->leaf_loc];
      auto key = std::make_tuple(int(w.kind), culprit, l.function, l.file, l.line);
      blamed_[key] += share;
      blamed_signature_[key] = l.signature;
    }
  }
}

void Job::summarize() {
  for (auto &a : ranks_) {
    RankSummary s;
    s.rank = a->rank_;
    s.pid = a->meta_.count("pid") ? a->meta_.at("pid") : "";
    s.host = a->meta_.count("mpi_host") ? a->meta_.at("mpi_host")
                                        : a->meta_.count("host") ? a->meta_.at("host") : "";
    s.threads = a->threads_.size();
    s.samples = a->samples_;
    s.totals = a->eff_.mpi_window();
    s.metrics = metrics_of(s.totals);
    s.serial_fraction = a->eff_.serial_fraction();
    uint64_t lo = std::max(a->mpi_lo_, a->start_), hi = std::min(a->mpi_hi_, a->end_);
    s.window_s = hi > lo ? double(hi - lo) / 1e9 : 0;
    for (const MpiCall &c : a->mpi_.calls)
      if (c.thread == a->initial_ && c.call != kite_mpi::kInit && c.call != kite_mpi::kInit_thread &&
          c.call != kite_mpi::kFinalize)
        s.mpi_call_s += double(c.leave - c.enter) / 1e9;
    summary_.push_back(s);
  }
}

double clamp1(double x) { return std::isfinite(x) ? std::min(1.0, std::max(0.0, x)) : 0.0; }

// docs/kite-profile.md, "MPI": over each rank's part of the run between
// MPI_Init and MPI_Finalize, S_r its thread time, X_r its part in MPI
// (kEffMpi), U_r its useful time, n_r its threads; o_r = (S_r - X_r) / n_r
// its time outside MPI per thread, T = max_r S_r / n_r the run time.
Job::Hybrid Job::hybrid() const {
  Hybrid h;
  double S = 0, X = 0, U = 0, n = 0, omax = 0, T = 0;
  EffTotals all;
  for (const RankSummary &r : summary_) {
    double s = r.totals.thread, x = r.totals.bucket[kEffMpi];
    S += s;
    X += x;
    U += r.totals.bucket[kEffUseful];
    n += double(r.threads);
    if (r.threads) omax = std::max(omax, (s - x) / double(r.threads));
    if (r.threads) T = std::max(T, s / double(r.threads));
    all.balanced_max += r.totals.balanced_max;
    all.useful_in_regions += r.totals.useful_in_regions;
    all.bucket[kEffSerial] += r.totals.bucket[kEffSerial];
  }
  if (S <= 0 || n <= 0 || T <= 0) return h;
  h.mpi_lb = omax > 0 ? clamp1((S - X) / n / omax) : 1;
  h.mpi_ce = clamp1(omax / T);
  h.mpi_pe = h.mpi_lb * h.mpi_ce;
  h.omp_pe = S - X > 0 ? clamp1(U / (S - X)) : 1;
  h.pe = h.mpi_pe * h.omp_pe;
  h.omp_lb = all.balanced_max > 0 ? clamp1(all.useful_in_regions / all.balanced_max) : 1;
  h.omp_ser = S - X > 0 ? clamp1(all.bucket[kEffSerial] / (S - X)) : 0;
  return h;
}

std::string where_line(const std::string &file, int line, const std::string &function) {
  if (file.empty()) return function;
  return file.substr(file.rfind('/') + 1) + ":" + std::to_string(line) + " " + function;
}

void Job::text(FILE *out) const {
  Hybrid h = hybrid();
  const auto &m = ranks_[0]->meta_;
  fprintf(out, "  MPI job: %zu rank(s)%s%s, %s\n", ranks_.size(),
          m.count("mpi") ? " on " : "", m.count("mpi") ? m.at("mpi").c_str() : "",
          one_domain_ ? "one clock" : "clocks aligned by the offsets measured in MPI_Init/MPI_Finalize");
  fprintf(out, "\n  hybrid efficiency (POP multiplicative model):\n");
  fprintf(out, "    global efficiency %.2f = parallel efficiency (one run: no computational scalability)\n", h.pe);
  fprintf(out, "    parallel efficiency %.2f = MPI parallel efficiency %.2f x OpenMP parallel efficiency %.2f\n",
          h.pe, h.mpi_pe, h.omp_pe);
  fprintf(out, "    MPI parallel efficiency %.2f = MPI load balance %.2f x MPI communication efficiency %.2f\n",
          h.mpi_pe, h.mpi_lb, h.mpi_ce);
  fprintf(out, "    OpenMP: load balance %.2f, serialization %.2f (shares of the time outside MPI)\n",
          h.omp_lb, h.omp_ser);
  fprintf(out, "\n  from MPI_Init to MPI_Finalize:\n");
  fprintf(out, "  rank  threads  thread s  in MPI %%  useful %%  OpenMP par eff  OpenMP load bal  MPI calls s\n");
  for (const RankSummary &r : summary_) {
    double S = r.totals.thread, X = r.totals.bucket[kEffMpi];
    fprintf(out, "  %4d %8zu %9.3f %9.1f %9.1f %15.2f %16.2f %12.3f\n", r.rank, r.threads, S,
            S > 0 ? 100 * X / S : 0, S > 0 ? 100 * r.totals.bucket[kEffUseful] / S : 0,
            S - X > 0 ? clamp1(r.totals.bucket[kEffUseful] / (S - X)) : 1.0, r.metrics.load_balance,
            r.mpi_call_s);
  }
  // By call, then by call site.
  const Analyzer &a = *ranks_[0];
  std::map<unsigned, std::pair<uint64_t, double>> by_call;
  for (const auto &kv : a.mpi_sites_) {
    auto &c = by_call[kv.first.first];
    c.first += kv.second.calls;
    c.second += kv.second.seconds;
  }
  if (!by_call.empty()) {
    std::vector<std::pair<double, unsigned>> v;
    for (const auto &kv : by_call) v.emplace_back(kv.second.second, kv.first);
    std::sort(v.rbegin(), v.rend());
    fprintf(out, "\n  time in MPI by call (all ranks):      calls   seconds\n");
    for (const auto &e : v)
      fprintf(out, "    %-32s %8" PRIu64 " %9.3f\n", kite_mpi::call_name(e.second), by_call[e.second].first,
              e.first);
    std::vector<std::pair<double, std::pair<unsigned, uint32_t>>> sites;
    for (const auto &kv : a.mpi_sites_) sites.emplace_back(kv.second.seconds, kv.first);
    std::sort(sites.rbegin(), sites.rend());
    fprintf(out, "\n  time in MPI by call site:\n");
    for (size_t i = 0; i < sites.size() && i < 10; ++i) {
      const auto &st = a.mpi_sites_.at(sites[i].second);
      std::string at = sites[i].second.second == ~0u ? "?" : where(a.locs_[sites[i].second.second]);
      fprintf(out, "    %9.3f s %8" PRIu64 " calls  %-14s %s\n", st.seconds, st.calls,
              kite_mpi::call_name(sites[i].second.first), at.c_str());
    }
  }
  fprintf(out, "\n  MPI wait states (blame shifted to the rank that caused them):\n");
  for (int k = 0; k < kWaitKindCount; ++k) {
    fprintf(out, "    %-20s %9.3f s in %" PRIu64 " call(s)", kWaitKindNames[k], wait_total_[k], wait_count_[k]);
    double best = 0;
    const std::tuple<int, int, std::string, std::string, int> *bk = nullptr;
    for (const auto &kv : blamed_)
      if (std::get<0>(kv.first) == k && kv.second > best) best = kv.second, bk = &kv.first;
    if (bk)
      fprintf(out, "  mostly rank %d %s", std::get<1>(*bk),
              where_line(std::get<3>(*bk), std::get<4>(*bk), std::get<2>(*bk)).c_str());
    fprintf(out, "\n");
  }
  for (const RankSummary &r : summary_) {
    double w[kWaitKindCount], c[kWaitKindCount];
    bool any = false;
    for (int k = 0; k < kWaitKindCount; ++k) {
      auto wi = waited_.find({r.rank, k});
      auto ci = caused_.find({r.rank, k});
      w[k] = wi == waited_.end() ? 0 : wi->second;
      c[k] = ci == caused_.end() ? 0 : ci->second;
      any = any || w[k] > 0 || c[k] > 0;
    }
    if (!any) continue;
    fprintf(out, "    rank %d waited: late sender %.3f s, late receiver %.3f s, collective %.3f s; "
                 "caused: %.3f, %.3f, %.3f s\n",
            r.rank, w[0], w[1], w[2], c[0], c[1], c[2]);
  }
  for (const std::string &n : notes_) fprintf(out, "  note: %s\n", n.c_str());
  fprintf(out, "\n  over all ranks:\n");
}

std::string Job::efficiency_json() const {
  Hybrid h = hybrid();
  char b[1024];
  snprintf(b, sizeof b,
           ",\"hybrid\":{\"model\":\"pop-multiplicative\",\"global_efficiency\":%.4f,"
           "\"computational_scalability\":null,\"parallel_efficiency\":%.4f,"
           "\"mpi_parallel_efficiency\":%.4f,\"mpi_load_balance\":%.4f,"
           "\"mpi_communication_efficiency\":%.4f,\"openmp_parallel_efficiency\":%.4f,"
           "\"openmp_load_balance\":%.4f,\"openmp_serialization\":%.4f}",
           h.pe, h.pe, h.mpi_pe, h.mpi_lb, h.mpi_ce, h.omp_pe, h.omp_lb, h.omp_ser);
  std::string s = b;
  s += ",\"ranks\":[";
  const char *sep = "";
  for (const RankSummary &r : summary_) {
    double S = r.totals.thread, X = r.totals.bucket[kEffMpi], U = r.totals.bucket[kEffUseful];
    snprintf(b, sizeof b,
             "%s{\"rank\":%d,\"window_s\":%.6f,\"threads\":%zu,\"thread_s\":%.6f,\"mpi_s\":%.6f,\"outside_mpi_s\":%.6f,"
             "\"useful_s\":%.6f,\"mpi_parallel_efficiency\":%.4f,\"openmp_parallel_efficiency\":%.4f,"
             "\"openmp_load_balance\":%.4f,\"openmp_serialization\":%.4f,\"serial_fraction\":%.4f",
             sep, r.rank, r.window_s, r.threads, S, X, S - X, U, S > 0 ? clamp1((S - X) / S) : 1.0,
             S - X > 0 ? clamp1(U / (S - X)) : 1.0, r.metrics.load_balance,
             S - X > 0 ? clamp1(r.totals.bucket[kEffSerial] / (S - X)) : 0.0, r.serial_fraction);
    s += b;
    snprintf(b, sizeof b,
             ",\"runtime_s\":%.6f,\"waiting_s\":%.6f,\"serial_idle_s\":%.6f,\"other_s\":%.6f,"
             "\"descheduled_s\":%.6f}",
             r.totals.bucket[kEffRuntime], r.totals.bucket[kEffWait], r.totals.bucket[kEffSerial],
             r.totals.bucket[kEffOther], r.totals.delay);
    s += b;
    sep = ",";
  }
  s += "]";
  return s;
}

void Job::json(FILE *f) const {
  const Analyzer &a = *ranks_[0];
  const auto &m = a.meta_;
  fprintf(f, ",\n\"mpi\":{\"implementation\":\"%s\",\"ranks\":%zu,\"world_size\":%s,\"one_clock\":%s,\"processes\":[",
          json_escape(m.count("mpi") ? m.at("mpi") : "").c_str(), ranks_.size(),
          m.count("mpi_world_size") ? m.at("mpi_world_size").c_str() : "null", one_domain_ ? "true" : "false");
  for (size_t i = 0; i < summary_.size(); ++i) {
    const RankSummary &r = summary_[i];
    fprintf(f, "%s{\"rank\":%d,\"pid\":%s,\"host\":\"%s\",\"threads\":%zu,\"samples\":%" PRIu64
               ",\"mpi_call_s\":%.6f}",
            i ? "," : "", r.rank, r.pid.empty() ? "0" : r.pid.c_str(), json_escape(r.host).c_str(),
            r.threads, r.samples, r.mpi_call_s);
  }
  // By call (all sites) and by call site, each with its ranks.
  std::map<unsigned, Analyzer::MpiSiteStats> by_call;
  for (const auto &kv : a.mpi_sites_) {
    auto &c = by_call[kv.first.first];
    c.calls += kv.second.calls;
    c.seconds += kv.second.seconds;
    c.sampled += kv.second.sampled;
    for (const auto &r : kv.second.ranks) {
      auto &pr = c.ranks[r.first];
      pr.calls += r.second.calls;
      pr.seconds += r.second.seconds;
      pr.sampled += r.second.sampled;
    }
  }
  auto ranks_json = [&](const Analyzer::MpiSiteStats &st) {
    fprintf(f, ",\"ranks\":[");
    const char *s2 = "";
    for (const auto &r : st.ranks) {
      fprintf(f, "%s{\"rank\":%d,\"calls\":%" PRIu64 ",\"seconds\":%.6f,\"sampled_s\":%.6f}", s2, r.first,
              r.second.calls, r.second.seconds, r.second.sampled);
      s2 = ",";
    }
    fprintf(f, "]}");
  };
  fprintf(f, "],\n\"by_call\":[");
  std::vector<std::pair<double, unsigned>> cv;
  for (const auto &kv : by_call) cv.emplace_back(kv.second.seconds, kv.first);
  std::sort(cv.rbegin(), cv.rend());
  const char *sep = "";
  for (const auto &e : cv) {
    const auto &st = by_call.at(e.second);
    fprintf(f, "%s\n{\"call\":\"%s\",\"calls\":%" PRIu64 ",\"seconds\":%.6f,\"sampled_s\":%.6f", sep,
            kite_mpi::call_name(e.second), st.calls, st.seconds, st.sampled);
    ranks_json(st);
    sep = ",";
  }
  fprintf(f, "],\n\"by_site\":[");
  std::vector<std::pair<double, std::pair<unsigned, uint32_t>>> sv;
  for (const auto &kv : a.mpi_sites_) sv.emplace_back(kv.second.seconds, kv.first);
  std::sort(sv.rbegin(), sv.rend());
  sep = "";
  for (const auto &e : sv) {
    const auto &st = a.mpi_sites_.at(e.second);
    Loc unknown;
    unknown.function = "?";
    const Loc &l = e.second.second == ~0u ? unknown : a.locs_[e.second.second];
    fprintf(f, "%s\n{\"call\":\"%s\",%s,\"file\":\"%s\",\"line\":%d,\"calls\":%" PRIu64
               ",\"seconds\":%.6f,\"sampled_s\":%.6f",
            sep, kite_mpi::call_name(e.second.first), name_fields(l.function, l.signature).c_str(),
            json_escape(l.file).c_str(), l.line, st.calls, st.seconds, st.sampled);
    ranks_json(st);
    sep = ",";
  }
  fprintf(f, "],\n\"wait_states\":{\"kinds\":{");
  for (int k = 0; k < kWaitKindCount; ++k)
    fprintf(f, "%s\"%s\":{\"seconds\":%.6f,\"calls\":%" PRIu64 ",\"unattributed_s\":%.6f}", k ? "," : "",
            kWaitKindNames[k], wait_total_[k], wait_count_[k], wait_unattributed_[k]);
  fprintf(f, "},\"ranks\":[");
  for (size_t i = 0; i < summary_.size(); ++i) {
    int r = summary_[i].rank;
    fprintf(f, "%s{\"rank\":%d,\"waited\":{", i ? "," : "", r);
    for (int k = 0; k < kWaitKindCount; ++k) {
      auto it = waited_.find({r, k});
      fprintf(f, "%s\"%s\":%.6f", k ? "," : "", kWaitKindNames[k], it == waited_.end() ? 0.0 : it->second);
    }
    fprintf(f, "},\"caused\":{");
    for (int k = 0; k < kWaitKindCount; ++k) {
      auto it = caused_.find({r, k});
      fprintf(f, "%s\"%s\":%.6f", k ? "," : "", kWaitKindNames[k], it == caused_.end() ? 0.0 : it->second);
    }
    fprintf(f, "}}");
  }
  fprintf(f, "],\"blamed\":[");
  std::vector<std::pair<double, std::tuple<int, int, std::string, std::string, int>>> bv;
  for (const auto &kv : blamed_) bv.emplace_back(kv.second, kv.first);
  std::sort(bv.begin(), bv.end(), [](const auto &x, const auto &y) { return x.first > y.first; });
  sep = "";
  for (const auto &e : bv) {
    const auto &k = e.second;
    fprintf(f, "%s\n{\"kind\":\"%s\",\"rank\":%d,%s,\"file\":\"%s\",\"line\":%d,\"seconds\":%.6f}", sep,
            kWaitKindNames[std::get<0>(k)], std::get<1>(k),
            name_fields(std::get<2>(k), blamed_signature_.at(k)).c_str(), json_escape(std::get<3>(k)).c_str(),
            std::get<4>(k), e.first);
    sep = ",";
  }
  fprintf(f, "]},\n\"notes\":[");
  for (size_t i = 0; i < notes_.size(); ++i)
    fprintf(f, "%s\"%s\"", i ? "," : "", json_escape(notes_[i]).c_str());
  fprintf(f, "]}");
}

[[noreturn]] void usage(int status) {
  fprintf(status ? stderr : stdout,
          "usage: kite-profile-analyze [--json FILE] [--rank R] [--top N] RAWDIR\n"
          "Reads what libkite-profile.so recorded into RAWDIR and prints the profile;\n"
          "--json writes the JSON document (docs/kite-profile.md). The ranks of an MPI\n"
          "job make one report; --rank R analyzes rank R alone. Exit status 3:\n"
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
  std::vector<std::string> job_stems;
  DIR *d = opendir(raw.c_str());
  if (!d) die("cannot read " + raw);
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() < 6 || n.compare(n.size() - 5, 5, ".meta") != 0) continue;
    auto meta = read_meta(raw + "/" + n);
    std::string r = meta.count("mpi_world_rank") ? meta["mpi_world_rank"] : meta["rank"];
    if (rank_given && meta["rank"] != rank && r != rank) continue;
    if (!r.empty()) job_stems.push_back(n);
    stems.emplace_back(strtoull(meta["start_ns"].c_str(), nullptr, 10), n.substr(0, n.size() - 5));
  }
  closedir(d);
  if (stems.empty()) return 3;
  std::sort(stems.begin(), stems.end());
  // An MPI job's ranks (their meta says mpi_world_rank= or rank=): one
  // report over all of them, unless --rank asked for one.
  if (!rank_given && !job_stems.empty()) {
    std::vector<std::string> names;
    for (const auto &st : stems) names.push_back(st.second);
    Job job(raw, names);
    job.run();
    job.print_text(stdout, top);
    if (!json.empty()) {
      job.write_json(json);
      printf("  wrote %s\n", json.c_str());
    }
    return 0;
  }
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
