#include "workshare.h"

#include "team.h"

namespace kite {

void WorkShareRing::reset(uint32_t used) {
  // Constructs 1..used went through slots 1..used (slot = seq % ring); the
  // others still hold what the last full reset wrote. A region with no
  // worksharing construct (used 0) writes nothing, so the team's slots stay
  // in the caches of the threads that used them last.
  const uint32_t last = used < kWorkShareRing ? used : kWorkShareRing;
  for (uint32_t k = 1; k <= last; ++k) {
    uint32_t i = k % kWorkShareRing;
    // Sequence numbers start at 1, so slot i first serves construct i (slot
    // 0: construct ring) and starts out "finished" for the construct one
    // ring before that.
    uint32_t first = i == 0 ? kWorkShareRing : i;
    uint32_t prev = first - kWorkShareRing;
    slot[i].seq.store(prev, std::memory_order_relaxed);
    slot[i].ready.store(prev, std::memory_order_relaxed);
    slot[i].remaining.store(0, std::memory_order_relaxed);
  }
}

WorkShare* ws_enter(Thread* self, bool* first) {
  Team* team = self->team;
  uint32_t seq = ++self->ws_seq;
  WorkShare* ws = &team->ws.slot[seq % kWorkShareRing];
  const uint32_t prev = seq - kWorkShareRing;
  for (uint64_t spins = 0;; ++spins) {
    uint32_t s = ws->seq.load(std::memory_order_acquire);
    if (s == seq) {
      *first = false;
      ws_wait_ready(ws);
      return ws;
    }
    if (s == prev && ws->remaining.load(std::memory_order_acquire) == 0 &&
        ws->seq.compare_exchange_strong(s, seq, std::memory_order_acq_rel)) {
      ws->remaining.store(team->nthreads, std::memory_order_relaxed);
      *first = true;
      return ws;
    }
    // A thread is kWorkShareRing nowait constructs ahead of a slow one.
    if (spins > 1000) sched_yield_portable();
    else cpu_relax();
  }
}

void ws_publish(WorkShare* ws) {
  ws->ready.store(ws->seq.load(std::memory_order_relaxed), std::memory_order_release);
}

void ws_wait_ready(WorkShare* ws) {
  uint32_t want = ws->seq.load(std::memory_order_relaxed);
  for (uint64_t spins = 0; ws->ready.load(std::memory_order_acquire) != want; ++spins) {
    if (spins > 1000) sched_yield_portable();
    else cpu_relax();
  }
}

void ws_leave(Thread*, WorkShare* ws) { ws->remaining.fetch_sub(1, std::memory_order_acq_rel); }

}  // namespace kite
