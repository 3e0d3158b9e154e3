// The runtime model: threads, teams, implicit tasks, and the worksharing ring.
// ABI adapters reach all of this through the functions declared at the end.
#pragma once

#include <pthread.h>

#include "barrier.h"
#include "icv.h"
#include "ompt/state.h"
#include "task.h"
#include "wait.h"
#include "workshare.h"

namespace kite {

struct Team;
struct Thread;

// Kinds of task. Only implicit and initial tasks exist in the foundation;
// explicit tasks extend this (see task.h).
enum TaskKind : uint8_t { kTaskInitial = 1, kTaskImplicit = 2, kTaskExplicit = 4 };

struct Task {
  TaskIcvs icv;
  Task* parent;
  Team* team;   // team the task binds to (null for an initial task)
  uint8_t kind;
  bool final;   // inside a final task (omp_in_final)
  TaskRuntime rt;        // explicit tasking state (task.h)
  ompt::TaskState ompt;  // tool data and frames (src/ompt/state.h)
};

// A team: the threads executing one parallel region.
struct Team {
  int nthreads;
  int level;          // nesting level of the region (initial task = 0)
  int active_level;   // number of enclosing active (nthreads > 1) regions
  Team* parent;       // enclosing team (null for a root region)
  Task* parent_task;  // the encountering task
  Thread** threads;   // threads[i] runs implicit task i
  Task* implicit;     // implicit[i], one per thread
  int capacity;       // allocated size of threads/implicit
  Thread* owner;      // the primary thread that keeps this team hot

  void (*fn)(void*);
  void* data;

  // Bumped by each worker as its last touch of a region of the team, never
  // reset; done_expect is what it reaches once every worker of every region
  // so far has made that touch. The primary waits for it before it gives
  // back the team or changes its threads; a hot team's next region with the
  // same threads does not wait (team.cpp, finish_join).
  alignas(kCacheLine) Futex done;
  uint32_t done_expect;
  alignas(kCacheLine) Barrier barrier;
  alignas(kCacheLine) std::atomic<int> cancelled;  // parallel region cancelled
  WorkShareRing ws;
  // Worksharing constructs the last region ran, for the next region's
  // ws.reset (every slot after a cancellation or for a new team).
  uint32_t ws_used;
  void* reduction_data;  // shared pointer for team-wide handoffs
  int parent_tid;        // thread number of the primary in the parent team
  bool in_use;           // a region runs on this team now
  Thread* cg_root;       // initial thread of the contention group
  // Place assignment per thread, meaningful only when `bound`.
  struct PlaceAssign { int place, lo, hi; }* places;  // storage, sized capacity
  bool bound;            // places[] is valid for this region
  // The primary's state before the region, restored at join.
  struct Saved {
    Team* team;
    Task* task;
    int tid;
    uint32_t ws_seq;
    WorkShare* ws_cur;
    long ord_lo, ord_hi;
    bool ord_held;
    int place_lo, place_hi;
  } saved;
  Team* free_next;       // link in the spare-team list

  // Tasking (task.h). The barrier's no-task fast path is one load of
  // `tasks` (null until the team's first deferred task), on a line nothing
  // writes once it is set; task_events is the word threads sleep on at
  // task scheduling points (their registrations write its line).
  alignas(kCacheLine) std::atomic<TeamTasks*> tasks;  // ready queues, created on first task
  alignas(kCacheLine) Futex task_events;
  std::atomic<int> ws_cancelled;  // a loop/sections construct was cancelled: its CancelKind
  // Tool data of the parallel region (src/ompt/state.h): written by the
  // primary at the fork, read by every thread of the region; on a line of
  // its own, away from task_events' writes.
  alignas(kCacheLine) ompt::TeamState ompt;
};

// A nest lock one of a thread's tasks holds, and that task (lock.cpp).
struct NestHeld {
  const void* lock;
  const Task* owner;
};
constexpr int kNestHeldInline = 4;

// Per-thread record, reachable from initial-exec TLS (see self()).
struct alignas(kCacheLine) Thread {
  Team* team;       // current team (null for an initial thread outside regions)
  Task* task;       // current task
  int tid;          // thread number in team
  int gtid;         // runtime-wide thread index (0 = first initial thread)
  bool is_worker;   // created by the runtime's pool
  uint32_t ws_seq;  // worksharing constructs this thread started in `team`
  WorkShare* ws_cur;  // construct in progress (loop, sections...)
  // Loop chunk this thread is executing (for ordered).
  long ord_lo, ord_hi;
  bool ord_held;
  int place;        // place number, -1 when unbound
  int place_lo, place_hi;  // place partition [lo, hi]
  Task initial_task;  // for initial threads: their initial task
  Team* hot_team;     // the last team this thread led, kept for reuse
  pthread_t handle;

  // Pool handoff: the primary stores `next_team` then bumps `go`.
  alignas(kCacheLine) Futex go;
  // The processor this thread ran on at its last spin check (-1: asleep on
  // a futex, or not known yet), and, while it waits in the pool, the thread
  // whose fork it expects (its last team's primary): what a spinning
  // teammate reads to tell whether it holds a processor a thread it waits
  // for needs (spin_should_yield, wait.h).
  std::atomic<int> cpu;
  Thread* awaited;
  Team* next_team;
  int next_tid;
  Thread* pool_next;  // link in the idle pool
  // Ordered loops: a thread that sleeps for its turn says which one
  // (turn + 1; 0 = none) and sleeps on its own word, so that passing the
  // turn wakes only the thread whose turn it is (loop.cpp).
  alignas(kCacheLine) Futex ord_wake;
  std::atomic<unsigned long long> ord_sleep_turn;
  // Contention group accounting (valid on initial threads): threads of the
  // group that are currently busy in teams, this one included.
  std::atomic<int> cg_busy;
  Thread* cg_root;
  // Host teams construct: the league this thread's initial task belongs to.
  int league_num, league_size;
  TaskCache* task_cache;  // free lists for task descriptors (task.cpp)
  // Nest locks held by this thread's tasks: a nest lock is owned by a task,
  // and its word names only the thread (lock.cpp). nest_more: null, or the
  // heap array that replaced nest_inline when it filled up.
  int nest_count, nest_cap;
  NestHeld* nest_more;
  NestHeld nest_inline[kNestHeldInline];
  ompt::ThreadState ompt;  // tool data and state (src/ompt/state.h)
};

extern __thread Thread* tls_self __attribute__((tls_model("initial-exec")));

// The calling thread's record, created on first use by any thread.
Thread* self_slow();
inline Thread* self() {
  Thread* t = tls_self;
  return KITE_LIKELY(t != nullptr) ? t : self_slow();
}

// Runtime initialization (env, ICVs); idempotent, runs at library load.
void runtime_init();
// Threads the runtime knows now: live initial threads and pool workers.
int runtime_thread_count();

// --- parallel regions ----------------------------------------------------

struct ForkSpec {
  int num_threads;   // 0 = use nthreads-var
  int proc_bind;     // -1 = use bind-var
  bool if_clause;    // false = serialized
  // Captured at the ABI boundary for tools: the return address into user
  // code, and the canonical frame address of the runtime entry point.
  const void* codeptr_ra = nullptr;
  void* enter_frame = nullptr;
};

// Runs fn(data) on a new team; the caller is thread 0 and returns after the
// implicit barrier at the end of the region.
void parallel(const ForkSpec& spec, void (*fn)(void*), void* data);

// Split form used by GOMP_parallel_start / GOMP_parallel_end: start the team
// and make the caller its thread 0; end joins it.
void parallel_start(const ForkSpec& spec, void (*fn)(void*), void* data);
void parallel_end();

// Number of threads a parallel region encountered now would get.
int threads_for_region(const ForkSpec& spec, Thread* self);

// --- teams (host) --------------------------------------------------------
// codeptr_ra / enter_frame as in ForkSpec.
void teams(void (*fn)(void*), void* data, int num_teams, int thread_limit,
           const void* codeptr_ra = nullptr, void* enter_frame = nullptr);
// One step of the league of a teams construct nested in a target region
// (GOMP_teams4; see teams_in_target_step in target.h), reported to tools.
bool teams_in_target(unsigned num_teams_low, unsigned num_teams_high, unsigned thread_limit,
                     bool first, const void* codeptr_ra, void* enter_frame);

// --- barriers ------------------------------------------------------------
void team_barrier(Thread* self);  // explicit or implicit barrier
// The barrier construct (OMPT sync_region barrier_explicit around
// team_barrier); codeptr_ra and enter_frame as in ForkSpec.
void explicit_barrier(Thread* self, const void* codeptr_ra, void* enter_frame);
bool explicit_barrier_cancellable(Thread* self, const void* codeptr_ra, void* enter_frame);
// Tool shutdown: ends every worker that waits for work (OMPT thread_end on
// each), so the tool's finalizer runs after them. Returns how many ended.
int end_idle_workers();
// Barrier that observes parallel cancellation; returns true if cancelled.
bool team_barrier_cancellable(Thread* self);

}  // namespace kite
