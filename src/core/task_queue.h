// Where ready tasks wait: one deque per thread of a team (the owner pushes
// and pops at the bottom, thieves take from the top, so the owner works
// depth-first on its newest tasks and thieves take the oldest, biggest
// ones), and one team-wide queue ordered by priority for tasks with a
// priority clause greater than zero.
//
// Emptiness of a deque is readable with two loads, so an idle thief only
// touches the lines of deques that have work.
#pragma once

#include "base.h"

namespace kite {

struct Task;
struct Team;

class SpinLock {
 public:
  void lock() {
    while (word_.exchange(1, std::memory_order_acquire) != 0)
      while (word_.load(std::memory_order_relaxed) != 0) cpu_relax();
  }
  void unlock() { word_.store(0, std::memory_order_release); }

 private:
  std::atomic<int> word_{0};
};

// The ring a deque lives in; replaced (never freed while the team lives,
// since a thief may still read the old one) when the owner outgrows it.
struct TaskRing {
  long mask;                 // capacity - 1 (capacity a power of two)
  TaskRing* retired;         // older, smaller rings of the same deque
  std::atomic<Task*> slot[1];  // capacity entries follow
};

// A Chase-Lev work-stealing deque: the owner pushes and pops at the bottom
// without locked instructions on the common path; thieves claim the top
// with a compare-and-swap.
struct alignas(kCacheLine) TaskDeque {
  std::atomic<long> top;     // next to steal
  alignas(kCacheLine) std::atomic<long> bottom;  // next free slot (owner's)
  std::atomic<TaskRing*> ring;
  long top_seen;             // owner's last look at `top` (top never decreases)

  long size() const {
    return bottom.load(std::memory_order_seq_cst) - top.load(std::memory_order_seq_cst);
  }
  // Owner only: does the deque hold at least n tasks? Reads the thieves'
  // line only when its last look at it allows that many.
  bool owner_holds_at_least(long n) {
    long b = bottom.load(std::memory_order_relaxed);
    if (b - top_seen < n) return false;
    top_seen = top.load(std::memory_order_relaxed);
    return b - top_seen >= n;
  }
  // Owner only. The seq_cst store of `bottom` orders the push before a
  // following check for sleeping threads (see task_notify_after_publish).
  void push(Task* t);
  // Owner only: takes the newest task if `allowed(t)`.
  template <class Allowed>
  Task* pop(Allowed allowed);
  // Any thread: takes the oldest task if `allowed(t)`.
  template <class Allowed>
  Task* steal(Allowed allowed);
};

// Per-team task queues; allocated on a team's first task and kept while the
// team object is recycled (every queue is empty between regions).
// Deferred tasks of a team that one of its threads created and completed,
// written only by that thread, on a line of their own: the team's
// incomplete tasks are the sums' difference (task.cpp, team_tasks_pending),
// so no line is written by every thread for every task.
struct alignas(kCacheLine) TaskCount {
  std::atomic<long> created;
  std::atomic<long> completed;
};

struct TeamTasks {
  int capacity;              // deques[] and counts[] size (the team's thread capacity)
  TaskDeque* deques;
  TaskCount* counts;
  // Tasks created or completed by threads outside the team (a detach
  // event fulfilled by another thread), and the threads waiting for the
  // team's tasks to be done (a barrier's last arriver), whom every
  // completion must then wake.
  alignas(kCacheLine) std::atomic<long> outside_created;
  std::atomic<long> outside_completed;
  std::atomic<int> zero_waiters;
  // The team queue: one FIFO per priority level (priorities above the last
  // level share it), and a bit per non-empty level.
  alignas(kCacheLine) SpinLock prio_lock;
  uint64_t prio_levels;
  Task* prio_head[64];
  Task* prio_tail[64];
  std::atomic<int> prio_count;
};

// A team's ready queues, created on first use (team_tasks in task.cpp is
// the inline fast path: one load once they exist).
TeamTasks* team_tasks_create(Team* team);

void prio_push(TeamTasks* tt, Task* t);
// Takes the highest-priority task that descends from `ancestor` (any task
// when `ancestor` is null).
Task* prio_pop(TeamTasks* tt, Task* ancestor);

// --- template bodies ---------------------------------------------------------

template <class Allowed>
Task* TaskDeque::pop(Allowed allowed) {
  long b = bottom.load(std::memory_order_relaxed) - 1;
  if (b < top.load(std::memory_order_relaxed)) return nullptr;  // cheap empty check
  TaskRing* r = ring.load(std::memory_order_relaxed);
  bottom.store(b, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  long t = top.load(std::memory_order_relaxed);
  if (t > b) {  // a thief took the last one
    bottom.store(b + 1, std::memory_order_relaxed);
    return nullptr;
  }
  Task* cand = r->slot[b & r->mask].load(std::memory_order_relaxed);
  if (!allowed(cand)) {
    bottom.store(b + 1, std::memory_order_relaxed);
    return nullptr;
  }
  if (t == b) {
    // The last task: race the thieves for it.
    if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                     std::memory_order_relaxed))
      cand = nullptr;
    bottom.store(b + 1, std::memory_order_relaxed);
  }
  return cand;
}

template <class Allowed>
Task* TaskDeque::steal(Allowed allowed) {
  long t = top.load(std::memory_order_acquire);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  long b = bottom.load(std::memory_order_acquire);
  if (t >= b) return nullptr;
  TaskRing* r = ring.load(std::memory_order_acquire);
  Task* cand = r->slot[t & r->mask].load(std::memory_order_relaxed);
  if (!allowed(cand)) return nullptr;
  if (!top.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                   std::memory_order_relaxed))
    return nullptr;  // lost the race; the caller looks again
  return cand;
}

}  // namespace kite
