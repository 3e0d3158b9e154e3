// Kite's own exported identity, used by tests and tools to prove which
// runtime a program runs on.
#include "core/base.h"

extern "C" KITE_EXPORT const char* kite_runtime_version(void) {
  return "kite " KITE_VERSION_STRING;
}
