// Where ready tasks wait: one deque per thread of a team (the owner pushes
// and pops at the bottom, thieves take from the top, so the owner works
// depth-first on its newest tasks and thieves take the oldest, biggest
// ones), and one team-wide queue ordered by priority for tasks with a
// priority clause greater than zero.
//
// A deque is a ring buffer under a small spinlock. Emptiness is readable
// without the lock, so an idle thief only touches the lines of deques that
// have work.
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

struct alignas(kCacheLine) TaskDeque {
  SpinLock lock;
  std::atomic<long> top;     // next to steal
  std::atomic<long> bottom;  // next free slot
  Task** ring;
  long mask;                 // capacity - 1 (capacity a power of two)

  long size() const {
    return bottom.load(std::memory_order_relaxed) - top.load(std::memory_order_relaxed);
  }
  void push(Task* t);
  // Takes the newest task if `allowed(t)` (null when empty or refused).
  template <class Allowed>
  Task* pop(Allowed allowed);
  // Takes the oldest task if `allowed(t)`.
  template <class Allowed>
  Task* steal(Allowed allowed);
};

// Per-team task queues; allocated on a team's first task and kept while the
// team object is recycled (every queue is empty between regions).
struct TeamTasks {
  int capacity;              // deques[] size (the team's thread capacity)
  TaskDeque* deques;
  alignas(kCacheLine) SpinLock prio_lock;
  Task* prio_head;           // highest priority first, FIFO among equals
  std::atomic<int> prio_count;
};

TeamTasks* team_tasks(Team* team);  // creates them on first use

void prio_push(TeamTasks* tt, Task* t);
// Takes the highest-priority task that descends from `ancestor` (any task
// when `ancestor` is null).
Task* prio_pop(TeamTasks* tt, Task* ancestor);

// --- template bodies ---------------------------------------------------------

template <class Allowed>
Task* TaskDeque::pop(Allowed allowed) {
  if (size() <= 0) return nullptr;
  lock.lock();
  long b = bottom.load(std::memory_order_relaxed);
  Task* t = nullptr;
  if (b - top.load(std::memory_order_relaxed) > 0) {
    Task* cand = ring[(b - 1) & mask];
    if (allowed(cand)) {
      t = cand;
      bottom.store(b - 1, std::memory_order_relaxed);
    }
  }
  lock.unlock();
  return t;
}

template <class Allowed>
Task* TaskDeque::steal(Allowed allowed) {
  if (size() <= 0) return nullptr;
  lock.lock();
  long tp = top.load(std::memory_order_relaxed);
  Task* t = nullptr;
  if (bottom.load(std::memory_order_relaxed) - tp > 0) {
    Task* cand = ring[tp & mask];
    if (allowed(cand)) {
      t = cand;
      top.store(tp + 1, std::memory_order_relaxed);
    }
  }
  lock.unlock();
  return t;
}

}  // namespace kite
