// Explicit tasks: creation, execution, completion, and the waiting that
// happens at task scheduling points (see task.h for the life cycle).
//
// Counting: a deferred task adds one child to its parent's `counts`
// (taskwait) and one to its taskgroup's `pending`, and removes them when it
// completes; for barriers, the thread that creates it and the thread that
// completes it each count it on their own line (team_tasks_pending). A task also
// holds a reference on an explicit parent until it is freed, so that the
// parent chain of any live task is live: the tied-task constraint walks it,
// and completion writes into the parent.
#include "task.h"

#include <climits>
#include <cstddef>
#include <string.h>

#include "depend.h"
#include "ompt/events_task.h"
#include "ompt/ora.h"
#include "task_queue.h"
#include "team.h"

namespace kite {

// The team's ready queues; task_queue.cpp creates them on first use.
inline TeamTasks* team_tasks(Team* team) {
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  return KITE_LIKELY(tt != nullptr) ? tt : team_tasks_create(team);
}

// --- descriptor pool -----------------------------------------------------------
//
// Blocks come in a few size classes and are kept on per-thread free lists.
// A block freed by another thread goes back to its owner through a
// lock-free stack the owner empties when its own list runs dry, so a
// producer/consumer pair reaches a steady state with no malloc.

namespace {

constexpr int kPoolClasses = 5;
constexpr size_t kPoolSize[kPoolClasses] = {128, 512, 1024, 2048, 4096};

struct alignas(kCacheLine) PoolHeader {  // keeps a Task in a block line-aligned
  TaskCache* owner;  // null for a plain malloc block
  int cls;
};

struct PoolLink {
  PoolLink* next;
};

}  // namespace

struct TaskCache {
  PoolLink* local[kPoolClasses];
  // Blocks of another thread's pool freed here, sent back in batches (one
  // compare-and-swap on the owner's line per batch, not per block).
  TaskCache* out_owner;
  int out_cls;
  int out_count;
  PoolLink* out_head;
  PoolLink* out_tail;
  alignas(kCacheLine) std::atomic<PoolLink*> remote[kPoolClasses];
};

namespace {

TaskCache* cache_of(Thread* me) {
  TaskCache* c = me->task_cache;
  if (KITE_UNLIKELY(!c)) {
    c = static_cast<TaskCache*>(xaligned_alloc(kCacheLine, sizeof(TaskCache)));
    memset(static_cast<void*>(c), 0, sizeof(TaskCache));
    me->task_cache = c;
  }
  return c;
}

}  // namespace

void* task_pool_alloc(Thread* me, size_t bytes) {
  size_t need = bytes + sizeof(PoolHeader);
  int cls = 0;
  while (cls < kPoolClasses && kPoolSize[cls] < need) ++cls;
  PoolHeader* h;
  if (KITE_UNLIKELY(cls == kPoolClasses)) {
    h = static_cast<PoolHeader*>(xaligned_alloc(kCacheLine, need));
    h->owner = nullptr;
    h->cls = -1;
    return h + 1;
  }
  TaskCache* c = cache_of(me);
  PoolLink* b = c->local[cls];
  if (!b) b = c->remote[cls].exchange(nullptr, std::memory_order_acquire);
  if (b) {
    c->local[cls] = b->next;
    h = reinterpret_cast<PoolHeader*>(b);
  } else {
    h = static_cast<PoolHeader*>(xaligned_alloc(kCacheLine, kPoolSize[cls]));
  }
  h->owner = c;
  h->cls = cls;
  return h + 1;
}

namespace {

constexpr int kReturnBatch = 32;

void return_batch(TaskCache* c) {
  if (!c->out_head) return;
  std::atomic<PoolLink*>& remote = c->out_owner->remote[c->out_cls];
  PoolLink* head = remote.load(std::memory_order_relaxed);
  do {
    c->out_tail->next = head;
  } while (!remote.compare_exchange_weak(head, c->out_head, std::memory_order_release,
                                         std::memory_order_relaxed));
  c->out_head = c->out_tail = nullptr;
  c->out_count = 0;
}

}  // namespace

void task_pool_free(Thread* me, void* p) {
  PoolHeader* h = static_cast<PoolHeader*>(p) - 1;
  if (h->cls < 0) {
    xfree(h);
    return;
  }
  TaskCache* owner = h->owner;
  int cls = h->cls;
  PoolLink* b = reinterpret_cast<PoolLink*>(h);
  TaskCache* c = cache_of(me);
  if (c == owner) {
    b->next = owner->local[cls];
    owner->local[cls] = b;
    return;
  }
  if (c->out_head && (c->out_owner != owner || c->out_cls != cls)) return_batch(c);
  c->out_owner = owner;
  c->out_cls = cls;
  b->next = c->out_head;
  c->out_head = b;
  if (!c->out_tail) c->out_tail = b;
  if (++c->out_count >= kReturnBatch) return_batch(c);
}

// A thread about to sleep sends back what it holds of other pools.
void task_pool_flush(Thread* me) {
  if (me->task_cache) return_batch(me->task_cache);
}

// --- waking and waiting ------------------------------------------------------

namespace {

// The waker takes the whole sleeper count, so that the pushes that follow
// while the woken threads get going make no further system call. A thread
// that registered but did not sleep leaves the count high, which costs at
// most one spare wake.
inline void wake_sleepers(Team* team) {
  Futex& f = team->task_events;
  if (f.sleepers.load(std::memory_order_seq_cst) != 0 &&
      f.sleepers.exchange(0, std::memory_order_acq_rel) != 0) {
    f.value.fetch_add(1, std::memory_order_release);
    futex_wake(&f.value, INT_MAX);
  }
}

}  // namespace

namespace {

// One more task created or completed, by `me`, for `team`: on the thread's
// own line when it is a thread of the team (only it writes there), else
// on the shared outside counter.
inline void count_task(Thread* me, Team* team, TeamTasks* tt, std::atomic<long> TaskCount::*mine,
                       std::atomic<long> TeamTasks::*outside) {
  if (me && me->team == team && me->tid < tt->capacity) {
    std::atomic<long>& c = tt->counts[me->tid].*mine;
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_seq_cst);
  } else {
    (tt->*outside).fetch_add(1, std::memory_order_seq_cst);
  }
}

}  // namespace

void task_notify(Team* team) {
  // Pairs with the fence in task_wait_until: either the sleeper sees our
  // change, or we see it registered as a sleeper.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  wake_sleepers(team);
}

// The same, for a change just made by a seq_cst read-modify-write or store,
// which already orders it before the load of the sleeper count.
void task_notify_after_publish(Team* team) { wake_sleepers(team); }

void task_wake_team(Team* team) {
  team->barrier.epoch.wake_all();
  task_notify(team);
}

bool task_is_descendant(const Task* t, const Task* ancestor) {
  int d = ancestor->rt.depth;
  while (t && t->rt.depth > d) t = t->parent;
  return t == ancestor;
}

namespace {

// The tied-task scheduling constraint: while an explicit task waits on this
// thread, only its descendants may run here.
inline Task* constraint_of(Thread* me) {
  Task* cur = me->task;
  return (cur && cur->kind == kTaskExplicit) ? cur : nullptr;
}

// kTraced (a tool or ORA session): ORA's schedule interval opens with the
// first look while the team has tasks, its steal interval when the thread
// turns to other threads' queues, and both close when a task is fetched.
template <bool kTraced>
Task* find_task(Thread* me, Team* team, Task* ancestor) {
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  if (!tt) return nullptr;
  // ORA's intervals are those of a look while the team has tasks (a sum
  // over the team's counts: only with an ORA session, not for every tool).
  if (kTraced && ora::g_tasks.load(std::memory_order_relaxed) && !team_tasks_pending(team))
    return nullptr;
  if (kTraced) ora::search_begin(me);
  auto got = [me](Task* t) {
    if (kTraced) ora::fetched(me);
    return t;
  };
  if (tt->prio_count.load(std::memory_order_relaxed) > 0) {
    if (Task* t = prio_pop(tt, ancestor)) return got(t);
  }
  auto allowed = [ancestor](Task* c) { return !ancestor || task_is_descendant(c, ancestor); };
  int n = team->nthreads;
  int me_tid = me->team == team ? me->tid : 0;
  if (me->team == team) {
    if (Task* t = tt->deques[me_tid].pop(allowed)) return got(t);
  }
  if (kTraced) ora::steal_begin(me);
  for (int i = 1; i <= n; ++i) {
    int v = me_tid + i;
    if (v >= n) v -= n;
    if (v == me_tid && me->team == team) continue;
    if (Task* t = tt->deques[v].steal(allowed)) return got(t);
  }
  return nullptr;
}

bool work_visible(Team* team) {
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  if (!tt) return false;
  if (tt->prio_count.load(std::memory_order_seq_cst) > 0) return true;
  for (int i = 0; i < team->nthreads; ++i)
    if (tt->deques[i].size() > 0) return true;
  return false;
}

void execute(Thread* me, Task* t);

}  // namespace

namespace {

// A task found at a scheduling point: the waiting task is suspended (ORA)
// while it runs.
template <bool kTraced>
inline void run_found(Thread* me, Task* t) {
  if (kTraced) ora::suspend_begin(me);
  execute(me, t);
  if (kTraced) ora::suspend_end(me);
}

template <bool kTraced>
void wait_until(Thread* me, Team* team, bool (*done)(void*), void* ctx, bool done_when_idle) {
  Task* ancestor = constraint_of(me);
  const uint64_t spin_limit = spin_budget();
  uint64_t idle = 0;
  for (;;) {
    if (!done_when_idle && done(ctx)) {
      if (kTraced) ora::search_end(me);
      return;
    }
    if (Task* t = find_task<kTraced>(me, team, ancestor)) {
      run_found<kTraced>(me, t);
      idle = 0;
      continue;
    }
    if (done_when_idle && done(ctx)) {
      if (kTraced) ora::search_end(me);
      return;
    }
    if (idle < spin_limit) {
      spin_step(idle++);
      continue;
    }
    // The thread stops looking while it sleeps or yields.
    if (kTraced) ora::search_end(me);
    task_pool_flush(me);
    Futex& f = team->task_events;
    // Read the word before registering: a waker that takes our registration
    // (it resets the count) bumps the word after, so the futex wait below
    // returns at once instead of sleeping unregistered.
    uint32_t v = f.value.load(std::memory_order_acquire);
    f.sleepers.fetch_add(1, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (!done(ctx)) {
      if (!work_visible(team))
        futex_wait(&f.value, v);  // the waker resets the sleeper count
      else if (ancestor)
        sched_yield_portable();  // work exists, but not ours to run
    }
    idle = 0;
  }
}

template <bool kTraced>
bool run_one(Thread* me, bool any_task) {
  Team* team = me->team;
  if (!team) return false;
  Task* t = find_task<kTraced>(me, team, any_task ? nullptr : constraint_of(me));
  if (!t) {
    if (kTraced) ora::search_end(me);
    return false;
  }
  run_found<kTraced>(me, t);
  return true;
}

}  // namespace

namespace {

// done_when_idle: `done` is asked only when no task was found to run, for a
// condition that costs more than a look for work and cannot hold while a
// task is still there to run (all of the team's tasks complete).
void wait_for(Thread* me, Team* team, bool (*done)(void*), void* ctx, bool done_when_idle) {
  if (!team) {
    // No team: every task ran inline; only a detach event (fulfilled by
    // another thread) can still be outstanding.
    while (!done(ctx)) sched_yield_portable();
    return;
  }
  // Once per wait, on a thread that has nothing to do but wait: ORA's
  // schedule, steal and suspend intervals need the traced loop.
  if (KITE_UNLIKELY(ompt::active()))
    wait_until<true>(me, team, done, ctx, done_when_idle);
  else
    wait_until<false>(me, team, done, ctx, done_when_idle);
}

}  // namespace

// Runs ready tasks of the caller's team (within the tied-task constraint)
// until done(ctx) holds; sleeps on the team's task_events word when there is
// nothing to run.
void task_wait_until(Thread* me, Team* team, bool (*done)(void*), void* ctx) {
  wait_for(me, team, done, ctx, false);
}

bool task_run_one(Thread* me, bool any_task) { return run_one<false>(me, any_task); }

// The sum runs over every slot of the team object (a recycled team's
// earlier regions counted in slots its current size does not reach), the
// completions first, then the creations: a counter never decreases, so
// what was created minus what was complete at the moment between the two
// passes is at most the difference read, and is zero only when the read
// one is. Once no implicit task can create tasks (every thread arrived),
// nothing pending at one moment means nothing can be created later: the
// tasks that create tasks are pending themselves. All seq_cst, to make
// "the moment" mean one order of every counter write.
bool team_tasks_pending(Team* team) {
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  if (!tt) return false;
  long done = tt->outside_completed.load(std::memory_order_seq_cst);
  for (int i = 0; i < tt->capacity; ++i)
    done += tt->counts[i].completed.load(std::memory_order_seq_cst);
  long made = tt->outside_created.load(std::memory_order_seq_cst);
  for (int i = 0; i < tt->capacity; ++i)
    made += tt->counts[i].created.load(std::memory_order_seq_cst);
  return made != done;
}

void task_wait_all_team_tasks(Thread* me, Team* team) {
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  if (!tt) return;
  // Completions wake task_events' sleepers while somebody waits here: a
  // completing thread cannot tell that it completed the last task.
  tt->zero_waiters.fetch_add(1, std::memory_order_seq_cst);
  wait_for(
      me, team, [](void* c) { return !team_tasks_pending(static_cast<Team*>(c)); }, team, true);
  tt->zero_waiters.fetch_sub(1, std::memory_order_relaxed);
}

// --- life cycle ------------------------------------------------------------

namespace {

// Clears the fields of a descriptor after TaskRuntime (the tool's part,
// and any a later change adds there start at zero). The fields before it
// are the ones every creator sets right after (icv, parent, team, kind,
// final); the asserts keep it that way. Plain stores: a `rep stos`, which
// memset becomes at this size, costs more to start than the work.
inline void clear_general_part(Task* t) {
  typedef long long v2 __attribute__((vector_size(16)));
  static_assert(offsetof(Task, icv) == 0 &&
                offsetof(Task, parent) - sizeof(TaskIcvs) < alignof(Task*) &&
                offsetof(Task, team) == offsetof(Task, parent) + sizeof(Task*) &&
                offsetof(Task, kind) == offsetof(Task, team) + sizeof(Team*) &&
                offsetof(Task, final) == offsetof(Task, kind) + 1 &&
                offsetof(Task, rt) - (offsetof(Task, final) + 1) < alignof(TaskRuntime),
                "a new field before TaskRuntime: set it in every creator, or clear it here");
  constexpr size_t kTail = offsetof(Task, rt) + sizeof(TaskRuntime);
  static_assert(kTail % sizeof(v2) == 0 && sizeof(Task) % sizeof(v2) == 0 &&
                alignof(Task) >= sizeof(v2));
  v2* q = reinterpret_cast<v2*>(t);
#pragma GCC unroll 16
  for (size_t i = kTail / sizeof(v2); i < sizeof(Task) / sizeof(v2); ++i) {
    q[i] = v2{0, 0};
    asm volatile("" ::: "memory");  // keeps the loop from turning into memset
  }
}

constexpr uint64_t kChild = 1;
constexpr uint64_t kRef = uint64_t(1) << 32;
inline uint32_t children_of(uint64_t c) { return static_cast<uint32_t>(c); }
inline uint32_t refs_of(uint64_t c) { return static_cast<uint32_t>(c >> 32); }

// Frees a task nobody refers to; returns its parent when that is an
// explicit task, whose reference the freed task held.
Task* free_task(Thread* me, Task* t) {
  Task* parent = t->parent;
  if (t->rt.deps) depend_table_free(me, t->rt.deps);
  if (t->rt.flags & kTaskOwnRecords) task_pool_free(me, t->rt.records);
  task_pool_free(me, t);
  return (parent && parent->kind == kTaskExplicit) ? parent : nullptr;
}

// Drops one reference of each task up the chain whose last one goes.
void release_ref(Thread* me, Task* t) {
  while (t) {
    // A lone reference is ours: nobody else can add one to it any more.
    if (t->rt.counts.load(std::memory_order_acquire) != kRef) {
      // A descriptor on a stack is never freed here (its owner holds a
      // reference until it returns); the owner may be waiting for the
      // last other one to go. Read before the update: after it, the
      // owner may be gone.
      const bool on_stack = t->rt.flags & kTaskOnStack;
      Team* team = t->team;
      uint64_t old = t->rt.counts.fetch_sub(kRef, std::memory_order_seq_cst);
      if (on_stack && old == 2 * kRef) task_notify_after_publish(team);
      if (refs_of(old) != 1) return;
    }
    t = free_task(me, t);
  }
}

void complete(Thread* me, Task* t) {
  Team* team = t->team;
  Task* parent = t->parent;
  const bool deferred = !(t->rt.flags & kTaskUndeferred);
  if (t->rt.nrecords) depend_release(me, t);
  if (!deferred) {
    release_ref(me, t);
    return;
  }
  Taskgroup* tg = t->rt.taskgroup;
  bool wake = false;
  if (tg && tg->pending.fetch_sub(1, std::memory_order_seq_cst) == 1) wake = true;
  if (t->rt.counts.load(std::memory_order_acquire) == kRef && parent->kind == kTaskExplicit) {
    // No live children: the task goes now, and its parent loses a child
    // and a reference in one update.
    free_task(me, t);
    uint64_t old = parent->rt.counts.fetch_sub(kRef + kChild, std::memory_order_seq_cst);
    if (children_of(old) == 1) wake = true;
    if (refs_of(old) == 1) release_ref(me, free_task(me, parent));
  } else {
    if (children_of(parent->rt.counts.fetch_sub(kChild, std::memory_order_seq_cst)) == 1)
      wake = true;
    release_ref(me, t);
  }
  // No team: a detachable task of a thread outside any parallel region,
  // whose creator (the only one to wait for it) polls its counts.
  if (!team) return;
  // Counted by the completing thread (seq_cst: ordered before the check
  // for a waiter, which pairs with that waiter's registration and check).
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  count_task(me, team, tt, &TaskCount::completed, &TeamTasks::outside_completed);
  if (tt->zero_waiters.load(std::memory_order_seq_cst) != 0) wake = true;
  if (wake) task_notify_after_publish(team);
}

// The cancelled construct that discards `t` before it starts (its
// taskgroup, else its parallel region; CancelKind), or 0.
int start_cancelled(const Task* t) {
  if (KITE_LIKELY(!g_icv.cancel)) return 0;
  if (taskgroup_is_cancelled(t->rt.taskgroup)) return kCancelTaskgroup;
  Team* team = t->team;
  return team && team->cancelled.load(std::memory_order_acquire) ? kCancelParallel : 0;
}

// With a tool: the same steps, with task_schedule events around the body
// and cancel(discarded_task) for a task that never starts. Each event is
// sent while the task still holds a completion condition, so it is alive.
void execute_traced(Thread* me, Task* t) {
  Task* prior = me->task;
  const int discarded = start_cancelled(t);
  if (discarded)
    ompt::task_discarded_slow(me, t, discarded);
  else
    ompt::run_task_body(me, t);
  const bool detached = (t->rt.flags & kTaskDetached) != 0;
  if (!discarded)
    ompt::task_body_end(me, t, prior,
                        detached && t->rt.detach.load(std::memory_order_acquire) > 1);
  if (detached && t->rt.detach.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  complete(me, t);
}

void execute(Thread* me, Task* t) {
  if (KITE_UNLIKELY(ompt::active())) {
    execute_traced(me, t);
    return;
  }
  Task* prev = me->task;
  if (!start_cancelled(t)) {
    me->task = t;
    t->rt.fn(t->rt.arg);
    me->task = prev;
  }
  // A detached task completes when both its body and its event are done.
  if ((t->rt.flags & kTaskDetached) &&
      t->rt.detach.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  complete(me, t);
}

inline bool team_is_cancelled(Team* team) {
  return g_icv.cancel && team && team->cancelled.load(std::memory_order_acquire);
}

}  // namespace

// A deferred task whose predecessors all completed. (An undeferred one is
// its creator's to run: depend_release wakes the creator instead, without
// touching the task.)
void task_make_ready(Thread* me, Task* t) {
  Team* team = t->team;
  TeamTasks* tt = team_tasks(team);
  if (t->rt.priority > 0 || me->team != team) {
    prio_push(tt, t);
  } else {
    tt->deques[me->tid].push(t);
  }
  task_notify_after_publish(team);
}

Task* task_prepare(Thread* me, const TaskSpec& spec, void** argp) {
  Task* parent = me->task;
  Team* team = me->team;
  size_t nrec = spec.depend ? depend_count(spec.depend) : 0;
  size_t align = spec.arg_align > 0 ? static_cast<size_t>(spec.arg_align) : 1;
  size_t arg_size = spec.arg_size > 0 ? static_cast<size_t>(spec.arg_size) : 0;
  size_t head = sizeof(Task) + nrec * sizeof(DepRecord);
  char* block = static_cast<char*>(task_pool_alloc(me, head + arg_size + align - 1));
  Task* t = reinterpret_cast<Task*>(block);
  uintptr_t a = reinterpret_cast<uintptr_t>(block + head);
  a = (a + align - 1) & ~(uintptr_t)(align - 1);
  void* arg = reinterpret_cast<void*>(a);

  // The hottest path of task creation: zero only the general part of the
  // descriptor, and set the tasking part field by field.
  clear_general_part(t);
  t->icv = parent->icv;
  t->parent = parent;
  t->team = team;
  t->kind = kTaskExplicit;
  t->final = spec.final || parent->final;
  TaskRuntime& rt = t->rt;
  rt.depth = parent->rt.depth + 1;
  int prio = spec.priority;
  if (prio > g_icv.max_task_priority) prio = g_icv.max_task_priority;
  rt.priority = prio > 0 ? prio : 0;
  rt.flags = static_cast<uint8_t>((spec.untied ? kTaskUntied : 0) |
                                  (spec.mergeable ? kTaskMergeable : 0) |
                                  (spec.target ? kTaskTarget : 0));
  rt.taskgroup = parent->rt.taskgroup;
  rt.deps = nullptr;
  rt.fn = spec.fn;
  rt.arg = arg;
  rt.nrecords = 0;
  rt.records = nullptr;
  rt.next = nullptr;
  rt.counts.store(kRef, std::memory_order_relaxed);
  rt.deps_lock.store(0, std::memory_order_relaxed);
  rt.npred.store(0, std::memory_order_relaxed);
  rt.detach.store(0, std::memory_order_relaxed);
  rt.successors = nullptr;
  if (nrec) {
    t->rt.records = reinterpret_cast<DepRecord*>(block + sizeof(Task));
    t->rt.nrecords = static_cast<int>(nrec);
    depend_decode(spec.depend, t->rt.records, nrec);
  }
  if (spec.detach) {
    t->rt.flags |= kTaskDetached;
    t->rt.detach.store(2, std::memory_order_relaxed);
    *spec.detach = t;
    // gcc keeps the event handle first in the task's data block.
    if (spec.data) *static_cast<void**>(spec.data) = t;
  }
  if (spec.cpyfn) {
    // Copy constructors run as part of the new task.
    me->task = t;
    spec.cpyfn(arg, spec.data);
    me->task = parent;
  } else if (arg_size) {
    memcpy(arg, spec.data, arg_size);
  }
  *argp = arg;
  return t;
}

void task_submit(Thread* me, Task* t) {
  Task* parent = t->parent;
  Team* team = t->team;
  parent->rt.counts.fetch_add(parent->kind == kTaskExplicit ? kRef + kChild : kChild,
                             std::memory_order_relaxed);
  if (Taskgroup* tg = t->rt.taskgroup) tg->pending.fetch_add(1, std::memory_order_relaxed);
  count_task(me, team, team_tasks(team), &TaskCount::created, &TeamTasks::outside_created);
  if (t->rt.nrecords) {
    t->rt.npred.store(1, std::memory_order_relaxed);
    depend_register(me, parent, t);
    if (t->rt.npred.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  }
  task_make_ready(me, t);
}

namespace {

// A detachable undeferred task whose body ran: it becomes a child of its
// creator as task_submit counts a deferred one (the reference on an
// explicit creator it holds already), and loses kTaskUndeferred, before
// its event can complete it.
void adopt_as_deferred(Thread* me, Task* t) {
  Task* parent = t->parent;
  Team* team = t->team;
  parent->rt.counts.fetch_add(kChild, std::memory_order_relaxed);
  if (Taskgroup* tg = t->rt.taskgroup) tg->pending.fetch_add(1, std::memory_order_relaxed);
  if (team) count_task(me, team, team_tasks(team), &TaskCount::created, &TeamTasks::outside_created);
  t->rt.flags &= static_cast<uint8_t>(~kTaskUndeferred);
}

// Before an included task (or one outside any region) with dependences
// runs: its siblings all completed before it, except detachable ones whose
// creator went on with their events pending (task_run_now); it waits for
// those. Outside any parallel region no other task can run meanwhile: only
// another thread can fulfil the events, so the wait says so once.
KITE_NOINLINE void wait_detached_siblings(Thread* me, Task* parent) {
  if (children_of(parent->rt.counts.load(std::memory_order_acquire)) == 0) return;
  static std::atomic<bool> told{false};
  if (!me->team && !told.exchange(true, std::memory_order_relaxed))
    warn("a task with dependences outside any parallel region waits for a detached sibling "
         "task's event; only another thread can fulfil it");
  task_wait_until(
      me, me->team,
      [](void* c) {
        return children_of(static_cast<Task*>(c)->rt.counts.load(std::memory_order_acquire)) == 0;
      },
      parent);
}

}  // namespace

// Undeferred execution with dependences: the creator waits until the
// task's predecessors (if any) completed, running other tasks meanwhile.
void task_wait_own_dependences(Thread* me, Task* t) {
  t->rt.npred.store(1, std::memory_order_relaxed);
  depend_register(me, t->parent, t);
  if (t->rt.npred.fetch_sub(1, std::memory_order_acq_rel) != 1) {
    task_wait_until(
        me, t->team,
        [](void* c) {
          return static_cast<Task*>(c)->rt.npred.load(std::memory_order_acquire) == 0;
        },
        t);
  }
}

void task_run_now(Thread* me, Task* t, bool silent) {
  Team* team = t->team;
  Task* parent = t->parent;
  t->rt.flags |= kTaskUndeferred;
  if (parent->kind == kTaskExplicit) parent->rt.counts.fetch_add(kRef, std::memory_order_relaxed);
  if (t->rt.nrecords && team && ((t->rt.flags & kTaskDepsWaited) || !task_deps_met_alone(team, parent))) {
    if (!(t->rt.flags & kTaskDepsWaited)) task_wait_own_dependences(me, t);
  } else {
    // No team: no dependence graph; the only siblings that can be
    // incomplete are detachable ones left to their events.
    if (t->rt.nrecords && !team) wait_detached_siblings(me, parent);
    t->rt.nrecords = 0;
  }
  // A task bound to a cancelled taskgroup or region is discarded, as one
  // taken from a queue would be (a taskloop's tasks run at once in a team
  // of one: those created after a cancel taskgroup never start).
  const int discarded = start_cancelled(t);
  if (discarded) {
    if (KITE_UNLIKELY(ompt::active()) && !silent) ompt::task_discarded_slow(me, t, discarded);
  } else if (KITE_UNLIKELY(ompt::active()) && !silent) {
    ompt::run_task_body(me, t);
    ompt::task_body_end(me, t, parent,
                        (t->rt.flags & kTaskDetached) &&
                            t->rt.detach.load(std::memory_order_acquire) > 1);
  } else {
    me->task = t;
    t->rt.fn(t->rt.arg);
    me->task = parent;
  }
  if (t->rt.flags & kTaskDetached) {
    // The creator goes on now: an undeferred task suspends its generating
    // task only "until execution of the structured block associated with
    // the undeferred task is completed" (5.2 glossary, undeferred task);
    // the task itself completes when its allow-completion event is
    // fulfilled too (§12.5.2), possibly after the creator's next
    // statements fulfil it. While the event is pending, the task is
    // counted from here as a deferred task is (a child of its creator, in
    // its taskgroup and the team's count), so taskwait, taskgroup and the
    // barrier wait for it, and whoever fulfils the event completes it on
    // the deferred path. (An event fulfilled already, by the body itself
    // say, leaves the count at 1, ours: it completes here, undeferred.)
    if (t->rt.detach.load(std::memory_order_acquire) > 1) adopt_as_deferred(me, t);
    if (t->rt.detach.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  }
  complete(me, t);
}

namespace {

// A producer whose deque is this long runs new tasks itself: the queue
// already holds enough parallelism, and memory stays bounded.
constexpr long kThrottleDepth = 256;

}  // namespace

// A team of one thread runs every task it creates at once: "The
// encountering thread may immediately execute the task, or defer its
// execution. In the latter case, any thread in the team may be assigned the
// task." (OpenMP 5.2 §12.5). Deferring buys nothing there: the only thread
// that could run the task is the one now creating it. Only dependences can
// hold a task back, and they name sibling tasks only: when the creating
// task has no deferred child still incomplete, every sibling completed (an
// undeferred one completes before its creator goes on), so they are met.
// Two kinds keep the deferred path: a detachable task (its completion
// waits for an event, which other threads may fulfill) and a task with a
// priority above 0 (one thread picking from a queue honours the hint
// exactly; at once would ignore it).
bool task_deps_met_alone(Team* team, Task* creator) {
  return team && team->nthreads == 1 &&
         children_of(creator->rt.counts.load(std::memory_order_acquire)) == 0;
}

namespace {

// task_must_run_now's answer in a team of one thread (no if(0), not final).
inline bool solo_runs_now(Team* team, Task* creator, const TaskSpec& spec) {
  return !spec.detach && (spec.priority <= 0 || g_icv.max_task_priority <= 0) &&
         (!spec.depend || task_deps_met_alone(team, creator));
}

}  // namespace

bool task_must_run_now(Thread* me, const TaskSpec& spec) {
  Team* team = me->team;
  if (!spec.if_clause || !team || me->task->final) return true;
  if (spec.detach) return false;
  if (team->nthreads == 1) return solo_runs_now(team, me->task, spec);
  if (spec.depend) return false;  // inline would risk waiting on ourselves
  TeamTasks* tt = team->tasks.load(std::memory_order_acquire);
  return tt && tt->deques[me->tid].owner_holds_at_least(kThrottleDepth);
}

namespace {


}  // namespace

namespace {

// An included task (inside a final task, or with no team at all) runs at
// once, and so do all of its descendants: everything before it completed,
// no dependence can hold it back, no child outlives it. Its descriptor
// lives on the stack. kTraced: a tool is attached (task_create and
// task_schedule around the body).
// Fills in a descriptor that lives on the caller's stack.
// `flags`: every TaskFlag bit the task has.
inline void init_stack_task_bits(Thread* me, Task& t, Task* parent, void (*fn)(void*),
                                 bool final, uint8_t flags) {
  clear_general_part(&t);
  t.icv = parent->icv;
  t.parent = parent;
  t.team = me->team;
  t.kind = kTaskExplicit;
  t.final = final || parent->final;
  TaskRuntime& rt = t.rt;
  rt.depth = parent->rt.depth + 1;
  rt.priority = 0;
  rt.flags = flags;
  rt.taskgroup = parent->rt.taskgroup;
  rt.deps = nullptr;
  rt.fn = fn;
  rt.nrecords = 0;
  rt.records = nullptr;
  rt.next = nullptr;
  // Never freed through references: its own one is never dropped.
  rt.counts.store(kRef, std::memory_order_relaxed);
  rt.deps_lock.store(0, std::memory_order_relaxed);
  rt.npred.store(0, std::memory_order_relaxed);
  rt.detach.store(0, std::memory_order_relaxed);
  rt.successors = nullptr;
}

inline void init_stack_task(Thread* me, Task& t, Task* parent, const TaskSpec& spec,
                            uint8_t flags) {
  init_stack_task_bits(me, t, parent, spec.fn, spec.final,
                       static_cast<uint8_t>(flags | (spec.untied ? kTaskUntied : 0) |
                                            (spec.mergeable ? kTaskMergeable : 0) |
                                            (spec.target ? kTaskTarget : 0)));
}

// The end of a task that ran on its creator's stack: it returns only once
// its own reference is the last one (every child completed), running tasks
// meanwhile; release_ref wakes it.
inline void finish_on_stack(Thread* me, Task& t, Task* parent) {
  if (t.rt.counts.load(std::memory_order_acquire) != kRef)
    task_wait_until(
        me, me->team,
        [](void* c) {
          return static_cast<Task*>(c)->rt.counts.load(std::memory_order_acquire) == kRef;
        },
        &t);
  me->task = parent;
  if (t.rt.deps) depend_table_free(me, t.rt.deps);
}

// The task's data: the program's block itself, or a copy made by its copy
// function in `buf` (the caller's alloca of arg_size + arg_align bytes).
inline void* stack_task_arg(const TaskSpec& spec, char* buf) {
  if (!spec.cpyfn) return spec.data;
  size_t align = spec.arg_align > 0 ? static_cast<size_t>(spec.arg_align) : 1;
  uintptr_t a = (reinterpret_cast<uintptr_t>(buf) + align - 1) & ~(uintptr_t)(align - 1);
  void* arg = reinterpret_cast<void*>(a);
  spec.cpyfn(arg, spec.data);
  return arg;
}

inline size_t stack_task_arg_space(const TaskSpec& spec) {
  if (!spec.cpyfn) return 0;
  return size_t(spec.arg_size > 0 ? spec.arg_size : 0) + size_t(spec.arg_align > 0 ? spec.arg_align : 1);
}

template <bool kTraced>
void run_included(Thread* me, const TaskSpec& spec) {
  Task* parent = me->task;
  if (spec.depend) wait_detached_siblings(me, parent);
  Task t;
  init_stack_task(me, t, parent, spec, kTaskUndeferred);
  TaskRuntime& rt = t.rt;
  me->task = &t;
  void* arg = stack_task_arg(spec, static_cast<char*>(__builtin_alloca(stack_task_arg_space(spec))));
  rt.arg = arg;
  if (kTraced) {
    me->task = parent;
    ompt::task_create_slow(me, &t, ompt::explicit_task_flags(&t, true), nullptr,
                           spec.codeptr_ra, spec.enter_frame);
    ora::create_end(me, false);
    ompt::run_task_body(me, &t);
    ompt::task_body_end(me, &t, parent, false);
    ompt::clear_enter_frame(parent);
  } else {
    spec.fn(arg);
  }
  // Its children are included too, complete by now, except detachable
  // ones left to their events: they refer to it until they complete.
  finish_on_stack(me, t, parent);
}

// A task its creator runs at once (an if(0) task, or one the throttle runs
// inline), with no dependences or detach event to wait for, and no tool
// watching: its descriptor lives on the stack too. Unlike an included
// task's, its children may be deferred and refer to it, so it returns only
// once its own reference is the last one (every child completed), running
// tasks meanwhile; release_ref wakes it.
// kTraced: a tool is attached (task_create, with the dependences the
// program named, and task_schedule around the body, as for any undeferred
// task); used only in a team of one thread, where the task runs at once
// whatever its clauses say but detach.
template <bool kTraced>
void run_on_stack(Thread* me, const TaskSpec& spec) {
  Task* parent = me->task;
  Task t;
  init_stack_task(me, t, parent, spec, kTaskUndeferred | kTaskOnStack);
  me->task = &t;
  void* arg = stack_task_arg(spec, static_cast<char*>(__builtin_alloca(stack_task_arg_space(spec))));
  t.rt.arg = arg;
  if (kTraced) {
    me->task = parent;
    ompt::task_create_slow(me, &t, ompt::explicit_task_flags(&t, true), spec.depend,
                           spec.codeptr_ra, spec.enter_frame);
    ora::create_end(me, false);
    ompt::run_task_body(me, &t);
    ompt::task_body_end(me, &t, parent, false);
    // Complete now, as reported: tasks run while its children finish (a
    // detachable one's event) do so for the creator, not for it.
  } else {
    spec.fn(arg);
  }
  finish_on_stack(me, t, parent);
}

// Inlined: the no-cancellation case is one load on the spawn fast path.
__attribute__((always_inline)) inline bool spawn_cancelled(Thread* me) {
  Team* team = me->team;
  return KITE_UNLIKELY(g_icv.cancel) && team &&
         (team_is_cancelled(team) || taskgroup_is_cancelled(me->task->rt.taskgroup));
}

// task_spawn with a tool attached: the same decisions, with task_create
// (and dependences) before the task can run or be seen by another thread.
void spawn_traced(Thread* me, const TaskSpec& spec) {
  if (spawn_cancelled(me)) return;
  Task* parent = me->task;
  if ((!me->team || parent->final) && !spec.detach) {
    run_included<true>(me, spec);
    return;
  }
  if (me->team && me->team->nthreads == 1 && solo_runs_now(me->team, parent, spec)) {
    run_on_stack<true>(me, spec);  // task_must_run_now's answer for a team of one
    ompt::clear_enter_frame(parent);
    return;
  }
  void* arg;
  bool now = task_must_run_now(me, spec);
  Task* t = task_prepare(me, spec, &arg);
  ompt::task_create_slow(me, t, ompt::explicit_task_flags(t, now), spec.depend, spec.codeptr_ra,
                         spec.enter_frame);
  task_start_traced(me, t, now);
  ompt::clear_enter_frame(parent);
}

}  // namespace

void task_start_traced(Thread* me, Task* t, bool now) {
  if (now) {
    ora::create_end(me, false);
    task_run_now(me, t);
  } else {
    task_submit(me, t);
    ora::create_end(me, true);
  }
}

// task_spawn's run_on_stack<false> case, with nothing left to decide.
void task_run_solo(Thread* me, void (*fn)(void*), void* data, uint8_t flags) {
  Task* parent = me->task;
  Task t;
  init_stack_task_bits(me, t, parent, fn, false,
                       static_cast<uint8_t>(flags | kTaskUndeferred | kTaskOnStack));
  t.rt.arg = data;
  me->task = &t;
  fn(data);
  finish_on_stack(me, t, parent);
}

void task_spawn(Thread* me, const TaskSpec& spec) {
  if (KITE_UNLIKELY(ompt::active())) {
    spawn_traced(me, spec);
    return;
  }
  Team* team = me->team;
  if (spawn_cancelled(me)) return;
  Task* parent = me->task;
  if (!team || parent->final) {
    if (!spec.detach) {
      run_included<false>(me, spec);
      return;
    }
  } else if (team->nthreads == 1 && solo_runs_now(team, parent, spec)) {
    run_on_stack<false>(me, spec);  // task_must_run_now's answer for a team of one
    return;
  }
  void* arg;
  bool now = task_must_run_now(me, spec);
  if (now && !spec.depend && !spec.detach) {
    run_on_stack<false>(me, spec);
    return;
  }
  Task* t = task_prepare(me, spec, &arg);
  if (now)
    task_run_now(me, t);
  else
    task_submit(me, t);
}

void taskwait(Thread* me, const void* codeptr_ra, void* enter_frame) {
  Task* cur = me->task;
  const bool tool = ompt::active();
  if (tool) ompt::sync_task_region_slow(me, ompt_sync_region_taskwait, ompt_scope_begin, codeptr_ra,
                                        enter_frame);
  if (cur && children_of(cur->rt.counts.load(std::memory_order_acquire)) != 0) {
    if (tool)
      ompt::sync_task_wait_slow(me, ompt_sync_region_taskwait, ompt_scope_begin, codeptr_ra);
    task_wait_until(
        me, me->team,
        [](void* c) {
          return children_of(static_cast<Task*>(c)->rt.counts.load(std::memory_order_acquire)) ==
                 0;
        },
        cur);
    if (tool) ompt::sync_task_wait_slow(me, ompt_sync_region_taskwait, ompt_scope_end, codeptr_ra);
  }
  if (tool) ompt::sync_task_region_slow(me, ompt_sync_region_taskwait, ompt_scope_end, codeptr_ra,
                                        nullptr);
}

void taskwait_depend(Thread* me, void** depend, const void* codeptr_ra, void* enter_frame) {
  Team* team = me->team;
  if (!team || !depend) return;
  // A body-less undeferred task with these dependences: waiting for it to
  // become ready is waiting for the earlier sibling tasks it names.
  TaskSpec spec{};
  spec.fn = [](void*) {};
  spec.depend = depend;
  spec.if_clause = false;
  void* arg;
  Task* t = task_prepare(me, spec, &arg);
  const bool tool = ompt::active();
  if (tool)
    ompt::task_create_slow(me, t, ompt_task_taskwait | ompt_task_undeferred, depend, codeptr_ra,
                           enter_frame);
  task_run_now(me, t);
  if (tool) ompt::clear_enter_frame(me->task);
}

void taskyield(Thread* me) {
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::on_taskyield(me, true);
    run_one<true>(me, false);
    ompt::on_taskyield(me, false);
    return;
  }
  task_run_one(me, false);
}

bool task_in_final(Thread* me) { return me->task && me->task->final; }

void task_fulfill_event(void* event) {
  Task* t = static_cast<Task*>(event);
  if (!t) {
    warn("omp_fulfill_event: null event handle ignored");
    return;
  }
  // Reported while the event still holds the task alive.
  if (ompt::active() && t->rt.detach.load(std::memory_order_acquire) > 0)
    ompt::task_fulfill_slow(t, t->rt.detach.load(std::memory_order_acquire) == 1);
  int left = t->rt.detach.fetch_sub(1, std::memory_order_acq_rel);
  if (left != 1) {
    if (left <= 0) warn("omp_fulfill_event: event %p fulfilled twice or not a detach event", event);
    return;
  }
  // The body ended too. An undeferred task is deferred by now: its creator
  // adopted it (adopt_as_deferred) before the decrement this one follows.
  complete(self(), t);
}

void task_implicit_end(Task* implicit) {
  // A cancelled region can leave taskgroups open (cancel jumps past their
  // end); their tasks are complete by now.
  Thread* me = self();
  while (Taskgroup* tg = implicit->rt.taskgroup) {
    implicit->rt.taskgroup = tg->prev;
    taskgroup_free(me, tg);
  }
}

}  // namespace kite
