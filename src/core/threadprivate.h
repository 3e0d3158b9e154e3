// Threadprivate variables kept by the runtime (for ABIs whose compiler asks
// for the calling thread's copy of a variable instead of using native
// thread-local storage: clang with -fnoopenmp-use-tls, and on targets
// without TLS).
//
// A copy lives as long as its thread: when a thread ends (a user thread
// exits, a pool worker is ended), its copies are destroyed with the
// variable's destructor and freed, and a later thread that gets the same
// thread index starts from a fresh copy. Copies of threads still alive at
// program exit are destroyed then. The first initial thread's copy is the
// variable itself, which the program destroys.
#pragma once

#include "team.h"

namespace kite {

// Constructor, copy constructor and destructor of a C++ threadprivate
// variable; any may be null. The _vec forms are for an array variable of
// `count` elements: each is called once for the whole array.
struct ThreadprivateInit {
  void* (*ctor)(void* copy);
  void* (*cctor)(void* copy, void* original);
  void (*dtor)(void* copy);
  void* (*ctor_vec)(void* copy, size_t count);
  void* (*cctor_vec)(void* copy, void* original, size_t count);
  void (*dtor_vec)(void* copy, size_t count);
  size_t count;
};
void threadprivate_register(void* original, const ThreadprivateInit& init);

// The calling thread's copy of `original` (size bytes). `cache` is a
// pointer-sized, zero-initialized word the compiler provides per variable;
// the runtime keeps its per-thread lookup table there.
void* threadprivate_cached(Thread* self, void* original, size_t size, void** cache);

// The same for callers that provide no cache word: the runtime keeps one
// per variable, found by the variable's address.
void* threadprivate_uncached(Thread* self, void* original, size_t size);

}  // namespace kite
