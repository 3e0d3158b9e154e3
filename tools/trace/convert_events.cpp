// kite-trace-convert: what each raw record becomes. Records arrive in time
// order across the process's threads (convert.cpp); slices open and close on
// their thread's stack and are written to each output as they do.
#include <omp-tools.h>

#include <algorithm>
#include <cinttypes>

#include "convert.h"
#include "names.h"
#include "text.h"

namespace kite_trace {

namespace {

bool match_kind_key(const Open &o, uint64_t key, uint16_t sub) {
  return o.kind == SliceKind(sub) && o.key == key;
}
bool match_kind(const Open &o, uint64_t, uint16_t sub) { return o.kind == SliceKind(sub); }
bool match_implicit(const Open &o, uint64_t key, uint16_t) {
  return (o.kind == sImplicit || o.kind == sInitial) && (key == 0 || o.key == key);
}
bool is_explicit(uint32_t flags) { return flags & (ompt_task_explicit | ompt_task_target); }

const char *const kCategory[] = {"parallel", "parallel", "parallel", "work",   "dispatch", "sync",
                                 "wait",     "sync",     "task",     "mutex",  "mutex",    "work",
                                 "target",   "target",   "task",     "device",   "mpi"};

OTF2_RegionRole role_of(SliceKind kind, uint16_t v) {
  switch (kind) {
    case sParallel: return OTF2_REGION_ROLE_PARALLEL;
    case sImplicit:
    case sInitial: return OTF2_REGION_ROLE_TASK;
    case sWork:
      if (v == ompt_work_sections) return OTF2_REGION_ROLE_SECTIONS;
      if (v == ompt_work_single_executor || v == ompt_work_single_other)
        return OTF2_REGION_ROLE_SINGLE;
      if (v == ompt_work_workshare) return OTF2_REGION_ROLE_WORKSHARE;
      return OTF2_REGION_ROLE_LOOP;
    case sSync:
      if (v == ompt_sync_region_taskwait || v == ompt_sync_region_taskgroup)
        return OTF2_REGION_ROLE_TASK_WAIT;
      if (v != ompt_sync_region_barrier_explicit) return OTF2_REGION_ROLE_IMPLICIT_BARRIER;
      return OTF2_REGION_ROLE_BARRIER;
    case sWait:
    case sMutexWait: return OTF2_REGION_ROLE_ARTIFICIAL;
    case sTask: return v ? OTF2_REGION_ROLE_TASK_UNTIED : OTF2_REGION_ROLE_TASK;
    case sMutexHold:
      return v == ompt_mutex_critical ? OTF2_REGION_ROLE_CRITICAL :
             v == ompt_mutex_atomic ? OTF2_REGION_ROLE_ATOMIC :
             v == ompt_mutex_ordered ? OTF2_REGION_ROLE_ORDERED : OTF2_REGION_ROLE_CODE;
    case sMasked: return OTF2_REGION_ROLE_MASTER;
    case sDataOp: return OTF2_REGION_ROLE_DATA_TRANSFER;
    case sCreate: return OTF2_REGION_ROLE_TASK_CREATE;
    case sDevice: return v == 0xffff ? OTF2_REGION_ROLE_FUNCTION : OTF2_REGION_ROLE_DATA_TRANSFER;
    case sMpi:
      switch (kite_mpi::call_kind(v)) {
        case kite_mpi::Kind::kPointToPoint:
        case kite_mpi::Kind::kWaitTest: return OTF2_REGION_ROLE_POINT2POINT;
        case kite_mpi::Kind::kCollective:
        case kite_mpi::Kind::kNonBlockingCollective:  // the role of the operation it starts
          switch (kite_mpi::blocking_of(v)) {
            case kite_mpi::kBarrier: return OTF2_REGION_ROLE_BARRIER;
            case kite_mpi::kBcast:
            case kite_mpi::kScatter:
            case kite_mpi::kScatterv: return OTF2_REGION_ROLE_COLL_ONE2ALL;
            case kite_mpi::kReduce:
            case kite_mpi::kGather:
            case kite_mpi::kGatherv: return OTF2_REGION_ROLE_COLL_ALL2ONE;
            case kite_mpi::kScan:
            case kite_mpi::kExscan: return OTF2_REGION_ROLE_COLL_OTHER;
            default: return OTF2_REGION_ROLE_COLL_ALL2ALL;
          }
        default: return OTF2_REGION_ROLE_FUNCTION;
      }
    default: return OTF2_REGION_ROLE_CODE;
  }
}

}  // namespace

std::string Process::label(const char *what, uint64_t codeptr) {
  if (!codeptr) return what;
  return std::string(what) + " @ " + sym_->resolve(codeptr).short_label();
}

std::string Process::where(uint64_t codeptr) {
  if (!codeptr) return "";
  auto it = where_cache_.find(codeptr);
  if (it != where_cache_.end()) return it->second;
  const SourceLocation &loc = sym_->resolve(codeptr);
  std::string s = ",\"codeptr_ra\":\"" + hex(codeptr) + "\"";
  if (!loc.function.empty()) s += ",\"function\":\"" + json_escape(loc.function) + "\"";
  if (!loc.signature.empty()) s += ",\"signature\":\"" + json_escape(loc.signature) + "\"";
  if (!loc.file.empty())
    s += ",\"file\":\"" + json_escape(loc.file) + "\",\"line\":" + std::to_string(loc.line);
  if (!loc.inlined.empty()) s += ",\"inlined\":\"" + json_escape(loc.inlined) + "\"";
  if (loc.file.empty() && !loc.module.empty())
    s += ",\"module\":\"" + json_escape(loc.module) + "\"";
  return where_cache_.emplace(codeptr, s).first->second;
}

bool Process::in_runtime(uint64_t codeptr) {
  if (!codeptr || runtime_module_.empty()) return false;
  auto it = in_runtime_.find(codeptr);
  if (it != in_runtime_.end()) return it->second;
  bool in = sym_->resolve(codeptr).module == runtime_module_;
  in_runtime_.emplace(codeptr, in);
  return in;
}

std::string Process::site_name(SliceKind kind, uint16_t v, uint64_t codeptr) {
  switch (kind) {
    case sParallel: return label(v ? "teams" : "parallel", codeptr);
    case sInitial: return "initial task";
    case sImplicit: return label(("implicit task " + std::to_string(v)).c_str(), codeptr);
    case sWork: return label(work_name(v), codeptr);
    case sChunk:
      return v == ompt_dispatch_section ? "section" :
             v == ompt_dispatch_iteration ? "iteration" : "chunk";
    case sSync: return label(sync_name(v), codeptr);
    case sReduction: return label("reduction", codeptr);
    case sWait: return std::string("wait: ") + sync_name(v);
    case sTask: return label("task", codeptr);
    case sMutexWait: return label((std::string("wait: ") + mutex_name(v)).c_str(), codeptr);
    case sMutexHold: return label(mutex_name(v), codeptr);
    case sMasked: return label("masked", codeptr);
    case sTarget: return label(target_name(v), codeptr);
    case sDataOp: return label("data op", codeptr);
    case sCreate: return label("create task", codeptr);
    case sDevice: return std::string("device: ") + (v == 0xffff ? "kernel" : data_op_name(v));
    case sMpi: return kite_mpi::call_name(v);
  }
  return "?";
}

uint64_t Process::location_iid(uint64_t codeptr) {
  if (!codeptr) return 0;
  const SourceLocation &loc = sym_->resolve(codeptr);
  if (!loc.known()) return 0;
  // OTF2's convention for an inlined call: "function [inlined chain]".
  std::string fn = loc.function;
  if (!loc.inlined.empty()) fn += " [" + loc.inlined + "]";
  return perfetto_->location_iid(loc.file, fn, loc.line);
}

uint32_t Process::site(SliceKind kind, uint16_t variant, uint64_t codeptr) {
  SiteKey key{codeptr, (uint32_t(kind) << 16) | variant};
  auto it = site_index_.find(key);
  if (it != site_index_.end()) return it->second;
  Site s;
  s.name = site_name(kind, variant, codeptr);
  s.codeptr = codeptr;
  s.role = role_of(kind, variant);
  if (archive_) {  // OTF2 regions: one per name and source location, across processes
    Otf2Region r;
    r.name = s.name;
    r.role = s.role;
    r.paradigm = kind == sMpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_OPENMP;
    if (codeptr) {
      const SourceLocation &loc = sym_->resolve(codeptr);
      r.file = loc.file;
      r.line = uint32_t(loc.line);
      r.desc = loc.function;
      if (!loc.inlined.empty()) r.desc += " [" + loc.inlined + "]";
    }
    s.region = out_.region(r);
  }
  if (perfetto_) {
    s.name_iid = perfetto_->name_iid(s.name);
    s.location_iid = location_iid(codeptr);
  }
  uint32_t index = uint32_t(sites_.size());
  sites_.push_back(std::move(s));
  site_index_.emplace(key, index);
  return index;
}

// Per-event values shown with a slice, in the Perfetto output.
unsigned Process::annotations(const Open &o, Annotation *a) const {
  auto add = [&](unsigned i, AnnotationName n, uint64_t v, Annotation::Type t) {
    a[i].name = n;
    a[i].value = v;
    a[i].type = t;
  };
  switch (o.kind) {
    case sParallel: add(0, aRequestedThreads, o.v[0], Annotation::kUint); return 1;
    case sImplicit:
    case sInitial:
      add(0, aTeamSize, o.v[0], Annotation::kUint);
      add(1, aThreadNum, o.v[1], Annotation::kUint);
      return 2;
    case sWork: add(0, aCount, o.v[0], Annotation::kUint); return 1;
    case sChunk:
      add(0, aStart, o.v[0], Annotation::kUint);
      if (!o.v[1]) return 1;
      add(1, aIterations, o.v[1], Annotation::kUint);
      return 2;
    case sMutexWait:
    case sMutexHold: add(0, aWaitId, o.key, Annotation::kPointer); return 1;
    case sTarget: add(0, aDevice, uint64_t(int64_t(int32_t(o.v[0]))), Annotation::kInt); return 1;
    case sDataOp:
      add(0, aOptype, o.sub, Annotation::kUint);
      add(1, aBytes, o.v[0], Annotation::kUint);
      add(2, aDevice, uint64_t(int64_t(int32_t(o.v[1]))), Annotation::kInt);
      return 3;
    case sCreate:
      if (!o.v[1]) return 0;
      add(0, aUndeferred, 1, Annotation::kBool);
      return 1;
    default: return 0;
  }
}

std::string Process::json_args(const Open &o) const {
  std::string s;
  switch (o.kind) {
    case sParallel: s = ",\"requested_threads\":" + std::to_string(o.v[0]); break;
    case sImplicit:
    case sInitial:
      s = ",\"team_size\":" + std::to_string(o.v[0]) + ",\"thread_num\":" +
          std::to_string(o.v[1]) + ",\"task_id\":\"" + hex(o.key) + "\"";
      break;
    case sWork:
      s = ",\"work_type\":\"" + std::string(work_name(o.sub)) + "\",\"count\":" +
          std::to_string(o.v[0]);
      break;
    case sChunk:
      s = ",\"start\":" + std::to_string(o.v[0]);
      if (o.v[1]) s += ",\"iterations\":" + std::to_string(o.v[1]);
      break;
    case sTask: s = ",\"task_id\":\"" + hex(o.key) + "\""; break;
    case sCreate:
      s = ",\"task_id\":\"" + hex(o.key) + "\"";
      if (o.v[0]) s += ",\"has_dependences\":true";
      if (o.v[1]) s += ",\"undeferred\":true";
      break;
    case sMutexWait:
    case sMutexHold: s = ",\"wait_id\":\"" + hex(o.key) + "\""; break;
    case sTarget: s = ",\"device\":" + std::to_string(int(o.v[0])); break;
    case sDataOp:
      s = ",\"optype\":" + std::to_string(o.sub) + ",\"bytes\":" + std::to_string(o.v[0]) +
          ",\"device\":" + std::to_string(int(o.v[1]));
      break;
    default: break;
  }
  if (o.runtime_codeptr) s += ",\"codeptr_ra_in_runtime\":\"" + hex(o.runtime_codeptr) + "\"";
  return s;
}

void Process::begin_event(const Open &o, uint64_t t) {
  const Site &s = sites_[o.site];
  // An MPI call's Perfetto begin waits for its messages; something that
  // begins inside it writes it now.
  if (!cur_->mpi.begin_written)
    for (const Open &m : cur_->stack)
      if (m.kind == sMpi) mpi_write_begin(*cur_, m);
  if (cur_->evt) {
    otf2_check(OTF2_EvtWriter_Enter(cur_->evt, nullptr, t, s.region), "enter");
    ++cur_->evt_count;
  }
  if (o.kind == sMpi) return;  // Perfetto: when its messages are known
  if (perfetto_ && o.kind != sCreate) {
    Annotation a[3];
    PerfettoEvent e;
    e.name_iid = s.name_iid;
    e.location_iid = s.location_iid;
    e.annotations = a;
    e.n_annotations = annotations(o, a);
    // A task's first start ends its creation flow and its dependences' flows.
    if (o.kind == sTask && o.v[2]) {
      std::vector<uint64_t> &in = flows_scratch_;
      in.clear();
      auto ti = tasks_.find(o.key);
      if (ti != tasks_.end()) {
        in.push_back(ti->second.flow);
        in.insert(in.end(), ti->second.flows_in.begin(), ti->second.flows_in.end());
      }
      e.terminating = in.data();
      e.n_terminating = unsigned(in.size());
    }
    perfetto_->begin(cur_->seq, t, e);
  }
}

void Process::push(SliceKind kind, uint16_t variant, uint64_t t, uint64_t key, uint64_t codeptr,
                   uint64_t v0, uint64_t v1, uint64_t v2) {
  // A construct whose runtime call the compiler made a tail call (gcc ends
  // an outlined region with `jmp GOMP_barrier`) reports a return address
  // inside the runtime. It is shown at the innermost enclosing construct
  // with a user return address, and says so.
  uint64_t runtime_codeptr = 0;
  if (in_runtime(codeptr)) {
    uint64_t user = 0;
    for (auto it = cur_->stack.rbegin(); it != cur_->stack.rend() && !user; ++it)
      if (it->codeptr && !in_runtime(it->codeptr)) user = it->codeptr;
    runtime_codeptr = codeptr;
    codeptr = user;
  }
  Open o{kind, variant, t, key, codeptr, site(kind, variant, codeptr), {v0, v1, v2}};
  o.runtime_codeptr = runtime_codeptr;
  begin_event(o, t);
  cur_->stack.push_back(o);
}

void Process::emit_close(Open &o, uint64_t t) {
  if (o.kind == sMpi) return mpi_close(o, t);
  uint64_t dur = t - o.begin;
  const Site &s = sites_[o.site];
  if (cur_->evt) {
    otf2_check(OTF2_EvtWriter_Leave(cur_->evt, nullptr, t, s.region), "leave");
    ++cur_->evt_count;
  }
  // A task that ends starts the flows of the dependences waiting on it.
  const std::vector<uint64_t> *out = nullptr;
  if (o.kind == sTask && o.v[1]) {
    auto ti = tasks_.find(o.key);
    if (ti != tasks_.end()) out = &ti->second.flows_out;
  }
  if (perfetto_ && o.kind != sCreate)
    perfetto_->end(cur_->seq, t, out ? out->data() : nullptr, out ? unsigned(out->size()) : 0);
  if (json_) {
    char head[256];
    snprintf(head, sizeof head,
             "{\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f,\"dur\":%.3f,", pid_,
             cur_->file->tid, us(o.begin), double(dur) / 1000.0);
    std::string args = where(o.codeptr) + json_args(o);
    json_->event(std::string(head) + "\"cat\":\"" + kCategory[o.kind] + "\",\"name\":\"" +
                 json_escape(s.name) + "\",\"args\":{" + (args.empty() ? args : args.substr(1)) +
                 "}}");
    if (out)
      for (uint64_t e : *out) json_flow("s", "dependence", std::to_string(e), cur_->file->tid,
                                        us(t) - 0.001);
  }
  // Statistics: waiting by kind, exclusive of tasks run while waiting.
  uint64_t own = dur > o.nested_task_ns ? dur - o.nested_task_ns : 0;
  switch (o.kind) {
    case sWait: stats_.waiting[sync_name(o.sub)] += own; break;
    case sMutexWait: stats_.waiting[mutex_name(o.sub)] += own; break;
    case sImplicit: cur_->implicit_ns += dur; break;
    case sParallel: {
      Stats::Par &p = stats_.parallel[o.codeptr];
      p.count++;
      p.total_ns += dur;
      break;
    }
    case sTask:
      for (auto it = cur_->stack.rbegin(); it != cur_->stack.rend(); ++it)
        if (&*it != &o && (it->kind == sWait || it->kind == sMutexWait)) {
          it->nested_task_ns += dur;
          break;
        }
      break;
    default: break;
  }
}

void Process::json_flow(const char *ph, const char *cat, const std::string &id, uint64_t tid,
                        double ts) {
  char b[256];
  snprintf(b, sizeof b,
           "{\"ph\":\"%s\",%s\"cat\":\"%s\",\"name\":\"%s\",\"id\":%s,\"pid\":%d,"
           "\"tid\":%" PRIu64 ",\"ts\":%.3f}",
           ph, ph[0] == 'f' ? "\"bp\":\"e\"," : "", cat,
           cat[0] == 't' ? "task" : cat[0] == 'm' ? "message" : "dependence",
           id.c_str(), pid_, tid, ts);
  json_->event(b);
}

void Process::close_top(uint64_t t) {
  emit_close(cur_->stack.back(), t);  // still on the stack: its search skips it
  cur_->stack.pop_back();
}

void Process::reopen(Open &o, uint64_t t) {
  o.begin = t;
  o.nested_task_ns = 0;
  o.v[2] = 0;  // not a task's first start again
  begin_event(o, t);
  cur_->stack.push_back(o);
}

// Closes the innermost open slice that matches. What is open above it is
// closed first; with reopen_above (a lock released out of order), those
// slices are reopened right after, so slices always nest.
bool Process::close_innermost(uint64_t t, bool (*match)(const Open &, uint64_t, uint16_t),
                              uint64_t key, uint16_t sub, bool reopen_above) {
  std::vector<Open> &stack = cur_->stack;
  size_t i = stack.size();
  while (i > 0 && !match(stack[i - 1], key, sub)) --i;
  if (i == 0) return false;
  std::vector<Open> above;
  while (stack.size() > i) {
    if (reopen_above) above.push_back(stack.back());
    close_top(t);
  }
  close_top(t);
  for (auto it = above.rbegin(); it != above.rend(); ++it) reopen(*it, t);
  return true;
}

uint32_t Process::rank_of_task(uint64_t task_id) const {
  uint32_t index = id_thread(task_id);
  if (index < rank_by_index_.size()) return rank_by_index_[index];
  auto rank = thread_rank_.find(index);
  return rank == thread_rank_.end() ? 0 : rank->second;
}

uint32_t Process::lock_id(uint64_t wait_id) {
  return lock_ids_.emplace(wait_id, uint32_t(lock_ids_.size())).first->second;
}

void Process::handle(ThreadState &ts, const Record &rec) {
  const Record *r = &rec;
  cur_ = &ts;
  uint64_t t = window_clip(*r);
  ts.t = t;
  if (!ts.first) ts.first = t;
  last_ = std::max(last_, t);
  stats_.events++;
  switch (r->kind) {
    case kParallelBegin:
      stats_.parallel_regions++;
      parallel_codeptr_[r->a] = r->c;
      push(sParallel, (r->d & ompt_parallel_league) ? 1 : 0, t, r->a, r->c, r->u32);
      if (ts.evt) {
        otf2_check(OTF2_EvtWriter_ThreadFork(ts.evt, nullptr, t, OTF2_PARADIGM_OPENMP, r->u32),
                   "fork");
        ++ts.evt_count;
      }
      break;
    case kParallelEnd:
      parallel_codeptr_.erase(r->a);
      if (close_innermost(t, match_kind_key, r->a, sParallel, false) ||
          close_innermost(t, match_kind, 0, sParallel, false)) {
        if (ts.evt) {
          otf2_check(OTF2_EvtWriter_ThreadJoin(ts.evt, nullptr, t, OTF2_PARADIGM_OPENMP), "join");
          ++ts.evt_count;
        }
      }
      break;
    case kImplicitTask:
      if (r->sub == ompt_scope_begin) {
        bool initial = r->f16 == 1;
        auto pc = parallel_codeptr_.find(r->a);
        uint64_t region_codeptr = initial || pc == parallel_codeptr_.end() ? 0 : pc->second;
        push(initial ? sInitial : sImplicit, initial ? 0 : uint16_t(r->d), t, r->b,
             region_codeptr, r->u32, r->d);
        // The team size of the region this thread's primary opened.
        for (auto it = ts.stack.rbegin(); it != ts.stack.rend(); ++it)
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
      if (r->sub == ompt_scope_begin)
        push(sWork, r->f16, t, 0, r->c, r->d);
      else
        close_innermost(t, match_kind, 0, sWork, false);
      break;
    case kDispatch:
      if (!ts.stack.empty() && ts.stack.back().kind == sChunk) close_top(t);
      push(sChunk, r->sub, t, 0, 0, r->a, r->d);
      break;
    case kSyncRegion:
    case kReduction: {
      SliceKind k = r->kind == kSyncRegion ? sSync : sReduction;
      if (r->sub == ompt_scope_begin)
        push(k, k == sSync ? r->f16 : 0, t, 0, r->c);
      else
        close_innermost(t, match_kind, 0, k, false);
      break;
    }
    case kSyncWait:
      if (r->sub == ompt_scope_begin)
        push(sWait, r->f16, t, 0, r->c);
      else
        close_innermost(t, match_kind, 0, sWait, false);
      break;
    case kTaskCreate: {
      if (!is_explicit(r->u32)) break;
      stats_.tasks++;
      TaskInfo &ti = tasks_[r->a];
      stats_.tasks_alive_max = std::max(stats_.tasks_alive_max, uint64_t(tasks_.size()));
      ti.codeptr = r->c;
      ti.flags = r->u32;
      ti.flow = ++next_flow_;
      push(sCreate, 0, t, r->a, r->c, r->sub, (r->u32 & ompt_task_undeferred) ? 1 : 0);
      const Open &o = ts.stack.back();
      if (perfetto_) {
        Annotation a[1];
        PerfettoEvent e;
        e.name_iid = sites_[o.site].name_iid;
        e.location_iid = sites_[o.site].location_iid;
        e.annotations = a;
        e.n_annotations = annotations(o, a);
        e.flows = &ti.flow;
        e.n_flows = 1;
        perfetto_->instant(ts.seq, t, e);
      }
      if (json_) json_flow("s", "task", "\"" + hex(r->a) + "\"", ts.file->tid, us(t));
      if (ts.evt) {
        otf2_check(OTF2_EvtWriter_ThreadTaskCreate(ts.evt, nullptr, t, 0, rank_of_task(r->a),
                                                   uint32_t(id_serial(r->a))),
                   "task create");
        ++ts.evt_count;
      }
      close_top(t);
      break;
    }
    case kTaskDependence: {
      // Kept only while both tasks are alive: a source already done has
      // nothing left to wait for.
      auto src = tasks_.find(r->a);
      if (src == tasks_.end()) break;
      uint64_t flow = ++next_flow_;
      src->second.flows_out.push_back(flow);
      tasks_[r->b].flows_in.push_back(flow);
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
          (r->sub == ompt_task_switch || r->sub == ompt_task_yield)) {
        for (Open &o : ts.stack)
          if (o.kind == sTask && o.key == r->a) o.v[1] = 0;  // its end is not the task's
        close_innermost(t, match_kind_key, r->a, sTask, false);
      }
      if (prior_explicit && ends) {
        for (Open &o : ts.stack)
          if (o.kind == sTask && o.key == r->a) o.v[1] = 1;  // the task's end: its flows start
        if (close_innermost(t, match_kind_key, r->a, sTask, false) && ts.evt) {
          otf2_check(OTF2_EvtWriter_ThreadTaskComplete(ts.evt, nullptr, t, 0, rank_of_task(r->a),
                                                       uint32_t(id_serial(r->a))),
                     "task complete");
          ++ts.evt_count;
        }
        tasks_.erase(prior);
      }
      auto next = tasks_.find(r->b);
      if (next == tasks_.end() || !is_explicit(next->second.flags)) break;
      bool resumed = false;
      for (const Open &o : ts.stack)
        if (o.kind == sTask && o.key == r->b) resumed = true;
      if (!resumed) {
        TaskInfo &ti = next->second;
        bool first = !ti.started;
        // v[2]: the task's first start (its flows end here).
        push(sTask, (ti.flags & ompt_task_untied) ? 1 : 0, t, r->b, ti.codeptr, 0, 0, first);
        if (json_ && first) {
          json_flow("f", "task", "\"" + hex(r->b) + "\"", ts.file->tid, us(t));
          for (uint64_t e : ti.flows_in)
            json_flow("f", "dependence", std::to_string(e), ts.file->tid, us(t));
        }
        ti.started = true;
        ti.flows_in.clear();
        ti.flows_in.shrink_to_fit();
      }
      if (ts.evt) {
        otf2_check(OTF2_EvtWriter_ThreadTaskSwitch(ts.evt, nullptr, t, 0, rank_of_task(r->b),
                                                   uint32_t(id_serial(r->b))),
                   "task switch");
        ++ts.evt_count;
      }
      break;
    }
    case kMutexAcquire:
      // A test routine does not wait: its acquisition shows as holding only.
      if (r->f16 != ompt_mutex_test_lock && r->f16 != ompt_mutex_test_nest_lock)
        push(sMutexWait, r->f16, t, r->a, r->c);
      break;
    case kMutexAcquired: {
      close_innermost(t, match_kind_key, r->a, sMutexWait, false);
      push(sMutexHold, r->f16, t, r->a, r->c);
      // Acquisitions are numbered in time order across the process: each
      // lock's numbers increase, as OTF2 asks.
      ts.stack.back().order = lock_order_++;
      if (ts.evt) {
        otf2_check(OTF2_EvtWriter_ThreadAcquireLock(ts.evt, nullptr, t, OTF2_PARADIGM_OPENMP,
                                                    lock_id(r->a), ts.stack.back().order),
                   "acquire lock");
        ++ts.evt_count;
      }
      break;
    }
    case kNestLock:
      // A nested acquisition (begin) ends the wait that mutex_acquire opened.
      if (r->sub == ompt_scope_begin) close_innermost(t, match_kind_key, r->a, sMutexWait, false);
      break;
    case kMutexReleased: {
      uint32_t order = 0;
      for (auto it = ts.stack.rbegin(); it != ts.stack.rend(); ++it)
        if (it->kind == sMutexHold && it->key == r->a) {
          order = it->order;
          break;
        }
      if (close_innermost(t, match_kind_key, r->a, sMutexHold, true) && ts.evt) {
        otf2_check(OTF2_EvtWriter_ThreadReleaseLock(ts.evt, nullptr, t, OTF2_PARADIGM_OPENMP,
                                                    lock_id(r->a), order),
                   "release lock");
        ++ts.evt_count;
      }
      break;
    }
    case kMasked:
      if (r->sub == ompt_scope_begin)
        push(sMasked, 0, t, 0, r->c);
      else
        close_innermost(t, match_kind, 0, sMasked, false);
      break;
    case kCancel: {
      std::string name = label("cancel", r->c);
      if (perfetto_) {
        Annotation a[1];
        a[0].name = aFlags;
        a[0].value = r->u32;
        PerfettoEvent e;
        e.name_iid = perfetto_->name_iid(name);
        e.location_iid = location_iid(r->c);
        e.annotations = a;
        e.n_annotations = 1;
        perfetto_->instant(ts.seq, t, e);
      }
      if (json_) {
        char head[200];
        snprintf(head, sizeof head,
                 "{\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f,", pid_,
                 ts.file->tid, us(t));
        std::string args = ",\"flags\":\"" + hex(r->u32) + "\"" + where(r->c);
        json_->event(std::string(head) + "\"name\":\"" + json_escape(name) + "\",\"args\":{" +
                     args.substr(1) + "}}");
      }
      break;
    }
    case kTarget:
      if (r->d) {
        clock_pairs_.emplace_back(r->d, int64_t(r->time) - int64_t(r->d));
        if (clock_pairs_.size() > 1024) clock_pairs_.pop_front();
      }
      if (r->sub == ompt_scope_begin)
        push(sTarget, r->f16, t, r->a, r->c, r->u32);
      else
        close_innermost(t, match_kind, 0, sTarget, false);
      break;
    case kTargetDataOp:
      if (r->sub == ompt_scope_end) {
        close_innermost(t, match_kind, 0, sDataOp, false);
      } else {
        push(sDataOp, r->f16, t, 0, r->c, r->d, r->u32);
        if (r->sub == ompt_scope_beginend) close_top(t);
      }
      break;
    case kDeviceOp:
      if (r->sub == 0) {
        clock_pairs_.emplace_back(r->a, int64_t(r->time) - int64_t(r->a));
        if (clock_pairs_.size() > 1024) clock_pairs_.pop_front();
      } else if (r->b >= r->a && r->a) {
        device_op(*r);
      }
      break;
    case kThreadEnd:
      while (!ts.stack.empty()) close_top(t);
      break;
    case kMpiEnter:
    case kMpiLeave:
    case kMpiSend:
    case kMpiSendComplete:
    case kMpiRecvRequest:
    case kMpiRecv:
    case kMpiCollective:
    case kMpiCollectiveRequest:
    case kMpiCollectiveComplete:
    case kMpiRequestCancelled: mpi_record(ts, *r, t); break;
    default: break;
  }
}

void Process::finish_thread(ThreadState &ts) {
  cur_ = &ts;
  uint64_t end = window_close_time(ts);
  while (!ts.stack.empty()) close_top(end);
  ts.t = std::max(ts.t, end);
  uint64_t span = ts.first ? ts.t - ts.first : 0;
  stats_.thread_ns += span;
  if (ts.file->type != ompt_thread_initial && span > ts.implicit_ns)
    stats_.waiting["idle"] += span - ts.implicit_ns;
  if (ts.evt) {
    otf2_check(OTF2_Archive_CloseEvtWriter(archive_, ts.evt), "close event writer");
    ts.evt = nullptr;
  }
  ts.in.reset();
}

// A device lane free at `begin`: the first of the device's lanes whose last
// operation ended by then, or a new one.
DeviceLane &Process::lane_for(uint32_t device, uint64_t begin) {
  uint32_t count = 0;
  for (DeviceLane &l : device_lanes_)
    if (l.device == device) {
      if (l.free_at <= begin) return l;
      ++count;
    }
  DeviceLane l;
  l.device = device;
  l.lane = count;
  l.location = location_base_ + threads_.size() + device_lanes_.size();
  // Track ids far above any thread id of the system.
  l.tid = (uint64_t(1) << 32) + (uint64_t(device) << 16) + count;
  std::string track = "device " + std::to_string(device) +
                      (count ? " lane " + std::to_string(count) : std::string());
  if (json_) {
    std::string head = "{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) + ",\"tid\":" +
                       std::to_string(l.tid);
    json_->event(head + ",\"name\":\"thread_name\",\"args\":{\"name\":\"" + track +
                 " (OMPT device tracing)\"}}");
    json_->event(head + ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" +
                 std::to_string(1000000 + device * 1000 + count) + "}}");
  }
  if (perfetto_) l.seq = perfetto_->named_track(track + " (OMPT device tracing)");
  if (archive_) l.evt = OTF2_Archive_GetEvtWriter(archive_, l.location);
  device_lanes_.push_back(l);
  return device_lanes_.back();
}

// One device operation (a kernel or data operation, with the device's own
// times on CLOCK_MONOTONIC). Host stamps reach that clock through the run's
// TSC calibration (two pairs for the whole run), which may be a microsecond
// or two off in between: the operation is moved by the offset of the clock
// pair nearest in time among the recent ones (taken at target callbacks and
// buffer deliveries; later ones are farther than the delivery's own).
void Process::device_op(const Record &r) {
  uint32_t device = r.u32;
  bool kernel = r.sub == ompt_callback_target_submit;
  uint64_t begin = r.a, end = r.b;
  if (clock_.tsc && !clock_pairs_.empty()) {
    const std::pair<uint64_t, int64_t> *best = nullptr;
    uint64_t best_d = UINT64_MAX;
    for (const auto &p : clock_pairs_) {
      uint64_t d = p.first > begin ? p.first - begin : begin - p.first;
      if (d < best_d) {
        best_d = d;
        best = &p;
      }
    }
    begin = uint64_t(int64_t(begin) + best->second);
    end = uint64_t(int64_t(end) + best->second);
  } else {
    begin = align_(begin);
    end = align_(end);
  }
  last_ = std::max(last_, end);
  DeviceLane &l = lane_for(device, begin);
  l.free_at = end;
  Stats::Dev &st = stats_.devices[device];
  uint64_t dur = end - begin;
  if (kernel) {
    st.kernels++;
    st.kernel_ns += dur;
  } else if (r.f16 == ompt_target_data_transfer_to_device ||
             r.f16 == ompt_target_data_transfer_from_device ||
             r.f16 == ompt_target_data_transfer_to_device_async ||
             r.f16 == ompt_target_data_transfer_from_device_async) {
    st.transfers++;
    st.transfer_bytes += r.d;
    st.transfer_ns += dur;
  } else {
    st.other_ops++;
  }
  uint16_t variant = kernel ? 0xffff : r.f16;
  uint32_t si = site(sDevice, variant, r.c);
  const Site &s = sites_[si];
  const char *name = kernel ? "kernel" : data_op_name(r.f16);
  if (json_) {
    std::string args = ",\"device\":" + std::to_string(device);
    if (kernel)
      args += ",\"requested_num_teams\":" + std::to_string(r.d);
    else
      args += ",\"optype\":" + std::to_string(r.f16) + ",\"bytes\":" + std::to_string(r.d);
    char head[256];
    snprintf(head, sizeof head,
             "{\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f,\"dur\":%.3f,", pid_,
             l.tid, us(begin), double(dur) / 1000.0);
    args = where(r.c) + args;
    json_->event(std::string(head) + "\"cat\":\"device\",\"name\":\"" + name +
                 "\",\"args\":{" + args.substr(1) + "}}");
  }
  if (perfetto_) {
    Annotation a[3];
    a[0].name = aDevice;
    a[0].value = device;
    unsigned n = 2;
    if (kernel) {
      a[1].name = aRequestedTeams;
      a[1].value = r.d;
    } else {
      a[1].name = aOptype;
      a[1].value = r.f16;
      a[2].name = aBytes;
      a[2].value = r.d;
      n = 3;
    }
    PerfettoEvent e;
    e.name_iid = perfetto_->name_iid(name);
    e.location_iid = s.location_iid;
    e.annotations = a;
    e.n_annotations = n;
    perfetto_->begin(l.seq, begin, e);
    perfetto_->end(l.seq, end);
  }
  if (l.evt) {
    otf2_check(OTF2_EvtWriter_Enter(l.evt, nullptr, begin, s.region), "enter");
    otf2_check(OTF2_EvtWriter_Leave(l.evt, nullptr, end, s.region), "leave");
    l.events += 2;
  }
}

}  // namespace kite_trace
