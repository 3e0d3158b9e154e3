/*
 * ompt-2013.h: the 2013 OMPT proposal, "OMPT: OpenMP Tools Application
 * Programming Interfaces for Performance Analysis" (Eichenberger et al.,
 * 2013), as Kite serves it. Written for Kite from the facts of that
 * proposal; the numbers are those of its prototype runtime (the July 2013
 * ompt.h, ompt-event.h and ompt-state.h of the Intel/Rice OpenMP runtime
 * that implemented it, also carried by the tools built on it). Where the
 * proposal's signatures and the later TR2's differ, this is the
 * proposal's: tasks and threads are named by the tool's own data
 * (ompt_data_t), parallel regions by an id.
 *
 * A tool defines `int ompt_initialize(void)`; from it (and afterwards) it
 * calls the runtime's global functions declared below.
 * docs/legacy-tools.md says how Kite maps each event.
 *
 * Its names overlap omp-tools.h (OpenMP 5.x) and ompt-tr2.h with other
 * meanings: one translation unit includes one of them.
 */
#ifndef KITE_OMPT_2013_H
#define KITE_OMPT_2013_H

#if defined(__OMPT__) && !defined(KITE_DRAFT_OMPT_RUNTIME)
#error "ompt-2013.h (2013 draft OMPT) and omp-tools.h (OpenMP 5.x) cannot share a translation unit"
#endif
#ifdef KITE_OMPT_TR2_H
#error "ompt-2013.h and ompt-tr2.h cannot share a translation unit"
#endif

#include <stdint.h>

typedef uint64_t ompt_parallel_id_t;
typedef uint64_t ompt_wait_id_t;

typedef union ompt_data_u {
  uint64_t value;
  void *ptr;
} ompt_data_t;

typedef struct ompt_frame_s {
  void *exit_runtime_frame;
  void *reenter_runtime_frame;
} ompt_frame_t;

/* The prototype's states: the same numbers TR2 kept. */
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
  ompt_state_wait_single = 0x65, /* never answered by Kite */
  ompt_state_undefined = 0x70,
  ompt_state_first = 0x71
} ompt_state_t;

/* The proposal's events: 1-8 mandatory, 9-21 blame shifting, then the
 * synchronous ones. From 22 on the numbers differ from TR2's. */
typedef enum {
  ompt_event_parallel_create = 1,
  ompt_event_parallel_exit = 2,
  ompt_event_task_create = 3,
  ompt_event_task_exit = 4,
  ompt_event_thread_create = 5,
  ompt_event_thread_exit = 6,
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

  ompt_event_implicit_task_create = 22,
  ompt_event_implicit_task_exit = 23,
  ompt_event_task_switch = 24,
  ompt_event_loop_begin = 25,
  ompt_event_loop_end = 26,
  ompt_event_section_begin = 27,
  ompt_event_section_end = 28,
  ompt_event_single_in_block_begin = 29,
  ompt_event_single_in_block_end = 30,
  ompt_event_single_others_begin = 31,
  ompt_event_single_others_end = 32,
  ompt_event_master_begin = 33,
  ompt_event_master_end = 34,
  ompt_event_barrier_begin = 35,
  ompt_event_barrier_end = 36,
  ompt_event_taskwait_begin = 37,
  ompt_event_taskwait_end = 38,
  ompt_event_taskgroup_begin = 39,
  ompt_event_taskgroup_end = 40,
  ompt_event_release_nest_lock_prev = 41,
  ompt_event_wait_lock = 42,
  ompt_event_wait_nest_lock = 43,
  ompt_event_wait_critical = 44,
  ompt_event_wait_atomic = 45,
  ompt_event_wait_ordered = 46,
  ompt_event_acquired_lock = 47,
  ompt_event_acquired_nest_lock_first = 48,
  ompt_event_acquired_nest_lock_next = 49,
  ompt_event_acquired_critical = 50,
  ompt_event_acquired_atomic = 51,
  ompt_event_acquired_ordered = 52,
  ompt_event_init_lock = 53,
  ompt_event_init_nest_lock = 54,
  ompt_event_destroy_lock = 55,
  ompt_event_destroy_nest_lock = 56,
  ompt_event_flush = 57
} ompt_event_t;

/* What ompt_set_callback answers (the prototype's numbering, kept by TR2). */
typedef enum {
  ompt_set_callback_error = 0,
  ompt_has_event_no_callback = 1,
  ompt_no_event_no_callback = 2,
  ompt_has_event_may_callback = 3,
  ompt_has_event_must_callback = 4
} ompt_set_callback_rc_t;

/* --- callback signatures ------------------------------------------------------ */
typedef void (*ompt_callback_t)(void); /* registered as; runtime_shutdown */
/* thread_create, thread_exit, idle_begin, idle_end, flush */
typedef void (*ompt_thread_callback_t)(ompt_data_t *thread_data);
/* the wait_* barrier/taskwait/taskgroup events, implicit tasks, the
 * worksharing, master, barrier, taskwait and taskgroup events */
typedef void (*ompt_parallel_callback_t)(ompt_data_t *task_data, ompt_parallel_id_t parallel_id);
/* parallel_create, parallel_exit */
typedef void (*ompt_new_parallel_callback_t)(ompt_data_t *parent_task_data,
                                             ompt_frame_t *parent_task_frame,
                                             ompt_parallel_id_t parallel_id);
/* task_exit */
typedef void (*ompt_task_callback_t)(ompt_data_t *task_data);
/* task_switch */
typedef void (*ompt_task_switch_callback_t)(ompt_data_t *suspended_task_data,
                                            ompt_data_t *resumed_task_data);
/* task_create */
typedef void (*ompt_new_task_callback_t)(ompt_data_t *parent_task_data,
                                         ompt_frame_t *parent_task_frame,
                                         ompt_data_t *new_task_data);
/* the lock, critical, atomic and ordered events */
typedef void (*ompt_wait_callback_t)(ompt_wait_id_t wait_id);
/* control */
typedef void (*ompt_control_callback_t)(uint64_t command, uint64_t modifier);

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by the tool: non-zero keeps the interface on. */
int ompt_initialize(void);

/* The runtime's global functions. */
int ompt_set_callback(ompt_event_t event, ompt_callback_t callback);
int ompt_get_callback(ompt_event_t event, ompt_callback_t *callback);
ompt_state_t ompt_get_state(ompt_wait_id_t *wait_id);
ompt_data_t *ompt_get_thread_data(void);
void *ompt_get_idle_frame(void);
ompt_parallel_id_t ompt_get_parallel_id(int ancestor_level);
void *ompt_get_parallel_function(int ancestor_level);
ompt_data_t *ompt_get_task_data(int ancestor_level);
ompt_frame_t *ompt_get_task_frame(int ancestor_level);
void *ompt_get_task_function(int ancestor_level);
int ompt_get_runtime_version(char *buffer, int length);
int ompt_enumerate_state(int current_state, int *next_state, const char **next_state_name);
int ompt_get_ompt_version(void);
void ompt_control(uint64_t command, uint64_t modifier);

#ifdef __cplusplus
}
#endif

#endif /* KITE_OMPT_2013_H */
