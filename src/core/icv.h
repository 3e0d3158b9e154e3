// Internal control variables. Each ICV lives in exactly one place, chosen by
// its scope in OpenMP 5.2 (table 2.1/2.3):
//   - data-environment ICVs travel with each task: struct TaskIcvs;
//   - device and global ICVs live once in g_icv (struct GlobalIcvs).
// Derived per-team values (levels, active levels, team size, place
// partition) are read from the team, never stored twice.
#pragma once

#include "base.h"

namespace kite {

enum class Sched : int {  // values match omp_sched_t
  kStatic = 1,
  kDynamic = 2,
  kGuided = 3,
  kAuto = 4,
};
constexpr int kSchedMonotonic = int(0x80000000u);

enum class ProcBind : int {  // values match omp_proc_bind_t
  kFalse = 0,
  kTrue = 1,
  kPrimary = 2,
  kClose = 3,
  kSpread = 4,
};

// Lists given to OMP_NUM_THREADS and OMP_PROC_BIND apply one element per
// nesting level; the task ICV keeps its position in the list.
constexpr int kMaxIcvList = 16;

// omp_get_supported_active_levels(); max-active-levels-var never exceeds it.
constexpr int kSupportedActiveLevels = 255;

struct TaskIcvs {
  int nthreads;           // nthreads-var, current element
  int dyn;                // dyn-var
  int sched;              // run-sched-var kind (Sched, maybe | kSchedMonotonic)
  long sched_chunk;       // run-sched-var chunk (0 = default)
  int bind;               // bind-var, current element (ProcBind)
  int thread_limit;       // thread-limit-var
  int max_active_levels;  // max-active-levels-var
  int default_device;     // default-device-var
  uintptr_t def_allocator;  // def-allocator-var (omp_allocator_handle_t)
  // Where the nested-level lists stand for this task's children.
  uint8_t nthreads_list_pos;
  uint8_t bind_list_pos;
  // The emulated device (core/device.h) whose target region this task is
  // part of, plus one; 0 on the host.
  uint8_t on_device;
};

struct GlobalIcvs {
  // Initial values for TaskIcvs of an initial task.
  TaskIcvs initial;
  int nthreads_list[kMaxIcvList];
  int nthreads_list_len;
  int bind_list[kMaxIcvList];
  int bind_list_len;
  // Device / global scope.
  long stacksize;          // stacksize-var, bytes (0 = system default)
  int wait_policy;         // wait-policy-var: 0 unset, 1 active, 2 passive
  long spin_us;            // spin budget before sleeping, us (-1 = forever)
  int cancel;              // cancel-var
  int max_task_priority;   // max-task-priority-var
  int display_affinity;    // display-affinity-var
  char affinity_format[256];  // affinity-format-var
  int nteams;              // nteams-var (0 = unset)
  int teams_thread_limit;  // teams-thread-limit-var (0 = unset)
  int target_offload;      // 0 default, 1 mandatory, 2 disabled
  int tool;                // tool-var: 1 enabled, 0 disabled
  char tool_libraries[1024];  // tool-libraries-var
  char tool_verbose_init[256];  // tool-verbose-init-var
  int display_env;         // OMP_DISPLAY_ENV: 0 false, 1 true, 2 verbose
  int num_procs;           // processors available to the process
  int nested_set;          // OMP_NESTED given explicitly (deprecated)
};

extern GlobalIcvs g_icv;

// Reads the environment into g_icv (once, at library load). Implemented in
// env.cpp; warns about every bad value and keeps the default.
void icv_init_from_environment();

// Prints the OPENMP DISPLAY ENVIRONMENT block on stderr (display_env.cpp);
// verbose adds Kite's own variables.
void display_env(bool verbose);

// Sets the ICVs of an implicit task at nesting level `level` (the new team's
// level) from its parent task's ICVs, applying the nested-level lists.
void icv_for_implicit_task(TaskIcvs& child, const TaskIcvs& parent);

}  // namespace kite
