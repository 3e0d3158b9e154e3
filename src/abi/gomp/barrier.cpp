// libgomp ABI: explicit barriers.
#include "abi/gomp/gomp.h"

using namespace kite;

extern "C" {

KITE_EXPORT void GOMP_barrier(void) {
  explicit_barrier(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT bool GOMP_barrier_cancel(void) {
  return explicit_barrier_cancellable(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"
