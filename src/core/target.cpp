// Device constructs: on the host (host fallback, the only device unless
// KITE_DEVICES asks for emulated ones) and on emulated devices, whose
// mapping lives in device.cpp.
//
// A target region runs as a fresh initial task, as OpenMP describes the
// host device executing it: no enclosing team, its own contention group,
// the device's initial ICVs. The thread's previous state is kept on its
// stack and restored at the end of the region. A target task (nowait) is
// an explicit task of the task engine whose body is such a region.
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <new>

#include "ompt/events_target.h"
#include "ompt/events_task.h"
#include "places.h"

namespace kite {

namespace {

// Set once the program chooses default-device-var itself.
std::atomic<bool> g_default_device_chosen{false};
std::atomic<bool> g_warned_unknown_device{false};

// Offload failures end the program the way libgomp ends it: a message and
// exit status 1 (EXIT_FAILURE), so scripts see the same outcome.
[[noreturn]] void offload_failure(const char* what) {
  fflush(stdout);
  fprintf(stderr, "kite: error: %s\n", what);
  exit(EXIT_FAILURE);
}

bool default_device_chosen() {
  if (g_default_device_chosen.load(std::memory_order_relaxed)) return true;
  return getenv("OMP_DEFAULT_DEVICE") != nullptr;
}

}  // namespace

int device_count() { return emulated_device_count(); }
int initial_device() { return device_count(); }
bool is_host_device(int device) { return device == initial_device() || device == kOmpInitialDevice; }

int device_for_routine(int device) {
  if (is_host_device(device)) return initial_device();
  if (is_emulated_device(device)) {
    device_ensure_initialized(device);
    return device;
  }
  device_routine_on_host(device);  // terminates under mandatory offload
  return kNoSuchDevice;
}

void note_default_device_chosen() { g_default_device_chosen.store(true, std::memory_order_relaxed); }

int select_device_for_construct(int device) {
  if (device == kDeviceForceHost) return -1;
  int policy = g_icv.target_offload;
  bool from_icv = device == kDeviceFromIcv;
  if (from_icv) device = self()->task->icv.default_device;
  if (device == kOmpInvalidDevice) offload_failure("omp_invalid_device encountered");
  if (is_host_device(device)) {
    // OpenMP 5.2: with mandatory offload, default-device-var starts out
    // naming no available device; a program that picks the host itself
    // (device clause, OMP_DEFAULT_DEVICE, omp_set_default_device) gets it.
    if (policy == kOffloadMandatory && from_icv && !default_device_chosen())
      offload_failure("OMP_TARGET_OFFLOAD is set to MANDATORY, but only the host device is available");
    return -1;
  }
  if (is_emulated_device(device)) {
    if (policy == kOffloadDisabled) return -1;
    device_ensure_initialized(device);
    return device;
  }
  if (policy == kOffloadMandatory)
    offload_failure("OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found");
  if (!g_warned_unknown_device.exchange(true, std::memory_order_relaxed))
    warn("device %d does not exist (the host is device %d); device constructs for it run on the host",
         device, initial_device());
  return -1;
}

bool device_routine_on_host(int device) {
  if (is_host_device(device)) return true;
  if (g_icv.target_offload == kOffloadMandatory) {
    if (device == kOmpInvalidDevice) offload_failure("omp_invalid_device encountered");
    offload_failure("OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found");
  }
  return false;
}

namespace {

// Zero is the valid initial state of every task field (task.h). Plain
// word stores: the string instruction a memset of this size becomes costs
// more, on some processors, than the rest of entering a target region.
void clear_task(Task* t) {
  static_assert(sizeof(Task) % sizeof(uint64_t) == 0 && alignof(Task) >= alignof(uint64_t));
  auto* w = reinterpret_cast<uint64_t*>(static_cast<void*>(t));
  for (size_t i = 0; i < sizeof(Task) / sizeof(uint64_t); ++i) {
    w[i] = 0;
    asm volatile("" ::: "memory");  // keep the stores from becoming a memset call
  }
}

}  // namespace

InitialTaskScope::InitialTaskScope(Thread* me, const TaskIcvs& icv) : me_(me), shadow_(nullptr) {
  clear_task(&task_);
  task_.icv = icv;
  task_.kind = kTaskInitial;

  team_ = me->team;
  task_saved_ = me->task;
  tid_ = me->tid;
  ws_seq_ = me->ws_seq;
  ws_cur_ = me->ws_cur;
  ord_lo_ = me->ord_lo;
  ord_hi_ = me->ord_hi;
  ord_held_ = me->ord_held;
  cg_root_ = me->cg_root;
  cg_busy_ = me->cg_busy.load(std::memory_order_relaxed);
  league_num_ = me->league_num;
  league_size_ = me->league_size;
  place_lo_ = me->place_lo;
  place_hi_ = me->place_hi;

  // Threads count on me->cg_busy only while this thread is the root of a
  // group with other busy threads; otherwise the thread is its own record.
  Thread* root = me;
  if (me->cg_root == me && cg_busy_ > 1) {
    shadow_ = new (shadow_storage_) Thread();
    shadow_->gtid = me->gtid;
    shadow_->handle = me->handle;
    shadow_->place = me->place;
    shadow_->cg_root = shadow_;
    root = shadow_;
  }
  root->cg_busy.store(1, std::memory_order_relaxed);

  me->team = nullptr;
  me->task = &task_;
  me->tid = 0;
  me->ws_seq = 0;
  me->ws_cur = nullptr;
  me->ord_held = false;
  me->cg_root = root;
  me->league_num = 0;
  me->league_size = 1;
  // An initial task's place partition is the whole place list.
  int places = places_count();
  me->place_lo = 0;
  me->place_hi = places > 0 ? places - 1 : 0;
}

InitialTaskScope::~InitialTaskScope() {
  Thread* me = me_;
  task_implicit_end(&task_);
  me->team = team_;
  me->task = task_saved_;
  me->tid = tid_;
  me->ws_seq = ws_seq_;
  me->ws_cur = ws_cur_;
  me->ord_lo = ord_lo_;
  me->ord_hi = ord_hi_;
  me->ord_held = ord_held_;
  me->cg_root = cg_root_;
  if (!shadow_) me->cg_busy.store(cg_busy_, std::memory_order_relaxed);
  me->league_num = league_num_;
  me->league_size = league_size_;
  me->place_lo = place_lo_;
  me->place_hi = place_hi_;
}

namespace {

// The region of a target construct: a new initial task on this thread.
// With a tool, `rec` is the construct (null for a region no target
// construct encloses): the creation of the initial task is the kernel's
// submission, and the task is marked as the construct's.
void run_target_region(Thread* me, void (*fn)(void*), void* data, int thread_limit,
                       ompt::TargetRecord* rec, unsigned num_teams, int device = -1) {
  TaskIcvs icv = g_icv.initial;
  if (thread_limit > 0) icv.thread_limit = thread_limit;
  icv.on_device = uint8_t(device + 1);
  bool tool = ompt::active();
  if (KITE_UNLIKELY(tool && device >= 0)) device_note_code(device, reinterpret_cast<const void*>(fn));
  if (KITE_UNLIKELY(tool && rec)) ompt::target_submit_slow(rec, ompt_scope_begin, num_teams);
  InitialTaskScope scope(me, icv);
  if (KITE_UNLIKELY(tool)) {
    if (rec) {
      ompt::mark_target_initial_task(me, rec);
      ompt::target_submit_slow(rec, ompt_scope_end, num_teams);
    }
    ompt::target_initial_task_slow(me, fn, data);
  } else {
    fn(data);
  }
}

}  // namespace

void target_region_on_host(void (*fn)(void*), void* data, int thread_limit) {
  run_target_region(self(), fn, data, thread_limit, nullptr, 0);
}

namespace {

ompt_target_t construct_kind(DataConstruct kind, bool nowait) {
  return kind == kEnterData  ? (nowait ? ompt_target_enter_data_nowait : ompt_target_enter_data)
         : kind == kExitData ? (nowait ? ompt_target_exit_data_nowait : ompt_target_exit_data)
                             : (nowait ? ompt_target_update_nowait : ompt_target_update);
}

unsigned map_flags(const MapItem& it) {
  unsigned f = 0;
  switch (it.op) {
    case kMapAlloc: f = ompt_target_map_flag_alloc; break;
    case kMapTo: f = ompt_target_map_flag_to; break;
    case kMapFrom: f = ompt_target_map_flag_from; break;
    case kMapToFrom: f = ompt_target_map_flag_to | ompt_target_map_flag_from; break;
    case kMapRelease: f = ompt_target_map_flag_release; break;
    case kMapDelete: f = ompt_target_map_flag_delete; break;
    case kMapPresent: f = 0; break;
    default: return ~0u;  // not a map-clause item
  }
  if (it.flags & kMapFlagImplicit) f |= ompt_target_map_flag_implicit;
  return f;
}

// target_map for the construct's map-clause items (slow path: a tool is
// attached). devaddrs null: each item's device address is looked up.
void report_map(Thread* me, int device, const MapItem* items, size_t n, void* const* devaddrs,
                const void* ra) {
  unsigned cnt = 0;
  for (size_t i = 0; i < n; ++i)
    if (map_flags(items[i]) != ~0u) ++cnt;
  if (!cnt) return;
  auto** host = static_cast<void**>(__builtin_alloca(cnt * sizeof(void*)));
  auto** dev = static_cast<void**>(__builtin_alloca(cnt * sizeof(void*)));
  auto* bytes = static_cast<size_t*>(__builtin_alloca(cnt * sizeof(size_t)));
  auto* flags = static_cast<unsigned*>(__builtin_alloca(cnt * sizeof(unsigned)));
  unsigned k = 0;
  for (size_t i = 0; i < n; ++i) {
    unsigned f = map_flags(items[i]);
    if (f == ~0u) continue;
    host[k] = items[i].host;
    dev[k] = devaddrs ? devaddrs[i] : device_translate(device, items[i].host, items[i].size);
    bytes[k] = items[i].size;
    flags[k] = f;
    ++k;
  }
  ompt::target_map_slow(me, cnt, host, dev, bytes, flags, ra);
}

// target_map for the end of a structured mapping (a target region, a target
// data region), before its copies back and frees: OpenMP 5.2 §5.8.3, "The
// target-map event occurs when a thread maps data to or from a target
// device". Each item the scope holds is mapped from the device (from,
// tofrom) or released (to, alloc), with its implicit mark.
void report_map_exit(Thread* me, const MapScope& scope) {
  size_t n = scope.nheld;
  if (!n) return;
  auto** host = static_cast<void**>(__builtin_alloca(n * sizeof(void*)));
  auto** dev = static_cast<void**>(__builtin_alloca(n * sizeof(void*)));
  auto* bytes = static_cast<size_t*>(__builtin_alloca(n * sizeof(size_t)));
  auto* flags = static_cast<unsigned*>(__builtin_alloca(n * sizeof(unsigned)));
  for (size_t i = 0; i < n; ++i) {
    const MapScope::Held& h = scope.held[i];
    host[i] = h.host;
    dev[i] = device_translate(scope.ctx.device, h.host, h.size);
    bytes[i] = h.size;
    flags[i] = h.copy_from ? ompt_target_map_flag_from : ompt_target_map_flag_release;
    if (h.flags & kMapFlagImplicit) flags[i] |= ompt_target_map_flag_implicit;
  }
  ompt::target_map_slow(me, unsigned(n), host, dev, bytes, flags, scope.ctx.codeptr_ra);
}

void run_data_construct(DataConstruct kind, int device, const MapItem* items, size_t n,
                        const void* ra) {
  MapContext ctx{device, ra};
  if (kind == kEnterData)
    device_enter_data(ctx, items, n);
  else if (kind == kExitData)
    device_exit_data(ctx, items, n);
  else
    device_update(ctx, items, n);
}

}  // namespace

namespace {

// A data construct (enter, exit, update) on `device`, with the tool told:
// target_task is the deferred target task running it (nowait), or null.
void data_construct_reported(Thread* me, DataConstruct kind, bool nowait, int device,
                             const MapItem* items, size_t n, const void* ra, Task* target_task) {
  ompt::TargetRecord rec;
  int reported = device >= 0 ? device : initial_device();
  ompt::target_begin_slow(me, &rec, construct_kind(kind, nowait), reported, target_task, ra);
  if (device >= 0) {
    if (kind != kEnterData) report_map(me, device, items, n, nullptr, ra);
    if (kind == kEnterData) {
      auto** dev = static_cast<void**>(__builtin_alloca((n ? n : 1) * sizeof(void*)));
      MapContext ctx{device, ra};
      device_enter_data(ctx, items, n);
      for (size_t i = 0; i < n; ++i) dev[i] = device_translate(device, items[i].host, items[i].size);
      report_map(me, device, items, n, dev, ra);
    } else {
      run_data_construct(kind, device, items, n, ra);
    }
  }
  ompt::target_end_slow(me, &rec);
}

// The target task of a nowait data construct on a device: this header,
// then the construct's map items, in the task's own block.
struct DataTaskHeader {
  int kind;
  int device;
  size_t n;
  const void* codeptr_ra;
};

struct DataTaskSource {
  DataConstruct kind;
  int device;
  const MapItem* items;
  size_t n;
  const void* codeptr_ra;
};

void build_data_task_block(void* dst, void* src) {
  const DataTaskSource& s = *static_cast<const DataTaskSource*>(src);
  auto* h = static_cast<DataTaskHeader*>(dst);
  h->kind = s.kind;
  h->device = s.device;
  h->n = s.n;
  h->codeptr_ra = s.codeptr_ra;
  if (s.n) memcpy(h + 1, s.items, s.n * sizeof(MapItem));
}

// OpenMP 5.2 §13.6-13.9: with nowait, the construct is a deferrable
// target task; its data moves when the task runs, its dependences met.
void run_data_task(void* block) {
  auto* h = static_cast<DataTaskHeader*>(block);
  auto* items = reinterpret_cast<const MapItem*>(h + 1);
  DataConstruct kind = static_cast<DataConstruct>(h->kind);
  if (KITE_LIKELY(!ompt::active())) {
    run_data_construct(kind, h->device, items, h->n, h->codeptr_ra);
    return;
  }
  Thread* me = self();
  data_construct_reported(me, kind, true, h->device, items, h->n, h->codeptr_ra, me->task);
}

}  // namespace

void target_data_construct(DataConstruct kind, void** depend, bool nowait, const void* codeptr_ra,
                           int device, const MapItem* items, size_t n) {
  Thread* me = self();
  if (device >= 0 && nowait) {
    DataTaskSource src{kind, device, items, n, codeptr_ra};
    TaskSpec spec{};
    spec.fn = run_data_task;
    spec.data = &src;
    spec.cpyfn = build_data_task_block;
    spec.arg_size = long(sizeof(DataTaskHeader) + n * sizeof(MapItem));
    spec.arg_align = long(alignof(DataTaskHeader));
    spec.if_clause = true;
    spec.target = true;
    spec.depend = depend;
    spec.codeptr_ra = codeptr_ra;
    task_spawn(me, spec);
    return;
  }
  if (depend && !nowait) taskwait_depend(me, depend, codeptr_ra);
  if (KITE_LIKELY(!ompt::active())) {
    if (device >= 0) run_data_construct(kind, device, items, n, codeptr_ra);
    return;
  }
  data_construct_reported(me, kind, nowait, device, items, n, codeptr_ra, nullptr);
}

void target_data_begin(int device, const MapItem* items, size_t n, void** hostaddrs,
                       const void* codeptr_ra) {
  if (device < 0 && emulated_device_count() == 0) {
    target_data_construct(kEnterData, nullptr, false, codeptr_ra);
    return;
  }
  // Every target data region gets a scope, the host's ones too, so that
  // GOMP_target_end_data always closes the innermost one.
  auto* scope = static_cast<MapScope*>(xmalloc(sizeof(MapScope)));
  Thread* me = self();
  bool tool = ompt::active();
  ompt::TargetRecord rec;
  int reported = device >= 0 ? device : initial_device();
  if (KITE_UNLIKELY(tool))
    ompt::target_begin_slow(me, &rec, ompt_target_enter_data, reported, nullptr, codeptr_ra);
  if (device >= 0) {
    MapContext ctx{device, codeptr_ra};
    device_map_enter(scope, ctx, items, n, hostaddrs);
    if (KITE_UNLIKELY(tool)) report_map(me, device, items, n, hostaddrs, codeptr_ra);
  } else {
    scope->ctx = MapContext{-1, codeptr_ra};
  }
  if (KITE_UNLIKELY(tool)) ompt::target_end_slow(me, &rec);
  device_push_data_scope(scope);
}

void target_data_end(const void* codeptr_ra) {
  MapScope* scope = emulated_device_count() ? device_pop_data_scope() : nullptr;
  if (!scope || scope->ctx.device < 0) {
    if (scope) xfree(scope);
    target_data_construct(kExitData, nullptr, false, codeptr_ra);
    return;
  }
  Thread* me = self();
  bool tool = ompt::active();
  ompt::TargetRecord rec;
  if (KITE_UNLIKELY(tool))
    ompt::target_begin_slow(me, &rec, ompt_target_exit_data, scope->ctx.device, nullptr, codeptr_ra);
  scope->ctx.codeptr_ra = codeptr_ra;
  if (KITE_UNLIKELY(tool)) report_map_exit(me, *scope);
  device_map_exit(scope);
  if (KITE_UNLIKELY(tool)) ompt::target_end_slow(me, &rec);
  xfree(scope);
}

namespace {

// A target construct on an emulated device: its map list entered, the
// region run with the device addresses in its argument vector (vec holds
// the host vector, with firstprivate slots already pointing at their
// private copies), the list exited.
void run_on_device(Thread* me, int device, void (*fn)(void*), void** vec, const MapItem* items,
                   size_t n, int thread_limit, unsigned num_teams, const void* ra, bool task) {
  auto** dev = static_cast<void**>(__builtin_alloca((n ? n : 1) * sizeof(void*)));
  if (n) memcpy(dev, vec, n * sizeof(void*));
  MapContext ctx{device, ra};
  MapScope scope;
  if (KITE_LIKELY(!ompt::active())) {
    device_map_enter(&scope, ctx, items, n, dev);
    run_target_region(me, fn, dev, thread_limit, nullptr, 0, device);
    device_map_exit(&scope);
    return;
  }
  ompt::TargetRecord rec;
  ompt::target_begin_slow(me, &rec, task ? ompt_target_nowait : ompt_target, device,
                          task ? me->task : nullptr, ra);
  device_map_enter(&scope, ctx, items, n, dev);
  report_map(me, device, items, n, dev, ra);
  run_target_region(me, fn, dev, thread_limit, &rec, num_teams, device);
  report_map_exit(me, scope);
  device_map_exit(&scope);
  ompt::target_end_slow(me, &rec);
}

size_t privates_space(const TargetLaunch& l, size_t* max_align) {
  size_t total = 0;
  *max_align = 1;
  for (size_t i = 0; i < l.nprivates; ++i) {
    const TargetPrivate& p = l.privates[i];
    if (p.align > *max_align) *max_align = p.align;
    total = (total + p.align - 1) & ~(p.align - 1);
    total += p.size;
  }
  return total;
}

// Copies each private item into `buf` (aligned to the largest alignment)
// and points the entries of `vec` at the copies.
void copy_privates(const TargetLaunch& l, char* buf, void** vec) {
  size_t off = 0;
  for (size_t i = 0; i < l.nprivates; ++i) {
    const TargetPrivate& p = l.privates[i];
    off = (off + p.align - 1) & ~(p.align - 1);
    memcpy(buf + off, l.hostaddrs[p.index], p.size);
    vec[p.index] = buf + off;
    off += p.size;
  }
}

inline size_t round_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

// A target task's argument block: this header, the argument vector, then
// the private copies, all inside the task's own block.
struct TargetTaskHeader {
  void (*fn)(void*);
  size_t mapnum;
  size_t privates_offset;  // from the start of the header
  int thread_limit;
  unsigned num_teams;
  const void* codeptr_ra;
  int device;              // emulated device, -1: host
  size_t items_offset;     // the map list (device >= 0), from the header
};

struct TargetTaskSource {
  const TargetLaunch* launch;
  size_t privates_offset;
};

void build_target_task_block(void* dst, void* src) {
  const TargetTaskSource& s = *static_cast<const TargetTaskSource*>(src);
  const TargetLaunch& l = *s.launch;
  auto* h = static_cast<TargetTaskHeader*>(dst);
  h->fn = l.fn;
  h->mapnum = l.mapnum;
  h->privates_offset = s.privates_offset;
  h->thread_limit = l.thread_limit;
  h->num_teams = l.num_teams;
  h->codeptr_ra = l.codeptr_ra;
  h->device = l.device;
  h->items_offset = sizeof(TargetTaskHeader) + l.mapnum * sizeof(void*);
  void** vec = reinterpret_cast<void**>(h + 1);
  if (l.mapnum) memcpy(vec, l.hostaddrs, l.mapnum * sizeof(void*));
  if (l.device >= 0 && l.mapnum)
    memcpy(static_cast<char*>(dst) + h->items_offset, l.items, l.mapnum * sizeof(MapItem));
  copy_privates(l, static_cast<char*>(dst) + s.privates_offset, vec);
}

// The body of a target task: the construct begins when the task runs, its
// dependences met (OpenMP 5.2 §13.8, target-begin).
void run_target_task(void* block) {
  auto* h = static_cast<TargetTaskHeader*>(block);
  Thread* me = self();
  void** vec = reinterpret_cast<void**>(h + 1);
  if (h->device >= 0) {
    auto* items = reinterpret_cast<const MapItem*>(static_cast<char*>(block) + h->items_offset);
    run_on_device(me, h->device, h->fn, vec, items, h->mapnum, h->thread_limit, h->num_teams,
                  h->codeptr_ra, true);
    return;
  }
  if (KITE_LIKELY(!ompt::active())) {
    run_target_region(me, h->fn, vec, h->thread_limit, nullptr, 0);
    return;
  }
  ompt::TargetRecord rec;
  ompt::target_begin_slow(me, &rec, ompt_target_nowait, initial_device(), me->task, h->codeptr_ra);
  run_target_region(me, h->fn, vec, h->thread_limit, &rec, h->num_teams);
  ompt::target_end_slow(me, &rec);
}

void spawn_target_task(Thread* me, const TargetLaunch& l) {
  size_t align;
  size_t space = privates_space(l, &align);
  if (align < alignof(TargetTaskHeader)) align = alignof(TargetTaskHeader);
  size_t vec_end = sizeof(TargetTaskHeader) + l.mapnum * sizeof(void*);
  if (l.device >= 0) vec_end += l.mapnum * sizeof(MapItem);
  TargetTaskSource src{&l, round_up(vec_end, align)};
  TaskSpec spec{};
  spec.fn = run_target_task;
  spec.data = &src;
  spec.cpyfn = build_target_task_block;
  spec.arg_size = long(src.privates_offset + space);
  spec.arg_align = long(align);
  spec.if_clause = true;
  spec.target = true;
  spec.depend = l.depend;
  spec.codeptr_ra = l.codeptr_ra;
  task_spawn(me, spec);
}

// Private copies up to this size live on the encountering thread's stack.
constexpr size_t kStackCopyLimit = 256 * 1024;

}  // namespace

void target_launch(const TargetLaunch& l) {
  Thread* me = self();
  if (l.nowait) {
    spawn_target_task(me, l);
    return;
  }
  // Firstprivate values are those at the construct, before any wait.
  char* heap = nullptr;
  if (l.nprivates) {
    size_t align;
    size_t space = privates_space(l, &align);
    char* buf;
    if (space + align <= kStackCopyLimit) {
      buf = static_cast<char*>(__builtin_alloca(space + align - 1));
      buf = reinterpret_cast<char*>(round_up(reinterpret_cast<uintptr_t>(buf), align));
    } else {
      heap = static_cast<char*>(xaligned_alloc(align < sizeof(void*) ? sizeof(void*) : align, space));
      buf = heap;
    }
    copy_privates(l, buf, l.hostaddrs);
  }
  if (l.depend) taskwait_depend(me, l.depend, l.codeptr_ra);
  if (l.device >= 0) {
    run_on_device(me, l.device, l.fn, l.hostaddrs, l.items, l.mapnum, l.thread_limit, l.num_teams,
                  l.codeptr_ra, false);
  } else if (KITE_LIKELY(!ompt::active())) {
    run_target_region(me, l.fn, l.hostaddrs, l.thread_limit, nullptr, 0);
  } else {
    ompt::TargetRecord rec;
    ompt::target_begin_slow(me, &rec, ompt_target, initial_device(), nullptr, l.codeptr_ra);
    run_target_region(me, l.fn, l.hostaddrs, l.thread_limit, &rec, l.num_teams);
    ompt::target_end_slow(me, &rec);
  }
  if (heap) xfree(heap);
}

namespace {

inline int clamp_to_int(unsigned v) { return v > 0x7fffffffu ? 0x7fffffff : int(v); }

void apply_teams_thread_limit(Thread* me, unsigned thread_limit) {
  int limit = thread_limit ? clamp_to_int(thread_limit) : g_icv.teams_thread_limit;
  if (limit > 0) me->task->icv.thread_limit = limit;
}

}  // namespace

bool teams_in_target_step(unsigned num_teams_low, unsigned num_teams_high, unsigned thread_limit,
                          bool first) {
  Thread* me = self();
  if (first) {
    apply_teams_thread_limit(me, thread_limit);
    // Any count in [low, high] conforms; the teams run one after the other
    // on this thread, so the smallest is the cheapest. Without a clause
    // (both 0) the league has one team.
    (void)num_teams_high;
    me->league_size = num_teams_low ? clamp_to_int(num_teams_low) : 1;
    me->league_num = 0;
    return true;
  }
  if (me->league_num + 1 < me->league_size) {
    ++me->league_num;
    return true;
  }
  // The league is over: code after the teams construct sees no league.
  me->league_num = 0;
  me->league_size = 1;
  return false;
}

void teams_in_target_legacy(unsigned num_teams, unsigned thread_limit, const void* codeptr_ra,
                            void* enter_frame) {
  (void)num_teams;  // the caller runs the body once: a league of one team
  Thread* me = self();
  apply_teams_thread_limit(me, thread_limit);
  me->league_num = 0;
  me->league_size = 1;
  if (KITE_UNLIKELY(ompt::active())) ompt::target_league_legacy_slow(me, codeptr_ra, enter_frame);
}

// Threads of a parallel region nested in a team see the team number of the
// thread that runs the team's initial task: the primary of the outermost
// team above them.
static const Thread* league_owner(const Thread* me) {
  const Team* t = me->team;
  if (!t) return me;
  while (t->parent) t = t->parent;
  return t->owner ? t->owner : me;
}

int league_team_num(const Thread* me) { return league_owner(me)->league_num; }
int league_size(const Thread* me) { return league_owner(me)->league_size; }

}  // namespace kite
