// omp_pause_resource / omp_pause_resource_all.
//
// Kite holds nothing a pause has to give back for correctness: idle pool
// threads already sleep on futexes after a short spin, and the runtime keeps
// working after any pause. So a valid pause of the host succeeds at once,
// keeping the thread pool and hot teams for the next region (a hard pause
// allows losing OpenMP state; it does not require it).
#include "core/target.h"

using namespace kite;

namespace {

constexpr int kPauseSoft = 1;  // omp_pause_soft
constexpr int kPauseHard = 2;  // omp_pause_hard

int pause_host(int kind, const char* routine) {
  if (kind != kPauseSoft && kind != kPauseHard) {
    warn("%s: invalid pause kind %d; nothing paused", routine, kind);
    return -1;
  }
  // Pausing the device that runs the calling region would pull its threads
  // from under it; libgomp refuses this too.
  if (self()->team != nullptr) return -1;
  return 0;
}

}  // namespace

extern "C" {

KITE_EXPORT int omp_pause_resource(int kind, int device_num) {
  if (!is_host_device(device_num)) return -1;  // Kite drives no other device
  return pause_host(kind, "omp_pause_resource");
}

KITE_EXPORT int omp_pause_resource_all(int kind) {
  return pause_host(kind, "omp_pause_resource_all");
}

}  // extern "C"
