// Display names of the OMPT enumerations the converter shows on slices.
#pragma once

#include <omp-tools.h>

#include <string>

namespace kite_trace {

inline const char *work_name(unsigned t) {
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

inline const char *sync_name(unsigned k) {
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

inline const char *mutex_name(unsigned k) {
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

inline const char *target_name(unsigned k) {
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


inline const char *data_op_name(unsigned k) {
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


}  // namespace kite_trace
