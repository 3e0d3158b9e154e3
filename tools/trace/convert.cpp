// kite-trace-convert: turns the raw files libkite-trace.so wrote (one per
// thread, trace_format.h) into an OTF2 archive and a Perfetto / Chrome
// trace-event JSON file, resolves every codeptr_ra to function and
// file:line (symbols.h), and prints the run's summary. It runs after the
// program has exited, in kite's own process.
//
// Each thread's file is read once, front to back, in fixed-size chunks;
// slices are a stack per thread, written when they close. What must be
// known across threads (which code created a task, the dependence edges,
// the order of lock acquisitions) is gathered by a first pass that keeps a
// few words per task, edge and acquisition. Memory grows with the number
// of tasks and lock acquisitions, never with the number of other events.
//
//   kite-trace-convert [--format otf2,perfetto] [--rank R] [--quiet] RAWDIR OUTDIR
#include <omp-tools.h>
#include <otf2/otf2.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <map>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

#include "raw_format.h"
#include "reader.h"
#include "symbols.h"
#include "text.h"

using namespace kite_trace;

namespace {

bool quiet;
bool progress;  // a line per thread on a terminal

[[noreturn]] void die(const std::string &msg) {
  fprintf(stderr, "kite-trace-convert: %s\n", msg.c_str());
  exit(1);
}

// ---- names -----------------------------------------------------------------

const char *work_name(unsigned t) {
  switch (t) {
    case ompt_work_loop: return "loop";
    case ompt_work_sections: return "sections";
    case ompt_work_single_executor: return "single";
    case ompt_work_single_other: return "single (other)";
    case ompt_work_workshare: return "workshare";
    case ompt_work_distribute: return "distribute";
    case ompt_work_taskloop: return "taskloop";
    case ompt_work_scope: return "scope";
    case ompt_work_loop_static: return "loop (static)";
    case ompt_work_loop_dynamic: return "loop (dynamic)";
    case ompt_work_loop_guided: return "loop (guided)";
    case ompt_work_loop_other: return "loop (other)";
  }
  return "worksharing";
}

const char *sync_name(unsigned k) {
  switch (k) {
    case ompt_sync_region_barrier: return "barrier";
    case ompt_sync_region_barrier_implicit: return "implicit barrier";
    case ompt_sync_region_barrier_explicit: return "barrier";
    case ompt_sync_region_barrier_implementation: return "barrier (runtime)";
    case ompt_sync_region_taskwait: return "taskwait";
    case ompt_sync_region_taskgroup: return "taskgroup";
    case ompt_sync_region_reduction: return "reduction";
    case ompt_sync_region_barrier_implicit_workshare: return "implicit barrier (worksharing)";
    case ompt_sync_region_barrier_implicit_parallel: return "implicit barrier (parallel)";
    case ompt_sync_region_barrier_teams: return "barrier (teams)";
  }
  return "sync";
}

const char *mutex_name(unsigned k) {
  switch (k) {
    case ompt_mutex_lock: return "lock";
    case ompt_mutex_test_lock: return "lock";
    case ompt_mutex_nest_lock: return "nest lock";
    case ompt_mutex_test_nest_lock: return "nest lock";
    case ompt_mutex_critical: return "critical";
    case ompt_mutex_atomic: return "atomic";
    case ompt_mutex_ordered: return "ordered";
  }
  return "mutex";
}

const char *target_name(unsigned k) {
  switch (k) {
    case ompt_target: return "target";
    case ompt_target_enter_data: return "target enter data";
    case ompt_target_exit_data: return "target exit data";
    case ompt_target_update: return "target update";
    case ompt_target_nowait: return "target nowait";
    case ompt_target_enter_data_nowait: return "target enter data nowait";
    case ompt_target_exit_data_nowait: return "target exit data nowait";
    case ompt_target_update_nowait: return "target update nowait";
  }
  return "target";
}


const char *data_op_name(unsigned k) {
  switch (k) {
    case ompt_target_data_alloc:
    case ompt_target_data_alloc_async: return "alloc";
    case ompt_target_data_transfer_to_device:
    case ompt_target_data_transfer_to_device_async: return "copy to device";
    case ompt_target_data_transfer_from_device:
    case ompt_target_data_transfer_from_device_async: return "copy from device";
    case ompt_target_data_delete:
    case ompt_target_data_delete_async: return "free";
    case ompt_target_data_associate: return "associate";
    case ompt_target_data_disassociate: return "disassociate";
  }
  return "data op";
}

// ",a:1,b:2" (how members are built up) -> "a:1,b:2".
std::string members(const std::string &list) { return list.empty() ? list : list.substr(1); }


// ---- the whole-process view gathered by the first pass -----------------------

struct TaskInfo {
  uint64_t codeptr = 0;
  uint32_t flags = 0;
  bool started = false;
  std::vector<uint32_t> edges_out;  // dependence edge numbers
  std::vector<uint32_t> edges_in;
};

struct ThreadFile {
  uint32_t index = 0;
  std::string path;
  uint64_t tid = 0;
  int type = 0;  // ompt_thread_t
  uint32_t rank = 0;  // position among this process's threads (OTF2 location)
};

// Slices the converter keeps open per thread.
enum SliceKind : uint8_t {
  sParallel, sImplicit, sInitial, sWork, sChunk, sSync, sWait, sReduction, sTask, sMutexWait,
  sMutexHold, sMasked, sTarget, sDataOp, sCreate
};

// One device trace record (kDeviceOp): a kernel or data operation with the
// device's own times, already on the host clock.
struct DeviceOp {
  uint32_t device;
  uint8_t type;  // ompt_callbacks_t of the record
  uint16_t optype;
  uint64_t begin, end, codeptr, d;
};

// A device track: the device's operations that overlap in time get lanes
// of their own (nowait constructs on several host threads), so slices on
// a lane never overlap.
struct DeviceLane {
  uint32_t device;
  uint32_t lane;
  uint64_t location;  // OTF2 location ref
  uint64_t tid;       // JSON track id
  uint64_t events = 0;
};

struct Region {  // OTF2 region: one per (slice kind, detail, codeptr)
  std::string name;
  OTF2_RegionRole role;
  uint64_t codeptr;
};

struct Stats {
  uint64_t events = 0, parallel_regions = 0, tasks = 0, thread_ns = 0;
  struct Par {
    uint64_t count = 0, total_ns = 0;
    unsigned max_team = 0;
  };
  std::map<uint64_t, Par> parallel;  // by codeptr
  std::map<std::string, uint64_t> waiting;  // ns by kind
  struct Dev {
    uint64_t kernels = 0, kernel_ns = 0, transfers = 0, transfer_bytes = 0, transfer_ns = 0,
             other_ops = 0;
  };
  std::map<uint32_t, Dev> devices;
};


// ---- writers -----------------------------------------------------------------

class JsonOut {
 public:
  explicit JsonOut(const std::string &path) : path_(path) {
    f_ = fopen(path.c_str(), "we");
    if (!f_) die("cannot write " + path + ": " + strerror(errno));
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f_);
  }
  void event(const std::string &body) {
    if (!first_) fputs(",\n", f_);
    first_ = false;
    fputs(body.c_str(), f_);
  }
  void close() {
    fputs("\n]}\n", f_);
    if (fclose(f_) != 0) die("cannot write " + path_);
    f_ = nullptr;
  }

 private:
  std::string path_;
  FILE *f_ = nullptr;
  bool first_ = true;
};

OTF2_FlushType pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) {
  return OTF2_FLUSH;
}
OTF2_TimeStamp post_flush(void *, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

void otf2_check(OTF2_ErrorCode rc, const char *what) {
  if (rc != OTF2_SUCCESS) die(std::string("OTF2: ") + what + ": " + OTF2_Error_GetName(rc));
}

// ---- per-process conversion ----------------------------------------------------

struct Open {
  SliceKind kind;
  uint16_t sub;
  uint64_t begin;
  uint64_t key;
  uint64_t codeptr;
  uint32_t region;
  uint64_t nested_task_ns = 0;
  std::string name;
  std::string args;  // extra JSON members, each starting with ','
};

class Process {
 public:
  Process(std::string raw_dir, std::string stem, std::string out_base, bool otf2, bool json)
      : raw_dir_(std::move(raw_dir)), stem_(std::move(stem)), out_base_(std::move(out_base)),
        want_otf2_(otf2), want_json_(json) {}

  void convert();
  void print_summary(FILE *out) const;
  void write_summary_json(const std::string &path) const;
  std::vector<std::string> outputs;

 private:
  // first pass
  void scan();
  // second pass
  void convert_thread(const ThreadFile &tf);
  void push(SliceKind kind, uint16_t sub, uint64_t t, uint64_t key, uint64_t codeptr,
            std::string name, std::string args, OTF2_RegionRole role);
  bool close_innermost(uint64_t t, bool (*match)(const Open &, uint64_t, uint16_t), uint64_t key,
                       uint16_t sub, bool reopen_above);
  void close_top(uint64_t t);
  void emit_close(Open &o, uint64_t t);
  void instant(uint64_t t, const std::string &name, const std::string &args);
  uint32_t region_for(SliceKind kind, const std::string &name, uint64_t codeptr,
                      OTF2_RegionRole role);
  std::string where(uint64_t codeptr);  // JSON members with the source location
  std::string label(const char *what, uint64_t codeptr);
  double us(uint64_t t) const { return double(t - origin_) / 1000.0; }
  void write_otf2_defs();
  void convert_devices();

  std::string raw_dir_, stem_, out_base_;
  bool want_otf2_, want_json_;
  std::map<std::string, std::string> meta_;
  std::unique_ptr<Symbolizer> sym_;
  std::vector<ThreadFile> threads_;
  std::unordered_map<uint64_t, TaskInfo> tasks_;
  std::vector<std::pair<uint64_t, uint64_t>> edges_;  // (src, sink)
  std::unordered_map<uint64_t, std::vector<uint64_t>> lock_times_;  // wait id -> acquired times
  std::unordered_map<uint64_t, uint32_t> lock_ids_;
  std::unordered_map<uint64_t, uint64_t> parallel_codeptr_;  // parallel id -> codeptr_ra
  std::string runtime_module_;  // the OpenMP runtime's file (meta runtime_module)
  bool in_runtime(uint64_t codeptr);
  std::map<uint32_t, uint32_t> thread_rank_;  // thread index -> location rank
  uint64_t origin_ = 0, last_ = 0;
  size_t window_bytes_ = 0;
  TimeMap clock_;
  std::vector<DeviceOp> device_ops_;
  std::vector<DeviceLane> device_lanes_;
  // (CLOCK_MONOTONIC ns, stamp-derived ns - that): where host stamps sit
  // against the clock device times are on (kTarget, kDeviceOp pairs).
  std::vector<std::pair<uint64_t, int64_t>> clock_pairs_;
  void place_device_ops();
  int pid_ = 0;

  // output state
  std::unique_ptr<JsonOut> json_;
  OTF2_Archive *archive_ = nullptr;
  OTF2_EvtWriter *evt_ = nullptr;
  uint64_t evt_count_ = 0;
  std::vector<uint64_t> location_events_;
  std::vector<Region> regions_;
  std::map<std::tuple<int, std::string, uint64_t>, uint32_t> region_index_;
  std::unordered_map<uint64_t, std::string> where_cache_;

  // per-thread state during the second pass
  const ThreadFile *cur_ = nullptr;
  std::vector<Open> stack_;
  uint64_t implicit_ns_ = 0;

  Stats stats_;
};

std::string Process::where(uint64_t codeptr) {
  if (!codeptr) return "";
  auto it = where_cache_.find(codeptr);
  if (it != where_cache_.end()) return it->second;
  const SourceLocation &loc = sym_->resolve(codeptr);
  std::string s = ",\"codeptr_ra\":\"" + hex(codeptr) + "\"";
  if (!loc.function.empty()) s += ",\"function\":\"" + json_escape(loc.function) + "\"";
  if (!loc.file.empty())
    s += ",\"file\":\"" + json_escape(loc.file) + "\",\"line\":" + std::to_string(loc.line);
  if (!loc.inlined.empty()) s += ",\"inlined\":\"" + json_escape(loc.inlined) + "\"";
  if (loc.file.empty() && !loc.module.empty())
    s += ",\"module\":\"" + json_escape(loc.module) + "\"";
  return where_cache_.emplace(codeptr, s).first->second;
}

std::string Process::label(const char *what, uint64_t codeptr) {
  if (!codeptr) return what;
  return std::string(what) + " @ " + sym_->resolve(codeptr).short_label();
}

void Process::scan() {
  // Threads: every <stem>.thread-<n>.raw of this stem.
  std::string prefix = stem_ + ".thread-";
  DIR *d = opendir(raw_dir_.c_str());
  if (!d) die("cannot read " + raw_dir_);
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.compare(0, prefix.size(), prefix) != 0 || n.size() < 4 ||
        n.compare(n.size() - 4, 4, ".raw") != 0)
      continue;
    char *end = nullptr;
    unsigned long index = strtoul(n.c_str() + prefix.size(), &end, 10);
    if (!end || strcmp(end, ".raw") != 0) continue;  // another stream (samples)
    ThreadFile tf;
    tf.path = raw_dir_ + "/" + n;
    tf.index = uint32_t(index);
    threads_.push_back(tf);
  }
  closedir(d);
  std::sort(threads_.begin(), threads_.end(),
            [](const ThreadFile &a, const ThreadFile &b) { return a.index < b.index; });
  origin_ = strtoull(meta_["start_ns"].c_str(), nullptr, 10);
  uint64_t first = UINT64_MAX;
  for (size_t i = 0; i < threads_.size(); ++i) {
    ThreadFile &tf = threads_[i];
    tf.rank = uint32_t(i);
    thread_rank_[tf.index] = tf.rank;
    RecordReader in(tf.path, window_bytes_, clock_);
    if (!in.ok()) die("cannot read " + tf.path);
    while (const Record *r = in.next()) {
      first = std::min(first, r->time);
      last_ = std::max(last_, r->time);
      switch (r->kind) {
        case kHeader:
          if (r->u32 != kMagic || r->c != kVersion)
            die(tf.path + " was not written by this version of libkite-trace.so");
          tf.tid = r->b;
          break;
        case kThreadBegin: tf.type = r->sub; break;
        case kParallelBegin: parallel_codeptr_[r->a] = r->c; break;
        case kTaskCreate: {
          TaskInfo &t = tasks_[r->a];
          t.codeptr = r->c;
          t.flags = r->u32;
          break;
        }
        case kTaskDependence: {
          uint32_t e = uint32_t(edges_.size());
          edges_.emplace_back(r->a, r->b);
          tasks_[r->a].edges_out.push_back(e);
          tasks_[r->b].edges_in.push_back(e);
          break;
        }
        case kMutexAcquired: lock_times_[r->a].push_back(r->time); break;
        case kTarget:
          if (r->d) clock_pairs_.emplace_back(r->d, int64_t(r->time) - int64_t(r->d));
          break;
        case kDeviceOp:
          if (r->sub == 0)
            clock_pairs_.emplace_back(r->a, int64_t(r->time) - int64_t(r->a));
          else if (r->b >= r->a && r->a)
            device_ops_.push_back({r->u32, r->sub, r->f16, r->a, r->b, r->c, r->d});
          break;
        default: break;
      }
    }
  }
  place_device_ops();
  for (const DeviceOp &op : device_ops_) {
    first = std::min(first, op.begin);
    last_ = std::max(last_, op.end);
  }
  if (first != UINT64_MAX && (origin_ == 0 || first < origin_)) origin_ = first;
  for (auto &kv : lock_times_) std::sort(kv.second.begin(), kv.second.end());
}

uint32_t Process::region_for(SliceKind kind, const std::string &name, uint64_t codeptr,
                             OTF2_RegionRole role) {
  auto key = std::make_tuple(int(kind), name, codeptr);
  auto it = region_index_.find(key);
  if (it != region_index_.end()) return it->second;
  uint32_t ref = uint32_t(regions_.size());
  regions_.push_back({name, role, codeptr});
  region_index_.emplace(key, ref);
  return ref;
}

bool Process::in_runtime(uint64_t codeptr) {
  if (!codeptr || runtime_module_.empty()) return false;
  return sym_->resolve(codeptr).module == runtime_module_;
}

void Process::push(SliceKind kind, uint16_t sub, uint64_t t, uint64_t key, uint64_t codeptr,
                   std::string name, std::string args, OTF2_RegionRole role) {
  // A construct whose runtime call the compiler made a tail call (gcc ends
  // an outlined region with `jmp GOMP_barrier`) reports a return address
  // inside the runtime. It is shown at the innermost enclosing construct
  // with a user return address, and says so.
  if (in_runtime(codeptr)) {
    uint64_t user = 0;
    for (auto it = stack_.rbegin(); it != stack_.rend() && !user; ++it)
      if (it->codeptr && !in_runtime(it->codeptr)) user = it->codeptr;
    args += ",\"codeptr_ra_in_runtime\":\"" + hex(codeptr) + "\"";
    std::string prefix = name.substr(0, name.find(" @ "));
    codeptr = user;
    name = label(prefix.c_str(), codeptr);
  }
  Open o{kind, sub, t, key, codeptr, 0, 0, std::move(name), std::move(args)};
  o.region = region_for(kind, o.name, codeptr, role);
  if (evt_) {
    otf2_check(OTF2_EvtWriter_Enter(evt_, nullptr, t, o.region), "enter");
    ++evt_count_;
  }
  stack_.push_back(std::move(o));
}

void Process::emit_close(Open &o, uint64_t t) {
  uint64_t dur = t - o.begin;
  if (evt_) {
    otf2_check(OTF2_EvtWriter_Leave(evt_, nullptr, t, o.region), "leave");
    ++evt_count_;
  }
  if (json_) {
    char head[256];
    snprintf(head, sizeof head,
             "{\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f,\"dur\":%.3f,", pid_,
             cur_->tid, us(o.begin), double(dur) / 1000.0);
    static const char *const cats[] = {"parallel", "parallel", "parallel", "work", "dispatch",
                                       "sync",     "wait",     "sync",     "task", "mutex",
                                       "mutex",    "work",     "target",   "target", "task"};
    json_->event(std::string(head) + "\"cat\":\"" + cats[o.kind] + "\",\"name\":\"" +
                 json_escape(o.name) + "\",\"args\":{" + members(where(o.codeptr) + o.args) + "}}");
  }
  // Statistics: waiting by kind, exclusive of tasks run while waiting.
  uint64_t own = dur > o.nested_task_ns ? dur - o.nested_task_ns : 0;
  switch (o.kind) {
    case sWait: stats_.waiting[sync_name(o.sub)] += own; break;
    case sMutexWait: stats_.waiting[mutex_name(o.sub)] += own; break;
    case sImplicit: implicit_ns_ += dur; break;
    case sParallel: {
      Stats::Par &p = stats_.parallel[o.codeptr];
      p.count++;
      p.total_ns += dur;
      break;
    }
    case sTask:
      for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
        if (&*it != &o && (it->kind == sWait || it->kind == sMutexWait)) {
          it->nested_task_ns += dur;
          break;
        }
      break;
    default: break;
  }
}

void Process::close_top(uint64_t t) {
  emit_close(stack_.back(), t);  // still on the stack: its search skips it
  stack_.pop_back();
}

// Closes the innermost open slice that matches. What is open above it is
// closed first; with reopen_above (a lock released out of order), those
// slices are reopened right after, so slices always nest.
bool Process::close_innermost(uint64_t t, bool (*match)(const Open &, uint64_t, uint16_t),
                              uint64_t key, uint16_t sub, bool reopen_above) {
  size_t i = stack_.size();
  while (i > 0 && !match(stack_[i - 1], key, sub)) --i;
  if (i == 0) return false;
  std::vector<Open> above;
  while (stack_.size() > i) {
    if (reopen_above) above.push_back(stack_.back());
    close_top(t);
  }
  close_top(t);
  for (auto it = above.rbegin(); it != above.rend(); ++it) {
    Open o = *it;
    o.begin = t;
    o.nested_task_ns = 0;
    if (evt_) {
      otf2_check(OTF2_EvtWriter_Enter(evt_, nullptr, t, o.region), "enter");
      ++evt_count_;
    }
    stack_.push_back(std::move(o));
  }
  return true;
}

void Process::instant(uint64_t t, const std::string &name, const std::string &args) {
  if (!json_) return;
  char head[200];
  snprintf(head, sizeof head, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f,",
           pid_, cur_->tid, us(t));
  json_->event(std::string(head) + "\"name\":\"" + json_escape(name) + "\",\"args\":{" + members(args) + "}}");
}

bool match_kind_key(const Open &o, uint64_t key, uint16_t sub) {
  return o.kind == SliceKind(sub) && o.key == key;
}
bool match_kind(const Open &o, uint64_t, uint16_t sub) { return o.kind == SliceKind(sub); }
bool match_implicit(const Open &o, uint64_t key, uint16_t) {
  return (o.kind == sImplicit || o.kind == sInitial) && (key == 0 || o.key == key);
}

bool is_explicit(uint32_t flags) { return flags & (ompt_task_explicit | ompt_task_target); }

void Process::convert_thread(const ThreadFile &tf) {
  cur_ = &tf;
  stack_.clear();
  implicit_ns_ = 0;
  RecordReader in(tf.path, window_bytes_, clock_);
  uint64_t first = 0, t = 0;
  std::vector<uint64_t> parallel_keys;  // team size bookkeeping
  while (const Record *r = in.next()) {
    t = r->time;
    if (!first) first = t;
    stats_.events++;
    switch (r->kind) {
      case kParallelBegin: {
        stats_.parallel_regions++;
        std::string name = label(r->d & ompt_parallel_league ? "teams" : "parallel", r->c);
        push(sParallel, 0, t, r->a, r->c, name,
             ",\"requested_threads\":" + std::to_string(r->u32), OTF2_REGION_ROLE_PARALLEL);
        if (evt_) {
          otf2_check(OTF2_EvtWriter_ThreadFork(evt_, nullptr, t, OTF2_PARADIGM_OPENMP, r->u32),
                     "fork");
          ++evt_count_;
        }
        break;
      }
      case kParallelEnd:
        if (close_innermost(t, match_kind_key, r->a, sParallel, false) ||
            close_innermost(t, match_kind, 0, sParallel, false)) {
          if (evt_) {
            otf2_check(OTF2_EvtWriter_ThreadJoin(evt_, nullptr, t, OTF2_PARADIGM_OPENMP), "join");
            ++evt_count_;
          }
        }
        break;
      case kImplicitTask:
        if (r->sub == ompt_scope_begin) {
          bool initial = r->f16 == 1;
          std::string args = ",\"team_size\":" + std::to_string(r->u32) +
                             ",\"thread_num\":" + std::to_string(r->d) + ",\"task_id\":\"" +
                             hex(r->b) + "\"";
          auto pc = parallel_codeptr_.find(r->a);
          uint64_t region_codeptr = initial || pc == parallel_codeptr_.end() ? 0 : pc->second;
          std::string name = initial ? "initial task" : "implicit task " + std::to_string(r->d);
          if (region_codeptr) name = label(name.c_str(), region_codeptr);
          push(initial ? sInitial : sImplicit, 0, t, r->b, region_codeptr, name, args,
               OTF2_REGION_ROLE_TASK);
          // The team size of the region this thread's primary opened.
          for (auto it = stack_.rbegin(); it != stack_.rend(); ++it)
            if (it->kind == sParallel && (it->key == r->a || r->a == 0)) {
              Stats::Par &p = stats_.parallel[it->codeptr];
              p.max_team = std::max(p.max_team, unsigned(r->u32));
              break;
            }
        } else {
          close_innermost(t, match_implicit, r->b, 0, false) ||
              close_innermost(t, match_implicit, 0, 0, false);
        }
        break;
      case kWork:
        if (r->sub == ompt_scope_begin) {
          std::string args = ",\"work_type\":\"" + std::string(work_name(r->f16)) +
                             "\",\"count\":" + std::to_string(r->d);
          OTF2_RegionRole role = OTF2_REGION_ROLE_LOOP;
          if (r->f16 == ompt_work_sections) role = OTF2_REGION_ROLE_SECTIONS;
          else if (r->f16 == ompt_work_single_executor || r->f16 == ompt_work_single_other)
            role = OTF2_REGION_ROLE_SINGLE;
          else if (r->f16 == ompt_work_workshare) role = OTF2_REGION_ROLE_WORKSHARE;
          push(sWork, r->f16, t, 0, r->c, label(work_name(r->f16), r->c), args, role);
        } else {
          close_innermost(t, match_kind, 0, sWork, false);
        }
        break;
      case kDispatch: {
        if (!stack_.empty() && stack_.back().kind == sChunk) close_top(t);
        const char *what = r->sub == ompt_dispatch_section ? "section" :
                           r->sub == ompt_dispatch_iteration ? "iteration" : "chunk";
        std::string args = ",\"start\":" + std::to_string(r->a);
        if (r->d) args += ",\"iterations\":" + std::to_string(r->d);
        push(sChunk, r->sub, t, 0, 0, what, args, OTF2_REGION_ROLE_CODE);
        break;
      }
      case kSyncRegion:
      case kReduction: {
        SliceKind k = r->kind == kSyncRegion ? sSync : sReduction;
        if (r->sub == ompt_scope_begin) {
          OTF2_RegionRole role = OTF2_REGION_ROLE_BARRIER;
          if (r->f16 == ompt_sync_region_taskwait || r->f16 == ompt_sync_region_taskgroup)
            role = OTF2_REGION_ROLE_TASK_WAIT;
          else if (r->f16 != ompt_sync_region_barrier_explicit)
            role = OTF2_REGION_ROLE_IMPLICIT_BARRIER;
          if (k == sReduction) role = OTF2_REGION_ROLE_CODE;
          push(k, r->f16, t, 0, r->c, label(k == sReduction ? "reduction" : sync_name(r->f16), r->c),
               "", role);
        } else {
          close_innermost(t, match_kind, 0, k, false);
        }
        break;
      }
      case kSyncWait:
        if (r->sub == ompt_scope_begin)
          push(sWait, r->f16, t, 0, r->c, std::string("wait: ") + sync_name(r->f16), "",
               OTF2_REGION_ROLE_ARTIFICIAL);
        else
          close_innermost(t, match_kind, 0, sWait, false);
        break;
      case kTaskCreate: {
        if (!is_explicit(r->u32)) break;
        stats_.tasks++;
        std::string args = ",\"task_id\":\"" + hex(r->a) + "\"";
        if (r->sub) args += ",\"has_dependences\":true";
        if (r->u32 & ompt_task_undeferred) args += ",\"undeferred\":true";
        push(sCreate, 0, t, r->a, r->c, label("create task", r->c), args,
             OTF2_REGION_ROLE_TASK_CREATE);
        if (json_) {
          char b[200];
          snprintf(b, sizeof b,
                   "{\"ph\":\"s\",\"cat\":\"task\",\"name\":\"task\",\"id\":\"%s\",\"pid\":%d,"
                   "\"tid\":%" PRIu64 ",\"ts\":%.3f}",
                   hex(r->a).c_str(), pid_, tf.tid, us(t));
          json_->event(b);
        }
        if (evt_) {
          auto rank = thread_rank_.find(id_thread(r->a));
          otf2_check(OTF2_EvtWriter_ThreadTaskCreate(
                         evt_, nullptr, t, 0, rank == thread_rank_.end() ? 0 : rank->second,
                         uint32_t(id_serial(r->a))),
                     "task create");
          ++evt_count_;
        }
        close_top(t);
        break;
      }
      case kTaskSchedule: {
        auto prior = tasks_.find(r->a);
        bool prior_explicit = prior != tasks_.end() && is_explicit(prior->second.flags);
        bool ends = r->sub == ompt_task_complete || r->sub == ompt_task_cancel ||
                    r->sub == ompt_task_detach;
        // A tied task suspended at a scheduling point stays open: what runs
        // meanwhile on this thread nests in it. An untied one may resume on
        // another thread, so each of its execution intervals is a slice.
        if (prior_explicit && !ends && (prior->second.flags & ompt_task_untied) &&
            (r->sub == ompt_task_switch || r->sub == ompt_task_yield))
          close_innermost(t, match_kind_key, r->a, sTask, false);
        if (prior_explicit && ends && close_innermost(t, match_kind_key, r->a, sTask, false)) {
          if (evt_) {
            auto rank = thread_rank_.find(id_thread(r->a));
            otf2_check(OTF2_EvtWriter_ThreadTaskComplete(
                           evt_, nullptr, t, 0, rank == thread_rank_.end() ? 0 : rank->second,
                           uint32_t(id_serial(r->a))),
                       "task complete");
            ++evt_count_;
          }
          if (json_)
            for (uint32_t e : prior->second.edges_out) {
              char b[200];
              snprintf(b, sizeof b,
                       "{\"ph\":\"s\",\"cat\":\"dependence\",\"name\":\"dependence\",\"id\":%u,"
                       "\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f}",
                       e, pid_, tf.tid, us(t) - 0.001);
              json_->event(b);
            }
        }
        auto next = tasks_.find(r->b);
        if (next == tasks_.end() || !is_explicit(next->second.flags)) break;
        bool resumed = false;
        for (const Open &o : stack_)
          if (o.kind == sTask && o.key == r->b) resumed = true;
        if (!resumed) {
          TaskInfo &ti = next->second;
          push(sTask, 0, t, r->b, ti.codeptr, label("task", ti.codeptr),
               ",\"task_id\":\"" + hex(r->b) + "\"",
               (ti.flags & ompt_task_untied) ? OTF2_REGION_ROLE_TASK_UNTIED : OTF2_REGION_ROLE_TASK);
          if (json_ && !ti.started) {
            char b[200];
            snprintf(b, sizeof b,
                     "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"task\",\"name\":\"task\",\"id\":\"%s\","
                     "\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f}",
                     hex(r->b).c_str(), pid_, tf.tid, us(t));
            json_->event(b);
            for (uint32_t e : ti.edges_in) {
              snprintf(b, sizeof b,
                       "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"dependence\",\"name\":\"dependence\","
                       "\"id\":%u,\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f}",
                       e, pid_, tf.tid, us(t));
              json_->event(b);
            }
          }
          ti.started = true;
        }
        if (evt_) {
          auto rank = thread_rank_.find(id_thread(r->b));
          otf2_check(OTF2_EvtWriter_ThreadTaskSwitch(
                         evt_, nullptr, t, 0, rank == thread_rank_.end() ? 0 : rank->second,
                         uint32_t(id_serial(r->b))),
                     "task switch");
          ++evt_count_;
        }
        break;
      }
      case kMutexAcquire:
        // A test routine does not wait: its acquisition shows as holding only.
        if (r->f16 != ompt_mutex_test_lock && r->f16 != ompt_mutex_test_nest_lock)
          push(sMutexWait, r->f16, t, r->a, r->c,
               label((std::string("wait: ") + mutex_name(r->f16)).c_str(), r->c),
               ",\"wait_id\":\"" + hex(r->a) + "\"", OTF2_REGION_ROLE_ARTIFICIAL);
        break;
      case kMutexAcquired: {
        close_innermost(t, match_kind_key, r->a, sMutexWait, false);
        OTF2_RegionRole role = r->f16 == ompt_mutex_critical ? OTF2_REGION_ROLE_CRITICAL :
                               r->f16 == ompt_mutex_atomic ? OTF2_REGION_ROLE_ATOMIC :
                               r->f16 == ompt_mutex_ordered ? OTF2_REGION_ROLE_ORDERED :
                               OTF2_REGION_ROLE_CODE;
        push(sMutexHold, r->f16, t, r->a, r->c, label(mutex_name(r->f16), r->c),
             ",\"wait_id\":\"" + hex(r->a) + "\"", role);
        if (evt_) {
          auto &times = lock_times_[r->a];
          uint32_t order = uint32_t(std::lower_bound(times.begin(), times.end(), t) - times.begin());
          uint32_t id = lock_ids_.emplace(r->a, uint32_t(lock_ids_.size())).first->second;
          otf2_check(OTF2_EvtWriter_ThreadAcquireLock(evt_, nullptr, t, OTF2_PARADIGM_OPENMP, id,
                                                      order),
                     "acquire lock");
          ++evt_count_;
        }
        break;
      }
      case kNestLock:
        // A nested acquisition (begin) ends the wait that mutex_acquire opened.
        if (r->sub == ompt_scope_begin) close_innermost(t, match_kind_key, r->a, sMutexWait, false);
        break;
      case kMutexReleased:
        if (close_innermost(t, match_kind_key, r->a, sMutexHold, true) && evt_) {
          auto &times = lock_times_[r->a];
          uint32_t order = times.empty() ? 0 :
              uint32_t(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
          uint32_t id = lock_ids_.emplace(r->a, uint32_t(lock_ids_.size())).first->second;
          otf2_check(OTF2_EvtWriter_ThreadReleaseLock(evt_, nullptr, t, OTF2_PARADIGM_OPENMP, id,
                                                      order),
                     "release lock");
          ++evt_count_;
        }
        break;
      case kMasked:
        if (r->sub == ompt_scope_begin)
          push(sMasked, 0, t, 0, r->c, label("masked", r->c), "", OTF2_REGION_ROLE_MASTER);
        else
          close_innermost(t, match_kind, 0, sMasked, false);
        break;
      case kCancel:
        instant(t, label("cancel", r->c), ",\"flags\":\"" + hex(r->u32) + "\"" + where(r->c));
        break;
      case kTarget:
        if (r->sub == ompt_scope_begin)
          push(sTarget, r->f16, t, r->a, r->c, label(target_name(r->f16), r->c),
               ",\"device\":" + std::to_string(int(r->u32)), OTF2_REGION_ROLE_CODE);
        else
          close_innermost(t, match_kind, 0, sTarget, false);
        break;
      case kTargetDataOp: {
        std::string args = ",\"optype\":" + std::to_string(r->f16) +
                           ",\"bytes\":" + std::to_string(r->d) +
                           ",\"device\":" + std::to_string(int(r->u32));
        if (r->sub == ompt_scope_end) {
          close_innermost(t, match_kind, 0, sDataOp, false);
        } else {
          push(sDataOp, r->f16, t, 0, r->c, label("data op", r->c), args,
               OTF2_REGION_ROLE_DATA_TRANSFER);
          if (r->sub == ompt_scope_beginend) close_top(t);
        }
        break;
      }
      case kThreadEnd:
        while (!stack_.empty()) close_top(t);
        break;
      default: break;
    }
  }
  while (!stack_.empty()) close_top(t);
  uint64_t span = first ? t - first : 0;
  stats_.thread_ns += span;
  if (tf.type != ompt_thread_initial && span > implicit_ns_)
    stats_.waiting["idle"] += span - implicit_ns_;
}

// Device times are CLOCK_MONOTONIC; host records' stamps reach it through
// the run's TSC calibration (two pairs for the whole run), which may be a
// microsecond or two off in between. Each device operation is moved by the
// offset of the clock pair nearest in time (taken at target callbacks and
// buffer deliveries), so it lines up with the host slices around it.
void Process::place_device_ops() {
  if (!clock_.tsc || clock_pairs_.empty()) return;
  std::sort(clock_pairs_.begin(), clock_pairs_.end());
  for (DeviceOp &op : device_ops_) {
    auto it = std::lower_bound(clock_pairs_.begin(), clock_pairs_.end(),
                               std::make_pair(op.begin, INT64_MIN));
    if (it == clock_pairs_.end() ||
        (it != clock_pairs_.begin() && op.begin - std::prev(it)->first < it->first - op.begin))
      --it;
    op.begin = uint64_t(int64_t(op.begin) + it->second);
    op.end = uint64_t(int64_t(op.end) + it->second);
  }
}

// Device tracks, from the device trace records: per device, operations in
// start order, each on the first lane free at its start.
void Process::convert_devices() {
  if (device_ops_.empty()) return;
  std::stable_sort(device_ops_.begin(), device_ops_.end(), [](const DeviceOp &a, const DeviceOp &b) {
    return a.device != b.device ? a.device < b.device : a.begin < b.begin;
  });
  struct LaneState {
    uint64_t free_at;
    size_t index;  // into device_lanes_
  };
  std::map<uint32_t, std::vector<LaneState>> lanes;
  std::vector<std::vector<const DeviceOp *>> per_lane;
  for (const DeviceOp &op : device_ops_) {
    std::vector<LaneState> &ls = lanes[op.device];
    size_t k = 0;
    while (k < ls.size() && ls[k].free_at > op.begin) ++k;
    if (k == ls.size()) {
      DeviceLane l;
      l.device = op.device;
      l.lane = uint32_t(k);
      l.location = threads_.size() + device_lanes_.size();
      // Track ids far above any thread id of the system.
      l.tid = (uint64_t(1) << 32) + (uint64_t(op.device) << 16) + k;
      ls.push_back({0, device_lanes_.size()});
      device_lanes_.push_back(l);
      per_lane.emplace_back();
    }
    ls[k].free_at = op.end;
    per_lane[ls[k].index].push_back(&op);
    Stats::Dev &st = stats_.devices[op.device];
    uint64_t dur = op.end - op.begin;
    if (op.type == ompt_callback_target_submit) {
      st.kernels++;
      st.kernel_ns += dur;
    } else if (op.optype == ompt_target_data_transfer_to_device ||
               op.optype == ompt_target_data_transfer_from_device ||
               op.optype == ompt_target_data_transfer_to_device_async ||
               op.optype == ompt_target_data_transfer_from_device_async) {
      st.transfers++;
      st.transfer_bytes += op.d;
      st.transfer_ns += dur;
    } else {
      st.other_ops++;
    }
  }
  for (size_t i = 0; i < device_lanes_.size(); ++i) {
    DeviceLane &l = device_lanes_[i];
    std::string track = "device " + std::to_string(l.device) +
                        (l.lane ? " lane " + std::to_string(l.lane) : std::string());
    if (json_) {
      std::string head = "{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) + ",\"tid\":" +
                         std::to_string(l.tid);
      json_->event(head + ",\"name\":\"thread_name\",\"args\":{\"name\":\"" + track +
                   " (OMPT device tracing)\"}}");
      json_->event(head + ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" +
                   std::to_string(1000000 + l.device * 1000 + l.lane) + "}}");
    }
    OTF2_EvtWriter *w = archive_ ? OTF2_Archive_GetEvtWriter(archive_, l.location) : nullptr;
    for (const DeviceOp *op : per_lane[i]) {
      bool kernel = op->type == ompt_callback_target_submit;
      std::string name = kernel ? "kernel" : data_op_name(op->optype);
      std::string args = ",\"device\":" + std::to_string(op->device);
      if (kernel)
        args += ",\"requested_num_teams\":" + std::to_string(op->d);
      else
        args += ",\"optype\":" + std::to_string(op->optype) + ",\"bytes\":" + std::to_string(op->d);
      if (json_) {
        char head[256];
        snprintf(head, sizeof head,
                 "{\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f,\"dur\":%.3f,",
                 pid_, l.tid, us(op->begin), double(op->end - op->begin) / 1000.0);
        json_->event(std::string(head) + "\"cat\":\"device\",\"name\":\"" + json_escape(name) +
                     "\",\"args\":{" + members(where(op->codeptr) + args) + "}}");
      }
      if (w) {
        uint32_t region = region_for(kernel ? sTarget : sDataOp, "device: " + name, op->codeptr,
                                     kernel ? OTF2_REGION_ROLE_FUNCTION
                                            : OTF2_REGION_ROLE_DATA_TRANSFER);
        otf2_check(OTF2_EvtWriter_Enter(w, nullptr, op->begin, region), "enter");
        otf2_check(OTF2_EvtWriter_Leave(w, nullptr, op->end, region), "leave");
        l.events += 2;
      }
    }
    if (w) otf2_check(OTF2_Archive_CloseEvtWriter(archive_, w), "close event writer");
  }
}

void Process::write_otf2_defs() {
  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive_);
  if (!g) die("OTF2: no global definition writer");
  std::vector<std::string> strings;
  std::map<std::string, uint32_t> string_ref;
  auto str = [&](const std::string &s) {
    auto it = string_ref.find(s);
    if (it != string_ref.end()) return it->second;
    uint32_t ref = uint32_t(strings.size());
    strings.push_back(s);
    string_ref.emplace(s, ref);
    otf2_check(OTF2_GlobalDefWriter_WriteString(g, ref, s.c_str()), "string");
    return ref;
  };
  otf2_check(OTF2_GlobalDefWriter_WriteClockProperties(
                 g, 1000000000, origin_, last_ > origin_ ? last_ - origin_ + 1 : 1,
                 OTF2_UNDEFINED_TIMESTAMP),
             "clock properties");
  uint32_t empty = str("");
  otf2_check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str("node"), str("node"),
                                                      OTF2_UNDEFINED_SYSTEM_TREE_NODE),
             "system tree");
  std::string pname = "process " + std::to_string(pid_);
  if (!meta_["rank"].empty()) pname = "rank " + meta_["rank"] + " (pid " + std::to_string(pid_) + ")";
  otf2_check(OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, str(pname),
                                                     OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                     OTF2_UNDEFINED_LOCATION_GROUP),
             "location group");
  std::vector<uint64_t> members;
  for (const ThreadFile &tf : threads_) {
    std::string n = "OpenMP thread " + std::to_string(tf.index) + " (tid " + std::to_string(tf.tid) + ")";
    otf2_check(OTF2_GlobalDefWriter_WriteLocation(g, tf.rank, str(n), OTF2_LOCATION_TYPE_CPU_THREAD,
                                                  location_events_[tf.rank], 0),
               "location");
    members.push_back(tf.rank);
  }
  // Tasks are named by (thread team, creating thread, generation): one team
  // holding every thread; the creating thread is the task id's thread.
  otf2_check(OTF2_GlobalDefWriter_WriteGroup(g, 0, str("OpenMP threads"),
                                             OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                             OTF2_GROUP_FLAG_NONE, uint32_t(members.size()),
                                             members.data()),
             "locations group");
  otf2_check(OTF2_GlobalDefWriter_WriteGroup(g, 1, str("OpenMP team"), OTF2_GROUP_TYPE_COMM_GROUP,
                                             OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                             uint32_t(members.size()), members.data()),
             "team group");
  otf2_check(OTF2_GlobalDefWriter_WriteComm(g, 0, str("OpenMP process team"), 1,
                                            OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
             "comm");
  // Devices: one accelerator location group per device, created by the
  // process, with a stream per lane.
  std::map<uint32_t, uint32_t> device_group;
  for (const DeviceLane &l : device_lanes_) {
    if (!device_group.count(l.device)) {
      uint32_t ref = uint32_t(1 + device_group.size());
      device_group[l.device] = ref;
      otf2_check(OTF2_GlobalDefWriter_WriteLocationGroup(
                     g, ref, str("device " + std::to_string(l.device) + " (OMPT device tracing)"),
                     OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, 0, 0),
                 "device location group");
    }
    std::string n = "device " + std::to_string(l.device) +
                    (l.lane ? " lane " + std::to_string(l.lane) : std::string());
    otf2_check(OTF2_GlobalDefWriter_WriteLocation(g, l.location, str(n),
                                                  OTF2_LOCATION_TYPE_ACCELERATOR_STREAM, l.events,
                                                  device_group[l.device]),
               "device location");
  }
  for (size_t i = 0; i < regions_.size(); ++i) {
    const Region &r = regions_[i];
    uint32_t file = empty, line = 0;
    if (r.codeptr) {
      const SourceLocation &loc = sym_->resolve(r.codeptr);
      if (!loc.file.empty()) file = str(loc.file);
      line = uint32_t(loc.line);
    }
    uint32_t name = str(r.name);
    std::string desc;
    if (r.codeptr) {
      const SourceLocation &loc = sym_->resolve(r.codeptr);
      desc = loc.function;
      if (!loc.inlined.empty()) desc += " [" + loc.inlined + "]";
    }
    otf2_check(OTF2_GlobalDefWriter_WriteRegion(g, uint32_t(i), name, name, str(desc), r.role,
                                                OTF2_PARADIGM_OPENMP, OTF2_REGION_FLAG_NONE, file,
                                                line, line),
               "region");
  }
}

void Process::convert() {
  meta_ = read_meta(raw_dir_ + "/" + stem_ + ".meta");
  pid_ = atoi(meta_["pid"].c_str());
  window_bytes_ = strtoull(meta_["buffer_bytes"].c_str(), nullptr, 10);
  runtime_module_ = meta_["runtime_module"];
  clock_ = TimeMap::from_meta(meta_);
  if (window_bytes_ < sizeof(Record)) die(stem_ + ".meta names no buffer size");
  sym_ = std::make_unique<Symbolizer>(raw_dir_ + "/" + stem_ + ".maps");
  if (!sym_->ok() && !quiet)
    fprintf(stderr, "kite-trace-convert: %s: no memory map, return addresses stay unresolved\n",
            stem_.c_str());
  scan();
  if (want_json_) {
    outputs.push_back(out_base_ + ".json");
    json_ = std::make_unique<JsonOut>(out_base_ + ".json");
    std::string exe = meta_["exe"];
    json_->event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) +
                 ",\"name\":\"process_name\",\"args\":{\"name\":\"" +
                 json_escape(exe.substr(exe.rfind('/') + 1)) + " (" +
                 json_escape(meta_["runtime"]) + ")\"}}");
    for (const ThreadFile &tf : threads_) {
      const char *type = tf.type == ompt_thread_initial ? "initial" :
                         tf.type == ompt_thread_worker ? "worker" : "other";
      json_->event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) + ",\"tid\":" +
                   std::to_string(tf.tid) + ",\"name\":\"thread_name\",\"args\":{\"name\":\"" +
                   "OpenMP thread " + std::to_string(tf.index) + " (" + type + ", tid " +
                   std::to_string(tf.tid) + ")\"}}");
      json_->event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) + ",\"tid\":" +
                   std::to_string(tf.tid) +
                   ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" +
                   std::to_string(tf.index) + "}}");
    }
  }
  if (want_otf2_) {
    std::string dir = out_base_ + ".otf2";
    archive_ = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive_) die("cannot create the OTF2 archive " + dir);
    otf2_check(OTF2_Archive_SetFlushCallbacks(archive_, &flush_callbacks, nullptr), "flush");
    otf2_check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "collectives");
    otf2_check(OTF2_Archive_SetCreator(archive_, "kite trace"), "creator");
    otf2_check(OTF2_Archive_OpenEvtFiles(archive_), "open event files");
    outputs.push_back(dir + "/traces.otf2");
  }
  location_events_.assign(threads_.size(), 0);
  for (size_t i = 0; i < threads_.size(); ++i) {
    if (progress)
      fprintf(stderr, "kite-trace-convert: %s: thread %zu of %zu\r", stem_.c_str(), i + 1,
              threads_.size());
    if (archive_) evt_ = OTF2_Archive_GetEvtWriter(archive_, threads_[i].rank);
    evt_count_ = 0;
    convert_thread(threads_[i]);
    if (evt_) {
      otf2_check(OTF2_Archive_CloseEvtWriter(archive_, evt_), "close event writer");
      evt_ = nullptr;
    }
    location_events_[i] = evt_count_;
  }
  if (progress && !threads_.empty()) fprintf(stderr, "\n");
  convert_devices();
  if (archive_) {
    otf2_check(OTF2_Archive_CloseEvtFiles(archive_), "close event files");
    otf2_check(OTF2_Archive_OpenDefFiles(archive_), "open definition files");
    for (const ThreadFile &tf : threads_) {
      OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive_, tf.rank);
      otf2_check(OTF2_Archive_CloseDefWriter(archive_, dw), "close definition writer");
    }
    for (const DeviceLane &l : device_lanes_) {
      OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive_, l.location);
      otf2_check(OTF2_Archive_CloseDefWriter(archive_, dw), "close definition writer");
    }
    otf2_check(OTF2_Archive_CloseDefFiles(archive_), "close definition files");
    write_otf2_defs();
    otf2_check(OTF2_Archive_Close(archive_), "close archive");
    archive_ = nullptr;
  }
  if (json_) json_->close();
}

void Process::print_summary(FILE *out) const {
  uint64_t start = strtoull(meta_.count("start_ns") ? meta_.at("start_ns").c_str() : "0", nullptr, 10);
  uint64_t end = meta_.count("end_ns") ? strtoull(meta_.at("end_ns").c_str(), nullptr, 10) : last_;
  if (!start) start = origin_;
  double wall = end > start ? double(end - start) / 1e9 : 0;
  const std::string &rank = meta_.count("rank") ? meta_.at("rank") : std::string();
  fprintf(out, "kite trace: %s (pid %d%s%s) on %s\n",
          meta_.count("exe") ? meta_.at("exe").c_str() : "?", pid_, rank.empty() ? "" : ", rank ",
          rank.c_str(), meta_.count("runtime") ? meta_.at("runtime").c_str() : "?");
  if (!meta_.count("end_ns"))
    fprintf(out, "  the program ended without finalizing the tool (crash, _exit or abort): "
                 "the trace holds what was recorded until then\n");
  fprintf(out, "  wall %.3f s, %zu threads, %" PRIu64 " parallel regions, %" PRIu64
               " tasks, %" PRIu64 " events\n",
          wall, threads_.size(), stats_.parallel_regions, stats_.tasks, stats_.events);
  std::vector<std::pair<uint64_t, const Stats::Par *>> top;
  for (const auto &kv : stats_.parallel) top.emplace_back(kv.first, &kv.second);
  std::sort(top.begin(), top.end(),
            [](auto &a, auto &b) { return a.second->total_ns > b.second->total_ns; });
  if (!top.empty()) fprintf(out, "  costliest parallel regions (time on the thread that began them):\n");
  for (size_t i = 0; i < top.size() && i < 5; ++i) {
    const SourceLocation &loc = const_cast<Symbolizer &>(*sym_).resolve(top[i].first);
    fprintf(out, "    %9.3f ms %6" PRIu64 "x  team %-3u %s  %s\n",
            double(top[i].second->total_ns) / 1e6, top[i].second->count, top[i].second->max_team,
            loc.short_label().c_str(), loc.function.c_str());
  }
  for (const auto &kv : stats_.devices) {
    const Stats::Dev &d = kv.second;
    fprintf(out, "  device %u: %" PRIu64 " kernels %.3f ms, %" PRIu64 " transfers of %" PRIu64
                 " bytes %.3f ms, %" PRIu64 " other data operations (device trace records)\n",
            kv.first, d.kernels, double(d.kernel_ns) / 1e6, d.transfers, d.transfer_bytes,
            double(d.transfer_ns) / 1e6, d.other_ops);
  }
  uint64_t wait = 0;
  for (const auto &kv : stats_.waiting) wait += kv.second;
  if (stats_.thread_ns) {
    fprintf(out, "  thread time %.3f s, waiting or idle %.1f %%", double(stats_.thread_ns) / 1e9,
            100.0 * double(wait) / double(stats_.thread_ns));
    std::vector<std::pair<uint64_t, std::string>> kinds;
    for (const auto &kv : stats_.waiting)
      if (kv.second) kinds.emplace_back(kv.second, kv.first);
    std::sort(kinds.rbegin(), kinds.rend());
    const char *sep = ": ";
    for (const auto &k : kinds) {
      fprintf(out, "%s%s %.1f %%", sep, k.second.c_str(),
              100.0 * double(k.first) / double(stats_.thread_ns));
      sep = ", ";
    }
    fprintf(out, "\n");
  }
}

void Process::write_summary_json(const std::string &path) const {
  FILE *f = fopen(path.c_str(), "we");
  if (!f) die("cannot write " + path);
  auto m = [&](const char *k) { return meta_.count(k) ? meta_.at(k) : std::string(); };
  uint64_t start = strtoull(m("start_ns").c_str(), nullptr, 10);
  uint64_t end = meta_.count("end_ns") ? strtoull(m("end_ns").c_str(), nullptr, 10) : last_;
  fprintf(f,
          "{\"format\":\"kite-trace-summary\",\"version\":1,\"pid\":%d,\"rank\":\"%s\","
          "\"exe\":\"%s\",\"runtime\":\"%s\",\"finalized\":%s,\"wall_ns\":%" PRIu64
          ",\"threads\":%zu,\"parallel_regions\":%" PRIu64 ",\"tasks\":%" PRIu64
          ",\"events\":%" PRIu64 ",\"thread_ns\":%" PRIu64 ",\"parallel\":[",
          pid_, json_escape(m("rank")).c_str(), json_escape(m("exe")).c_str(),
          json_escape(m("runtime")).c_str(), meta_.count("end_ns") ? "true" : "false",
          end > start ? end - start : 0, threads_.size(), stats_.parallel_regions, stats_.tasks,
          stats_.events, stats_.thread_ns);
  const char *sep = "";
  for (const auto &kv : stats_.parallel) {
    const SourceLocation &loc = const_cast<Symbolizer &>(*sym_).resolve(kv.first);
    fprintf(f,
            "%s{\"codeptr_ra\":\"%s\",\"function\":\"%s\",\"file\":\"%s\",\"line\":%d,"
            "\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"max_team\":%u}",
            sep, hex(kv.first).c_str(), json_escape(loc.function).c_str(),
            json_escape(loc.file).c_str(), loc.line, kv.second.count, kv.second.total_ns,
            kv.second.max_team);
    sep = ",";
  }
  fprintf(f, "],\"waiting_ns\":{");
  sep = "";
  for (const auto &kv : stats_.waiting) {
    fprintf(f, "%s\"%s\":%" PRIu64, sep, json_escape(kv.first).c_str(), kv.second);
    sep = ",";
  }
  fprintf(f, "},\"devices\":[");
  sep = "";
  for (const auto &kv : stats_.devices) {
    const Stats::Dev &d = kv.second;
    fprintf(f,
            "%s{\"device\":%u,\"kernels\":%" PRIu64 ",\"kernel_ns\":%" PRIu64
            ",\"transfers\":%" PRIu64 ",\"transfer_bytes\":%" PRIu64 ",\"transfer_ns\":%" PRIu64
            ",\"other_data_ops\":%" PRIu64 "}",
            sep, kv.first, d.kernels, d.kernel_ns, d.transfers, d.transfer_bytes, d.transfer_ns,
            d.other_ops);
    sep = ",";
  }
  fprintf(f, "]}\n");
  fclose(f);
}

[[noreturn]] void usage(int status) {
  fprintf(status ? stderr : stdout,
          "usage: kite-trace-convert [--format otf2,perfetto] [--rank R] [--quiet] RAWDIR OUTDIR\n"
          "Converts the raw files libkite-trace.so wrote into RAWDIR: per process,\n"
          "OUTDIR/<name>.otf2/traces.otf2, OUTDIR/<name>.json (Perfetto / Chrome trace\n"
          "events) and OUTDIR/<name>.summary.json; prints each process's summary.\n"
          "<name> is trace, rank<R> under an MPI launcher, plus -pid<P> when several\n"
          "processes share a name. Exit status 3: RAWDIR holds no process's trace.\n");
  exit(status);
}

}  // namespace

int main(int argc, char **argv) {
  bool otf2 = true, json = true;
  std::string only_rank;
  bool rank_given = false;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") usage(0);
    if (a == "--quiet") {
      quiet = true;
    } else if (a == "--format" && i + 1 < argc) {
      std::string f = argv[++i];
      otf2 = json = false;
      size_t p = 0;
      while (p <= f.size()) {
        size_t c = f.find(',', p);
        std::string one = f.substr(p, c == std::string::npos ? std::string::npos : c - p);
        if (one == "otf2") otf2 = true;
        else if (one == "perfetto" || one == "json") json = true;
        else die("unknown format '" + one + "' (otf2, perfetto)");
        if (c == std::string::npos) break;
        p = c + 1;
      }
    } else if (a == "--rank" && i + 1 < argc) {
      only_rank = argv[++i];
      rank_given = true;
    } else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "kite-trace-convert: unknown option '%s'\n", a.c_str());
      usage(2);
    } else {
      pos.push_back(a);
    }
  }
  if (pos.size() != 2) usage(2);
  progress = !quiet && isatty(2);
  const std::string raw = pos[0], out = pos[1];
  struct Stem {
    std::string stem, rank, base;
    uint64_t start;
  };
  std::vector<Stem> stems;
  DIR *d = opendir(raw.c_str());
  if (!d) die("cannot read " + raw + ": " + strerror(errno));
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() < 6 || n.compare(n.size() - 5, 5, ".meta") != 0) continue;
    Stem s;
    s.stem = n.substr(0, n.size() - 5);
    auto meta = read_meta(raw + "/" + n);
    s.rank = meta["rank"];
    s.start = strtoull(meta["start_ns"].c_str(), nullptr, 10);
    if (rank_given && s.rank != only_rank) continue;
    stems.push_back(s);
  }
  closedir(d);
  if (stems.empty()) return 3;
  std::sort(stems.begin(), stems.end(), [](const Stem &a, const Stem &b) { return a.start < b.start; });
  std::map<std::string, int> seen;
  for (Stem &s : stems) {
    std::string base = s.rank.empty() ? "trace" : "rank" + s.rank;
    if (seen[base]++) base += "-" + s.stem.substr(s.stem.rfind("pid"));
    s.base = base;
  }
  mkdir(out.c_str(), 0755);
  for (const Stem &s : stems) {
    Process p(raw, s.stem, out + "/" + s.base, otf2, json);
    p.convert();
    p.write_summary_json(out + "/" + s.base + ".summary.json");
    p.print_summary(stdout);
    for (const std::string &o : p.outputs) printf("  wrote %s\n", o.c_str());
  }
  return 0;
}
