// libgomp ABI: single (GOMP_single_start, GOMP_single_copy_start/end).
#include "abi/gomp/gomp.h"
#include "core/loop.h"

using namespace kite;

extern "C" {

KITE_EXPORT bool GOMP_single_start(void) { return single_start(self(), KITE_RETURN_ADDRESS()); }

KITE_EXPORT void* GOMP_single_copy_start(void) {
  return single_copy_start(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void GOMP_single_copy_end(void* data) {
  single_copy_end(self(), data, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"
