// libgomp ABI: explicit barriers.
#include "abi/gomp/gomp.h"

using namespace kite;

extern "C" {

KITE_EXPORT void GOMP_barrier(void) { team_barrier(self()); }

KITE_EXPORT bool GOMP_barrier_cancel(void) { return team_barrier_cancellable(self()); }

}  // extern "C"
