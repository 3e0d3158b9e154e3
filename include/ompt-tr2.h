/*
 * ompt-tr2.h: the draft OMPT interface of OpenMP Technical Report 2,
 * "OMPT: OpenMP Tools Application Programming Interface for Performance
 * Analysis" (2014), as Kite serves it. Written for Kite from the facts of
 * that report; the numbers are the report's, as the runtimes and tools
 * built on it carried them (LLVM's libomp ompt.h of 2014-2015, which
 * implemented the report, and the tools of that time: HPCToolkit, TAU,
 * Score-P, Extrae). docs/legacy-tools.md says how Kite maps each event.
 *
 * A TR2 tool defines ompt_initialize (below) in the program or in a
 * library of the process; the runtime calls it once, before any event,
 * and the tool gets every inquiry function by name through `lookup`.
 * Only ompt_control is a global symbol of the runtime.
 *
 * Its names overlap omp-tools.h (OpenMP 5.x) with other meanings: one
 * translation unit includes one of the two.
 */
#ifndef KITE_OMPT_TR2_H
#define KITE_OMPT_TR2_H

#if defined(__OMPT__) && !defined(KITE_DRAFT_OMPT_RUNTIME)
#error "ompt-tr2.h (TR2 draft OMPT) and omp-tools.h (OpenMP 5.x) cannot share a translation unit"
#endif

#include <stdint.h>

/* Identifiers the runtime assigns; 0 is "none". */
typedef uint64_t ompt_thread_id_t;
typedef uint64_t ompt_parallel_id_t;
typedef uint64_t ompt_task_id_t;
typedef uint64_t ompt_wait_id_t;
#define ompt_thread_id_none ((ompt_thread_id_t)0)
#define ompt_parallel_id_none ((ompt_parallel_id_t)0)
#define ompt_task_id_none ((ompt_task_id_t)0)
#ifndef ompt_wait_id_none /* omp-tools.h has it too, in Kite's own build */
#define ompt_wait_id_none ((ompt_wait_id_t)0)
#endif

/* A task's frames: where the runtime last handed control to the
 * task's user code, and where that code called back into the runtime;
 * NULL while not so. Kite stores the canonical frame address of each. */
typedef struct ompt_frame_s {
  void *exit_runtime_frame;
  void *reenter_runtime_frame;
} ompt_frame_t;

/* Thread states; ranges group them by kind. */
typedef enum {
  ompt_state_work_serial = 0x00,
  ompt_state_work_parallel = 0x01,
  ompt_state_work_reduction = 0x02,
  ompt_state_idle = 0x10,
  ompt_state_overhead = 0x20,
  ompt_state_wait_barrier = 0x40,
  ompt_state_wait_barrier_implicit = 0x41,
  ompt_state_wait_barrier_explicit = 0x42,
  ompt_state_wait_taskwait = 0x50,
  ompt_state_wait_taskgroup = 0x51,
  ompt_state_wait_lock = 0x60,
  ompt_state_wait_nest_lock = 0x61,
  ompt_state_wait_critical = 0x62,
  ompt_state_wait_atomic = 0x63,
  ompt_state_wait_ordered = 0x64,
  ompt_state_undefined = 0x70,
  ompt_state_first = 0x71 /* where ompt_enumerate_state starts */
} ompt_state_t;

/* Events: 1-8 mandatory, 9-21 the optional blame-shifting
 * events, 22-61 the optional synchronous events. */
typedef enum {
  ompt_event_parallel_begin = 1,
  ompt_event_parallel_end = 2,
  ompt_event_task_begin = 3,
  ompt_event_task_end = 4,
  ompt_event_thread_begin = 5,
  ompt_event_thread_end = 6,
  ompt_event_control = 7,
  ompt_event_runtime_shutdown = 8,

  ompt_event_idle_begin = 9,
  ompt_event_idle_end = 10,
  ompt_event_wait_barrier_begin = 11,
  ompt_event_wait_barrier_end = 12,
  ompt_event_wait_taskwait_begin = 13,
  ompt_event_wait_taskwait_end = 14,
  ompt_event_wait_taskgroup_begin = 15,
  ompt_event_wait_taskgroup_end = 16,
  ompt_event_release_lock = 17,
  ompt_event_release_nest_lock_last = 18,
  ompt_event_release_critical = 19,
  ompt_event_release_atomic = 20,
  ompt_event_release_ordered = 21,

  ompt_event_implicit_task_begin = 22,
  ompt_event_implicit_task_end = 23,
  ompt_event_initial_task_begin = 24,
  ompt_event_initial_task_end = 25,
  ompt_event_task_switch = 26,
  ompt_event_loop_begin = 27,
  ompt_event_loop_end = 28,
  ompt_event_sections_begin = 29,
  ompt_event_sections_end = 30,
  ompt_event_single_in_block_begin = 31,
  ompt_event_single_in_block_end = 32,
  ompt_event_single_others_begin = 33,
  ompt_event_single_others_end = 34,
  ompt_event_workshare_begin = 35,
  ompt_event_workshare_end = 36,
  ompt_event_master_begin = 37,
  ompt_event_master_end = 38,
  ompt_event_barrier_begin = 39,
  ompt_event_barrier_end = 40,
  ompt_event_taskwait_begin = 41,
  ompt_event_taskwait_end = 42,
  ompt_event_taskgroup_begin = 43,
  ompt_event_taskgroup_end = 44,
  ompt_event_release_nest_lock_prev = 45,
  ompt_event_wait_lock = 46,
  ompt_event_wait_nest_lock = 47,
  ompt_event_wait_critical = 48,
  ompt_event_wait_atomic = 49,
  ompt_event_wait_ordered = 50,
  ompt_event_acquired_lock = 51,
  ompt_event_acquired_nest_lock_first = 52,
  ompt_event_acquired_nest_lock_next = 53,
  ompt_event_acquired_critical = 54,
  ompt_event_acquired_atomic = 55,
  ompt_event_acquired_ordered = 56,
  ompt_event_init_lock = 57,
  ompt_event_init_nest_lock = 58,
  ompt_event_destroy_lock = 59,
  ompt_event_destroy_nest_lock = 60,
  ompt_event_flush = 61
} ompt_event_t;

/* What ompt_set_callback answers (the report's section 6.1.2, as LLVM's
 * header of the time cites it; the names are the ones that header gave the
 * report's numbers). */
typedef enum {
  ompt_set_result_registration_error = 0,
  ompt_set_result_event_may_occur_no_callback = 1,
  ompt_set_result_event_never_occurs = 2,
  ompt_set_result_event_may_occur_callback_some = 3,
  ompt_set_result_event_may_occur_callback_always = 4
} ompt_set_result_t;

typedef enum {
  ompt_thread_initial = 1,
  ompt_thread_worker = 2,
  ompt_thread_other = 3
} ompt_thread_type_t;

/* --- callback signatures --------------------------------------------------- */
typedef void (*ompt_callback_t)(void); /* the type callbacks are registered as */

/* thread_begin, thread_end */
typedef void (*ompt_thread_type_callback_t)(ompt_thread_type_t thread_type,
                                            ompt_thread_id_t thread_id);
/* idle_begin, idle_end (and flush: Kite passes the thread id, a callback
 * declared without parameters ignores it) */
typedef void (*ompt_thread_callback_t)(ompt_thread_id_t thread_id);
/* parallel_begin */
typedef void (*ompt_new_parallel_callback_t)(ompt_task_id_t parent_task_id,
                                             ompt_frame_t *parent_task_frame,
                                             ompt_parallel_id_t parallel_id,
                                             uint32_t requested_team_size,
                                             void *parallel_function);
/* parallel_end, the wait_* barrier/taskwait/taskgroup events, implicit
 * task begin/end, the *_end of worksharing, master, barrier, taskwait,
 * taskgroup, single_others */
typedef void (*ompt_parallel_callback_t)(ompt_parallel_id_t parallel_id,
                                         ompt_task_id_t task_id);
/* loop_begin, sections_begin, single_in_block_begin, workshare_begin */
typedef void (*ompt_new_workshare_callback_t)(ompt_parallel_id_t parallel_id,
                                              ompt_task_id_t parent_task_id,
                                              void *workshare_function);
/* task_begin */
typedef void (*ompt_new_task_callback_t)(ompt_task_id_t parent_task_id,
                                         ompt_frame_t *parent_task_frame,
                                         ompt_task_id_t new_task_id,
                                         void *task_function);
/* task_end, initial_task_begin, initial_task_end */
typedef void (*ompt_task_callback_t)(ompt_task_id_t task_id);
/* task_switch */
typedef void (*ompt_task_switch_callback_t)(ompt_task_id_t suspended_task_id,
                                            ompt_task_id_t resumed_task_id);
/* the lock, critical, atomic and ordered events */
typedef void (*ompt_wait_callback_t)(ompt_wait_id_t wait_id);
/* control */
typedef void (*ompt_control_callback_t)(uint64_t command, uint64_t modifier);
/* runtime_shutdown: ompt_callback_t */

/* --- inquiry functions, found through lookup by these names ------------------ */
typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *entry_point);

typedef int (*ompt_enumerate_state_t)(int current_state, int *next_state,
                                      const char **next_state_name);
typedef int (*ompt_set_callback_t)(ompt_event_t event, ompt_callback_t callback);
typedef int (*ompt_get_callback_t)(ompt_event_t event, ompt_callback_t *callback);
typedef ompt_thread_id_t (*ompt_get_thread_id_t)(void);
typedef ompt_state_t (*ompt_get_state_t)(ompt_wait_id_t *wait_id);
typedef void *(*ompt_get_idle_frame_t)(void);
typedef ompt_parallel_id_t (*ompt_get_parallel_id_t)(int ancestor_level);
typedef int (*ompt_get_parallel_team_size_t)(int ancestor_level);
typedef ompt_task_id_t (*ompt_get_task_id_t)(int depth);
typedef ompt_frame_t *(*ompt_get_task_frame_t)(int depth);

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by the tool; non-zero keeps the interface on. Kite passes
 * ompt_version 1. */
int ompt_initialize(ompt_function_lookup_t lookup, const char *runtime_version,
                    unsigned int ompt_version);

/* The runtime's: calls the tool's ompt_event_control callback. */
void ompt_control(uint64_t command, uint64_t modifier);

#ifdef __cplusplus
}
#endif

#endif /* KITE_OMPT_TR2_H */
