// kite-test-threads: 2
// kite-test-cflags: -rdynamic -Wno-unused-function
#include "../../../include/omp-tools.h"
#include "../../ompt/ompt_mutex_nest.c"
