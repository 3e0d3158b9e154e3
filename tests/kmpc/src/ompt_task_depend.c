// kite-test-threads: 1 2 4
// kite-test-cflags: -rdynamic -Wno-unused-function
/* The OMPT dependence test of tests/ompt, compiled by clang: dependences
 * come as kmp_depend_info lists to __kmpc_omp_task_with_deps and
 * __kmpc_omp_wait_deps, and must be reported as through the libgomp ABI
 * (dependences, task_dependence). Kite's omp-tools.h comes first: the
 * recorder uses 5.1 names that clang 14's header lacks; both share the
 * __OMPT__ guard and the layout. */
#include "../../../include/omp-tools.h"
#include "../../ompt/ompt_task_depend.c"
