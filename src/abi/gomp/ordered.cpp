// libgomp ABI: ordered regions and doacross dependences
// (GOMP_ordered_*, GOMP_doacross_*).
#include <stdarg.h>

#include "abi/gomp/gomp.h"
#include "core/loop.h"

using namespace kite;

namespace {

using ull = unsigned long long;

// The wait entry points are variadic: the first element is named, the
// others (as many as the loop's dimensions) follow.
template <class T>
void wait_vector(Thread* t, T first, va_list ap, bool is_signed) {
  unsigned n = doacross_dims(t);
  if (n == 0) return;
  ull buf[16];
  ull* v = n <= 16 ? buf : static_cast<ull*>(xmalloc(n * sizeof(ull)));
  v[0] = static_cast<ull>(first);
  for (unsigned d = 1; d < n; ++d) v[d] = static_cast<ull>(va_arg(ap, T));
  doacross_wait(t, v, is_signed);
  if (v != buf) xfree(v);
}

}  // namespace

extern "C" {

KITE_EXPORT void GOMP_ordered_start(void) { ordered_start(self(), __builtin_return_address(0)); }

KITE_EXPORT void GOMP_ordered_end(void) { ordered_end(self(), __builtin_return_address(0)); }

KITE_EXPORT void GOMP_doacross_post(long* counts) {
  Thread* t = self();
  unsigned n = doacross_dims(t);
  if (n == 0) return;
  ull buf[16];
  ull* v = n <= 16 ? buf : static_cast<ull*>(xmalloc(n * sizeof(ull)));
  bool in_range = true;
  for (unsigned d = 0; d < n; ++d) {
    if (counts[d] < 0) in_range = false;
    v[d] = static_cast<ull>(counts[d]);
  }
  if (in_range) doacross_post(t, v);
  if (v != buf) xfree(v);
}

KITE_EXPORT void GOMP_doacross_ull_post(ull* counts) { doacross_post(self(), counts); }

KITE_EXPORT void GOMP_doacross_wait(long first, ...) {
  va_list ap;
  va_start(ap, first);
  wait_vector<long>(self(), first, ap, true);
  va_end(ap);
}

KITE_EXPORT void GOMP_doacross_ull_wait(ull first, ...) {
  va_list ap;
  va_start(ap, first);
  wait_vector<ull>(self(), first, ap, false);
  va_end(ap);
}

}  // extern "C"
