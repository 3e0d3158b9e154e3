/* The OMP_1.0 versions of the Fortran lock entry points, looked up by
 * version as a program linked against the OpenMP 2.5-era libgomp binds
 * them. Kite must export them and they must work on Fortran-sized lock
 * storage. (dlvsym rather than .symver references: a missing version then
 * fails this test, not the build.) */
#include "kite_test.h" /* first: it asks for _GNU_SOURCE (dlvsym) */

#include <stdint.h>

typedef void (*lock_fn)(int32_t*);
typedef int32_t (*test_lock_fn)(int32_t*);
typedef void (*nest_fn)(int64_t*);
typedef int32_t (*test_nest_fn)(int64_t*);

static void* old_version(const char* name) {
  void* p = dlvsym(RTLD_DEFAULT, name, "OMP_1.0");
  if (!p) {
    fprintf(stderr, "%s@OMP_1.0 is not exported\n", name);
    CHECK(0);
    return NULL;
  }
  /* The compat symbol must come from the runtime, like the rest. */
  void* cur = dlvsym(RTLD_DEFAULT, name, "OMP_3.0");
  Dl_info a, b;
  CHECK(cur && dladdr(p, &a) && dladdr(cur, &b) && a.dli_fbase == b.dli_fbase);
  return p;
}

int main(void) {
  KITE_TEST_BEGIN();
  lock_fn init = (lock_fn)old_version("omp_init_lock_");
  lock_fn set = (lock_fn)old_version("omp_set_lock_");
  lock_fn unset = (lock_fn)old_version("omp_unset_lock_");
  test_lock_fn test = (test_lock_fn)old_version("omp_test_lock_");
  lock_fn destroy = (lock_fn)old_version("omp_destroy_lock_");
  nest_fn ninit = (nest_fn)old_version("omp_init_nest_lock_");
  nest_fn nset = (nest_fn)old_version("omp_set_nest_lock_");
  nest_fn nunset = (nest_fn)old_version("omp_unset_nest_lock_");
  test_nest_fn ntest = (test_nest_fn)old_version("omp_test_nest_lock_");
  nest_fn ndestroy = (nest_fn)old_version("omp_destroy_nest_lock_");
  if (!init || !set || !unset || !test || !destroy || !ninit || !nset || !nunset || !ntest ||
      !ndestroy)
    KITE_TEST_END();

  int32_t lock;
  int64_t nest;
  long counter = 0;
  init(&lock);
#pragma omp parallel
  for (int i = 0; i < 1000; ++i) {
    set(&lock);
    counter++;
    unset(&lock);
  }
  int nthreads = 1;
#pragma omp parallel
#pragma omp single
  nthreads = omp_get_num_threads();
  CHECK_EQ_LONG(counter, 1000L * nthreads);
  CHECK(test(&lock) == 1);
  unset(&lock);
  destroy(&lock);

  ninit(&nest);
  nset(&nest);
  CHECK_EQ_LONG(ntest(&nest), 2);
  nunset(&nest);
  nunset(&nest);
  ndestroy(&nest);
  KITE_TEST_END();
}
