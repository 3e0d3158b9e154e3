/* omp_all_memory dependences reach a tool as
 * ompt_dependence_type_out_all_memory / _inout_all_memory (5.2
 * ompt_dependence_type_t), with a null variable, never as an item on some
 * address. Through both ABIs' encodings:
 *  - libgomp: a null address among the out items (what the libgomp ABI
 *    carries for it; gcc 12 cannot spell omp_all_memory, so GOMP_task is
 *    called directly). gcc passes out and inout in one group, so it is
 *    inout_all_memory, as any item of that group is inout;
 *  - LLVM: flag 0x80 (clang 15+ for out and inout alike: out_all_memory,
 *    as libomp reports it), and the address -1 with the in/out flags
 *    (libomp's other form): out_all_memory or inout_all_memory by the
 *    flags. __kmpc_omp_task_with_deps is called directly for both, and
 *    with clang 19 and 22 the pragma is compiled too.
 * The ordering holds as well: each all-memory task runs after the earlier
 * sibling tasks with dependences.
 * kite-test-threads: 1 2
 * kite-test-compilers: gcc clang19 clang22 */
#include "kite_test.h"
#include "support/task_recorder.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __clang__
/* The LLVM ABI, as clang emits it. */
typedef struct {
  intptr_t base_addr;
  size_t len;
  uint8_t flags;
} kdep;
typedef struct {
  void* shareds;
  int (*routine)(int, void*);
  int part_id;
  void* data1; /* destructors */
  void* data2; /* priority */
} ktask;
typedef struct {
  int reserved_1, flags, reserved_2, reserved_3;
  const char* psource;
} kident;
extern void* __kmpc_omp_task_alloc(kident*, int, int, size_t, size_t, int (*)(int, void*));
extern int __kmpc_omp_task_with_deps(kident*, int, void*, int, kdep*, int, kdep*);
extern int __kmpc_global_thread_num(kident*);
static kident loc = {0, 2, 0, 0, ";unknown;unknown;0;0;;"};
#else
void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void** depend, int priority,
               void* detach);
#define FLAG_DEPEND (1u << 3)
#endif

static int a, b, bad;

static void spin(void) {
  for (volatile int k = 0; k < 20000; ++k) {
  }
}
static void set_ab(void) {
  spin();
  __atomic_store_n(&a, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&b, 1, __ATOMIC_RELEASE);
}
/* Runs after set_ab's task: everything before it with dependences. */
static void check_ab(void) {
  if (__atomic_load_n(&a, __ATOMIC_ACQUIRE) != 1 || __atomic_load_n(&b, __ATOMIC_ACQUIRE) != 1)
    __atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
}

#ifdef __clang__
static int set_ab_entry(int gtid, void* t) {
  (void)gtid;
  (void)t;
  set_ab();
  return 0;
}
static int check_entry(int gtid, void* t) {
  (void)gtid;
  (void)t;
  check_ab();
  return 0;
}
static void spawn(int (*entry)(int, void*), kdep* deps, int n) {
  int gtid = __kmpc_global_thread_num(&loc);
  void* t = __kmpc_omp_task_alloc(&loc, gtid, 1, sizeof(ktask), 0, entry);
  __kmpc_omp_task_with_deps(&loc, gtid, t, n, deps, 0, NULL);
}
#else
static void set_ab_fn(void* p) {
  (void)p;
  set_ab();
}
static void check_fn(void* p) {
  (void)p;
  check_ab();
}
/* new-format depend array: n, 0 (marker), out, mutexinoutset, in, items */
static void spawn(void (*fn)(void*), void** items, uintptr_t nout, uintptr_t nin) {
  void* depend[5 + 4];
  depend[0] = NULL;
  depend[1] = (void*)(nout + nin);
  depend[2] = (void*)nout;
  depend[3] = (void*)0;
  depend[4] = (void*)nin;
  for (uintptr_t i = 0; i < nout + nin; ++i) depend[5 + i] = items[i];
  GOMP_task(fn, NULL, NULL, 0, 1, true, FLAG_DEPEND, depend, 0, NULL);
}
#endif

/* The types reported for the tasks created since `from` (in order). */
static int reported(int from, ompt_dependence_type_t* types, void** vars, int max) {
  int n = 0;
  for (int i = from; i < trec_ndeps && n < max; ++i, ++n) {
    types[n] = trec_deps[i].dependence_type;
    vars[n] = trec_deps[i].variable.ptr;
  }
  return n;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  ompt_dependence_type_t types[16];
  void* vars[16];
  int from, n;

  /* One round per encoding: a task writing a and b, then an all-memory
   * task that must come after it. */
#ifdef __clang__
  struct {
    intptr_t addr;
    uint8_t flags;
    ompt_dependence_type_t expect;
  } forms[] = {
      {0, 0x80, ompt_dependence_type_out_all_memory},   /* clang 15+ */
      {-1, 0x3, ompt_dependence_type_inout_all_memory}, /* address -1, inout */
      {-1, 0x2, ompt_dependence_type_out_all_memory},   /* address -1, out */
  };
  for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; ++f) {
    a = b = 0;
    from = trec_ndeps;
#pragma omp parallel
#pragma omp single
    {
      kdep first[2] = {{(intptr_t)&a, sizeof a, 0x3}, {(intptr_t)&b, sizeof b, 0x3}};
      spawn(set_ab_entry, first, 2);
      kdep all = {forms[f].addr, 0, forms[f].flags};
      spawn(check_entry, &all, 1);
    }
    n = reported(from, types, vars, 16);
    CHECK_EQ_LONG(n, 3);
    if (n == 3) {
      CHECK_EQ_LONG(types[0], ompt_dependence_type_inout);
      CHECK(vars[0] == &a);
      CHECK_EQ_LONG(types[2], forms[f].expect);
      CHECK(vars[2] == NULL);
    }
    CHECK_EQ_LONG(bad, 0);
  }
#if __clang_major__ >= 15
  /* The pragma itself, out and inout. */
  a = b = 0;
  from = trec_ndeps;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(inout: a, b)
    set_ab();
#pragma omp task depend(inout: omp_all_memory)
    check_ab();
#pragma omp task depend(out: omp_all_memory)
    check_ab();
  }
  n = reported(from, types, vars, 16);
  CHECK_EQ_LONG(n, 4);
  if (n == 4) {
    CHECK_EQ_LONG(types[2], ompt_dependence_type_out_all_memory);
    CHECK(vars[2] == NULL);
    CHECK_EQ_LONG(types[3], ompt_dependence_type_out_all_memory);
    CHECK(vars[3] == NULL);
  }
  CHECK_EQ_LONG(bad, 0);
#endif
#else
  a = b = 0;
  from = trec_ndeps;
#pragma omp parallel
#pragma omp single
  {
    void* first[2] = {&a, &b};
    spawn(set_ab_fn, first, 2, 0);
    void* all[2] = {NULL, &a};  /* out: omp_all_memory, in: a */
    spawn(check_fn, all, 1, 1);
  }
  n = reported(from, types, vars, 16);
  CHECK_EQ_LONG(n, 4);
  if (n == 4) {
    CHECK_EQ_LONG(types[0], ompt_dependence_type_inout);
    CHECK(vars[0] == &a);
    CHECK_EQ_LONG(types[2], ompt_dependence_type_inout_all_memory);
    CHECK(vars[2] == NULL);
    CHECK_EQ_LONG(types[3], ompt_dependence_type_in);
    CHECK(vars[3] == &a);
  }
  CHECK_EQ_LONG(bad, 0);
#endif
  KITE_TEST_END();
}
