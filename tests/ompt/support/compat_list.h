/* Names both omp-tools.h headers define: every enumerator, every struct
 * and union, every member. Each translation unit that includes this list
 * turns it into a table of values, sizes and offsets under its own header.
 * OpenMP 5.2 renamed ompt_record_work_t's first member (LLVM 14: wstype,
 * 5.2: work_type); each unit names it through KITE_WORK_TYPE_MEMBER. */
#define KITE_COMPAT_ENUMERATORS(X) \
  X(ompt_callback_thread_begin) \
  X(ompt_callback_thread_end) \
  X(ompt_callback_parallel_begin) \
  X(ompt_callback_parallel_end) \
  X(ompt_callback_task_create) \
  X(ompt_callback_task_schedule) \
  X(ompt_callback_implicit_task) \
  X(ompt_callback_target) \
  X(ompt_callback_target_data_op) \
  X(ompt_callback_target_submit) \
  X(ompt_callback_control_tool) \
  X(ompt_callback_device_initialize) \
  X(ompt_callback_device_finalize) \
  X(ompt_callback_device_load) \
  X(ompt_callback_device_unload) \
  X(ompt_callback_sync_region_wait) \
  X(ompt_callback_mutex_released) \
  X(ompt_callback_dependences) \
  X(ompt_callback_task_dependence) \
  X(ompt_callback_work) \
  X(ompt_callback_master) \
  X(ompt_callback_masked) \
  X(ompt_callback_target_map) \
  X(ompt_callback_sync_region) \
  X(ompt_callback_lock_init) \
  X(ompt_callback_lock_destroy) \
  X(ompt_callback_mutex_acquire) \
  X(ompt_callback_mutex_acquired) \
  X(ompt_callback_nest_lock) \
  X(ompt_callback_flush) \
  X(ompt_callback_cancel) \
  X(ompt_callback_reduction) \
  X(ompt_callback_dispatch) \
  X(ompt_callback_target_emi) \
  X(ompt_callback_target_data_op_emi) \
  X(ompt_callback_target_submit_emi) \
  X(ompt_callback_target_map_emi) \
  X(ompt_callback_error) \
  X(ompt_record_ompt) \
  X(ompt_record_native) \
  X(ompt_record_invalid) \
  X(ompt_record_native_info) \
  X(ompt_record_native_event) \
  X(ompt_set_error) \
  X(ompt_set_never) \
  X(ompt_set_impossible) \
  X(ompt_set_sometimes) \
  X(ompt_set_sometimes_paired) \
  X(ompt_set_always) \
  X(ompt_thread_initial) \
  X(ompt_thread_worker) \
  X(ompt_thread_other) \
  X(ompt_thread_unknown) \
  X(ompt_scope_begin) \
  X(ompt_scope_end) \
  X(ompt_scope_beginend) \
  X(ompt_dispatch_iteration) \
  X(ompt_dispatch_section) \
  X(ompt_sync_region_barrier) \
  X(ompt_sync_region_barrier_implicit) \
  X(ompt_sync_region_barrier_explicit) \
  X(ompt_sync_region_barrier_implementation) \
  X(ompt_sync_region_taskwait) \
  X(ompt_sync_region_taskgroup) \
  X(ompt_sync_region_reduction) \
  X(ompt_sync_region_barrier_implicit_workshare) \
  X(ompt_sync_region_barrier_implicit_parallel) \
  X(ompt_sync_region_barrier_teams) \
  X(ompt_target_data_alloc) \
  X(ompt_target_data_transfer_to_device) \
  X(ompt_target_data_transfer_from_device) \
  X(ompt_target_data_delete) \
  X(ompt_target_data_associate) \
  X(ompt_target_data_disassociate) \
  X(ompt_target_data_alloc_async) \
  X(ompt_target_data_transfer_to_device_async) \
  X(ompt_target_data_transfer_from_device_async) \
  X(ompt_target_data_delete_async) \
  X(ompt_work_loop) \
  X(ompt_work_sections) \
  X(ompt_work_single_executor) \
  X(ompt_work_single_other) \
  X(ompt_work_workshare) \
  X(ompt_work_distribute) \
  X(ompt_work_taskloop) \
  X(ompt_work_scope) \
  X(ompt_mutex_lock) \
  X(ompt_mutex_test_lock) \
  X(ompt_mutex_nest_lock) \
  X(ompt_mutex_test_nest_lock) \
  X(ompt_mutex_critical) \
  X(ompt_mutex_atomic) \
  X(ompt_mutex_ordered) \
  X(ompt_native_data_motion_explicit) \
  X(ompt_native_data_motion_implicit) \
  X(ompt_native_kernel_invocation) \
  X(ompt_native_kernel_execution) \
  X(ompt_native_driver) \
  X(ompt_native_runtime) \
  X(ompt_native_overhead) \
  X(ompt_native_idleness) \
  X(ompt_task_initial) \
  X(ompt_task_implicit) \
  X(ompt_task_explicit) \
  X(ompt_task_target) \
  X(ompt_task_taskwait) \
  X(ompt_task_undeferred) \
  X(ompt_task_untied) \
  X(ompt_task_final) \
  X(ompt_task_mergeable) \
  X(ompt_task_merged) \
  X(ompt_task_complete) \
  X(ompt_task_yield) \
  X(ompt_task_cancel) \
  X(ompt_task_detach) \
  X(ompt_task_early_fulfill) \
  X(ompt_task_late_fulfill) \
  X(ompt_task_switch) \
  X(ompt_taskwait_complete) \
  X(ompt_target) \
  X(ompt_target_enter_data) \
  X(ompt_target_exit_data) \
  X(ompt_target_update) \
  X(ompt_target_nowait) \
  X(ompt_target_enter_data_nowait) \
  X(ompt_target_exit_data_nowait) \
  X(ompt_target_update_nowait) \
  X(ompt_parallel_invoker_program) \
  X(ompt_parallel_invoker_runtime) \
  X(ompt_parallel_league) \
  X(ompt_parallel_team) \
  X(ompt_target_map_flag_to) \
  X(ompt_target_map_flag_from) \
  X(ompt_target_map_flag_alloc) \
  X(ompt_target_map_flag_release) \
  X(ompt_target_map_flag_delete) \
  X(ompt_target_map_flag_implicit) \
  X(ompt_dependence_type_in) \
  X(ompt_dependence_type_out) \
  X(ompt_dependence_type_inout) \
  X(ompt_dependence_type_mutexinoutset) \
  X(ompt_dependence_type_source) \
  X(ompt_dependence_type_sink) \
  X(ompt_dependence_type_inoutset) \
  X(ompt_warning) \
  X(ompt_fatal) \
  X(ompt_cancel_parallel) \
  X(ompt_cancel_sections) \
  X(ompt_cancel_loop) \
  X(ompt_cancel_taskgroup) \
  X(ompt_cancel_activated) \
  X(ompt_cancel_detected) \
  X(ompt_cancel_discarded_task) \
  X(ompt_frame_runtime) \
  X(ompt_frame_application) \
  X(ompt_frame_cfa) \
  X(ompt_frame_framepointer) \
  X(ompt_frame_stackaddress) \
  X(ompt_state_work_serial) \
  X(ompt_state_work_parallel) \
  X(ompt_state_work_reduction) \
  X(ompt_state_wait_barrier) \
  X(ompt_state_wait_barrier_implicit_parallel) \
  X(ompt_state_wait_barrier_implicit_workshare) \
  X(ompt_state_wait_barrier_implicit) \
  X(ompt_state_wait_barrier_explicit) \
  X(ompt_state_wait_barrier_implementation) \
  X(ompt_state_wait_barrier_teams) \
  X(ompt_state_wait_taskwait) \
  X(ompt_state_wait_taskgroup) \
  X(ompt_state_wait_mutex) \
  X(ompt_state_wait_lock) \
  X(ompt_state_wait_critical) \
  X(ompt_state_wait_atomic) \
  X(ompt_state_wait_ordered) \
  X(ompt_state_wait_target) \
  X(ompt_state_wait_target_map) \
  X(ompt_state_wait_target_update) \
  X(ompt_state_idle) \
  X(ompt_state_overhead) \
  X(ompt_state_undefined) \

#define KITE_COMPAT_TYPES(X) \
  X(ompt_callbacks_t) \
  X(ompt_record_t) \
  X(ompt_record_native_t) \
  X(ompt_set_result_t) \
  X(ompt_thread_t) \
  X(ompt_scope_endpoint_t) \
  X(ompt_dispatch_t) \
  X(ompt_sync_region_t) \
  X(ompt_target_data_op_t) \
  X(ompt_work_t) \
  X(ompt_mutex_t) \
  X(ompt_native_mon_flag_t) \
  X(ompt_task_flag_t) \
  X(ompt_task_status_t) \
  X(ompt_target_t) \
  X(ompt_parallel_flag_t) \
  X(ompt_target_map_flag_t) \
  X(ompt_dependence_type_t) \
  X(ompt_severity_t) \
  X(ompt_cancel_flag_t) \
  X(ompt_frame_flag_t) \
  X(ompt_state_t) \
  X(ompt_data_t) \
  X(ompt_frame_t) \
  X(ompt_start_tool_result_t) \
  X(ompt_record_abstract_t) \
  X(ompt_dependence_t) \
  X(ompt_record_thread_begin_t) \
  X(ompt_record_parallel_begin_t) \
  X(ompt_record_parallel_end_t) \
  X(ompt_record_work_t) \
  X(ompt_record_dispatch_t) \
  X(ompt_record_task_create_t) \
  X(ompt_record_dependences_t) \
  X(ompt_record_task_dependence_t) \
  X(ompt_record_task_schedule_t) \
  X(ompt_record_implicit_task_t) \
  X(ompt_record_masked_t) \
  X(ompt_record_sync_region_t) \
  X(ompt_record_mutex_acquire_t) \
  X(ompt_record_mutex_t) \
  X(ompt_record_nest_lock_t) \
  X(ompt_record_flush_t) \
  X(ompt_record_cancel_t) \
  X(ompt_record_target_data_op_t) \
  X(ompt_record_target_t) \
  X(ompt_record_target_map_t) \
  X(ompt_record_target_kernel_t) \
  X(ompt_record_control_tool_t) \
  X(ompt_record_error_t) \
  X(ompt_record_ompt_t) \
  X(ompt_id_t) \
  X(ompt_wait_id_t) \
  X(ompt_device_time_t) \
  X(ompt_buffer_cursor_t) \
  X(ompt_hwid_t) \

#define KITE_COMPAT_MEMBERS(X) \
  X(ompt_data_t, value) \
  X(ompt_data_t, ptr) \
  X(ompt_frame_t, exit_frame) \
  X(ompt_frame_t, enter_frame) \
  X(ompt_frame_t, exit_frame_flags) \
  X(ompt_frame_t, enter_frame_flags) \
  X(ompt_start_tool_result_t, initialize) \
  X(ompt_start_tool_result_t, finalize) \
  X(ompt_start_tool_result_t, tool_data) \
  X(ompt_record_abstract_t, rclass) \
  X(ompt_record_abstract_t, type) \
  X(ompt_record_abstract_t, start_time) \
  X(ompt_record_abstract_t, end_time) \
  X(ompt_record_abstract_t, hwid) \
  X(ompt_dependence_t, variable) \
  X(ompt_dependence_t, dependence_type) \
  X(ompt_record_thread_begin_t, thread_type) \
  X(ompt_record_parallel_begin_t, encountering_task_id) \
  X(ompt_record_parallel_begin_t, parallel_id) \
  X(ompt_record_parallel_begin_t, requested_parallelism) \
  X(ompt_record_parallel_begin_t, flags) \
  X(ompt_record_parallel_begin_t, codeptr_ra) \
  X(ompt_record_parallel_end_t, parallel_id) \
  X(ompt_record_parallel_end_t, encountering_task_id) \
  X(ompt_record_parallel_end_t, flags) \
  X(ompt_record_parallel_end_t, codeptr_ra) \
  X(ompt_record_work_t, KITE_WORK_TYPE_MEMBER) \
  X(ompt_record_work_t, endpoint) \
  X(ompt_record_work_t, parallel_id) \
  X(ompt_record_work_t, task_id) \
  X(ompt_record_work_t, count) \
  X(ompt_record_work_t, codeptr_ra) \
  X(ompt_record_dispatch_t, parallel_id) \
  X(ompt_record_dispatch_t, task_id) \
  X(ompt_record_dispatch_t, kind) \
  X(ompt_record_dispatch_t, instance) \
  X(ompt_record_task_create_t, encountering_task_id) \
  X(ompt_record_task_create_t, new_task_id) \
  X(ompt_record_task_create_t, flags) \
  X(ompt_record_task_create_t, has_dependences) \
  X(ompt_record_task_create_t, codeptr_ra) \
  X(ompt_record_dependences_t, task_id) \
  X(ompt_record_dependences_t, dep) \
  X(ompt_record_dependences_t, ndeps) \
  X(ompt_record_task_dependence_t, src_task_id) \
  X(ompt_record_task_dependence_t, sink_task_id) \
  X(ompt_record_task_schedule_t, prior_task_id) \
  X(ompt_record_task_schedule_t, prior_task_status) \
  X(ompt_record_task_schedule_t, next_task_id) \
  X(ompt_record_implicit_task_t, endpoint) \
  X(ompt_record_implicit_task_t, parallel_id) \
  X(ompt_record_implicit_task_t, task_id) \
  X(ompt_record_implicit_task_t, actual_parallelism) \
  X(ompt_record_implicit_task_t, index) \
  X(ompt_record_implicit_task_t, flags) \
  X(ompt_record_masked_t, endpoint) \
  X(ompt_record_masked_t, parallel_id) \
  X(ompt_record_masked_t, task_id) \
  X(ompt_record_masked_t, codeptr_ra) \
  X(ompt_record_sync_region_t, kind) \
  X(ompt_record_sync_region_t, endpoint) \
  X(ompt_record_sync_region_t, parallel_id) \
  X(ompt_record_sync_region_t, task_id) \
  X(ompt_record_sync_region_t, codeptr_ra) \
  X(ompt_record_mutex_acquire_t, kind) \
  X(ompt_record_mutex_acquire_t, hint) \
  X(ompt_record_mutex_acquire_t, impl) \
  X(ompt_record_mutex_acquire_t, wait_id) \
  X(ompt_record_mutex_acquire_t, codeptr_ra) \
  X(ompt_record_mutex_t, kind) \
  X(ompt_record_mutex_t, wait_id) \
  X(ompt_record_mutex_t, codeptr_ra) \
  X(ompt_record_nest_lock_t, endpoint) \
  X(ompt_record_nest_lock_t, wait_id) \
  X(ompt_record_nest_lock_t, codeptr_ra) \
  X(ompt_record_flush_t, codeptr_ra) \
  X(ompt_record_cancel_t, task_id) \
  X(ompt_record_cancel_t, flags) \
  X(ompt_record_cancel_t, codeptr_ra) \
  X(ompt_record_target_data_op_t, host_op_id) \
  X(ompt_record_target_data_op_t, optype) \
  X(ompt_record_target_data_op_t, src_addr) \
  X(ompt_record_target_data_op_t, src_device_num) \
  X(ompt_record_target_data_op_t, dest_addr) \
  X(ompt_record_target_data_op_t, dest_device_num) \
  X(ompt_record_target_data_op_t, bytes) \
  X(ompt_record_target_data_op_t, end_time) \
  X(ompt_record_target_data_op_t, codeptr_ra) \
  X(ompt_record_target_t, kind) \
  X(ompt_record_target_t, endpoint) \
  X(ompt_record_target_t, device_num) \
  X(ompt_record_target_t, task_id) \
  X(ompt_record_target_t, target_id) \
  X(ompt_record_target_t, codeptr_ra) \
  X(ompt_record_target_map_t, target_id) \
  X(ompt_record_target_map_t, nitems) \
  X(ompt_record_target_map_t, host_addr) \
  X(ompt_record_target_map_t, device_addr) \
  X(ompt_record_target_map_t, bytes) \
  X(ompt_record_target_map_t, mapping_flags) \
  X(ompt_record_target_map_t, codeptr_ra) \
  X(ompt_record_target_kernel_t, host_op_id) \
  X(ompt_record_target_kernel_t, requested_num_teams) \
  X(ompt_record_target_kernel_t, granted_num_teams) \
  X(ompt_record_target_kernel_t, end_time) \
  X(ompt_record_control_tool_t, command) \
  X(ompt_record_control_tool_t, modifier) \
  X(ompt_record_control_tool_t, codeptr_ra) \
  X(ompt_record_error_t, severity) \
  X(ompt_record_error_t, message) \
  X(ompt_record_error_t, length) \
  X(ompt_record_error_t, codeptr_ra) \
  X(ompt_record_ompt_t, type) \
  X(ompt_record_ompt_t, time) \
  X(ompt_record_ompt_t, thread_id) \
  X(ompt_record_ompt_t, target_id) \
  X(ompt_record_ompt_t, record) \

/* end of lists */
