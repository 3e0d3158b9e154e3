// libgomp ABI: the cancel construct and cancellation points. gcc's `which`
// uses the same bits as kite::CancelKind (parallel 1, for 2, sections 4,
// taskgroup 8).
#include "abi/gomp/gomp.h"

using namespace kite;

extern "C" {

KITE_EXPORT bool GOMP_cancellation_point(int which) {
  return cancellation_point(self(), which, KITE_RETURN_ADDRESS());
}

// do_cancel is false when the cancel construct's if clause evaluated false:
// it is then only a cancellation point.
KITE_EXPORT bool GOMP_cancel(int which, bool do_cancel) {
  if (!cancellation_enabled()) return false;
  if (!do_cancel) return cancellation_point(self(), which, KITE_RETURN_ADDRESS());
  return cancel_activate(self(), which, KITE_RETURN_ADDRESS());
}

}  // extern "C"
