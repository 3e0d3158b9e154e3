// LLVM ABI: threadprivate variables the runtime keeps (clang emits these
// calls instead of native TLS with -fnoopenmp-use-tls; other front ends use
// the uncached and vector forms).
#include "abi/kmpc/kmpc.h"
#include "core/threadprivate.h"

using namespace kite;

extern "C" {

typedef void* (*kmpc_ctor)(void*);
typedef void* (*kmpc_cctor)(void*, void*);
typedef void (*kmpc_dtor)(void*);
typedef void* (*kmpc_ctor_vec)(void*, size_t);
typedef void* (*kmpc_cctor_vec)(void*, void*, size_t);
typedef void (*kmpc_dtor_vec)(void*, size_t);

KITE_EXPORT void* __kmpc_threadprivate_cached(ident_t*, kmp_int32, void* data, size_t size,
                                              void*** cache) {
  return threadprivate_cached(self(), data, size, reinterpret_cast<void**>(cache));
}

// The form without a compiler-provided cache word.
KITE_EXPORT void* __kmpc_threadprivate(ident_t*, kmp_int32, void* data, size_t size) {
  return threadprivate_uncached(self(), data, size);
}

KITE_EXPORT void __kmpc_threadprivate_register(ident_t*, void* data, kmpc_ctor ctor,
                                               kmpc_cctor cctor, kmpc_dtor dtor) {
  ThreadprivateInit init{};
  init.ctor = ctor;
  init.cctor = cctor;
  init.dtor = dtor;
  threadprivate_register(data, init);
}

// An array variable of vector_length elements, whose constructors and
// destructor each handle the whole array.
KITE_EXPORT void __kmpc_threadprivate_register_vec(ident_t*, void* data, kmpc_ctor_vec ctor,
                                                   kmpc_cctor_vec cctor, kmpc_dtor_vec dtor,
                                                   size_t vector_length) {
  ThreadprivateInit init{};
  init.ctor_vec = ctor;
  init.cctor_vec = cctor;
  init.dtor_vec = dtor;
  init.count = vector_length;
  threadprivate_register(data, init);
}

}  // extern "C"
