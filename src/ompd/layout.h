// The runtime's structures as the OMPD library sees them: by name only.
//
// libkite.so evaluates every entry below against its real structures when
// it is compiled (src/ompd/runtime/layout.cpp) and publishes the results in
// two symbols: kite_ompd_layout (offsets, sizes and constants) and
// kite_ompd_addresses (where the runtime's globals are). libkite-ompd.so
// (src/ompd/lib) includes this header only for the names, turns them into
// indices, and reads the values out of the target when a debugger attaches,
// so the layout lives in exactly one place and no debug information is
// needed.
//
// The table starts {magic, number of entries, hash of the entries' names
// in order}: the library refuses a runtime whose table was built from
// another list than its own.
#pragma once

#include <stdint.h>

// Fields: F(name, struct, member). Published as {offset, size}.
#define KITE_OMPD_FIELDS(F)                                   \
  F(thread_team, Thread, team)                                \
  F(thread_task, Thread, task)                                \
  F(thread_tid, Thread, tid)                                  \
  F(thread_gtid, Thread, gtid)                                \
  F(thread_is_worker, Thread, is_worker)                      \
  F(thread_handle, Thread, handle)                            \
  F(thread_initial_task, Thread, initial_task)                \
  F(thread_place_lo, Thread, place_lo)                        \
  F(thread_place_hi, Thread, place_hi)                        \
  F(thread_state, Thread, ompt.state)                         \
  F(thread_wait_id, Thread, ompt.wait_id)                     \
  F(thread_data, Thread, ompt.thread_data)                    \
  F(team_nthreads, Team, nthreads)                            \
  F(team_level, Team, level)                                  \
  F(team_active_level, Team, active_level)                    \
  F(team_parent, Team, parent)                                \
  F(team_parent_task, Team, parent_task)                      \
  F(team_threads, Team, threads)                              \
  F(team_implicit, Team, implicit)                            \
  F(team_fn, Team, fn)                                        \
  F(team_data, Team, data)                                    \
  F(team_parallel_data, Team, ompt.parallel_data)             \
  F(task_parent, Task, parent)                                \
  F(task_team, Task, team)                                    \
  F(task_kind, Task, kind)                                    \
  F(task_final, Task, final)                                  \
  F(task_fn, Task, rt.fn)                                     \
  F(task_arg, Task, rt.arg)                                   \
  F(task_flags, Task, rt.flags)                               \
  F(task_data, Task, ompt.task_data)                          \
  F(task_exit_frame, Task, ompt.frame.exit_frame)             \
  F(task_enter_frame, Task, ompt.frame.enter_frame)           \
  F(task_exit_frame_flags, Task, ompt.frame.exit_frame_flags) \
  F(task_enter_frame_flags, Task, ompt.frame.enter_frame_flags) \
  F(task_implicit_parallel_data, Task, ompt.implicit_parallel_data) \
  F(task_scheduling, Task, ompt.scheduling_task)              \
  F(task_icv, Task, icv)                                      \
  F(icv_nthreads, Task, icv.nthreads)                         \
  F(icv_dyn, Task, icv.dyn)                                   \
  F(icv_sched, Task, icv.sched)                               \
  F(icv_sched_chunk, Task, icv.sched_chunk)                   \
  F(icv_bind, Task, icv.bind)                                 \
  F(icv_thread_limit, Task, icv.thread_limit)                 \
  F(icv_max_active_levels, Task, icv.max_active_levels)       \
  F(icv_default_device, Task, icv.default_device)             \
  F(icv_def_allocator, Task, icv.def_allocator)               \
  F(icv_nthreads_list_pos, Task, icv.nthreads_list_pos)       \
  F(icv_bind_list_pos, Task, icv.bind_list_pos)               \
  F(g_initial, GlobalIcvs, initial)                           \
  F(g_nthreads_list, GlobalIcvs, nthreads_list)               \
  F(g_nthreads_list_len, GlobalIcvs, nthreads_list_len)       \
  F(g_bind_list, GlobalIcvs, bind_list)                       \
  F(g_bind_list_len, GlobalIcvs, bind_list_len)               \
  F(g_stacksize, GlobalIcvs, stacksize)                       \
  F(g_wait_policy, GlobalIcvs, wait_policy)                   \
  F(g_cancel, GlobalIcvs, cancel)                             \
  F(g_max_task_priority, GlobalIcvs, max_task_priority)       \
  F(g_display_affinity, GlobalIcvs, display_affinity)         \
  F(g_affinity_format, GlobalIcvs, affinity_format)           \
  F(g_nteams, GlobalIcvs, nteams)                             \
  F(g_teams_thread_limit, GlobalIcvs, teams_thread_limit)     \
  F(g_target_offload, GlobalIcvs, target_offload)             \
  F(g_tool, GlobalIcvs, tool)                                 \
  F(g_tool_libraries, GlobalIcvs, tool_libraries)             \
  F(g_tool_verbose_init, GlobalIcvs, tool_verbose_init)       \
  F(g_num_procs, GlobalIcvs, num_procs)                       \
  F(places_count, PlaceList, count)                           \
  F(places_first, PlaceList, first)                           \
  F(places_procs, PlaceList, procs)                           \
  F(dthread_thread, DebugThread, thread)                      \
  F(dthread_lwp, DebugThread, lwp)                            \
  F(dthread_next, DebugThread, next)

// Constants: C(name, expression). Published as {value, 0}.
#define KITE_OMPD_CONSTANTS(C)           \
  C(task_size, sizeof(Task))             \
  C(kind_initial, kTaskInitial)          \
  C(kind_implicit, kTaskImplicit)        \
  C(kind_explicit, kTaskExplicit)        \
  C(flag_untied, kTaskUntied)            \
  C(flag_undeferred, kTaskUndeferred)    \
  C(sched_monotonic, unsigned(kSchedMonotonic)) \
  C(omp_version, kOmpdOpenmpVersion)

// Addresses: A(name). Published as one pointer each, in this order.
//   icvs               GlobalIcvs g_icv
//   threads            DebugThread* head of every thread record the
//                      runtime reported to the debugger
//   tracking           int: 1 while thread states, frames and the thread
//                      list are kept (OMP_DEBUG=enabled, or an OMPT tool)
//   debugging          int: 1 with OMP_DEBUG=enabled (breakpoints called)
//   kmpc_fork          uintptr_t[3]: run_outlined, run_teams_outlined, and
//                      the offset of the program's function in their block
//   kmpc_task          uintptr_t[2]: the clang task wrapper, and the offset
//                      of kmp_task_t's routine from the wrapper's argument
//   version_string     const char[]: the runtime's name and version
//   places             PlaceList g_place_list: the place list, final
//                      before the first thread record exists (each record
//                      is made with places_count(), which finishes it)
#define KITE_OMPD_ADDRESSES(A)                                                             \
  A(icvs) A(threads) A(tracking) A(debugging) A(kmpc_fork) A(kmpc_task) A(version_string) \
  A(places)

// The first word of kite_ompd_layout.
#define KITE_OMPD_LAYOUT_MAGIC 0x4b6974654f4d5044ull /* "KiteOMPD" */

// The third: FNV-1a of every entry's name, in order.
#define KITE_OMPD_NAME_F(name, type, member) #name ","
#define KITE_OMPD_NAME_C(name, expr) #name ","
#define KITE_OMPD_NAME_A(name) #name ","
constexpr uint64_t kite_ompd_names_hash(const char* s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; ++s) h = (h ^ uint8_t(*s)) * 0x100000001b3ull;
  return h;
}
constexpr uint64_t kKiteOmpdNamesHash = kite_ompd_names_hash(
    KITE_OMPD_FIELDS(KITE_OMPD_NAME_F) KITE_OMPD_CONSTANTS(KITE_OMPD_NAME_C)
        KITE_OMPD_ADDRESSES(KITE_OMPD_NAME_A));
