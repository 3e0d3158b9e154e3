/* Kite's OpenMP C/C++ API header (OpenMP 5.2 routines as far as the libgomp
 * 12 ABI exports them).
 *
 * Programs compiled against this header must be interchangeable with
 * programs compiled against gcc 12's omp.h: every type here has the same
 * size, alignment and enumerator values, so objects built either way can be
 * linked together and run on Kite or on libgomp. Lock contents are private
 * to the runtime; only their storage shape is public.
 *
 * Routines that OpenMP 5.2 defines but neither libgomp 12 nor Kite export
 * (the interop and async-memcpy routines, ...) are deliberately not
 * declared: a declaration without a definition would turn a clear compile
 * error into a confusing link error. The *_with_hint lock initializers are
 * declared (as in gcc's omp.h): libgomp 12 lacks them, Kite provides them. */
#ifndef _OMP_H
#define _OMP_H 1

/* Pointer-sized and 0x80000000 enumerators are GNU C, as in gcc's omp.h;
 * like that header (which lives in a system directory) this one should not
 * make -pedantic user builds fail, wherever it is installed. */
#if defined(__GNUC__)
#pragma GCC system_header
#endif

#if defined(__GNUC__) && defined(_OPENMP) && _OPENMP >= 201811
#define __KITE_OMP_DEPRECATED_5_0 __attribute__((__deprecated__))
#else
#define __KITE_OMP_DEPRECATED_5_0
#endif
#if defined(__GNUC__) && defined(_OPENMP) && _OPENMP >= 202011
#define __KITE_OMP_DEPRECATED_5_1 __attribute__((__deprecated__))
#else
#define __KITE_OMP_DEPRECATED_5_1
#endif

/* gcc's omp.h guards the two lock types with this macro so that libgomp's
 * own build can provide them; honour the same guard so that a translation
 * unit that already saw gcc's definitions does not see them twice. */
#ifndef _LIBGOMP_OMP_LOCK_DEFINED
#define _LIBGOMP_OMP_LOCK_DEFINED 1
typedef struct {
  unsigned char __kite_opaque[4] __attribute__((__aligned__(4)));
} omp_lock_t;

/* 16 bytes, pointer-aligned: a word for the lock, a count, an owner. */
typedef struct {
  unsigned char __kite_opaque[8 + sizeof(void*)] __attribute__((__aligned__(sizeof(void*))));
} omp_nest_lock_t;
#endif

typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4,
  omp_sched_monotonic = 0x80000000U
} omp_sched_t;

typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_primary = 2,
  omp_proc_bind_master __KITE_OMP_DEPRECATED_5_1 = omp_proc_bind_primary,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4
} omp_proc_bind_t;

typedef enum omp_sync_hint_t {
  omp_sync_hint_none = 0,
  omp_lock_hint_none __KITE_OMP_DEPRECATED_5_0 = omp_sync_hint_none,
  omp_sync_hint_uncontended = 1,
  omp_lock_hint_uncontended __KITE_OMP_DEPRECATED_5_0 = omp_sync_hint_uncontended,
  omp_sync_hint_contended = 2,
  omp_lock_hint_contended __KITE_OMP_DEPRECATED_5_0 = omp_sync_hint_contended,
  omp_sync_hint_nonspeculative = 4,
  omp_lock_hint_nonspeculative __KITE_OMP_DEPRECATED_5_0 = omp_sync_hint_nonspeculative,
  omp_sync_hint_speculative = 8,
  omp_lock_hint_speculative __KITE_OMP_DEPRECATED_5_0 = omp_sync_hint_speculative
} omp_sync_hint_t;

typedef __KITE_OMP_DEPRECATED_5_0 omp_sync_hint_t omp_lock_hint_t;

/* Storage for a depend object (depobj construct): two pointers. */
typedef struct __attribute__((__aligned__(sizeof(void*)))) omp_depend_t {
  char __kite_opaque[2 * sizeof(void*)];
} omp_depend_t;

typedef enum omp_pause_resource_t {
  omp_pause_soft = 1,
  omp_pause_hard = 2
} omp_pause_resource_t;

/* omp_control_tool's commands and answers (OpenMP 5.2 §18.14). */
typedef enum omp_control_tool_result_t {
  omp_control_tool_notool = -2,
  omp_control_tool_nocallback = -1,
  omp_control_tool_success = 0,
  omp_control_tool_ignored = 1
} omp_control_tool_result_t;

typedef enum omp_control_tool_t {
  omp_control_tool_start = 1,
  omp_control_tool_pause = 2,
  omp_control_tool_flush = 3,
  omp_control_tool_end = 4
} omp_control_tool_t;

typedef __UINTPTR_TYPE__ omp_uintptr_t;

/* Handle enums are pointer-sized. C++11 can say so directly; in C the
 * sentinel enumerator __UINTPTR_MAX__ forces the same width. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define __KITE_OMP_UINTPTR_ENUM : omp_uintptr_t
#else
#define __KITE_OMP_UINTPTR_ENUM
#endif

typedef enum omp_memspace_handle_t __KITE_OMP_UINTPTR_ENUM {
  omp_default_mem_space = 0,
  omp_large_cap_mem_space = 1,
  omp_const_mem_space = 2,
  omp_high_bw_mem_space = 3,
  omp_low_lat_mem_space = 4,
  __omp_memspace_handle_t_max__ = __UINTPTR_MAX__
} omp_memspace_handle_t;

typedef enum omp_allocator_handle_t __KITE_OMP_UINTPTR_ENUM {
  omp_null_allocator = 0,
  omp_default_mem_alloc = 1,
  omp_large_cap_mem_alloc = 2,
  omp_const_mem_alloc = 3,
  omp_high_bw_mem_alloc = 4,
  omp_low_lat_mem_alloc = 5,
  omp_cgroup_mem_alloc = 6,
  omp_pteam_mem_alloc = 7,
  omp_thread_mem_alloc = 8,
  __omp_allocator_handle_t_max__ = __UINTPTR_MAX__
} omp_allocator_handle_t;

typedef enum omp_alloctrait_key_t {
  omp_atk_sync_hint = 1,
  omp_atk_alignment = 2,
  omp_atk_access = 3,
  omp_atk_pool_size = 4,
  omp_atk_fallback = 5,
  omp_atk_fb_data = 6,
  omp_atk_pinned = 7,
  omp_atk_partition = 8
} omp_alloctrait_key_t;

/* omp_atv_default is all-ones of pointer width, which also makes this enum
 * pointer-sized in both C and C++. */
typedef enum omp_alloctrait_value_t {
  omp_atv_default = (__UINTPTR_TYPE__)-1,
  omp_atv_false = 0,
  omp_atv_true = 1,
  omp_atv_contended = 3,
  omp_atv_uncontended = 4,
  omp_atv_serialized = 5,
  omp_atv_sequential __KITE_OMP_DEPRECATED_5_1 = omp_atv_serialized,
  omp_atv_private = 6,
  omp_atv_all = 7,
  omp_atv_thread = 8,
  omp_atv_pteam = 9,
  omp_atv_cgroup = 10,
  omp_atv_default_mem_fb = 11,
  omp_atv_null_fb = 12,
  omp_atv_abort_fb = 13,
  omp_atv_allocator_fb = 14,
  omp_atv_environment = 15,
  omp_atv_nearest = 16,
  omp_atv_blocked = 17,
  omp_atv_interleaved = 18
} omp_alloctrait_value_t;

typedef struct omp_alloctrait_t {
  omp_alloctrait_key_t key;
  omp_uintptr_t value;
} omp_alloctrait_t;

typedef enum omp_event_handle_t __KITE_OMP_UINTPTR_ENUM {
  __omp_event_handle_t_max__ = __UINTPTR_MAX__
} omp_event_handle_t;

/* gcc 11 can pair an allocation with its deallocator for diagnostics;
 * other compilers only get the plain malloc attribute. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define __KITE_OMP_DEALLOCATED_BY_FREE __attribute__((__malloc__(omp_free)))
#else
#define __KITE_OMP_DEALLOCATED_BY_FREE
#endif
#define __KITE_OMP_MALLOC __attribute__((__malloc__)) __KITE_OMP_DEALLOCATED_BY_FREE

#ifdef __cplusplus
extern "C" {
#if __cplusplus >= 201103L
#define __KITE_OMP_NOTHROW noexcept
#else
#define __KITE_OMP_NOTHROW throw()
#endif
#define __KITE_OMP_NULL_ALLOCATOR_DEFAULT = omp_null_allocator
#else
#define __KITE_OMP_NOTHROW __attribute__((__nothrow__))
#define __KITE_OMP_NULL_ALLOCATOR_DEFAULT
#endif

/* Threads and teams of the current device. */
extern void omp_set_num_threads(int) __KITE_OMP_NOTHROW;
extern int omp_get_num_threads(void) __KITE_OMP_NOTHROW;
extern int omp_get_max_threads(void) __KITE_OMP_NOTHROW;
extern int omp_get_thread_num(void) __KITE_OMP_NOTHROW;
extern int omp_get_num_procs(void) __KITE_OMP_NOTHROW;
extern int omp_in_parallel(void) __KITE_OMP_NOTHROW;
extern void omp_set_dynamic(int) __KITE_OMP_NOTHROW;
extern int omp_get_dynamic(void) __KITE_OMP_NOTHROW;
extern void omp_set_nested(int) __KITE_OMP_NOTHROW __KITE_OMP_DEPRECATED_5_0;
extern int omp_get_nested(void) __KITE_OMP_NOTHROW __KITE_OMP_DEPRECATED_5_0;
extern void omp_set_schedule(omp_sched_t, int) __KITE_OMP_NOTHROW;
extern void omp_get_schedule(omp_sched_t*, int*) __KITE_OMP_NOTHROW;
extern int omp_get_thread_limit(void) __KITE_OMP_NOTHROW;
extern void omp_set_max_active_levels(int) __KITE_OMP_NOTHROW;
extern int omp_get_max_active_levels(void) __KITE_OMP_NOTHROW;
extern int omp_get_supported_active_levels(void) __KITE_OMP_NOTHROW;
extern int omp_get_level(void) __KITE_OMP_NOTHROW;
extern int omp_get_ancestor_thread_num(int) __KITE_OMP_NOTHROW;
extern int omp_get_team_size(int) __KITE_OMP_NOTHROW;
extern int omp_get_active_level(void) __KITE_OMP_NOTHROW;
extern int omp_in_final(void) __KITE_OMP_NOTHROW;
extern int omp_in_explicit_task(void) __KITE_OMP_NOTHROW;
extern int omp_get_cancellation(void) __KITE_OMP_NOTHROW;
extern int omp_get_max_task_priority(void) __KITE_OMP_NOTHROW;

/* Locks. */
extern void omp_init_lock(omp_lock_t*) __KITE_OMP_NOTHROW;
extern void omp_destroy_lock(omp_lock_t*) __KITE_OMP_NOTHROW;
extern void omp_set_lock(omp_lock_t*) __KITE_OMP_NOTHROW;
extern void omp_unset_lock(omp_lock_t*) __KITE_OMP_NOTHROW;
extern int omp_test_lock(omp_lock_t*) __KITE_OMP_NOTHROW;
extern void omp_init_nest_lock(omp_nest_lock_t*) __KITE_OMP_NOTHROW;
extern void omp_init_lock_with_hint(omp_lock_t*, omp_sync_hint_t) __KITE_OMP_NOTHROW;
extern void omp_init_nest_lock_with_hint(omp_nest_lock_t*, omp_sync_hint_t) __KITE_OMP_NOTHROW;
extern void omp_destroy_nest_lock(omp_nest_lock_t*) __KITE_OMP_NOTHROW;
extern void omp_set_nest_lock(omp_nest_lock_t*) __KITE_OMP_NOTHROW;
extern void omp_unset_nest_lock(omp_nest_lock_t*) __KITE_OMP_NOTHROW;
extern int omp_test_nest_lock(omp_nest_lock_t*) __KITE_OMP_NOTHROW;

/* Timing. */
extern double omp_get_wtime(void) __KITE_OMP_NOTHROW;
extern double omp_get_wtick(void) __KITE_OMP_NOTHROW;

/* Thread affinity and places. */
extern omp_proc_bind_t omp_get_proc_bind(void) __KITE_OMP_NOTHROW;
extern int omp_get_num_places(void) __KITE_OMP_NOTHROW;
extern int omp_get_place_num_procs(int) __KITE_OMP_NOTHROW;
extern void omp_get_place_proc_ids(int, int*) __KITE_OMP_NOTHROW;
extern int omp_get_place_num(void) __KITE_OMP_NOTHROW;
extern int omp_get_partition_num_places(void) __KITE_OMP_NOTHROW;
extern void omp_get_partition_place_nums(int*) __KITE_OMP_NOTHROW;
extern void omp_set_affinity_format(const char*) __KITE_OMP_NOTHROW;
extern __SIZE_TYPE__ omp_get_affinity_format(char*, __SIZE_TYPE__) __KITE_OMP_NOTHROW;
extern void omp_display_affinity(const char*) __KITE_OMP_NOTHROW;
extern __SIZE_TYPE__ omp_capture_affinity(char*, __SIZE_TYPE__, const char*) __KITE_OMP_NOTHROW;

/* Devices and teams. */
extern void omp_set_default_device(int) __KITE_OMP_NOTHROW;
extern int omp_get_default_device(void) __KITE_OMP_NOTHROW;
extern int omp_get_num_devices(void) __KITE_OMP_NOTHROW;
extern int omp_get_device_num(void) __KITE_OMP_NOTHROW;
extern int omp_get_num_teams(void) __KITE_OMP_NOTHROW;
extern int omp_get_team_num(void) __KITE_OMP_NOTHROW;
extern int omp_is_initial_device(void) __KITE_OMP_NOTHROW;
extern int omp_get_initial_device(void) __KITE_OMP_NOTHROW;
extern void omp_set_num_teams(int) __KITE_OMP_NOTHROW;
extern int omp_get_max_teams(void) __KITE_OMP_NOTHROW;
extern void omp_set_teams_thread_limit(int) __KITE_OMP_NOTHROW;
extern int omp_get_teams_thread_limit(void) __KITE_OMP_NOTHROW;

/* Device memory. */
extern void* omp_target_alloc(__SIZE_TYPE__, int) __KITE_OMP_NOTHROW;
extern void omp_target_free(void*, int) __KITE_OMP_NOTHROW;
extern int omp_target_is_present(const void*, int) __KITE_OMP_NOTHROW;
extern int omp_target_memcpy(void*, const void*, __SIZE_TYPE__, __SIZE_TYPE__, __SIZE_TYPE__,
                             int, int) __KITE_OMP_NOTHROW;
extern int omp_target_memcpy_rect(void*, const void*, __SIZE_TYPE__, int, const __SIZE_TYPE__*,
                                  const __SIZE_TYPE__*, const __SIZE_TYPE__*,
                                  const __SIZE_TYPE__*, const __SIZE_TYPE__*, int,
                                  int) __KITE_OMP_NOTHROW;
extern int omp_target_associate_ptr(const void*, const void*, __SIZE_TYPE__, __SIZE_TYPE__,
                                    int) __KITE_OMP_NOTHROW;
extern int omp_target_disassociate_ptr(const void*, int) __KITE_OMP_NOTHROW;
/* OpenMP 5.1 (gcc 13's libgomp; Kite exports them under OMP_5.1.1). */
extern int omp_target_is_accessible(const void*, __SIZE_TYPE__, int) __KITE_OMP_NOTHROW;
extern void* omp_get_mapped_ptr(const void*, int) __KITE_OMP_NOTHROW;

/* Tasks. */
extern void omp_fulfill_event(omp_event_handle_t) __KITE_OMP_NOTHROW;

/* Tools: a message to the tool, which answers it (OpenMP 5.2 §18.14).
 * gcc's omp.h does not declare it and libgomp 12 does not export it; Kite
 * does (version KITE_1.0). */
extern int omp_control_tool(int, int, void*) __KITE_OMP_NOTHROW;

/* Resource release. */
extern int omp_pause_resource(omp_pause_resource_t, int) __KITE_OMP_NOTHROW;
extern int omp_pause_resource_all(omp_pause_resource_t) __KITE_OMP_NOTHROW;

/* Memory allocators. */
extern omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t, int,
                                                 const omp_alloctrait_t[]) __KITE_OMP_NOTHROW;
extern void omp_destroy_allocator(omp_allocator_handle_t) __KITE_OMP_NOTHROW;
extern void omp_set_default_allocator(omp_allocator_handle_t) __KITE_OMP_NOTHROW;
extern omp_allocator_handle_t omp_get_default_allocator(void) __KITE_OMP_NOTHROW;
extern void omp_free(void*, omp_allocator_handle_t __KITE_OMP_NULL_ALLOCATOR_DEFAULT)
    __KITE_OMP_NOTHROW;
extern void* omp_alloc(__SIZE_TYPE__, omp_allocator_handle_t __KITE_OMP_NULL_ALLOCATOR_DEFAULT)
    __KITE_OMP_NOTHROW __KITE_OMP_MALLOC __attribute__((__alloc_size__(1)));
extern void* omp_aligned_alloc(__SIZE_TYPE__, __SIZE_TYPE__,
                               omp_allocator_handle_t __KITE_OMP_NULL_ALLOCATOR_DEFAULT)
    __KITE_OMP_NOTHROW
    __KITE_OMP_MALLOC __attribute__((__alloc_size__(2), __alloc_align__(1)));
extern void* omp_calloc(__SIZE_TYPE__, __SIZE_TYPE__,
                        omp_allocator_handle_t __KITE_OMP_NULL_ALLOCATOR_DEFAULT)
    __KITE_OMP_NOTHROW __KITE_OMP_MALLOC __attribute__((__alloc_size__(1, 2)));
extern void* omp_aligned_calloc(__SIZE_TYPE__, __SIZE_TYPE__, __SIZE_TYPE__,
                                omp_allocator_handle_t __KITE_OMP_NULL_ALLOCATOR_DEFAULT)
    __KITE_OMP_NOTHROW
    __KITE_OMP_MALLOC __attribute__((__alloc_size__(2, 3), __alloc_align__(1)));
extern void* omp_realloc(void*, __SIZE_TYPE__,
                         omp_allocator_handle_t __KITE_OMP_NULL_ALLOCATOR_DEFAULT,
                         omp_allocator_handle_t __KITE_OMP_NULL_ALLOCATOR_DEFAULT)
    __KITE_OMP_NOTHROW __KITE_OMP_DEALLOCATED_BY_FREE __attribute__((__alloc_size__(2)));

/* Environment display (OMP_DISPLAY_ENV on demand). */
extern void omp_display_env(int) __KITE_OMP_NOTHROW;

#ifdef __cplusplus
}
#endif

#endif /* _OMP_H */
