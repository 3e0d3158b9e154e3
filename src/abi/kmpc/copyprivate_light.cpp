// libomp 19's __kmpc_copyprivate_light: copyprivate where the compiler
// does the copying. The thread that executed the single passes its data
// block, the others pass null; every thread gets the block back after the
// barrier that is the single's implicit one, copies from it, and the
// compiler then emits the barrier that keeps the block alive until all
// copies are done.
#include "abi/kmpc/kmpc.h"
#include "core/copyprivate.h"

using namespace kite;

extern "C" {

KITE_EXPORT void* __kmpc_copyprivate_light(ident_t*, kmp_int32, void* cpy_data) {
  return copyprivate_broadcast(self(), cpy_data, cpy_data != nullptr, KITE_RETURN_ADDRESS(),
                               __builtin_dwarf_cfa());
}

}  // extern "C"
