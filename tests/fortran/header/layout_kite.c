/* Facts about Kite's include/omp.h (this unit is compiled with -I include),
 * and the address of every routine it declares, so that the test finds a
 * declaration without a definition in Kite. The references are weak: a
 * missing routine makes the test fail with its name, not the build. */
#include <omp.h>
#include <stddef.h>

#include "layout_facts.h"

#ifndef __KITE_OMP_NOTHROW
#error "layout_kite.c must be compiled against Kite's omp.h (-I include)"
#endif

#define KITE_FACT_VALUE(x) (unsigned long long)(x),
const unsigned long long kite_omp_h_facts_kite_c[] = {KITE_OMP_H_FACTS(KITE_FACT_VALUE)};

#pragma weak omp_set_num_threads
#pragma weak omp_get_num_threads
#pragma weak omp_get_max_threads
#pragma weak omp_get_thread_num
#pragma weak omp_get_num_procs
#pragma weak omp_in_parallel
#pragma weak omp_set_dynamic
#pragma weak omp_get_dynamic
#pragma weak omp_set_nested
#pragma weak omp_get_nested
#pragma weak omp_set_schedule
#pragma weak omp_get_schedule
#pragma weak omp_get_thread_limit
#pragma weak omp_set_max_active_levels
#pragma weak omp_get_max_active_levels
#pragma weak omp_get_supported_active_levels
#pragma weak omp_get_level
#pragma weak omp_get_ancestor_thread_num
#pragma weak omp_get_team_size
#pragma weak omp_get_active_level
#pragma weak omp_in_final
#pragma weak omp_get_cancellation
#pragma weak omp_get_max_task_priority
#pragma weak omp_init_lock
#pragma weak omp_destroy_lock
#pragma weak omp_set_lock
#pragma weak omp_unset_lock
#pragma weak omp_test_lock
#pragma weak omp_init_nest_lock
#pragma weak omp_init_lock_with_hint
#pragma weak omp_init_nest_lock_with_hint
#pragma weak omp_destroy_nest_lock
#pragma weak omp_set_nest_lock
#pragma weak omp_unset_nest_lock
#pragma weak omp_test_nest_lock
#pragma weak omp_get_wtime
#pragma weak omp_get_wtick
#pragma weak omp_get_proc_bind
#pragma weak omp_get_num_places
#pragma weak omp_get_place_num_procs
#pragma weak omp_get_place_proc_ids
#pragma weak omp_get_place_num
#pragma weak omp_get_partition_num_places
#pragma weak omp_get_partition_place_nums
#pragma weak omp_set_affinity_format
#pragma weak omp_get_affinity_format
#pragma weak omp_display_affinity
#pragma weak omp_capture_affinity
#pragma weak omp_set_default_device
#pragma weak omp_get_default_device
#pragma weak omp_get_num_devices
#pragma weak omp_get_device_num
#pragma weak omp_get_num_teams
#pragma weak omp_get_team_num
#pragma weak omp_is_initial_device
#pragma weak omp_get_initial_device
#pragma weak omp_set_num_teams
#pragma weak omp_get_max_teams
#pragma weak omp_set_teams_thread_limit
#pragma weak omp_get_teams_thread_limit
#pragma weak omp_target_alloc
#pragma weak omp_target_free
#pragma weak omp_target_is_present
#pragma weak omp_target_memcpy
#pragma weak omp_target_memcpy_rect
#pragma weak omp_target_associate_ptr
#pragma weak omp_target_disassociate_ptr
#pragma weak omp_fulfill_event
#pragma weak omp_pause_resource
#pragma weak omp_pause_resource_all
#pragma weak omp_init_allocator
#pragma weak omp_destroy_allocator
#pragma weak omp_set_default_allocator
#pragma weak omp_get_default_allocator
#pragma weak omp_free
#pragma weak omp_alloc
#pragma weak omp_aligned_alloc
#pragma weak omp_calloc
#pragma weak omp_aligned_calloc
#pragma weak omp_realloc
#pragma weak omp_display_env

typedef void (*kite_any_fn)(void);
const kite_any_fn kite_omp_h_functions[] = {
    (kite_any_fn)omp_set_num_threads,
    (kite_any_fn)omp_get_num_threads,
    (kite_any_fn)omp_get_max_threads,
    (kite_any_fn)omp_get_thread_num,
    (kite_any_fn)omp_get_num_procs,
    (kite_any_fn)omp_in_parallel,
    (kite_any_fn)omp_set_dynamic,
    (kite_any_fn)omp_get_dynamic,
    (kite_any_fn)omp_set_nested,
    (kite_any_fn)omp_get_nested,
    (kite_any_fn)omp_set_schedule,
    (kite_any_fn)omp_get_schedule,
    (kite_any_fn)omp_get_thread_limit,
    (kite_any_fn)omp_set_max_active_levels,
    (kite_any_fn)omp_get_max_active_levels,
    (kite_any_fn)omp_get_supported_active_levels,
    (kite_any_fn)omp_get_level,
    (kite_any_fn)omp_get_ancestor_thread_num,
    (kite_any_fn)omp_get_team_size,
    (kite_any_fn)omp_get_active_level,
    (kite_any_fn)omp_in_final,
    (kite_any_fn)omp_get_cancellation,
    (kite_any_fn)omp_get_max_task_priority,
    (kite_any_fn)omp_init_lock,
    (kite_any_fn)omp_destroy_lock,
    (kite_any_fn)omp_set_lock,
    (kite_any_fn)omp_unset_lock,
    (kite_any_fn)omp_test_lock,
    (kite_any_fn)omp_init_nest_lock,
    (kite_any_fn)omp_init_lock_with_hint,
    (kite_any_fn)omp_init_nest_lock_with_hint,
    (kite_any_fn)omp_destroy_nest_lock,
    (kite_any_fn)omp_set_nest_lock,
    (kite_any_fn)omp_unset_nest_lock,
    (kite_any_fn)omp_test_nest_lock,
    (kite_any_fn)omp_get_wtime,
    (kite_any_fn)omp_get_wtick,
    (kite_any_fn)omp_get_proc_bind,
    (kite_any_fn)omp_get_num_places,
    (kite_any_fn)omp_get_place_num_procs,
    (kite_any_fn)omp_get_place_proc_ids,
    (kite_any_fn)omp_get_place_num,
    (kite_any_fn)omp_get_partition_num_places,
    (kite_any_fn)omp_get_partition_place_nums,
    (kite_any_fn)omp_set_affinity_format,
    (kite_any_fn)omp_get_affinity_format,
    (kite_any_fn)omp_display_affinity,
    (kite_any_fn)omp_capture_affinity,
    (kite_any_fn)omp_set_default_device,
    (kite_any_fn)omp_get_default_device,
    (kite_any_fn)omp_get_num_devices,
    (kite_any_fn)omp_get_device_num,
    (kite_any_fn)omp_get_num_teams,
    (kite_any_fn)omp_get_team_num,
    (kite_any_fn)omp_is_initial_device,
    (kite_any_fn)omp_get_initial_device,
    (kite_any_fn)omp_set_num_teams,
    (kite_any_fn)omp_get_max_teams,
    (kite_any_fn)omp_set_teams_thread_limit,
    (kite_any_fn)omp_get_teams_thread_limit,
    (kite_any_fn)omp_target_alloc,
    (kite_any_fn)omp_target_free,
    (kite_any_fn)omp_target_is_present,
    (kite_any_fn)omp_target_memcpy,
    (kite_any_fn)omp_target_memcpy_rect,
    (kite_any_fn)omp_target_associate_ptr,
    (kite_any_fn)omp_target_disassociate_ptr,
    (kite_any_fn)omp_fulfill_event,
    (kite_any_fn)omp_pause_resource,
    (kite_any_fn)omp_pause_resource_all,
    (kite_any_fn)omp_init_allocator,
    (kite_any_fn)omp_destroy_allocator,
    (kite_any_fn)omp_set_default_allocator,
    (kite_any_fn)omp_get_default_allocator,
    (kite_any_fn)omp_free,
    (kite_any_fn)omp_alloc,
    (kite_any_fn)omp_aligned_alloc,
    (kite_any_fn)omp_calloc,
    (kite_any_fn)omp_aligned_calloc,
    (kite_any_fn)omp_realloc,
    (kite_any_fn)omp_display_env,
};
const char* const kite_omp_h_function_names[] = {
    "omp_set_num_threads",
    "omp_get_num_threads",
    "omp_get_max_threads",
    "omp_get_thread_num",
    "omp_get_num_procs",
    "omp_in_parallel",
    "omp_set_dynamic",
    "omp_get_dynamic",
    "omp_set_nested",
    "omp_get_nested",
    "omp_set_schedule",
    "omp_get_schedule",
    "omp_get_thread_limit",
    "omp_set_max_active_levels",
    "omp_get_max_active_levels",
    "omp_get_supported_active_levels",
    "omp_get_level",
    "omp_get_ancestor_thread_num",
    "omp_get_team_size",
    "omp_get_active_level",
    "omp_in_final",
    "omp_get_cancellation",
    "omp_get_max_task_priority",
    "omp_init_lock",
    "omp_destroy_lock",
    "omp_set_lock",
    "omp_unset_lock",
    "omp_test_lock",
    "omp_init_nest_lock",
    "omp_init_lock_with_hint",
    "omp_init_nest_lock_with_hint",
    "omp_destroy_nest_lock",
    "omp_set_nest_lock",
    "omp_unset_nest_lock",
    "omp_test_nest_lock",
    "omp_get_wtime",
    "omp_get_wtick",
    "omp_get_proc_bind",
    "omp_get_num_places",
    "omp_get_place_num_procs",
    "omp_get_place_proc_ids",
    "omp_get_place_num",
    "omp_get_partition_num_places",
    "omp_get_partition_place_nums",
    "omp_set_affinity_format",
    "omp_get_affinity_format",
    "omp_display_affinity",
    "omp_capture_affinity",
    "omp_set_default_device",
    "omp_get_default_device",
    "omp_get_num_devices",
    "omp_get_device_num",
    "omp_get_num_teams",
    "omp_get_team_num",
    "omp_is_initial_device",
    "omp_get_initial_device",
    "omp_set_num_teams",
    "omp_get_max_teams",
    "omp_set_teams_thread_limit",
    "omp_get_teams_thread_limit",
    "omp_target_alloc",
    "omp_target_free",
    "omp_target_is_present",
    "omp_target_memcpy",
    "omp_target_memcpy_rect",
    "omp_target_associate_ptr",
    "omp_target_disassociate_ptr",
    "omp_fulfill_event",
    "omp_pause_resource",
    "omp_pause_resource_all",
    "omp_init_allocator",
    "omp_destroy_allocator",
    "omp_set_default_allocator",
    "omp_get_default_allocator",
    "omp_free",
    "omp_alloc",
    "omp_aligned_alloc",
    "omp_calloc",
    "omp_aligned_calloc",
    "omp_realloc",
    "omp_display_env",
};
const size_t kite_omp_h_function_count = sizeof kite_omp_h_functions / sizeof kite_omp_h_functions[0];
