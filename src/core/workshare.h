// The worksharing ring: every worksharing construct (loop, sections, single,
// scope) a team encounters gets a WorkShare slot. Threads may run ahead by up
// to kWorkShareRing nowait constructs; a slot is reused only after every
// thread has left its previous construct.
#pragma once

#include "wait.h"

namespace kite {

constexpr uint32_t kWorkShareRing = 8;

struct DoacrossState;
struct Thread;

struct alignas(kCacheLine) WorkShare {
  // Which construct (per-thread sequence number) the slot serves, and how
  // many threads have not yet left it.
  std::atomic<uint32_t> seq;
  std::atomic<uint32_t> ready;  // == seq once the initializer finished
  std::atomic<int> remaining;

  // Loop state. Iterations are numbered 0..total-1 ("logical"); user values
  // are start + k * incr in modular arithmetic, which serves signed and
  // unsigned, upward and downward loops alike (see loop.cpp).
  int sched;            // Sched kind, resolved (never runtime or auto)
  int nthreads;         // team size when the construct began
  bool ordered;         // loop has an ordered clause
  bool dyn_cas;         // chunks must be claimed by compare-and-swap (near 2^64)
  unsigned long long chunk;   // chunk size (0 = unchunked static)
  unsigned long long start, end, incr;  // user bounds, as bit patterns
  unsigned long long total;   // iterations in the loop
  alignas(kCacheLine) std::atomic<unsigned long long> next;  // dynamic/guided
  // Ordered: the first logical iteration of the chunk allowed to run its
  // ordered regions, and how many threads sleep waiting for their turn
  // (each on its own Thread::ord_wake; loop.cpp).
  alignas(kCacheLine) std::atomic<unsigned long long> ordered_turn;
  std::atomic<uint32_t> turn_sleepers;
  // Doacross bookkeeping, kept with the slot and reused while big enough;
  // meaningful only while doacross_on (the slot serves a doacross loop).
  DoacrossState* doacross;
  bool doacross_on;

  // Scratch memory the compiler asks for (GOMP_loop_start's `mem`: lastprivate
  // conditional, and the like): zeroed once per construct, shared by the
  // team, kept with the slot and reused while big enough.
  void* scratch;
  std::size_t scratch_cap;
  // Task reductions array of the initializing thread (reduction(task, ...)).
  uintptr_t* task_reductions;
  // Single with copyprivate: the executing thread's data.
  void* copyprivate;
  // Threads that have entered the construct, counted only where somebody
  // waits for it (the split GOMP_parallel_loop_*_start forms).
  Futex entered;
};

struct WorkShareRing {
  WorkShare slot[kWorkShareRing];
  // Slots free for a region whose threads number their constructs from 1
  // again; called when a team (re)starts. `used`: the constructs the last
  // region of the team ran (kWorkShareRing or more: every slot), when every
  // thread left all of them; only their slots changed.
  void reset(uint32_t used = kWorkShareRing);
};

struct Team;

// Enter the next worksharing construct of the calling thread's team. Returns
// the slot; *first is true for exactly one thread, which must initialize
// the slot's construct-specific fields and then call ws_publish().
WorkShare* ws_enter(Thread* self, bool* first);
void ws_publish(WorkShare* ws);
// Wait until the initializing thread published the slot.
void ws_wait_ready(WorkShare* ws);
// The calling thread is done with the slot.
void ws_leave(Thread* self, WorkShare* ws);

}  // namespace kite
