// kite-test-threads: 1 2 4
// kite-test-cflags: -rdynamic -Wno-unused-function
/* The OMPT test of detached tasks (detach clause, omp_fulfill_event) of
 * tests/ompt, compiled by clang, which must report the same on the LLVM
 * ABI. Kite's omp-tools.h comes first: the recorder uses 5.1 names that
 * clang 14's header lacks (same layout, same __OMPT__ guard). */
#include "../../../include/omp-tools.h"
#include "../../ompt/ompt_task_detach.c"
