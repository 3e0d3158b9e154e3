// Ready-task queues: per-thread deques and the team priority queue.
#include "task_queue.h"

#include <string.h>

#include "team.h"

namespace kite {

namespace {
constexpr long kInitialRing = 256;
}

namespace {

TaskRing* ring_new(long capacity) {
  size_t bytes = sizeof(TaskRing) + sizeof(std::atomic<Task*>) * static_cast<size_t>(capacity - 1);
  TaskRing* r = static_cast<TaskRing*>(xmalloc(bytes));
  r->mask = capacity - 1;
  r->retired = nullptr;
  return r;
}

}  // namespace

void TaskDeque::push(Task* t) {
  long b = bottom.load(std::memory_order_relaxed);
  long tp = top.load(std::memory_order_acquire);
  TaskRing* r = ring.load(std::memory_order_relaxed);
  if (b - tp > r->mask) {
    // Full: double the ring (only while a deque first grows to its peak).
    TaskRing* bigger = ring_new((r->mask + 1) * 2);
    for (long i = tp; i < b; ++i)
      bigger->slot[i & bigger->mask].store(r->slot[i & r->mask].load(std::memory_order_relaxed),
                                           std::memory_order_relaxed);
    bigger->retired = r;
    ring.store(bigger, std::memory_order_release);
    r = bigger;
  }
  r->slot[b & r->mask].store(t, std::memory_order_relaxed);
  bottom.store(b + 1, std::memory_order_seq_cst);
}

TeamTasks* team_tasks_create(Team* team) {
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  if (tt != nullptr) return tt;
  tt = static_cast<TeamTasks*>(xaligned_alloc(kCacheLine, sizeof(TeamTasks)));
  memset(static_cast<void*>(tt), 0, sizeof(TeamTasks));
  tt->capacity = team->capacity;
  tt->deques = static_cast<TaskDeque*>(
      xaligned_alloc(kCacheLine, sizeof(TaskDeque) * static_cast<size_t>(team->capacity)));
  memset(static_cast<void*>(tt->deques), 0, sizeof(TaskDeque) * team->capacity);
  for (int i = 0; i < team->capacity; ++i) tt->deques[i].ring.store(ring_new(kInitialRing));
  tt->counts = static_cast<TaskCount*>(
      xaligned_alloc(kCacheLine, sizeof(TaskCount) * static_cast<size_t>(team->capacity)));
  memset(static_cast<void*>(tt->counts), 0, sizeof(TaskCount) * team->capacity);
  TeamTasks* expected = nullptr;
  if (!team->tasks.compare_exchange_strong(expected, tt, std::memory_order_acq_rel)) {
    for (int i = 0; i < team->capacity; ++i) xfree(tt->deques[i].ring.load());
    xfree(tt->counts);
    xfree(tt->deques);
    xfree(tt);
    return expected;
  }
  return tt;
}

namespace {
constexpr int kPrioLevels = 64;
inline int level_of(const Task* t) {
  return t->rt.priority < kPrioLevels ? t->rt.priority : kPrioLevels - 1;
}
}  // namespace

void prio_push(TeamTasks* tt, Task* t) {
  int l = level_of(t);
  t->rt.next = nullptr;
  tt->prio_lock.lock();
  if (tt->prio_tail[l])
    tt->prio_tail[l]->rt.next = t;
  else
    tt->prio_head[l] = t;
  tt->prio_tail[l] = t;
  tt->prio_levels |= uint64_t(1) << l;
  tt->prio_count.fetch_add(1, std::memory_order_seq_cst);
  tt->prio_lock.unlock();
}

Task* prio_pop(TeamTasks* tt, Task* ancestor) {
  tt->prio_lock.lock();
  Task* found = nullptr;
  for (uint64_t levels = tt->prio_levels; levels && !found;) {
    int l = 63 - __builtin_clzll(levels);
    levels &= ~(uint64_t(1) << l);
    Task* prev = nullptr;
    for (Task* c = tt->prio_head[l]; c; prev = c, c = c->rt.next) {
      if (ancestor && !task_is_descendant(c, ancestor)) continue;
      if (prev)
        prev->rt.next = c->rt.next;
      else
        tt->prio_head[l] = c->rt.next;
      if (tt->prio_tail[l] == c) tt->prio_tail[l] = prev;
      if (!tt->prio_head[l]) tt->prio_levels &= ~(uint64_t(1) << l);
      found = c;
      break;
    }
  }
  if (found) tt->prio_count.fetch_sub(1, std::memory_order_relaxed);
  tt->prio_lock.unlock();
  return found;
}

}  // namespace kite
