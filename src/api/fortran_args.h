// Argument conversions shared by the Fortran entry points (fortran_*.cpp).
//
// gfortran passes every argument by reference, LOGICAL as an integer whose
// nonzero values mean .true., and for each CHARACTER argument a hidden
// size_t length after the last ordinary argument. The name_8_ entry points
// are what gfortran's generic interfaces call for INTEGER(8) / LOGICAL(8)
// actual arguments (e.g. under -fdefault-integer-8); the C routines take
// int, so those values are narrowed here, loudly when they do not fit.
#pragma once

#include <climits>
#include <cstdint>

#include "core/base.h"

namespace kite::fortran {

static_assert(sizeof(int) == 4, "Fortran INTEGER(4) arguments are passed to C int parameters");

// Fortran LOGICAL of any kind to a C truth value.
inline int logical_to_c(int64_t v) { return v != 0; }

// C truth value to a LOGICAL(4) result (.true. is 1 in gfortran).
inline int32_t c_to_logical(int v) { return v != 0 ? 1 : 0; }

// An INTEGER(8) argument narrowed to int: out-of-range values are clamped
// to the nearest int and reported, naming the routine, so that the C
// routine then applies its own validation to a value of the same sign.
inline int narrow(int64_t v, const char* routine) {
  if (KITE_LIKELY(v >= INT_MIN && v <= INT_MAX)) return static_cast<int>(v);
  const int used = v > 0 ? INT_MAX : INT_MIN;
  warn("%s: argument %lld does not fit a C int; using %d", routine,
       static_cast<long long>(v), used);
  return used;
}

// A size_t count (string lengths) as the INTEGER(4) a Fortran function
// returns; a length past INT_MAX cannot be represented and saturates.
inline int32_t length_to_int32(std::size_t n) {
  return n > static_cast<std::size_t>(INT_MAX) ? INT_MAX : static_cast<int32_t>(n);
}

}  // namespace kite::fortran
