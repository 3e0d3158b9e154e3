// libomp's settings routines: the library mode (kmp_set_library*,
// kmp_get_library), a settings string, the number of dispatch buffers,
// warnings on/off, and two queries (cancellation requested, threads
// known). Each has the C form (kmp_*), the Fortran form (kmp_*_, arguments
// by reference) and, where libomp has one, the kmpc_* by-value form other
// compilers' Fortran code calls; all forms share one implementation.
#include <omp.h>

#include <atomic>

#include "abi/kmpc/kmpc.h"
#include "core/task.h"
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

// The mode last set (0: none yet; the wait policy then says which).
std::atomic<int> g_library{0};

// libomp's kmp_cancel_kind_t (omp.h).
constexpr int kCancelKindParallel = 1;
constexpr int kCancelKindLoop = 2;
constexpr int kCancelKindSections = 3;
constexpr int kCancelKindTaskgroup = 4;

std::atomic<int> g_disp_warned{0};

// serial: later regions of the calling task get one thread; turnaround:
// waiting threads never sleep (OMP_WAIT_POLICY=active); throughput: they
// spin briefly, then sleep (Kite's default).
void set_library(const char* routine, int mode) {
  runtime_init();
  long spin = g_icv.spin_us;
  switch (mode) {
    case kLibrarySerial:
      omp_set_num_threads(1);
      g_library.store(mode, std::memory_order_relaxed);
      return;
    case kLibraryTurnaround:
      spin = -1;
      break;
    case kLibraryThroughput:
      if (spin < 0) spin = kThroughputSpinUs;
      break;
    default:
      warn("%s(%d): unknown library mode (1 serial, 2 turnaround, 3 throughput); keeping the "
           "current one",
           routine, mode);
      return;
  }
  g_icv.spin_us = spin;
  spin_set_budget_us(spin);
  g_library.store(mode, std::memory_order_relaxed);
}

int get_library() {
  runtime_init();
  int mode = g_library.load(std::memory_order_relaxed);
  if (mode != 0) return mode;
  return g_icv.spin_us < 0 ? kLibraryTurnaround : kLibraryThroughput;
}

// libomp reads a list of its KMP_*/OMP_* settings here; Kite takes its
// settings from the environment at load time only.
void set_defaults(const char* routine, const char* settings, int len) {
  if (!settings) settings = "";
  if (len < 0) len = 0;
  warn("%s(\"%.*s\"): settings strings are not supported; the settings stay as the "
       "environment set them",
       routine, len, settings);
}

// How many worksharing constructs a thread may run ahead of the others:
// Kite's ring has kWorkShareRing slots whatever the count asked, which
// changes only how far nowait loops can run ahead, never a result.
void set_disp_num_buffers(const char* routine, int count) {
  if (count == int(kWorkShareRing)) return;
  if (count <= 0) {
    warn("%s(%d): not positive; keeping %u buffers", routine, count, unsigned(kWorkShareRing));
    return;
  }
  if (g_disp_warned.exchange(1) == 0)
    warn("%s(%d): the number of dispatch buffers is fixed; using %u", routine, count,
         unsigned(kWorkShareRing));
}

// Whether cancellation of that kind has been requested for the construct
// the calling thread is in (0 when cancellation is disabled).
int cancellation_status(int kind) {
  runtime_init();
  if (!cancellation_enabled()) return 0;
  Thread* me = self();
  Team* team = me->team;
  switch (kind) {
    case kCancelKindParallel:
      return team && team->cancelled.load(std::memory_order_acquire) ? 1 : 0;
    case kCancelKindLoop:
    case kCancelKindSections:
      return team && team->ws_cancelled.load(std::memory_order_acquire) ? 1 : 0;
    case kCancelKindTaskgroup: {
      const Taskgroup* tg = me->task ? me->task->rt.taskgroup : nullptr;
      return tg && taskgroup_is_cancelled(tg) ? 1 : 0;
    }
    default:
      warn("kmp_get_cancellation_status(%d): unknown construct kind (1 parallel, 2 loop, "
           "3 sections, 4 taskgroup); returning 0",
           kind);
      return 0;
  }
}

}  // namespace

extern "C" {

KITE_EXPORT void kmp_set_library(int mode) { set_library("kmp_set_library", mode); }
KITE_EXPORT void kmp_set_library_serial(void) { set_library("kmp_set_library", kLibrarySerial); }
KITE_EXPORT void kmp_set_library_turnaround(void) {
  set_library("kmp_set_library", kLibraryTurnaround);
}
KITE_EXPORT void kmp_set_library_throughput(void) {
  set_library("kmp_set_library", kLibraryThroughput);
}
KITE_EXPORT int kmp_get_library(void) { return get_library(); }

KITE_EXPORT void kmp_set_defaults(const char* settings) {
  set_defaults("kmp_set_defaults", settings, settings ? int(__builtin_strlen(settings)) : 0);
}

KITE_EXPORT void kmp_set_disp_num_buffers(int count) {
  set_disp_num_buffers("kmp_set_disp_num_buffers", count);
}

KITE_EXPORT void kmp_set_warnings_on(void) { warnings_enable(true); }
KITE_EXPORT void kmp_set_warnings_off(void) { warnings_enable(false); }

KITE_EXPORT int kmp_get_cancellation_status(int kind) { return cancellation_status(kind); }

// Threads the runtime has now (libomp: every thread it knows of).
KITE_EXPORT int kmp_get_num_known_threads(void) {
  self();
  return runtime_thread_count();
}

// --- Fortran: arguments by reference ----------------------------------------

KITE_EXPORT void kmp_set_library_(const int* mode) { set_library("kmp_set_library", *mode); }
KITE_EXPORT void kmp_set_library_serial_(void) { kmp_set_library_serial(); }
KITE_EXPORT void kmp_set_library_turnaround_(void) { kmp_set_library_turnaround(); }
KITE_EXPORT void kmp_set_library_throughput_(void) { kmp_set_library_throughput(); }
KITE_EXPORT int kmp_get_library_(void) { return get_library(); }

// A Fortran string: its length comes as a hidden argument.
KITE_EXPORT void kmp_set_defaults_(const char* settings, int len) {
  set_defaults("kmp_set_defaults", settings, len);
}

KITE_EXPORT void kmp_set_disp_num_buffers_(const int* count) {
  set_disp_num_buffers("kmp_set_disp_num_buffers", *count);
}

KITE_EXPORT void kmp_set_warnings_on_(void) { warnings_enable(true); }
KITE_EXPORT void kmp_set_warnings_off_(void) { warnings_enable(false); }

KITE_EXPORT int kmp_get_cancellation_status_(const int* kind) {
  return cancellation_status(*kind);
}

KITE_EXPORT int kmp_get_num_known_threads_(void) { return kmp_get_num_known_threads(); }

// --- kmpc_*: by value --------------------------------------------------------

KITE_EXPORT void kmpc_set_library(int mode) { set_library("kmpc_set_library", mode); }

KITE_EXPORT void kmpc_set_defaults(const char* settings) {
  set_defaults("kmpc_set_defaults", settings, settings ? int(__builtin_strlen(settings)) : 0);
}

KITE_EXPORT void kmpc_set_disp_num_buffers(int count) {
  set_disp_num_buffers("kmpc_set_disp_num_buffers", count);
}

}  // extern "C"
