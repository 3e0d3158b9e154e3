// Translation between the LLVM ABI's loop description (inclusive bounds of
// the iteration variable's type and a signed step) and the core's logical
// iterations 0..trip-1.
#pragma once

#include <type_traits>

#include "abi/kmpc/kmpc.h"

namespace kite::kmpc {

// Iterations of lb, lb+st, ... while not past ub, in T's own order.
template <typename T, typename ST>
unsigned long long trip_count(T lb, T ub, ST st, const char* entry) {
  using U = std::make_unsigned_t<T>;
  U span, step;
  if (st > 0) {
    if (ub < lb) return 0;
    span = U(U(ub) - U(lb));
    step = U(st);
  } else if (st < 0) {
    if (lb < ub) return 0;
    span = U(U(lb) - U(ub));
    step = U(U(0) - U(st));
  } else {
    warn("%s: loop step is zero; running the first iteration only", entry);
    return 1;
  }
  unsigned long long q = span / step;
  if (q == ~0ull) {
    warn("%s: loop of 2^64 iterations; running 2^64-1 of them", entry);
    return q;
  }
  return q + 1;
}

// User value of logical iteration k.
template <typename T, typename ST>
inline T iteration_value(T lb, ST st, unsigned long long k) {
  using U = std::make_unsigned_t<T>;
  return T(U(U(lb) + U(k) * U(st)));
}

}  // namespace kite::kmpc
