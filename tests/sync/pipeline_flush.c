/* A pipelined sweep where threads wait for each other by spinning on
 * `flush` (the shape of NPB's LU, bench/pipeline/pipeline_kernel.h) ends
 * with the serial answer, with as many threads as cores and with more.
 * On the LLVM ABI each flush is a __kmpc_flush call, which yields the
 * processor now and then when threads outnumber processors.
 * kite-test-threads: 1 2 4 8
 * kite-test-compilers: clang -- gcc inlines the flush (a fence, no runtime
 * call): with more threads than cores a spinner holds its core until the
 * kernel preempts it, on every runtime (seconds per sweep; docs/internals.md)
 */
#include "kite_test.h"

#include "../../bench/pipeline/pipeline_kernel.h"

int main(void) {
  KITE_TEST_BEGIN();
  const long rows = 120, cols = 96;
  const size_t cells = (size_t)(rows + 1) * (size_t)(cols + 1);
  unsigned* want = (unsigned*)calloc(cells, sizeof(unsigned));
  unsigned* got = (unsigned*)calloc(cells, sizeof(unsigned));
  CHECK(want != NULL && got != NULL);
  if (!want || !got) return 1;
  pipeline_boundary(want, rows, cols);
  pipeline_reference(want, rows, cols);
  const int threads = omp_get_max_threads();
  for (int rep = 0; rep < 2; ++rep) {
    memset(got, 0, cells * sizeof(unsigned));
    pipeline_boundary(got, rows, cols);
    int team = pipeline_sweep(got, rows, cols, threads);
    CHECK_EQ_LONG(team, threads);
    long wrong = 0;
    for (size_t k = 0; k < cells; ++k) wrong += got[k] != want[k];
    CHECK_EQ_LONG(wrong, 0);
  }
  /* The answer does not depend on the split: a team of 3 (uneven blocks). */
  memset(got, 0, cells * sizeof(unsigned));
  pipeline_boundary(got, rows, cols);
  CHECK_EQ_LONG(pipeline_sweep(got, rows, cols, 3), 3);
  CHECK_EQ_LONG(memcmp(got, want, cells * sizeof(unsigned)), 0);
  free(want);
  free(got);
  KITE_TEST_END();
}
