// LLVM ABI: the scope construct (__kmpc_scope / __kmpc_end_scope, exported
// by libomp for front ends that mark the construct; clang 22 emits only
// its closing __kmpc_barrier). The construct needs nothing from the
// runtime: its reductions go through __kmpc_reduce and its barrier through
// __kmpc_barrier. These calls mark it for tools (work scope begin/end).
#include "abi/kmpc/kmpc.h"
#include "ompt/events_ws.h"

using namespace kite;

extern "C" {

KITE_EXPORT void __kmpc_scope(ident_t*, kmp_int32, void*) {
  Thread* me = self();
  ompt::on_work_begin(me, ompt_work_scope, 1, KITE_RETURN_ADDRESS());
}

// Ends only the scope this thread's tool record says is in progress (a
// scope begun before the tool was active reports no end either).
KITE_EXPORT void __kmpc_end_scope(ident_t*, kmp_int32, void*) {
  Thread* me = self();
  if (KITE_UNLIKELY(ompt::active()) && me->ompt.work == ompt_work_scope) ompt::work_end_slow(me);
}

}  // extern "C"
