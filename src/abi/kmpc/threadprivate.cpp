// LLVM ABI: threadprivate variables the runtime keeps (clang emits these
// calls instead of native TLS with -fnoopenmp-use-tls).
#include "abi/kmpc/kmpc.h"
#include "core/threadprivate.h"

using namespace kite;

extern "C" {

typedef void* (*kmpc_ctor)(void*);
typedef void* (*kmpc_cctor)(void*, void*);
typedef void (*kmpc_dtor)(void*);

KITE_EXPORT void* __kmpc_threadprivate_cached(ident_t*, kmp_int32, void* data, size_t size,
                                              void*** cache) {
  return threadprivate_cached(self(), data, size, reinterpret_cast<void**>(cache));
}

KITE_EXPORT void __kmpc_threadprivate_register(ident_t*, void* data, kmpc_ctor ctor,
                                               kmpc_cctor cctor, kmpc_dtor dtor) {
  threadprivate_register(data, ThreadprivateInit{ctor, cctor, dtor});
}

}  // extern "C"
