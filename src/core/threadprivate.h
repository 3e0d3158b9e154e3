// Threadprivate variables kept by the runtime (for ABIs whose compiler asks
// for the calling thread's copy of a variable instead of using native
// thread-local storage: clang with -fnoopenmp-use-tls, and on targets
// without TLS).
#pragma once

#include "team.h"

namespace kite {

// Constructor, copy constructor and destructor of a C++ threadprivate
// variable; any may be null.
struct ThreadprivateInit {
  void* (*ctor)(void* copy);
  void* (*cctor)(void* copy, void* original);
  void (*dtor)(void* copy);
};
void threadprivate_register(void* original, const ThreadprivateInit& init);

// The calling thread's copy of `original` (size bytes). `cache` is a
// pointer-sized, zero-initialized word the compiler provides per variable;
// the runtime keeps its per-thread lookup table there. The first initial
// thread's copy is the original itself.
void* threadprivate_cached(Thread* self, void* original, size_t size, void** cache);

}  // namespace kite
