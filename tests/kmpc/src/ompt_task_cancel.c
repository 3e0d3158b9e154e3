// kite-test-env: OMP_CANCELLATION=true
// kite-test-threads: 1 2 4
// kite-test-cflags: -rdynamic -Wno-unused-function
/* The OMPT cancellation test of tests/ompt, compiled by clang: cancel and
 * cancellation points through __kmpc_cancel / __kmpc_cancellationpoint,
 * and the __kmpc_cancel_barrier that ends a parallel region with cancel
 * constructs, which must not add a detected cancellation of its own.
 * Kite's omp-tools.h comes first: the recorder uses 5.1 names that clang
 * 14's header lacks (same layout, same __OMPT__ guard). */
#include "../../../include/omp-tools.h"
#include "../../ompt/ompt_task_cancel.c"
