// libgomp ABI: scope with task reductions (GOMP_scope_start).
#include "abi/gomp/gomp.h"
#include "core/scope.h"

using namespace kite;

extern "C" {

KITE_EXPORT void GOMP_scope_start(uintptr_t* reductions) {
  scope_enter(self(), reductions, KITE_RETURN_ADDRESS());
}

}  // extern "C"
