// kite-test-env: OMP_TARGET_OFFLOAD=DISABLED
// libomp's query and control entry points: task ids, the runtime's thread
// count, target-offload-var, pause, re-running the team's outlined
// function, the allocator routines, and the Fortran bindings of the kmp_*
// extensions (arguments by reference) and their kmpc_* forms.
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>

#include "kite_test.h"

typedef struct ident ident_t;
uint64_t __kmpc_get_taskid(void);
uint64_t __kmpc_get_parent_taskid(void);
int __kmpc_global_num_threads(ident_t*);
int __kmpc_global_thread_num(ident_t*);
void __kmpc_push_num_threads(ident_t*, int, int);
void __kmpc_pop_num_threads(ident_t*, int);
int __kmpc_pause_resource(int);
int __kmpc_get_target_offload(void);
int __kmpc_invoke_task_func(int);
omp_allocator_handle_t __kmpc_init_allocator(int, omp_memspace_handle_t, int,
                                             omp_alloctrait_t[]);
void __kmpc_destroy_allocator(int, omp_allocator_handle_t);
void __kmpc_set_default_allocator(int, omp_allocator_handle_t);
omp_allocator_handle_t __kmpc_get_default_allocator(int);
void kmp_set_stacksize_s_(const size_t*);
size_t kmp_get_stacksize_s_(void);
void kmp_set_stacksize_(const int*);
int kmp_get_stacksize_(void);
void kmp_set_blocktime_(const int*);
int kmp_get_blocktime_(void);
void* kmp_malloc_(const size_t*);
void* kmp_calloc_(const size_t*, const size_t*);
void* kmp_realloc_(void* const*, const size_t*);
void* kmp_aligned_malloc_(const size_t*, const size_t*);
void kmp_free_(void* const*);
void kmpc_set_blocktime(int);
void* kmpc_aligned_malloc(size_t, size_t);
void kmpc_free(void*);

static int runs[64], again[64];

int main(void) {
  KITE_TEST_BEGIN();
  int gtid = __kmpc_global_thread_num(NULL);
  uint64_t initial = __kmpc_get_taskid();
  CHECK(initial != 0);
  CHECK(__kmpc_get_parent_taskid() == 0);
  CHECK(__kmpc_global_num_threads(NULL) >= 1);

  int bad = 0, nthreads = 0;
  uint64_t ids[64] = {0};
#pragma omp parallel reduction(+ : bad)
  {
    int t = omp_get_thread_num();
#pragma omp single
    nthreads = omp_get_num_threads();
    if (t < 64) ids[t] = __kmpc_get_taskid();
    // The implicit tasks' parent is the initial task.
    if (__kmpc_get_parent_taskid() != initial) bad++;
    if (__kmpc_global_num_threads(NULL) < omp_get_num_threads()) bad++;
    uint64_t mine = __kmpc_get_taskid();
#pragma omp task shared(bad) firstprivate(mine)
    {
      if (__kmpc_get_parent_taskid() != mine) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
      if (__kmpc_get_taskid() == mine) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
#pragma omp taskwait
  }
  CHECK_EQ_LONG(bad, 0);
  for (int i = 0; i < nthreads && i < 64; ++i)
    for (int j = i + 1; j < nthreads && j < 64; ++j) CHECK(ids[i] != ids[j]);

  // The pushed value is taken by the region it precedes.
  __kmpc_push_num_threads(NULL, gtid, 3);
  int got = 0;
#pragma omp parallel
#pragma omp single
  got = omp_get_num_threads();
  __kmpc_pop_num_threads(NULL, gtid);
  CHECK(got == 3);

  CHECK(__kmpc_get_target_offload() == 0);  // OMP_TARGET_OFFLOAD=DISABLED
  CHECK(__kmpc_pause_resource(1) == 0);
  CHECK(__kmpc_pause_resource(0) == 0);
  CHECK(__kmpc_pause_resource(17) == 1);

  // __kmpc_invoke_task_func runs the region's body once more on the thread.
  CHECK(__kmpc_invoke_task_func(gtid) == 0);  // outside a region
  // No reduction or other construct in the body: only the body runs again.
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    runs[t]++;
    if (!again[t]) {
      again[t] = 1;
      if (__kmpc_invoke_task_func(__kmpc_global_thread_num(NULL)) != 1)
        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
  }
  CHECK_EQ_LONG(bad, 0);
  CHECK_EQ_LONG(runs[0], 2);

  // Allocators.
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 256}};
  omp_allocator_handle_t a = __kmpc_init_allocator(gtid, omp_default_mem_space, 1, traits);
  CHECK(a != omp_null_allocator);
  void* p = omp_alloc(100, a);
  CHECK(p != NULL && ((uintptr_t)p & 255) == 0);
  omp_free(p, a);
  omp_allocator_handle_t def = __kmpc_get_default_allocator(gtid);
  CHECK(def == omp_get_default_allocator());
  __kmpc_set_default_allocator(gtid, a);
  CHECK(omp_get_default_allocator() == a);
  CHECK(__kmpc_get_default_allocator(gtid) == a);
  __kmpc_set_default_allocator(gtid, def);
  __kmpc_destroy_allocator(gtid, a);
  // LLVM 22's omp.h numbers omp_default_mem_space 99.
  a = __kmpc_init_allocator(gtid, (omp_memspace_handle_t)99, 1, traits);
  CHECK(a != omp_null_allocator);
  p = omp_alloc(8, a);
  CHECK(p != NULL && ((uintptr_t)p & 255) == 0);
  omp_free(p, a);
  __kmpc_destroy_allocator(gtid, a);

  // Fortran bindings: arguments by reference.
  size_t big = (size_t)6 << 20;
  kmp_set_stacksize_s_(&big);
  CHECK(kmp_get_stacksize_s_() == big);
  int small = 5 << 20;
  kmp_set_stacksize_(&small);
  CHECK(kmp_get_stacksize_() == small);
  int ms = 3;
  kmp_set_blocktime_(&ms);
  CHECK(kmp_get_blocktime_() == 3);
  kmpc_set_blocktime(2);
  CHECK(kmp_get_blocktime_() == 2);
  size_t n = 16, sz = 8, al = 128;
  long* q = (long*)kmp_calloc_(&n, &sz);
  CHECK(q != NULL && q[15] == 0);
  size_t bigger = 1024;
  q = (long*)kmp_realloc_((void* const*)&q, &bigger);
  CHECK(q != NULL);
  kmp_free_((void* const*)&q);
  void* r = kmp_malloc_(&n);
  CHECK(r != NULL);
  kmp_free_(&r);
  r = kmp_aligned_malloc_(&n, &al);
  CHECK(r != NULL && ((uintptr_t)r & 127) == 0);
  kmp_free_(&r);
  r = kmpc_aligned_malloc(64, 64);
  CHECK(r != NULL && ((uintptr_t)r & 63) == 0);
  kmpc_free(r);
  KITE_TEST_END();
}
