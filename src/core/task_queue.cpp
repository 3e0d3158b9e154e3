// Ready-task queues: per-thread deques and the team priority queue.
#include "task_queue.h"

#include <string.h>

#include "team.h"

namespace kite {

namespace {
constexpr long kInitialRing = 256;
}

void TaskDeque::push(Task* t) {
  lock.lock();
  long b = bottom.load(std::memory_order_relaxed);
  long tp = top.load(std::memory_order_relaxed);
  if (b - tp > mask) {
    // Full: double the ring (only while a queue first grows to its peak).
    long cap = (mask + 1) * 2;
    Task** ring2 = static_cast<Task**>(xmalloc(sizeof(Task*) * cap));
    for (long i = tp; i < b; ++i) ring2[i & (cap - 1)] = ring[i & mask];
    xfree(ring);
    ring = ring2;
    mask = cap - 1;
  }
  ring[b & mask] = t;
  bottom.store(b + 1, std::memory_order_release);
  lock.unlock();
}

TeamTasks* team_tasks(Team* team) {
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  if (KITE_LIKELY(tt != nullptr)) return tt;
  tt = static_cast<TeamTasks*>(xaligned_alloc(kCacheLine, sizeof(TeamTasks)));
  memset(static_cast<void*>(tt), 0, sizeof(TeamTasks));
  tt->capacity = team->capacity;
  tt->deques = static_cast<TaskDeque*>(
      xaligned_alloc(kCacheLine, sizeof(TaskDeque) * static_cast<size_t>(team->capacity)));
  memset(static_cast<void*>(tt->deques), 0, sizeof(TaskDeque) * team->capacity);
  for (int i = 0; i < team->capacity; ++i) {
    tt->deques[i].ring = static_cast<Task**>(xmalloc(sizeof(Task*) * kInitialRing));
    tt->deques[i].mask = kInitialRing - 1;
  }
  TeamTasks* expected = nullptr;
  if (!team->tasks.compare_exchange_strong(expected, tt, std::memory_order_acq_rel)) {
    for (int i = 0; i < team->capacity; ++i) xfree(tt->deques[i].ring);
    xfree(tt->deques);
    xfree(tt);
    return expected;
  }
  return tt;
}

void prio_push(TeamTasks* tt, Task* t) {
  tt->prio_lock.lock();
  Task** link = &tt->prio_head;
  while (*link && (*link)->rt.priority >= t->rt.priority) link = &(*link)->rt.next;
  t->rt.next = *link;
  *link = t;
  tt->prio_count.fetch_add(1, std::memory_order_release);
  tt->prio_lock.unlock();
}

Task* prio_pop(TeamTasks* tt, Task* ancestor) {
  tt->prio_lock.lock();
  Task** link = &tt->prio_head;
  while (*link && ancestor && !task_is_descendant(*link, ancestor)) link = &(*link)->rt.next;
  Task* t = *link;
  if (t) {
    *link = t->rt.next;
    tt->prio_count.fetch_sub(1, std::memory_order_relaxed);
  }
  tt->prio_lock.unlock();
  return t;
}

}  // namespace kite
