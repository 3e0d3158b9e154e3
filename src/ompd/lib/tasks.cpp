// libkite-ompd.so: task entry points and frames, thread states, tool data
// (OpenMP 5.2 §20.5.7 - §20.5.9).
#include "ompd/lib/access.h"

using namespace kite_ompd;

#define KITE_OMPD_API extern "C" __attribute__((visibility("default")))

namespace {

// The thread states of omp-tools.h, in its order; ompt_state_undefined
// (first there) starts and is not part of the enumeration.
struct State {
  ompd_word_t value;
  const char* name;
};
const State kStates[] = {
#define KITE_STATE(name, value) {value, #name},
    FOREACH_OMPT_STATE(KITE_STATE)
#undef KITE_STATE
};
constexpr int kStateCount = int(sizeof kStates / sizeof kStates[0]);

// The program's function behind a Kite wrapper: a clang region runs a
// wrapper of abi/kmpc/fork.cpp on a block holding the outlined function, a
// clang task a wrapper of abi/kmpc/task.cpp on a block holding its entry.
ompd_rc_t unwrap(_ompd_aspace_handle* s, Address table, int wrappers, ompd_addr_t fn,
                 ompd_addr_t data, ompd_addr_t* out) {
  ompd_addr_t base = address(s, table);
  for (int i = 0; i < wrappers; ++i) {
    ompd_addr_t w;
    ompd_rc_t rc = read_ptr(s, base + 8 * i, &w);
    if (rc != ompd_rc_ok) return rc;
    if (w == fn) {
      uint64_t off;
      if ((rc = read_uint(s, base + 8 * wrappers, 8, &off)) != ompd_rc_ok) return rc;
      return read_ptr(s, data + off, out);
    }
  }
  *out = fn;
  return ompd_rc_ok;
}

}  // namespace

KITE_OMPD_API ompd_rc_t ompd_get_task_function(ompd_task_handle_t* task_handle,
                                               ompd_address_t* entry_point) {
  ompd_rc_t rc = check(task_handle, kTask);
  if (rc != ompd_rc_ok) return rc;
  if (!entry_point) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = task_handle->space;
  uint64_t kind;
  if ((rc = read_field(s, task_handle->task, F_task_kind, &kind)) != ompd_rc_ok) return rc;
  ompd_addr_t fn = 0;
  if (kind == constant(s, C_kind_explicit)) {
    ompd_addr_t body, arg;
    if ((rc = read_field(s, task_handle->task, F_task_fn, &body)) != ompd_rc_ok) return rc;
    if ((rc = read_field(s, task_handle->task, F_task_arg, &arg)) != ompd_rc_ok) return rc;
    rc = unwrap(s, A_kmpc_task, 1, body, arg, &fn);
  } else if (kind == constant(s, C_kind_implicit)) {
    ompd_addr_t team, body, data;
    if ((rc = read_field(s, task_handle->task, F_task_team, &team)) != ompd_rc_ok) return rc;
    if ((rc = read_field(s, team, F_team_fn, &body)) != ompd_rc_ok) return rc;
    if ((rc = read_field(s, team, F_team_data, &data)) != ompd_rc_ok) return rc;
    rc = unwrap(s, A_kmpc_fork, 2, body, data, &fn);
  } else {
    return ompd_rc_unavailable;  // an initial task runs the program itself
  }
  if (rc != ompd_rc_ok) return rc;
  if (!fn) return ompd_rc_unavailable;
  entry_point->segment = OMPD_SEGMENT_UNSPECIFIED;
  entry_point->address = fn;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_task_frame(ompd_task_handle_t* task_handle,
                                            ompd_frame_info_t* exit_frame,
                                            ompd_frame_info_t* enter_frame) {
  ompd_rc_t rc = check(task_handle, kTask);
  if (rc != ompd_rc_ok) return rc;
  if (!exit_frame || !enter_frame) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = task_handle->space;
  if ((rc = need_tracking(s)) != ompd_rc_ok) return rc;
  uint64_t exit_ptr, enter_ptr;
  int64_t exit_flags, enter_flags;
  ompd_addr_t t = task_handle->task;
  if ((rc = read_field(s, t, F_task_exit_frame, &exit_ptr)) != ompd_rc_ok ||
      (rc = read_field(s, t, F_task_enter_frame, &enter_ptr)) != ompd_rc_ok ||
      (rc = read_signed(s, t, F_task_exit_frame_flags, &exit_flags)) != ompd_rc_ok ||
      (rc = read_signed(s, t, F_task_enter_frame_flags, &enter_flags)) != ompd_rc_ok)
    return rc;
  exit_frame->frame_address = {OMPD_SEGMENT_UNSPECIFIED, exit_ptr};
  exit_frame->frame_flag = exit_flags;
  enter_frame->frame_address = {OMPD_SEGMENT_UNSPECIFIED, enter_ptr};
  enter_frame->frame_flag = enter_flags;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_enumerate_states(ompd_address_space_handle_t* address_space_handle,
                                              ompd_word_t current_state, ompd_word_t* next_state,
                                              const char** next_state_name,
                                              ompd_word_t* more_enums) {
  ompd_rc_t rc = check(address_space_handle, kAddressSpace);
  if (rc != ompd_rc_ok) return rc;
  if (!next_state || !next_state_name || !more_enums) return ompd_rc_bad_input;
  int next = -1;
  if (current_state == ompt_state_undefined) {
    next = 1;
  } else {
    for (int i = 1; i < kStateCount; ++i)
      if (kStates[i].value == current_state) next = i + 1;
    if (next < 0) return ompd_rc_bad_input;
  }
  if (next >= kStateCount) return ompd_rc_bad_input;  // nothing after the last
  *next_state = kStates[next].value;
  *next_state_name = kStates[next].name;
  *more_enums = next + 1 < kStateCount ? 1 : 0;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_state(ompd_thread_handle_t* thread_handle, ompd_word_t* state,
                                       ompd_wait_id_t* wait_id) {
  ompd_rc_t rc = check(thread_handle, kThread);
  if (rc != ompd_rc_ok) return rc;
  if (!state) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = thread_handle->space;
  if ((rc = need_tracking(s)) != ompd_rc_ok) return rc;
  int64_t st;
  uint64_t wait;
  if ((rc = read_signed(s, thread_handle->thread, F_thread_state, &st)) != ompd_rc_ok) return rc;
  if ((rc = read_field(s, thread_handle->thread, F_thread_wait_id, &wait)) != ompd_rc_ok) return rc;
  // A worker the runtime created for a team but that has not begun to run
  // yet has a zeroed record: it waits for its first work.
  uint64_t lwp;
  rc = thread_lwp(s, thread_handle->thread, &lwp);
  if (rc == ompd_rc_unavailable) {
    st = ompt_state_idle;
  } else if (rc != ompd_rc_ok) {
    return rc;
  }
  *state = st;
  // The wait id means something only in the states that wait for an object
  // (a taskwait or taskgroup waits for tasks: the runtime names none).
  bool waits = st == ompt_state_wait_barrier_implicit_parallel ||
               st == ompt_state_wait_barrier_implicit_workshare ||
               st == ompt_state_wait_barrier_explicit || st == ompt_state_wait_barrier_implementation ||
               st == ompt_state_wait_barrier_teams || st == ompt_state_wait_mutex ||
               st == ompt_state_wait_lock || st == ompt_state_wait_critical ||
               st == ompt_state_wait_atomic || st == ompt_state_wait_ordered;
  if (wait_id) *wait_id = waits ? wait : 0;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_tool_data(void* handle, ompd_scope_t scope, ompd_word_t* value,
                                           ompd_address_t* ptr) {
  _ompd_aspace_handle* s;
  ompd_rc_t rc = check_scoped(handle, scope, &s);
  if (rc != ompd_rc_ok) return rc;
  if (!value || !ptr) return ompd_rc_bad_input;
  ompd_addr_t data;
  switch (scope) {
    case ompd_scope_thread:
      data = field_addr(s, static_cast<_ompd_thread_handle*>(handle)->thread, F_thread_data);
      break;
    case ompd_scope_parallel: {
      auto* p = static_cast<_ompd_parallel_handle*>(handle);
      data = p->team ? field_addr(s, p->team, F_team_parallel_data)
                     : field_addr(s, p->initial_task, F_task_implicit_parallel_data);
      break;
    }
    case ompd_scope_implicit_task:
    case ompd_scope_task:
      data = field_addr(s, static_cast<_ompd_task_handle*>(handle)->task, F_task_data);
      break;
    default:
      return ompd_rc_bad_input;  // address spaces carry no tool data
  }
  uint64_t v;
  if ((rc = read_uint(s, data, 8, &v)) != ompd_rc_ok) return rc;
  *value = ompd_word_t(v);
  ptr->segment = OMPD_SEGMENT_UNSPECIFIED;
  ptr->address = v;
  return ompd_rc_ok;
}
