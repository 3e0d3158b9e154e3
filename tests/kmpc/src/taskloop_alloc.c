// taskloop through the LLVM ABI (__kmpc_taskloop: the pattern task copied
// per task, task_dup for firstprivate and lastprivate), grainsize and
// num_tasks, nogroup, if(0); the allocate directive (__kmpc_alloc,
// __kmpc_free); the affinity clause.
#include <omp.h>
#include <string.h>

#include "kite_test.h"

#define N 1000
static int hits[N];

static int check_count(const char* what, int expected) {
  int bad = 0;
  for (int i = 0; i < N; i++) bad += hits[i] != expected;
  if (bad) fprintf(stderr, "%s: %d iterations ran a wrong number of times\n", what, bad);
  memset(hits, 0, sizeof hits);
  return bad;
}

int main(void) {
  KITE_TEST_BEGIN();
  int base = 5, last = -1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop firstprivate(base) lastprivate(last)
    for (int i = 0; i < N; i++) {
      __atomic_add_fetch(&hits[i], base - 4, __ATOMIC_RELAXED);
      last = i;
    }
  }
  CHECK_EQ_LONG(check_count("default", 1), 0);
  CHECK_EQ_LONG(last, N - 1);

  long tasks = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(100)
    for (int i = 0; i < N; i++) {
      __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
      if (i % 100 == 0) __atomic_add_fetch(&tasks, 1, __ATOMIC_RELAXED);
    }
#pragma omp taskloop num_tasks(7)
    for (int i = N - 1; i >= 0; i -= 2) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
#pragma omp taskloop num_tasks(3)
    for (int i = N - 2; i >= 0; i -= 2) __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
    // if(0): each task runs at once, before the next is created.
    int order_ok = 1, next = 0;
#pragma omp taskloop if (0) grainsize(10) shared(order_ok, next)
    for (int i = 0; i < 100; i++) {
      if (i / 10 * 10 == i && next != i) order_ok = 0;
      next = i + 1;
    }
    CHECK_EQ_LONG(order_ok, 1);
  }
  CHECK_EQ_LONG(check_count("grainsize+num_tasks", 2), 0);
  CHECK_EQ_LONG(tasks, 10);

  // nogroup: the taskwait after it waits for the loop's tasks.
  long sum = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop nogroup
    for (long i = 0; i < N; i++) __atomic_add_fetch(&sum, i, __ATOMIC_RELAXED);
#pragma omp taskwait
    CHECK_EQ_LONG(sum, (long)N * (N - 1) / 2);
  }

  // Large firstprivate array: copied into each task.
  int arr[64];
  for (int i = 0; i < 64; i++) arr[i] = i;
  long asum = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop firstprivate(arr) num_tasks(4)
    for (int i = 0; i < 64; i++) __atomic_add_fetch(&asum, arr[i], __ATOMIC_RELAXED);
  }
  CHECK_EQ_LONG(asum, 63 * 64 / 2);

  // allocate directive and omp_alloc with clang's omp.h handles.
  int bad = 0;
#pragma omp parallel
  {
    int x[16];
#pragma omp allocate(x) allocator(omp_low_lat_mem_alloc)
    for (int i = 0; i < 16; i++) x[i] = i + omp_get_thread_num();
    for (int i = 0; i < 16; i++)
      if (x[i] != i + omp_get_thread_num()) bad++;
  }
  CHECK_EQ_LONG(bad, 0);
  double* d = omp_alloc(100 * sizeof(double), omp_default_mem_alloc);
  CHECK(d != NULL);
  omp_free(d, omp_default_mem_alloc);

  int aff[8] = {0};
#pragma omp parallel
#pragma omp single
  {
#pragma omp task affinity(aff[0 : 4]) shared(aff)
    aff[1] = 1;
  }
  CHECK_EQ_LONG(aff[1], 1);
  KITE_TEST_END();
}
