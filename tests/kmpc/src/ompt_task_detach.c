// kite-test-threads: 1 2 4
// kite-test-cflags: -rdynamic -Wno-unused-function
#include "../../../include/omp-tools.h"
#include "../../ompt/ompt_task_detach.c"
