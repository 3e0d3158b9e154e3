// libomp 19's __kmpc_omp_has_task_team: libomptarget asks whether the
// encountering task's team can run deferred tasks (libomp sets up a "task
// team" only when it needs one). Every Kite team queues and runs deferred
// tasks, so the answer is yes for any thread the runtime knows.
#include "abi/kmpc/kmpc.h"

using namespace kite;

extern "C" {

KITE_EXPORT bool __kmpc_omp_has_task_team(kmp_int32 gtid) {
  if (gtid < 0) return false;
  self();
  return true;
}

}  // extern "C"
