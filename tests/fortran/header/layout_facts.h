/* The facts about omp.h that programs compiled against it depend on.
 * Each translation unit that includes this file after one omp.h gets the
 * same list, evaluated against that header. */
#define KITE_OMP_H_FACTS(F) \
  F(sizeof(omp_lock_t)) F(__alignof__(omp_lock_t)) \
  F(sizeof(omp_nest_lock_t)) F(__alignof__(omp_nest_lock_t)) \
  F(sizeof(omp_sched_t)) F(__alignof__(omp_sched_t)) \
  F(sizeof(omp_proc_bind_t)) F(__alignof__(omp_proc_bind_t)) \
  F(sizeof(omp_sync_hint_t)) F(__alignof__(omp_sync_hint_t)) \
  F(sizeof(omp_lock_hint_t)) F(__alignof__(omp_lock_hint_t)) \
  F(sizeof(omp_depend_t)) F(__alignof__(omp_depend_t)) \
  F(sizeof(omp_pause_resource_t)) F(__alignof__(omp_pause_resource_t)) \
  F(sizeof(omp_uintptr_t)) F(__alignof__(omp_uintptr_t)) \
  F(sizeof(omp_memspace_handle_t)) F(__alignof__(omp_memspace_handle_t)) \
  F(sizeof(omp_allocator_handle_t)) F(__alignof__(omp_allocator_handle_t)) \
  F(sizeof(omp_alloctrait_key_t)) F(__alignof__(omp_alloctrait_key_t)) \
  F(sizeof(omp_alloctrait_value_t)) F(__alignof__(omp_alloctrait_value_t)) \
  F(sizeof(omp_alloctrait_t)) F(__alignof__(omp_alloctrait_t)) \
  F(sizeof(omp_event_handle_t)) F(__alignof__(omp_event_handle_t)) \
  F(offsetof(omp_alloctrait_t, key)) F(offsetof(omp_alloctrait_t, value)) \
  F(omp_sched_static) \
  F(omp_sched_dynamic) \
  F(omp_sched_guided) \
  F(omp_sched_auto) \
  F(omp_sched_monotonic) \
  F(omp_proc_bind_false) \
  F(omp_proc_bind_true) \
  F(omp_proc_bind_primary) \
  F(omp_proc_bind_close) \
  F(omp_proc_bind_spread) \
  F(omp_sync_hint_none) \
  F(omp_sync_hint_uncontended) \
  F(omp_sync_hint_contended) \
  F(omp_sync_hint_nonspeculative) \
  F(omp_sync_hint_speculative) \
  F(omp_pause_soft) \
  F(omp_pause_hard) \
  F(omp_default_mem_space) \
  F(omp_large_cap_mem_space) \
  F(omp_const_mem_space) \
  F(omp_high_bw_mem_space) \
  F(omp_low_lat_mem_space) \
  F(omp_null_allocator) \
  F(omp_default_mem_alloc) \
  F(omp_large_cap_mem_alloc) \
  F(omp_const_mem_alloc) \
  F(omp_high_bw_mem_alloc) \
  F(omp_low_lat_mem_alloc) \
  F(omp_cgroup_mem_alloc) \
  F(omp_pteam_mem_alloc) \
  F(omp_thread_mem_alloc) \
  F(omp_atk_sync_hint) \
  F(omp_atk_alignment) \
  F(omp_atk_access) \
  F(omp_atk_pool_size) \
  F(omp_atk_fallback) \
  F(omp_atk_fb_data) \
  F(omp_atk_pinned) \
  F(omp_atk_partition) \
  F(omp_atv_default) \
  F(omp_atv_false) \
  F(omp_atv_true) \
  F(omp_atv_contended) \
  F(omp_atv_uncontended) \
  F(omp_atv_serialized) \
  F(omp_atv_private) \
  F(omp_atv_all) \
  F(omp_atv_thread) \
  F(omp_atv_pteam) \
  F(omp_atv_cgroup) \
  F(omp_atv_default_mem_fb) \
  F(omp_atv_null_fb) \
  F(omp_atv_abort_fb) \
  F(omp_atv_allocator_fb) \
  F(omp_atv_environment) \
  F(omp_atv_nearest) \
  F(omp_atv_blocked) \
  F(omp_atv_interleaved)
