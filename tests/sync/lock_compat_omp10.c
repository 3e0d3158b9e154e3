/* Programs linked against the OpenMP 2.5 era libgomp call the lock routines
 * at version OMP_1.0. Bind to those versions explicitly and check they are
 * Kite's and behave as locks (mutual exclusion, nest depth).
 * kite-test-threads: 1 4
 */
#include "kite_test.h"

void old_init_lock(omp_lock_t*);
void old_set_lock(omp_lock_t*);
void old_unset_lock(omp_lock_t*);
int old_test_lock(omp_lock_t*);
void old_destroy_lock(omp_lock_t*);
void old_init_nest_lock(omp_nest_lock_t*);
void old_set_nest_lock(omp_nest_lock_t*);
void old_unset_nest_lock(omp_nest_lock_t*);
int old_test_nest_lock(omp_nest_lock_t*);
void old_destroy_nest_lock(omp_nest_lock_t*);
__asm__(".symver old_init_lock,omp_init_lock@OMP_1.0");
__asm__(".symver old_set_lock,omp_set_lock@OMP_1.0");
__asm__(".symver old_unset_lock,omp_unset_lock@OMP_1.0");
__asm__(".symver old_test_lock,omp_test_lock@OMP_1.0");
__asm__(".symver old_destroy_lock,omp_destroy_lock@OMP_1.0");
__asm__(".symver old_init_nest_lock,omp_init_nest_lock@OMP_1.0");
__asm__(".symver old_set_nest_lock,omp_set_nest_lock@OMP_1.0");
__asm__(".symver old_unset_nest_lock,omp_unset_nest_lock@OMP_1.0");
__asm__(".symver old_test_nest_lock,omp_test_nest_lock@OMP_1.0");
__asm__(".symver old_destroy_nest_lock,omp_destroy_nest_lock@OMP_1.0");

static long counter;

int main(void) {
  KITE_TEST_BEGIN();
  Dl_info a, b;
  void* kite = dlsym(RTLD_DEFAULT, "kite_runtime_version");
  CHECK(dladdr((void*)&old_set_lock, &a) && kite && dladdr(kite, &b));
  CHECK(a.dli_fbase == b.dli_fbase);
  omp_lock_t l;
  omp_nest_lock_t n;
  old_init_lock(&l);
  old_init_nest_lock(&n);
  CHECK_EQ_LONG(old_test_lock(&l), 1);
  old_unset_lock(&l);
  CHECK_EQ_LONG(old_test_nest_lock(&n), 1);
  CHECK_EQ_LONG(old_test_nest_lock(&n), 2);
  old_unset_nest_lock(&n);
  old_unset_nest_lock(&n);
  int nthreads = 0;
#pragma omp parallel
  {
    if (omp_get_thread_num() == 0) nthreads = omp_get_num_threads();
    for (int i = 0; i < 5000; ++i) {
      old_set_lock(&l);
      old_set_nest_lock(&n);
      long v = *(volatile long*)&counter;
      *(volatile long*)&counter = v + 1;
      old_unset_nest_lock(&n);
      old_unset_lock(&l);
    }
  }
  CHECK_EQ_LONG(counter, (long)nthreads * 5000);
  old_destroy_lock(&l);
  old_destroy_nest_lock(&n);
  KITE_TEST_END();
}
