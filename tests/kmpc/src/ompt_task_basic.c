// kite-test-threads: 1 2 4
// kite-test-cflags: -rdynamic -Wno-unused-function
/* The OMPT task test of tests/ompt, compiled by clang: tasks reach the
 * runtime through __kmpc_omp_task_alloc, __kmpc_omp_task and the if(0) pair
 * __kmpc_omp_task_begin_if0 / _complete_if0, and must be reported as through
 * the libgomp ABI. One difference is the compiler's: clang 14 passes no
 * mergeable bit to __kmpc_omp_task_alloc (`task mergeable` gets the same
 * flags as a plain task), so here a mergeable task is expected to be
 * reported without ompt_task_mergeable.
 * Kite's omp-tools.h comes first: the recorder uses 5.1 names
 * (ompt_dispatch_chunk_t) that clang 14's header lacks; both share the
 * __OMPT__ guard and the layout. */
#include "../../../include/omp-tools.h"
#define ompt_task_mergeable 0
#include "../../ompt/ompt_task_basic.c"
