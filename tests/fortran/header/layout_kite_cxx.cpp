// The same facts about Kite's omp.h as seen by C++ (where the handle enums
// get an explicit pointer-sized underlying type).
#include <omp.h>
#include <stddef.h>

#include "layout_facts.h"

#ifndef __KITE_OMP_NOTHROW
#error "layout_kite_cxx.cpp must be compiled against Kite's omp.h (-I include)"
#endif

#define KITE_FACT_VALUE(x) (unsigned long long)(x),
extern "C" const unsigned long long kite_omp_h_facts_kite_cxx[] = {KITE_OMP_H_FACTS(KITE_FACT_VALUE)};

// C++ callers get the default allocator arguments, as with gcc's header
// (compiled, never called).
extern "C" void* kite_omp_h_cxx_default_args(void* p) {
  omp_free(p);
  return omp_realloc(omp_calloc(1, 1), 2);
}
