# Runs the plugin's own test battery (`ompdtestapi <routine>`) at the stop,
# after everything else (it ends with ompd_finalize), and prints each
# failed test as "BATTERY-FAIL <routine>: <test>" for run_gdb.py.
import gdb

ROUTINES = """ompd_initialize ompd_get_api_version ompd_get_version_string
ompd_process_initialize ompd_device_initialize ompd_get_omp_version
ompd_get_omp_version_string ompd_get_thread_handle ompd_get_curr_parallel_handle
ompd_get_thread_in_parallel ompd_thread_handle_compare ompd_get_thread_id
ompd_rel_thread_handle ompd_get_enclosing_parallel_handle ompd_parallel_handle_compare
ompd_rel_parallel_handle ompd_get_curr_task_handle ompd_get_task_parallel_handle
ompd_get_generating_task_handle ompd_get_scheduling_task_handle ompd_get_task_in_parallel
ompd_rel_task_handle ompd_task_handle_compare ompd_get_task_function ompd_get_task_frame
ompd_get_state ompd_get_display_control_vars ompd_rel_display_control_vars
ompd_enumerate_icvs ompd_get_icv_from_scope ompd_get_icv_string_from_scope
ompd_get_tool_data ompd_enumerate_states ompd_rel_address_space_handle ompd_finalize""".split()

passed = 0
for r in ROUTINES:
    try:
        # The battery prints with C printf: capture it through gdb's output
        # is not possible, so it goes to the log as is; count from there.
        gdb.execute("ompdtestapi " + r)
        print("BATTERY-DONE " + r)
    except gdb.error as e:
        print("BATTERY-ERROR %s: %s" % (r, e))
