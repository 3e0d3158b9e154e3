// LLVM ABI: split barriers (__kmpc_barrier_master, __kmpc_end_barrier_master,
// __kmpc_barrier_master_nowait). The team gathers; the primary thread then
// runs a block of code while the others wait for it (split form) or go on
// (nowait form). No compiler Kite targets emits these; other front ends
// and hand-written runtime clients do.
//
// The split form is two team barriers: the first is the barrier the
// program asked for; in the second the other threads wait until the
// primary has finished its block and calls __kmpc_end_barrier_master.
#include "abi/kmpc/kmpc.h"

using namespace kite;

extern "C" {

// 1 on the primary thread, which must then call __kmpc_end_barrier_master;
// 0 on the others, once the primary has done so.
KITE_EXPORT kmp_int32 __kmpc_barrier_master(ident_t*, kmp_int32) {
  Thread* me = self();
  explicit_barrier(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  if (me->tid == 0) return 1;
  team_barrier(me);
  return 0;
}

KITE_EXPORT void __kmpc_end_barrier_master(ident_t*, kmp_int32) {
  Thread* me = self();
  if (me->tid != 0) {
    warn("__kmpc_end_barrier_master: called by thread %d, not the primary thread; ignored",
         me->tid);
    return;
  }
  team_barrier(me);
}

// A full barrier, then 1 on the primary thread and 0 on the others; nobody
// waits for the primary's block.
KITE_EXPORT kmp_int32 __kmpc_barrier_master_nowait(ident_t*, kmp_int32) {
  Thread* me = self();
  explicit_barrier(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  return me->tid == 0 ? 1 : 0;
}

}  // extern "C"
