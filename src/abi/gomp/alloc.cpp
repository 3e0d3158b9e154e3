// libgomp ABI: allocate directive/clause support (GOMP_alloc, GOMP_free).
#include "abi/gomp/gomp.h"
#include "core/alloc.h"

using namespace kite;

extern "C" {

// The code gcc generates for the allocate clause uses the memory without a
// null check, so failing to allocate is fatal here, as in libgomp.
KITE_EXPORT void* GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator) {
  void* p = mem_alloc(alignment, size, allocator, "GOMP_alloc");
  if (!p && size != 0) fatal("GOMP_alloc: out of memory allocating %zu bytes", size);
  return p;
}

KITE_EXPORT void GOMP_free(void* ptr, uintptr_t allocator) { mem_free(ptr, allocator); }

}  // extern "C"
