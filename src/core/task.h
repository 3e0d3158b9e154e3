// Explicit tasks: descriptors, their life cycle, and the scheduling points
// (taskwait, taskgroup end, taskyield, barriers) where threads run them.
//
// Life of a deferred task: created by the encountering thread (descriptor,
// dependences and argument block in one block from the thread's pool), made
// ready when its predecessors completed, pushed on the deque of the thread
// that made it ready, executed by that thread or a thief, completed when its
// body returned and (for detach) its event was fulfilled, freed when it is
// complete and none of its children still points at it.
//
// This header is included by team.h (Task embeds TaskRuntime), so it only
// forward-declares the runtime model.
#pragma once

#include "wait.h"

namespace kite {

struct Task;
struct Team;
struct Thread;
struct DepTable;
struct DepRecord;
struct DepEdge;
struct TaskCache;
struct TeamTasks;

// A taskgroup region: counts the tasks created in it (and their
// descendants' tasks created in it) that are not complete yet.
struct Taskgroup {
  Taskgroup* prev;                  // enclosing taskgroup of the same task
  std::atomic<long> pending;        // incomplete tasks bound to this group
  std::atomic<int> cancelled;       // cancel taskgroup was activated
  bool workshare;                   // implicit group of a worksharing task reduction
  bool announced;                   // tools got its sync_region begin
  uintptr_t* reductions;            // task_reduction arrays visible in this group
};

// Tasking state carried by every task (implicit, initial, explicit). Zero
// is the valid initial state; implicit tasks return to it at region end.
struct TaskRuntime {
  // Read by the creator of child tasks (and by the tied-task check).
  int depth;                   // 0 for implicit/initial tasks
  int priority;
  uint8_t flags;               // TaskFlag bits
  Taskgroup* taskgroup;        // innermost taskgroup (inherited at creation)
  DepTable* deps;              // dependences among this task's children
  void (*fn)(void*);           // explicit tasks only, from here on
  void* arg;
  int nrecords;
  DepRecord* records;          // this task's depend items (in its block)
  Task* next;                  // link in the team priority queue

  // Written by other threads (completing children, dependence edges): on
  // their own cache line, so that creating a task, which reads its
  // parent's ICVs and the fields above, does not miss.
  // Low half: deferred children not complete (taskwait). High half, for
  // explicit tasks: references, 1 until the task completes plus 1 per child
  // not yet freed. One word, so that a leaf child completing and going away
  // costs its parent a single update.
  alignas(kCacheLine) std::atomic<uint64_t> counts;
  std::atomic<int> deps_lock;  // guards `deps` and the children's edges
  std::atomic<int> npred;      // predecessors not complete (+1 while registering)
  std::atomic<int> detach;     // outstanding completion conditions (body, event)
  DepEdge* successors;         // tasks waiting for this one (under parent's deps_lock)
};

// Untied tasks are scheduled as tied ones (a tied schedule is a valid one
// for an untied task: it never resumes on another thread); mergeable tasks
// are never merged. Both flags are kept for tools.
enum TaskFlag : uint8_t {
  kTaskUntied = 1,
  kTaskUndeferred = 2,   // runs inline on its creator; not in the team count
  kTaskDetached = 4,     // has a detach event
  kTaskMergeable = 8,
  kTaskOwnRecords = 16,  // depend records live apart from the block (task_split.cpp)
  kTaskTarget = 32,      // the task of a target construct (nowait / depend): for tools
  kTaskOnStack = 64,     // descriptor on its creator's stack (task.cpp run_on_stack)
  kTaskDepsWaited = 128, // an if(0) task registered and waited for its dependences already
};

// What an encountering thread asks for (the ABI adapters fill this in).
struct TaskSpec {
  void (*fn)(void*);
  void* data;
  void (*cpyfn)(void*, void*);   // copies data into the task's block; null: memcpy
  long arg_size;
  long arg_align;
  bool if_clause;
  bool final;
  bool untied;
  bool mergeable;
  bool target = false;           // a target task (tools see ompt_task_target)
  int priority;
  void** depend;                 // libgomp depend array, or null
  void** detach;                 // where the event handle goes, or null
  // Captured at the ABI boundary for tools (as in ForkSpec).
  const void* codeptr_ra = nullptr;
  void* enter_frame = nullptr;
};

// --- creating and running tasks (task.cpp) ---------------------------------
void task_spawn(Thread* me, const TaskSpec& spec);
// A task with no copy function, dependences, detach event, priority or
// final clause, whose data is used in place (`flags`: its kTaskUntied and
// kTaskMergeable bits), created by a thread with no tool attached and
// cancellation off, in a team of one thread, in a task that is not final:
// it runs at once, as task_spawn would run it. GOMP_task's fast path.
void task_run_solo(Thread* me, void (*fn)(void*), void* data, uint8_t flags);
// Builds a deferred task whose block the caller fills in: returns the task
// and its argument block. task_submit() makes it schedulable.
Task* task_prepare(Thread* me, const TaskSpec& spec, void** arg);
void task_submit(Thread* me, Task* t);

// codeptr_ra / enter_frame: the ABI call's, for tools (null when unknown).
void taskwait(Thread* me, const void* codeptr_ra = nullptr, void* enter_frame = nullptr);
void taskwait_depend(Thread* me, void** depend, const void* codeptr_ra = nullptr,
                     void* enter_frame = nullptr);
void taskyield(Thread* me);
bool task_in_final(Thread* me);
// The tied-task scheduling constraint: may `t` run while `current` waits?
bool task_is_descendant(const Task* t, const Task* ancestor);
void task_fulfill_event(void* event);

// Scheduling-point helpers used by the barrier (team.cpp): run tasks of the
// team until pending tasks reach zero / until `done()` says stop.
bool task_run_one(Thread* me, bool any_task);
void task_wait_all_team_tasks(Thread* me, Team* team);
// Some deferred task of the team is not complete. Exact once no implicit
// task of the team can create tasks any more (every thread arrived at a
// barrier); before, a snapshot.
bool team_tasks_pending(Team* team);
// Wakes threads sleeping at a task scheduling point of `team` (something
// they may wait for changed).
void task_notify(Team* team);
// The same right after a seq_cst read-modify-write or store published the
// change (that already orders it before the check for sleepers).
void task_notify_after_publish(Team* team);
// The canceller of a parallel region wakes every waiter of the team.
void task_wake_team(Team* team);
// Called by a thread leaving an implicit task: drops per-region task state.
void task_implicit_end(Task* implicit);

// --- internals shared by the tasking files ----------------------------------
// Blocks from the calling thread's pool (per-thread free lists).
void* task_pool_alloc(Thread* me, size_t bytes);
void task_pool_free(Thread* me, void* p);
void task_pool_flush(Thread* me);  // returns blocks held for other threads
// Queues a deferred task whose predecessors are complete.
void task_make_ready(Thread* me, Task* t);
// Should a new task run inline now (if(0), final parent, no team, or the
// caller's deque is long enough that more queueing buys nothing)?
bool task_must_run_now(Thread* me, const TaskSpec& spec);
// In a team of one thread, are the dependences of a new child of `creator`
// met already (no deferred child of it incomplete)? False in larger teams.
bool task_deps_met_alone(Team* team, Task* creator);
// Runs a prepared task inline (undeferred / included). A detachable task
// whose event is still pending when its body returns is left to complete
// when the event is fulfilled (the caller goes on). silent: no
// task_schedule events (a body the caller reports itself, or a task never
// reported as created).
void task_run_now(Thread* me, Task* t, bool silent = false);
// With a tool (or ORA session): runs a reported task now or submits it,
// with ORA's end of its creation (immediate or deferred).
void task_start_traced(Thread* me, Task* t, bool now);
// Registers `t` (records set, in a team) in its parent's dependence graph
// and waits, running tasks, until every sibling it depends on completed.
void task_wait_own_dependences(Thread* me, Task* t);
// Runs tasks (tied-task constraint respected) until done(ctx); sleeps on
// team->task_events when there is nothing to run.
void task_wait_until(Thread* me, Team* team, bool (*done)(void*), void* ctx);

// --- taskgroups (taskgroup.cpp) -------------------------------------------
// codeptr_ra/enter_frame: the ABI call that opens the group, for the
// sync_region begin tools get here, before any task of the group exists.
void taskgroup_start(Thread* me, const void* codeptr_ra = nullptr, void* enter_frame = nullptr);
void taskgroup_end(Thread* me, const void* codeptr_ra = nullptr, void* enter_frame = nullptr);
Taskgroup* taskgroup_new(Thread* me, Taskgroup* prev);
void taskgroup_free(Thread* me, Taskgroup* tg);
// True when a task bound to `tg` must not start (its group was cancelled).
bool taskgroup_is_cancelled(const Taskgroup* tg);

// --- taskloop (taskloop.cpp) ------------------------------------------------
struct TaskloopSpec {
  TaskSpec task;        // fn, data, cpyfn, sizes, final, untied, priority, if
  unsigned long num_tasks;  // grainsize when `grainsize` is set; 0: default
  bool grainsize;
  bool strict;
  bool nogroup;
  bool reduction;
  bool is_ull;
  bool up;              // ull loops: iterate upward
  long long start, end, step;  // raw bits of the loop bounds (TYPE)
};
void taskloop(Thread* me, const TaskloopSpec& spec);

// --- task reductions (task_reduction.cpp) ---------------------------------
void task_reduction_register(Thread* me, uintptr_t* data);
void task_reduction_unregister(uintptr_t* data);
void task_reduction_remap(Thread* me, size_t cnt, size_t cntorig, void** ptrs);
// Allocates the per-thread copies of every array in the chain `data`
// for `nthreads` threads (or adopts those of `orig`), and links the chain's
// end to `prev`.
void task_reduction_setup(uintptr_t* data, uintptr_t* prev, uintptr_t* orig, int nthreads);
// Parallel region with reduction(task, ...): see GOMP_parallel_reductions.
// codeptr_ra / enter_frame as in ForkSpec.
unsigned parallel_with_task_reductions(void (*fn)(void*), void* data, unsigned num_threads,
                                       unsigned flags_bind, const void* codeptr_ra = nullptr,
                                       void* enter_frame = nullptr);

// Worksharing constructs with task reductions (loop, sections, scope): every
// thread of the team calls this when it starts the construct, before running
// any of its iterations. `first` is null on the one thread that initializes
// the construct (it allocates the private copies, and must call this before
// publishing the construct); every other thread passes the initializer's
// `reductions` array (which the construct publishes), after the construct is
// ready. Starts the construct's implicit taskgroup on the calling thread;
// GOMP_workshare_task_reduction_unregister ends it.
void ws_task_reductions_register(Thread* me, uintptr_t* reductions, uintptr_t* first);
void ws_task_reductions_unregister(Thread* me, bool cancelled, const void* codeptr_ra = nullptr);

// --- cancellation (cancel.cpp) ---------------------------------------------
enum CancelKind { kCancelParallel = 1, kCancelLoop = 2, kCancelSections = 4, kCancelTaskgroup = 8 };
// codeptr_ra: the ABI call's, for tools (ompt_callback_cancel).
bool cancel_activate(Thread* me, int which, const void* codeptr_ra = nullptr);
bool cancellation_point(Thread* me, int which, const void* codeptr_ra = nullptr);
bool cancellation_enabled();

}  // namespace kite
