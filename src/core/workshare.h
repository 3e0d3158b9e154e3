// The worksharing ring: every worksharing construct (loop, sections, single,
// scope) a team encounters gets a WorkShare slot. Threads may run ahead by up
// to kWorkShareRing nowait constructs; a slot is reused only after every
// thread has left its previous construct.
#pragma once

#include "wait.h"

namespace kite {

constexpr uint32_t kWorkShareRing = 8;

struct DoacrossState;

struct alignas(kCacheLine) WorkShare {
  // Which construct (per-thread sequence number) the slot serves, and how
  // many threads have not yet left it.
  std::atomic<uint32_t> seq;
  std::atomic<uint32_t> ready;  // == seq once the initializer finished
  std::atomic<int> remaining;

  // Loop state (normalized by the loop code; see loop.cpp).
  int sched;           // Sched value
  bool is_ull;
  bool ordered;
  long chunk;
  union {
    struct { long start, end, incr; } l;
    struct { unsigned long long start, end; long long incr; bool up; } u;
  };
  unsigned long long total;  // iterations in the loop
  alignas(kCacheLine) std::atomic<unsigned long long> next;  // next iteration (dynamic/guided)
  // Ordered: iteration index (0-based) whose chunk may enter next.
  alignas(kCacheLine) Futex ordered_turn_lo;   // low 32 bits changes wake waiters
  std::atomic<unsigned long long> ordered_turn;
  DoacrossState* doacross;

  // Sections / single / copyprivate.
  void* copyprivate;
};

struct WorkShareRing {
  WorkShare slot[kWorkShareRing];
  void reset();  // all slots free; called when a team (re)starts
};

struct Thread;
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
