// The runtime entry points a tool finds through its lookup function
// (OpenMP 5.2 §19.6), and callback registration.
//
// Every inquiry is async-signal-safe: it reads the calling thread's record
// through tls_self (initial-exec TLS, never created lazily here) and
// records reachable from it, with no lock and no allocation. A thread the
// runtime has no record of answers "none" (NULL, 0, -1 or
// ompt_state_undefined, as each entry point specifies).
#include <sched.h>
#include <string.h>

#include "core/places.h"
#include "core/target.h"
#include "core/device.h"
#include "ompt/callbacks.h"
#include "ompt/ora.h"
#include "ompt/tr2.h"
#include "ompt/events_target.h"

extern "C" int omp_get_num_devices(void);

namespace kite {
namespace ompt {

namespace {

// --- registration ----------------------------------------------------------

// What ompt_set_callback promises for each event: ompt_set_always only where
// every occurrence is dispatched, ompt_set_sometimes where some occurrences
// are, ompt_set_never where none is yet (docs/ompt.md keeps the list).
ompt_set_result_t availability(int e) {
  switch (e) {
    case ompt_callback_thread_begin:
    case ompt_callback_thread_end:
    // Locks, nest locks, critical, atomic (GOMP_atomic_*) and ordered
    // regions, lock creation and destruction (events_mutex.h).
    case ompt_callback_mutex_acquire:
    case ompt_callback_mutex_acquired:
    case ompt_callback_mutex_released:
    case ompt_callback_nest_lock:
    case ompt_callback_lock_init:
    case ompt_callback_lock_destroy:
    // The error directive (GOMP_warning, GOMP_error) and omp_control_tool.
    case ompt_callback_error:
    case ompt_callback_control_tool:
    // Every explicit and target task of both ABIs (deferred, undeferred,
    // if(0), included, taskloop tasks), created and scheduled.
    case ompt_callback_task_create:
    case ompt_callback_task_schedule:
    // Cancel constructs (activated); cancellation points, barriers that end
    // a cancelled loop or sections (the plain barrier of gcc's inline loops
    // too), cancellable barriers and the barrier that ends a cancelled
    // region (detected); discarded tasks. Both ABIs.
    case ompt_callback_cancel:
    // The dependences of every task and every edge that orders one (a
    // clang if(0) task's too, whose wait comes before the task begins).
    case ompt_callback_dependences:
    case ompt_callback_task_dependence:
    // Every parallel region of both ABIs, active or serialized (if(0),
    // GOMP_parallel_start, __kmpc_serialized_parallel, __kmpc_fork_call_if,
    // nested regions past max-active-levels), every league of a teams
    // construct (GOMP_teams_reg, GOMP_teams4, gcc 11's GOMP_teams, which
    // ends with its target region, __kmpc_fork_teams) and each team's
    // initial task, the initial task of every target region run on the
    // host: all through start_region (team.cpp), teams.cpp and target.cpp.
    // A clang target region built without offload targets makes no
    // runtime call (the compiler runs its body inline): it is no region
    // the runtime can know of, and tools see its body as part of the
    // encountering task (docs/ompt.md).
    case ompt_callback_parallel_begin:
    case ompt_callback_parallel_end:
    case ompt_callback_implicit_task:
      return ompt_set_always;
    // Loops that call the runtime (dynamic, guided, runtime, ordered,
    // combined forms), sections, taskloop, scope with task reductions;
    // every loop, sections, single and distribute of clang programs. gcc 12
    // makes no runtime call where a static loop, a plain single (its
    // executor), a scope without task reductions or a distribute begins or
    // ends, so those cannot be reported.
    case ompt_callback_work:
    case ompt_callback_dispatch:
    // clang programs call __kmpc_masked/master, __kmpc_flush and
    // __kmpc_reduce*; gcc 12 inlines masked and flush and combines
    // reductions itself, with no runtime call to report.
    case ompt_callback_masked:
    case ompt_callback_flush:
    case ompt_callback_reduction:
      return ompt_set_sometimes;
    // Explicit barriers, the implicit barrier of a parallel region,
    // taskwait, taskgroup, worksharing barriers made by a runtime call
    // (both ABIs), clang's reduction and copyprivate barriers; gcc ends
    // inline static loops and scopes without task reductions with a plain
    // GOMP_barrier, reported as an explicit barrier.
    case ompt_callback_sync_region:
    case ompt_callback_sync_region_wait:
      return ompt_set_sometimes;
    // Device constructs run on the host (events_target.h): every one of a
    // gcc program; clang 14 compiles a program without offload targets so
    // that its device constructs make no runtime call at all.
    // With emulated devices (KITE_DEVICES), every device construct of a gcc
    // program and every device event of core/device.cpp is dispatched.
    case ompt_callback_target:
    case ompt_callback_target_emi:
    case ompt_callback_target_submit:
    case ompt_callback_target_submit_emi:
      return emulated_device_count() > 0 ? ompt_set_always : ompt_set_sometimes;
    case ompt_callback_target_map:
    case ompt_callback_target_map_emi:
    case ompt_callback_device_initialize:
    case ompt_callback_device_finalize:
    case ompt_callback_device_load:
    case ompt_callback_device_unload:
      return emulated_device_count() > 0 ? ompt_set_always : ompt_set_never;
    // Every device memory routine that does something (both ABIs call the
    // same omp_target_* routines).
    case ompt_callback_target_data_op:
    case ompt_callback_target_data_op_emi:
      return ompt_set_always;
    // Without emulated devices, never: a map clause maps onto the host,
    // where the original list item is its own corresponding item, so no
    // mapping happens, and no device other than the host is initialized,
    // loaded or unloaded (the cases above). Other callbacks: never.
    default:
      return ompt_set_never;
  }
}

ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t cb) {
  int e = int(event);
  if (e < 1 || e > kMaxEvent) return ompt_set_error;
  ompt_set_result_t r = availability(e);
  // A callback that would never be called is not registered, so
  // ompt_get_callback does not report it either.
  g_callbacks.fn[e] = r == ompt_set_never ? nullptr : cb;
  refresh_barrier_hooked();
  return r;
}


int get_callback(ompt_callbacks_t event, ompt_callback_t* cb) {
  int e = int(event);
  if (e < 1 || e > kMaxEvent || !g_callbacks.fn[e]) return 0;
  if (cb) *cb = g_callbacks.fn[e];
  return 1;
}

// --- enumerations ----------------------------------------------------------

struct Named {
  int value;
  const char* name;
};

const Named kStates[] = {
#define KITE_STATE(name, value) {value, #name},
    FOREACH_OMPT_STATE(KITE_STATE)
#undef KITE_STATE
};

// Kite's locks and critical sections spin briefly, then sleep on a futex.
const Named kMutexImpls[] = {
    {1, "kite_spin_futex"},
};

// `start` is the value a tool begins with; it is not itself enumerated.
template <size_t N>
int enumerate(const Named (&list)[N], int start, int current, int* next, const char** name) {
  size_t i = 0;
  if (current != start) {
    while (i < N && list[i].value != current) ++i;
    if (i == N) return 0;  // not a value this runtime handed out
    ++i;
  }
  while (i < N && list[i].value == start) ++i;
  if (i >= N) return 0;
  if (next) *next = list[i].value;
  if (name) *name = list[i].name;
  return 1;
}

int enumerate_states(int current, int* next, const char** name) {
  return enumerate(kStates, ompt_state_undefined, current, next, name);
}

int enumerate_mutex_impls(int current, int* next, const char** name) {
  return enumerate(kMutexImpls, ompt_mutex_impl_none, current, next, name);
}

// --- threads and places ----------------------------------------------------

ompt_data_t* get_thread_data() {
  Thread* me = tls_self;
  return me ? &me->ompt.thread_data : nullptr;
}

int get_num_procs() { return g_icv.num_procs; }

int get_num_places() { return places_count(); }

int get_place_proc_ids(int place, int ids_size, int* ids) {
  if (ids_size < 0 || (ids_size > 0 && !ids)) ids_size = 0;
  return place_procs(place, ids, ids_size);
}

int get_place_num() {
  Thread* me = tls_self;
  if (!me || places_count() == 0) return -1;
  return me->place;
}

int get_partition_place_nums(int size, int* nums) {
  Thread* me = tls_self;
  if (!me || places_count() == 0) return 0;
  int n = me->place_hi - me->place_lo + 1;
  for (int i = 0; i < n && i < size && nums; ++i) nums[i] = me->place_lo + i;
  return n;
}

int get_proc_id() { return sched_getcpu(); }

// --- state, regions, tasks -------------------------------------------------

int get_state(ompt_wait_id_t* wait_id) {
  Thread* me = tls_self;
  if (!me) {
    if (wait_id) *wait_id = ompt_wait_id_none;
    return ompt_state_undefined;
  }
  if (wait_id) *wait_id = me->ompt.wait_id;
  return me->ompt.state;
}

int get_parallel_info(int level, ompt_data_t** parallel_data, int* team_size) {
  Thread* me = tls_self;
  if (!me || !me->task || level < 0) return 0;
  Team* t = me->team;
  Team* outermost = nullptr;
  for (int i = 0; i < level; ++i) {
    if (!t) return 0;
    outermost = t;
    t = t->parent;
  }
  if (t) {
    if (parallel_data) *parallel_data = &t->ompt.parallel_data;
    if (team_size) *team_size = t->nthreads;
    return 2;
  }
  // The region of the initial task the team nest starts from: its implicit
  // region of one thread, or the league of teams it is one team of.
  while (outermost && outermost->parent) outermost = outermost->parent;
  Task* initial = outermost ? outermost->parent_task : me->task;
  while (initial && initial->kind != kTaskInitial) initial = initial->parent;
  if (!initial) initial = &me->initial_task;
  if (parallel_data) *parallel_data = initial_task_region(initial);
  if (team_size) *team_size = initial->ompt.league ? league_size(me) : 1;
  return 2;
}

int get_task_info(int level, int* flags, ompt_data_t** task_data, ompt_frame_t** task_frame,
                  ompt_data_t** parallel_data, int* thread_num) {
  Thread* me = tls_self;
  if (!me || level < 0) return 0;
  Task* task = me->task;
  for (int i = 0; task && i < level; ++i) task = task->parent;
  if (!task) return 0;
  if (task->kind == kTaskInitial) {
    // parallel_data: the region that contains the task "or, if the task at
    // the specified level is an initial task, NULL" (6.0 §36.15), for
    // every initial task: the program's, a user thread's, a target
    // region's and each team's of a league. ompt_get_parallel_info still
    // answers the implicit region (or the league) around it, the region
    // the initial task's implicit_task begin names.
    if (flags) *flags = ompt_task_initial;
    if (task_data) *task_data = &task->ompt.task_data;
    if (task_frame) *task_frame = &task->ompt.frame;
    if (parallel_data) *parallel_data = nullptr;
    if (thread_num) *thread_num = 0;
    return 2;
  }
  if (task->kind == kTaskImplicit && task->team) {
    if (flags) *flags = ompt_task_implicit;
    if (task_data) *task_data = &task->ompt.task_data;
    if (task_frame) *task_frame = &task->ompt.frame;
    if (parallel_data) *parallel_data = &task->team->ompt.parallel_data;
    if (thread_num) *thread_num = int(task - task->team->implicit);
    return 2;
  }
  if (task->kind == kTaskExplicit) {
    // The region of the team the task binds to; an included task outside
    // any team binds to its thread's implicit region.
    if (flags) *flags = task->ompt.flags ? task->ompt.flags : int(ompt_task_explicit);
    if (task_data) *task_data = &task->ompt.task_data;
    if (task_frame) *task_frame = &task->ompt.frame;
    if (parallel_data)
      *parallel_data = task->team ? &task->team->ompt.parallel_data
                                  : region_outside_teams(me, task);
    if (thread_num) *thread_num = task->ompt.thread_num;
    return 2;
  }
  return 1;
}

int get_task_memory(void** addr, size_t* size, int block) {
  // No task-private memory blocks are reported yet.
  if (addr) *addr = nullptr;
  if (size) *size = 0;
  return 0;
}

// Every device a callback may name, the host included: omp_get_num_devices
// counts only the others, and the host's number (omp_get_initial_device)
// comes after them, so device numbers in callbacks stay below this count.
int get_num_devices() { return omp_get_num_devices() + 1; }

// Inside a device construct (on the thread that encountered it, or any
// thread of a target region's contention group): the device it runs on,
// the runtime's id of the construct, and the operation being initiated.
int get_target_info(uint64_t* device_num, ompt_id_t* target_id, ompt_id_t* host_op_id) {
  Thread* me = tls_self;
  TargetRecord* rec = me ? current_target(me) : nullptr;
  if (!rec) return 0;
  if (device_num) *device_num = uint64_t(rec->device_num);
  if (target_id) *target_id = rec->target_id;
  if (host_op_id) *host_op_id = rec->host_op_id;
  return 1;
}

std::atomic<uint64_t> g_next_id{0};

uint64_t get_unique_id() { return g_next_id.fetch_add(1, std::memory_order_relaxed) + 1; }

void finalize_tool_entry() { finalize_tool(); }

// --- lookup ----------------------------------------------------------------

struct Entry {
  const char* name;
  ompt_interface_fn_t fn;
};

#define KITE_ENTRY(name, fn) {name, reinterpret_cast<ompt_interface_fn_t>(&fn)}
const Entry kEntries[] = {
    KITE_ENTRY("ompt_enumerate_states", enumerate_states),
    KITE_ENTRY("ompt_enumerate_mutex_impls", enumerate_mutex_impls),
    KITE_ENTRY("ompt_set_callback", set_callback),
    KITE_ENTRY("ompt_get_callback", get_callback),
    KITE_ENTRY("ompt_get_state", get_state),
    KITE_ENTRY("ompt_get_parallel_info", get_parallel_info),
    KITE_ENTRY("ompt_get_task_info", get_task_info),
    KITE_ENTRY("ompt_get_task_memory", get_task_memory),
    KITE_ENTRY("ompt_get_thread_data", get_thread_data),
    KITE_ENTRY("ompt_get_unique_id", get_unique_id),
    KITE_ENTRY("ompt_finalize_tool", finalize_tool_entry),
    KITE_ENTRY("ompt_get_num_procs", get_num_procs),
    KITE_ENTRY("ompt_get_num_places", get_num_places),
    KITE_ENTRY("ompt_get_place_proc_ids", get_place_proc_ids),
    KITE_ENTRY("ompt_get_place_num", get_place_num),
    KITE_ENTRY("ompt_get_partition_place_nums", get_partition_place_nums),
    KITE_ENTRY("ompt_get_proc_id", get_proc_id),
    KITE_ENTRY("ompt_get_target_info", get_target_info),
    KITE_ENTRY("ompt_get_num_devices", get_num_devices),
};
#undef KITE_ENTRY

}  // namespace

ompt_interface_fn_t lookup(const char* name) {
  if (!name) return nullptr;
  for (const Entry& e : kEntries)
    if (strcmp(e.name, name) == 0) return e.fn;
  return nullptr;
}

std::atomic<bool> g_barrier_hooked{false};

void refresh_barrier_hooked() {
  g_barrier_hooked.store(g_callbacks.fn[ompt_callback_sync_region] ||
                             g_callbacks.fn[ompt_callback_sync_region_wait] ||
                             ora::g_live.load(std::memory_order_acquire) ||
                             tr2::g_live.load(std::memory_order_acquire),
                         std::memory_order_release);
}

void clear_callbacks() {
  memset(&g_callbacks, 0, sizeof g_callbacks);
  refresh_barrier_hooked();
}

}  // namespace ompt
}  // namespace kite
