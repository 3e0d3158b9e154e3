// kite-test-threads: 1 2 4
// kite-test-cflags: -rdynamic
/* The OMPT ordered-region test of tests/ompt, compiled by clang: ordered
 * regions reach the runtime through __kmpc_ordered / __kmpc_end_ordered and
 * must be reported exactly as through the libgomp ABI. Uses clang's own
 * omp-tools.h (LLVM's layout, which Kite's matches). */
#include "../../ompt/ompt_mutex_ordered.c"
