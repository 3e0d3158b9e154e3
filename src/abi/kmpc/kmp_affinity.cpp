// libomp's affinity-mask extension routines (kmp_create_affinity_mask,
// kmp_set_affinity, ...). A mask is a set of OS processor ids; the ids a
// program may put in one are those of the process's affinity mask at
// startup (libomp's "full mask"), and kmp_set_affinity binds the calling
// thread to the set with sched_setaffinity. Return codes are libomp's:
// -1 for a processor id outside 0..kmp_get_affinity_max_proc()-1, -2 for
// one the process may not use, errno when the system refuses a binding.
// Each routine also has its Fortran binding (arguments by reference) and,
// for the three per-processor ones, libomp's kmpc_* by-value form.
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include <atomic>

#include "abi/kmpc/kmpc.h"
#include "core/places.h"

using namespace kite;

namespace {

// Every mask has room for this many processor ids: at least what the
// kernel accepts in sched_getaffinity, whatever the machine.
constexpr int kMinMaskBits = 1024;

std::atomic<int> g_max_proc{0};

// libomp's kmp_get_affinity_max_proc: the number of processors the OS
// knows of (configured, not only online), and never less than one past
// the highest id the process may use.
int max_proc() {
  int n = g_max_proc.load(std::memory_order_relaxed);
  if (n > 0) return n;
  runtime_init();
  long conf = sysconf(_SC_NPROCESSORS_CONF);
  n = conf > 0 ? static_cast<int>(conf) : 1;
  int end = places_process_cpu_end();
  if (end > n) n = end;
  g_max_proc.store(n, std::memory_order_relaxed);
  return n;
}

int mask_bits() {
  int n = max_proc();
  return n > kMinMaskBits ? (n + 63) / 64 * 64 : kMinMaskBits;
}

size_t mask_bytes() { return CPU_ALLOC_SIZE(mask_bits()); }

cpu_set_t* as_set(void* const* mask) {
  return mask ? static_cast<cpu_set_t*>(*mask) : nullptr;
}

// Shared checks of the per-processor routines: 0 when `proc` may be used.
int check_proc(const char* routine, int proc, void* const* mask) {
  if (!as_set(mask)) {
    warn("%s(%d): no mask (create it with kmp_create_affinity_mask); returning -1", routine,
         proc);
    return -1;
  }
  if (proc < 0 || proc >= max_proc()) return -1;
  if (!places_process_allows(proc)) return -2;
  return 0;
}

int set_mask_proc(const char* routine, int proc, void** mask) {
  int rc = check_proc(routine, proc, mask);
  if (rc == 0) CPU_SET_S(proc, mask_bytes(), as_set(mask));
  return rc;
}

int unset_mask_proc(const char* routine, int proc, void** mask) {
  int rc = check_proc(routine, proc, mask);
  if (rc == 0) CPU_CLR_S(proc, mask_bytes(), as_set(mask));
  return rc;
}

// 1 if set, 0 if not (or the process may not use it), -1 out of range.
int get_mask_proc(const char* routine, int proc, void** mask) {
  int rc = check_proc(routine, proc, mask);
  if (rc == -2) return 0;
  if (rc != 0) return rc;
  return CPU_ISSET_S(proc, mask_bytes(), as_set(mask)) ? 1 : 0;
}

}  // namespace

extern "C" {

KITE_EXPORT void kmp_create_affinity_mask(void** mask) {
  if (!mask) {
    warn("kmp_create_affinity_mask: null argument; no mask created");
    return;
  }
  // Zeroed: a new mask names no processor.
  *mask = xcalloc(1, mask_bytes());
}

KITE_EXPORT void kmp_destroy_affinity_mask(void** mask) {
  if (!mask || !*mask) {
    warn("kmp_destroy_affinity_mask: no mask to destroy; nothing done");
    return;
  }
  xfree(*mask);
  *mask = nullptr;
}

KITE_EXPORT int kmp_set_affinity_mask_proc(int proc, void** mask) {
  return set_mask_proc("kmp_set_affinity_mask_proc", proc, mask);
}

KITE_EXPORT int kmp_unset_affinity_mask_proc(int proc, void** mask) {
  return unset_mask_proc("kmp_unset_affinity_mask_proc", proc, mask);
}

KITE_EXPORT int kmp_get_affinity_mask_proc(int proc, void** mask) {
  return get_mask_proc("kmp_get_affinity_mask_proc", proc, mask);
}

KITE_EXPORT int kmp_get_affinity_max_proc(void) { return max_proc(); }

// Binds the calling thread to the mask's processors. The thread then is on
// no place, and the current task's bind-var becomes false, so that the
// regions it starts do not move it again (libomp does the same).
KITE_EXPORT int kmp_set_affinity(void** mask) {
  cpu_set_t* set = as_set(mask);
  if (!set) {
    warn("kmp_set_affinity: no mask; the thread's affinity is unchanged (returning -1)");
    return -1;
  }
  const size_t bytes = mask_bytes();
  const int bits = mask_bits();
  int count = 0;
  for (int c = 0; c < bits; ++c) {
    if (!CPU_ISSET_S(c, bytes, set)) continue;
    if (!places_process_allows(c)) {
      warn("kmp_set_affinity: processor %d is not one this process may use; the thread's "
           "affinity is unchanged (returning -1)",
           c);
      return -1;
    }
    ++count;
  }
  if (count == 0) {
    warn("kmp_set_affinity: the mask is empty; the thread's affinity is unchanged (returning -1)");
    return -1;
  }
  Thread* me = self();
  if (sched_setaffinity(0, bytes, set) != 0) return errno ? errno : -1;
  me->place = -1;
  me->task->icv.bind = int(ProcBind::kFalse);
  return 0;
}

// The processors the calling thread may run on now.
KITE_EXPORT int kmp_get_affinity(void** mask) {
  cpu_set_t* set = as_set(mask);
  if (!set) {
    warn("kmp_get_affinity: no mask to fill; returning -1");
    return -1;
  }
  runtime_init();
  const size_t bytes = mask_bytes();
  memset(set, 0, bytes);
  if (sched_getaffinity(0, bytes, set) != 0) return errno ? errno : -1;
  return 0;
}

// Back to the process's startup mask: 0, or errno when the system refuses.
KITE_EXPORT int kmp_set_thread_affinity_mask_initial(void) {
  Thread* me = self();
  const size_t bytes = mask_bytes();
  cpu_set_t* set = static_cast<cpu_set_t*>(xcalloc(1, bytes));
  for (int c = 0; c < places_process_cpu_end(); ++c)
    if (places_process_allows(c)) CPU_SET_S(c, bytes, set);
  int rc = sched_setaffinity(0, bytes, set) == 0 ? 0 : (errno ? errno : -1);
  xfree(set);
  if (rc == 0) me->place = -1;
  return rc;
}

// --- Fortran: arguments by reference ----------------------------------------

KITE_EXPORT void kmp_create_affinity_mask_(void** mask) { kmp_create_affinity_mask(mask); }

KITE_EXPORT void kmp_destroy_affinity_mask_(void** mask) { kmp_destroy_affinity_mask(mask); }

KITE_EXPORT int kmp_set_affinity_mask_proc_(const int* proc, void** mask) {
  return set_mask_proc("kmp_set_affinity_mask_proc", *proc, mask);
}

KITE_EXPORT int kmp_unset_affinity_mask_proc_(const int* proc, void** mask) {
  return unset_mask_proc("kmp_unset_affinity_mask_proc", *proc, mask);
}

KITE_EXPORT int kmp_get_affinity_mask_proc_(const int* proc, void** mask) {
  return get_mask_proc("kmp_get_affinity_mask_proc", *proc, mask);
}

KITE_EXPORT int kmp_get_affinity_max_proc_(void) { return max_proc(); }

KITE_EXPORT int kmp_set_affinity_(void** mask) { return kmp_set_affinity(mask); }

KITE_EXPORT int kmp_get_affinity_(void** mask) { return kmp_get_affinity(mask); }

// --- kmpc_*: by value ----------------------------------------------------------

KITE_EXPORT int kmpc_set_affinity_mask_proc(int proc, void** mask) {
  return set_mask_proc("kmpc_set_affinity_mask_proc", proc, mask);
}

KITE_EXPORT int kmpc_unset_affinity_mask_proc(int proc, void** mask) {
  return unset_mask_proc("kmpc_unset_affinity_mask_proc", proc, mask);
}

KITE_EXPORT int kmpc_get_affinity_mask_proc(int proc, void** mask) {
  return get_mask_proc("kmpc_get_affinity_mask_proc", proc, mask);
}

}  // extern "C"
