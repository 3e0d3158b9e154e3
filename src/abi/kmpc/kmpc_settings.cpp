// libomp's kmpc_* settings routines (the by-value forms other compilers'
// Fortran code calls; the C kmp_* routines of the same names do the same):
// the library mode, a settings string, and the number of dispatch buffers.
#include <omp.h>

#include "abi/kmpc/kmpc.h"
#include "core/wait.h"
#include "core/workshare.h"

using namespace kite;

namespace {

// libomp's library modes.
constexpr int kLibrarySerial = 1;
constexpr int kLibraryTurnaround = 2;
constexpr int kLibraryThroughput = 3;

// What OMP_WAIT_POLICY and KITE_SPIN_US leave unset (src/core/env.cpp).
constexpr long kThroughputSpinUs = 2000;

}  // namespace

extern "C" {

// serial: later regions of the calling task get one thread; turnaround:
// waiting threads never sleep (OMP_WAIT_POLICY=active); throughput: they
// spin briefly, then sleep (Kite's default).
KITE_EXPORT void kmpc_set_library(int mode) {
  long spin = g_icv.spin_us;
  switch (mode) {
    case kLibrarySerial:
      omp_set_num_threads(1);
      return;
    case kLibraryTurnaround:
      spin = -1;
      break;
    case kLibraryThroughput:
      if (spin < 0) spin = kThroughputSpinUs;
      break;
    default:
      warn("kmpc_set_library(%d): unknown library mode (1 serial, 2 turnaround, "
           "3 throughput); keeping the current one",
           mode);
      return;
  }
  g_icv.spin_us = spin;
  spin_set_budget_us(spin);
}

// libomp reads a list of its KMP_* settings here; Kite has none of them.
KITE_EXPORT void kmpc_set_defaults(const char* settings) {
  warn("kmpc_set_defaults(\"%s\"): libomp settings strings are not supported; ignored",
       settings ? settings : "");
}

// How many worksharing constructs a thread may run ahead of the others:
// Kite's ring has kWorkShareRing slots whatever the count asked, which
// changes only how far nowait loops can run ahead, never a result.
KITE_EXPORT void kmpc_set_disp_num_buffers(int count) {
  if (count <= 0)
    warn("kmpc_set_disp_num_buffers(%d): not positive; keeping %u buffers", count,
         unsigned(kWorkShareRing));
}

}  // extern "C"
