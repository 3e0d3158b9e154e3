// libkite-ompd.so: thread, parallel and task handles (OpenMP 5.2 §20.5.3 -
// §20.5.6). A thread handle names a kite::Thread record, a task handle a
// kite::Task, a parallel handle a kite::Team or, for the implicit parallel
// region around an initial task (which has no team), that initial task.
#include "ompd/lib/access.h"

using namespace kite_ompd;

#define KITE_OMPD_API extern "C" __attribute__((visibility("default")))

namespace {

int compare(ompd_addr_t a, ompd_addr_t b) { return a < b ? -1 : a > b ? 1 : 0; }

// The runtime's list node of a thread record (src/ompd/runtime/debug.h).
ompd_rc_t find_thread(_ompd_aspace_handle* s, ompd_thread_id_t kind, uint64_t id,
                      ompd_addr_t* thread) {
  ompd_addr_t node;
  ompd_rc_t rc = read_ptr(s, address(s, A_threads), &node);
  if (rc != ompd_rc_ok) return rc;
  for (int n = 0; node && n < kMaxWalk; ++n) {
    ompd_addr_t t;
    uint64_t lwp;
    if ((rc = read_field(s, node, F_dthread_thread, &t)) != ompd_rc_ok) return rc;
    if ((rc = read_field(s, node, F_dthread_lwp, &lwp)) != ompd_rc_ok) return rc;
    if (lwp != 0) {  // 0: the thread ended
      uint64_t key = lwp;
      if (kind == ompd_thread_id_pthread &&
          (rc = read_field(s, t, F_thread_handle, &key)) != ompd_rc_ok)
        return rc;
      if (key == id) {
        *thread = t;
        return ompd_rc_ok;
      }
    }
    if ((rc = read_field(s, node, F_dthread_next, &node)) != ompd_rc_ok) return rc;
  }
  return ompd_rc_unavailable;
}

// The parallel region a task binds to: its team, or the implicit region of
// the initial task it descends from.
ompd_rc_t region_of_task(_ompd_aspace_handle* s, ompd_addr_t task, ompd_parallel_handle_t** out) {
  ompd_addr_t team;
  ompd_rc_t rc = read_field(s, task, F_task_team, &team);
  if (rc != ompd_rc_ok) return rc;
  if (team) return make_parallel(s, team, 0, out);
  ompd_addr_t initial;
  rc = initial_task_of(s, task, &initial);
  if (rc != ompd_rc_ok) return rc;
  return make_parallel(s, 0, initial, out);
}

// Which implicit task of its team `task` is (-1: none).
ompd_rc_t implicit_index(_ompd_aspace_handle* s, ompd_addr_t task, ompd_addr_t* team, int64_t* index) {
  *index = -1;
  ompd_rc_t rc = read_field(s, task, F_task_team, team);
  if (rc != ompd_rc_ok || !*team) return rc;
  ompd_addr_t implicit;
  int64_t n;
  if ((rc = read_field(s, *team, F_team_implicit, &implicit)) != ompd_rc_ok) return rc;
  if ((rc = read_signed(s, *team, F_team_nthreads, &n)) != ompd_rc_ok) return rc;
  uint64_t size = constant(s, C_task_size);
  if (task >= implicit && size && (task - implicit) % size == 0 && int64_t((task - implicit) / size) < n)
    *index = int64_t((task - implicit) / size);
  return ompd_rc_ok;
}

}  // namespace

// --- threads ------------------------------------------------------------------

KITE_OMPD_API ompd_rc_t ompd_get_thread_handle(ompd_address_space_handle_t* handle,
                                               ompd_thread_id_t kind, ompd_size_t sizeof_thread_id,
                                               const void* thread_id,
                                               ompd_thread_handle_t** thread_handle) {
  ompd_rc_t rc = check(handle, kAddressSpace);
  if (rc != ompd_rc_ok) return rc;
  if (!thread_id || !thread_handle) return ompd_rc_bad_input;
  if (kind != ompd_thread_id_pthread && kind != ompd_thread_id_lwp) return ompd_rc_unsupported;
  uint64_t id;
  if (sizeof_thread_id == 8) {
    id = *static_cast<const uint64_t*>(thread_id);
  } else if (sizeof_thread_id == 4 && kind == ompd_thread_id_lwp) {
    id = *static_cast<const uint32_t*>(thread_id);
  } else {
    return ompd_rc_bad_input;
  }
  if ((rc = need_tracking(handle)) != ompd_rc_ok) return rc;
  ompd_addr_t thread;
  rc = find_thread(handle, kind, id, &thread);
  if (rc != ompd_rc_ok) return rc;
  return make_thread(handle, thread, thread_handle);
}

KITE_OMPD_API ompd_rc_t ompd_get_thread_in_parallel(ompd_parallel_handle_t* parallel_handle,
                                                    int thread_num,
                                                    ompd_thread_handle_t** thread_handle) {
  ompd_rc_t rc = check(parallel_handle, kParallel);
  if (rc != ompd_rc_ok) return rc;
  if (!thread_handle) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = parallel_handle->space;
  if (!parallel_handle->team) {
    if (thread_num != 0) return ompd_rc_bad_input;
    return make_thread(s, parallel_handle->initial_task - s->layout.field_offset[F_thread_initial_task],
                       thread_handle);
  }
  int64_t n;
  if ((rc = read_signed(s, parallel_handle->team, F_team_nthreads, &n)) != ompd_rc_ok) return rc;
  if (thread_num < 0 || thread_num >= n) return ompd_rc_bad_input;
  ompd_addr_t threads, thread;
  if ((rc = read_field(s, parallel_handle->team, F_team_threads, &threads)) != ompd_rc_ok) return rc;
  if ((rc = read_ptr(s, threads + 8 * uint64_t(thread_num), &thread)) != ompd_rc_ok) return rc;
  if (!thread) return ompd_rc_unavailable;
  return make_thread(s, thread, thread_handle);
}

KITE_OMPD_API ompd_rc_t ompd_rel_thread_handle(ompd_thread_handle_t* thread_handle) {
  ompd_rc_t rc = check(thread_handle, kThread);
  if (rc != ompd_rc_ok) return rc;
  free_handle(thread_handle);
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_thread_handle_compare(ompd_thread_handle_t* thread_handle_1,
                                                   ompd_thread_handle_t* thread_handle_2,
                                                   int* cmp_value) {
  ompd_rc_t rc = check(thread_handle_1, kThread);
  if (rc == ompd_rc_ok) rc = check(thread_handle_2, kThread);
  if (rc != ompd_rc_ok) return rc;
  if (!cmp_value) return ompd_rc_bad_input;
  *cmp_value = compare(thread_handle_1->thread, thread_handle_2->thread);
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_thread_id(ompd_thread_handle_t* thread_handle,
                                           ompd_thread_id_t kind, ompd_size_t sizeof_thread_id,
                                           void* thread_id) {
  ompd_rc_t rc = check(thread_handle, kThread);
  if (rc != ompd_rc_ok) return rc;
  if (!thread_id) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = thread_handle->space;
  uint64_t id;
  if (kind == ompd_thread_id_pthread) {
    if (sizeof_thread_id != 8) return ompd_rc_bad_input;
    rc = read_field(s, thread_handle->thread, F_thread_handle, &id);
  } else if (kind == ompd_thread_id_lwp) {
    if (sizeof_thread_id != 8 && sizeof_thread_id != 4) return ompd_rc_bad_input;
    rc = thread_lwp(s, thread_handle->thread, &id);
    if (rc == ompd_rc_ok && id == 0) rc = ompd_rc_unavailable;  // the thread ended
  } else {
    return ompd_rc_unsupported;
  }
  if (rc != ompd_rc_ok) return rc;
  if (sizeof_thread_id == 8) {
    *static_cast<uint64_t*>(thread_id) = id;
  } else {
    *static_cast<uint32_t*>(thread_id) = uint32_t(id);
  }
  return ompd_rc_ok;
}

// --- parallel regions ---------------------------------------------------------

KITE_OMPD_API ompd_rc_t ompd_get_curr_parallel_handle(ompd_thread_handle_t* thread_handle,
                                                      ompd_parallel_handle_t** parallel_handle) {
  ompd_rc_t rc = check(thread_handle, kThread);
  if (rc != ompd_rc_ok) return rc;
  if (!parallel_handle) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = thread_handle->space;
  ompd_addr_t team, task;
  if ((rc = read_field(s, thread_handle->thread, F_thread_team, &team)) != ompd_rc_ok) return rc;
  if (team) return make_parallel(s, team, 0, parallel_handle);
  if ((rc = read_field(s, thread_handle->thread, F_thread_task, &task)) != ompd_rc_ok) return rc;
  if (!task) return ompd_rc_unavailable;  // a worker waiting in the pool
  return region_of_task(s, task, parallel_handle);
}

KITE_OMPD_API ompd_rc_t ompd_get_enclosing_parallel_handle(
    ompd_parallel_handle_t* parallel_handle, ompd_parallel_handle_t** enclosing_parallel_handle) {
  ompd_rc_t rc = check(parallel_handle, kParallel);
  if (rc != ompd_rc_ok) return rc;
  if (!enclosing_parallel_handle) return ompd_rc_bad_input;
  if (!parallel_handle->team) return ompd_rc_unavailable;  // outermost: an initial task's region
  _ompd_aspace_handle* s = parallel_handle->space;
  ompd_addr_t parent, task;
  if ((rc = read_field(s, parallel_handle->team, F_team_parent, &parent)) != ompd_rc_ok) return rc;
  if (parent) return make_parallel(s, parent, 0, enclosing_parallel_handle);
  if ((rc = read_field(s, parallel_handle->team, F_team_parent_task, &task)) != ompd_rc_ok) return rc;
  if (!task) return ompd_rc_unavailable;
  return region_of_task(s, task, enclosing_parallel_handle);
}

KITE_OMPD_API ompd_rc_t ompd_get_task_parallel_handle(ompd_task_handle_t* task_handle,
                                                      ompd_parallel_handle_t** task_parallel_handle) {
  ompd_rc_t rc = check(task_handle, kTask);
  if (rc != ompd_rc_ok) return rc;
  if (!task_parallel_handle) return ompd_rc_bad_input;
  return region_of_task(task_handle->space, task_handle->task, task_parallel_handle);
}

KITE_OMPD_API ompd_rc_t ompd_rel_parallel_handle(ompd_parallel_handle_t* parallel_handle) {
  ompd_rc_t rc = check(parallel_handle, kParallel);
  if (rc != ompd_rc_ok) return rc;
  free_handle(parallel_handle);
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_parallel_handle_compare(ompd_parallel_handle_t* parallel_handle_1,
                                                     ompd_parallel_handle_t* parallel_handle_2,
                                                     int* cmp_value) {
  ompd_rc_t rc = check(parallel_handle_1, kParallel);
  if (rc == ompd_rc_ok) rc = check(parallel_handle_2, kParallel);
  if (rc != ompd_rc_ok) return rc;
  if (!cmp_value) return ompd_rc_bad_input;
  int c = compare(parallel_handle_1->team, parallel_handle_2->team);
  *cmp_value = c ? c : compare(parallel_handle_1->initial_task, parallel_handle_2->initial_task);
  return ompd_rc_ok;
}

// --- tasks --------------------------------------------------------------------

KITE_OMPD_API ompd_rc_t ompd_get_curr_task_handle(ompd_thread_handle_t* thread_handle,
                                                  ompd_task_handle_t** task_handle) {
  ompd_rc_t rc = check(thread_handle, kThread);
  if (rc != ompd_rc_ok) return rc;
  if (!task_handle) return ompd_rc_bad_input;
  ompd_addr_t task;
  rc = read_field(thread_handle->space, thread_handle->thread, F_thread_task, &task);
  if (rc != ompd_rc_ok) return rc;
  if (!task) return ompd_rc_unavailable;  // a worker waiting in the pool
  return make_task(thread_handle->space, task, task_handle);
}

KITE_OMPD_API ompd_rc_t ompd_get_generating_task_handle(ompd_task_handle_t* task_handle,
                                                        ompd_task_handle_t** generating_task_handle) {
  ompd_rc_t rc = check(task_handle, kTask);
  if (rc != ompd_rc_ok) return rc;
  if (!generating_task_handle) return ompd_rc_bad_input;
  ompd_addr_t parent;
  rc = read_field(task_handle->space, task_handle->task, F_task_parent, &parent);
  if (rc != ompd_rc_ok) return rc;
  if (!parent) return ompd_rc_unavailable;  // an initial task
  return make_task(task_handle->space, parent, generating_task_handle);
}

// The task whose execution the thread left to run this one: for an explicit
// task, the task the thread ran when it began it; for the implicit task of
// a region's primary thread, the task that encountered the region. Worker
// implicit tasks and initial tasks interrupted nothing.
KITE_OMPD_API ompd_rc_t ompd_get_scheduling_task_handle(ompd_task_handle_t* task_handle,
                                                        ompd_task_handle_t** scheduling_task_handle) {
  ompd_rc_t rc = check(task_handle, kTask);
  if (rc != ompd_rc_ok) return rc;
  if (!scheduling_task_handle) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = task_handle->space;
  uint64_t kind;
  if ((rc = read_field(s, task_handle->task, F_task_kind, &kind)) != ompd_rc_ok) return rc;
  ompd_addr_t sched = 0;
  if (kind == constant(s, C_kind_explicit)) {
    if ((rc = read_field(s, task_handle->task, F_task_scheduling, &sched)) != ompd_rc_ok) return rc;
  } else if (kind == constant(s, C_kind_implicit)) {
    ompd_addr_t team;
    int64_t index;
    if ((rc = implicit_index(s, task_handle->task, &team, &index)) != ompd_rc_ok) return rc;
    if (index == 0 && (rc = read_field(s, team, F_team_parent_task, &sched)) != ompd_rc_ok) return rc;
  }
  if (!sched) return ompd_rc_unavailable;
  return make_task(s, sched, scheduling_task_handle);
}

KITE_OMPD_API ompd_rc_t ompd_get_task_in_parallel(ompd_parallel_handle_t* parallel_handle,
                                                  int thread_num, ompd_task_handle_t** task_handle) {
  ompd_rc_t rc = check(parallel_handle, kParallel);
  if (rc != ompd_rc_ok) return rc;
  if (!task_handle) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = parallel_handle->space;
  if (!parallel_handle->team) {
    if (thread_num != 0) return ompd_rc_bad_input;
    return make_task(s, parallel_handle->initial_task, task_handle);
  }
  int64_t n;
  if ((rc = read_signed(s, parallel_handle->team, F_team_nthreads, &n)) != ompd_rc_ok) return rc;
  if (thread_num < 0 || thread_num >= n) return ompd_rc_bad_input;
  ompd_addr_t implicit;
  if ((rc = read_field(s, parallel_handle->team, F_team_implicit, &implicit)) != ompd_rc_ok) return rc;
  if (!implicit) return ompd_rc_unavailable;
  return make_task(s, implicit + constant(s, C_task_size) * uint64_t(thread_num), task_handle);
}

KITE_OMPD_API ompd_rc_t ompd_rel_task_handle(ompd_task_handle_t* task_handle) {
  ompd_rc_t rc = check(task_handle, kTask);
  if (rc != ompd_rc_ok) return rc;
  free_handle(task_handle);
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_task_handle_compare(ompd_task_handle_t* task_handle_1,
                                                 ompd_task_handle_t* task_handle_2, int* cmp_value) {
  ompd_rc_t rc = check(task_handle_1, kTask);
  if (rc == ompd_rc_ok) rc = check(task_handle_2, kTask);
  if (rc != ompd_rc_ok) return rc;
  if (!cmp_value) return ompd_rc_bad_input;
  *cmp_value = compare(task_handle_1->task, task_handle_2->task);
  return ompd_rc_ok;
}
