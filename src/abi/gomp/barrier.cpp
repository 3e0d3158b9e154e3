// libgomp ABI: explicit barriers. gcc also ends a scope construct with one
// of these calls (core/scope.h says how tools still see the scope end).
#include "abi/gomp/gomp.h"
#include "core/cancel.h"
#include "core/scope.h"
#include "ompt/events_ws.h"

using namespace kite;

extern "C" {

KITE_EXPORT void GOMP_barrier(void) {
  Thread* me = self();
  if (ompt::scope_pending(me))
    return scope_end_barrier(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  explicit_barrier(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT bool GOMP_barrier_cancel(void) {
  Thread* me = self();
  if (ompt::scope_pending(me))
    return scope_end_barrier_cancellable(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  return explicit_barrier_cancel(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"
