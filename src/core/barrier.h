// Team barrier: a counter that the last arriving thread resets, and an epoch
// word the others wait on. Flat, which is the right shape for the small
// teams of a 2..16-core machine. The waiting itself (running tasks, then
// sleeping) is in team.cpp's barrier_with_tasks.
#pragma once

#include "wait.h"

namespace kite {

struct Barrier {
  alignas(kCacheLine) std::atomic<uint32_t> arrived{0};
  alignas(kCacheLine) Futex epoch;
  int nthreads = 1;

  void reset(int n) {
    // Unchanged size: not written, because a thread of the last region may
    // still be leaving this barrier and read it (team.cpp, prepare_team).
    if (nthreads != n) nthreads = n;
    arrived.store(0, std::memory_order_relaxed);
  }
  // The epoch a thread is about to wait for; read before arriving.
  uint32_t current_epoch() const { return epoch.load(); }
  // Arrive; returns true for the last thread, which then must call release().
  bool arrive() {
    return arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == uint32_t(nthreads);
  }
  void release() {
    arrived.store(0, std::memory_order_relaxed);
    epoch.add_and_wake(1);
  }
};

}  // namespace kite
