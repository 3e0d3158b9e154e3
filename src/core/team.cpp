// Threads, the thread pool, and fork/join of parallel regions.
//
// A primary thread keeps the team it last led ("hot team") with its workers
// reserved, so a loop of identical parallel regions makes no system call and
// no allocation: fork stores the region into each worker and bumps its `go`
// word; join waits on the team's `done` counter. Threads not in any hot team
// sit in the idle pool.
#include "team.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sched.h>

#include "ompt/callbacks.h"
#include "places.h"

namespace kite {

__thread Thread* tls_self __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

// Teams larger than this are not scanned by a spin check: it yields.
constexpr int kSpinCheckMaxThreads = 8;

// Does `other` (a thread this one may be waiting for) need processor `cpu`,
// or may it: it last ran there, or sleeps, or is not known yet.
inline bool may_need(const Thread* other, int cpu) {
  const int c = other->cpu.load(std::memory_order_relaxed);
  return c == cpu || c < 0;
}

}  // namespace

int g_unstack = 0;  // wait.h

namespace {

// Un-stacking (KITE_UNSTACK, off by default). When no processor is idle,
// the kernel places a thread woken by a futex next to its waker, and
// nothing moves it back: two teammates on one processor look to the load
// balancer like one processor's worth of demand, as balanced as the
// alternative, so a pair stays stacked while another process has the other
// processor to itself, and then every synchronization between them costs a
// context switch (~3 us here; the pair spread costs ~0.2-0.6 us). A waiting
// thread that keeps finding a teammate it may wait for on its own
// processor moves itself: it narrows its affinity to processors no
// teammate last ran on (else to any other), which migrates it at once, and
// restores its mask. Only the higher-numbered thread of a pair moves, only
// when the team fits in the process's processors and is not bound, at most
// once per kUnstackMinNs per thread, the interval doubling (up to
// kUnstackMaxNs) while moves keep being undone within that window.
// Why it is off by default: spread beside a busy process, the teammate
// that shares a processor with it is descheduled for whole slices, and the
// other spins through them; whole programs ran 10-90 % slower that way
// than stacked (bench/results/2026-11-29-vm-unstack.md).
constexpr uint32_t kUnstackHits = 16;               // consecutive stacked checks
constexpr uint64_t kUnstackMinNs = 2000000;         // 2 ms
constexpr uint64_t kUnstackMaxNs = 128000000;       // 128 ms
struct UnstackState {
  uint32_t hits;
  uint64_t next_ns;      // no move before this
  uint64_t interval_ns;  // current minimum interval between moves
};
__thread UnstackState t_unstack __attribute__((tls_model("initial-exec")));

// Move the calling thread off `cpu`, preferring processors none of `team`'s
// threads last ran on. cpu_set_t covers 1024 processors; a larger machine
// makes sched_getaffinity fail and nothing moves.
void unstack_move(int cpu, const Team* team) {
  cpu_set_t orig, moved;
  if (sched_getaffinity(0, sizeof orig, &orig) != 0) return;
  if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &orig) || CPU_COUNT(&orig) < 2) return;
  moved = orig;
  CPU_CLR(cpu, &moved);
  if (team) {
    cpu_set_t spare = moved;
    for (int i = 0; i < team->nthreads; ++i) {
      const Thread* o = team->threads[i];
      const int c = o ? o->cpu.load(std::memory_order_relaxed) : -1;
      if (c >= 0 && c < CPU_SETSIZE) CPU_CLR(c, &spare);
    }
    if (CPU_COUNT(&spare) > 0) moved = spare;
  }
  if (sched_setaffinity(0, sizeof moved, &moved) != 0) return;
  sched_setaffinity(0, sizeof orig, &orig);
  if (g_unstack == 2) {
    const Thread* me = tls_self;
    fprintf(stderr, "kite: unstack: thread %d (team thread %d) moved from processor %d to %d\n",
            me ? me->gtid : -1, me ? me->tid : -1, cpu, sched_getcpu());
  }
}

// A spin check found `other` (which this thread may be waiting for) running
// on this thread's processor `cpu`; `mover` says whether this thread is the
// one of the pair that moves.
void note_stacked(Thread* me, bool mover, int team_size, int cpu, const Team* team) {
  UnstackState& u = t_unstack;
  if (++u.hits < kUnstackHits) return;
  u.hits = 0;
  if (!g_unstack || !mover || me->place >= 0 || team_size > g_num_procs_for_spin ||
      g_spin.yield_while_spinning.load(std::memory_order_relaxed))
    return;
  const uint64_t now = mono_ns();
  if (now < u.next_ns) return;
  // Stacked again soon after the last move: the move did not hold (the
  // balancer or a wake put us back); back off.
  if (u.interval_ns == 0 || now > u.next_ns + 8 * u.interval_ns)
    u.interval_ns = kUnstackMinNs;
  else if (u.interval_ns < kUnstackMaxNs)
    u.interval_ns *= 2;
  u.next_ns = now + u.interval_ns;
  unstack_move(cpu, team);
}

}  // namespace

// Every 32 spin steps of a waiting thread (wait.h). The threads it may be
// waiting for: its team's other threads (a barrier, a join, a worksharing
// hand-off), or, in the pool between regions, the primary of its last
// team. sched_getcpu reads the kernel's rseq area: no system call.
bool spin_should_yield() {
  Thread* me = tls_self;
  if (!me) return true;
  const int cpu = sched_getcpu();
  me->cpu.store(cpu, std::memory_order_relaxed);
  if (cpu < 0) return true;
  if (Team* team = me->team) {
    const int n = team->nthreads;
    if (n > kSpinCheckMaxThreads) return true;
    for (int i = 0; i < n; ++i) {
      const Thread* o = team->threads[i];
      if (o && o != me && may_need(o, cpu)) {
        if (o->cpu.load(std::memory_order_relaxed) == cpu) note_stacked(me, me->tid > i, n, cpu, team);
        return true;
      }
    }
    t_unstack.hits = 0;
    return false;
  }
  if (!me->awaited) return true;
  if (!may_need(me->awaited, cpu)) {
    t_unstack.hits = 0;
    return false;
  }
  if (me->awaited->cpu.load(std::memory_order_relaxed) == cpu) note_stacked(me, true, 2, cpu, nullptr);
  return true;
}

void thread_note_asleep(bool asleep) {
  if (Thread* me = tls_self) me->cpu.store(asleep ? -1 : sched_getcpu(), std::memory_order_relaxed);
}

namespace {

pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
Thread* g_pool_head = nullptr;       // idle workers
Team* g_spare_teams = nullptr;       // recycled team objects
std::atomic<int> g_next_gtid{0};
std::atomic<int> g_live_workers{0};  // runtime-created threads
std::atomic<int> g_live_roots{0};    // initial (user) threads with a record
pthread_key_t g_thread_key;          // runs cleanup when a user thread exits

void worker_loop(Thread* me);
Futex g_workers_ended;  // bumped by each worker that end_idle_workers() ended

void* worker_entry(void* arg) {
  Thread* me = static_cast<Thread*>(arg);
  tls_self = me;
  pthread_setspecific(g_thread_key, me);
  ompt::on_worker_begin(me);
  worker_loop(me);
  return nullptr;
}

// Records of exited user threads, reused by the next new user thread so a
// program that creates threads forever runs in bounded memory. A record is
// never freed: tasks and stale team fields may still point at it, and its
// task cache receives descriptors freed by other threads.
Thread* g_spare_roots = nullptr;

Thread* new_thread_record(bool worker) {
  Thread* t = nullptr;
  if (!worker) {
    pthread_mutex_lock(&g_pool_lock);
    t = g_spare_roots;
    if (t) g_spare_roots = t->pool_next;
    pthread_mutex_unlock(&g_pool_lock);
  }
  int gtid;
  TaskCache* cache = nullptr;
  if (t) {
    gtid = t->gtid;
    cache = t->task_cache;
    if (t->nest_more) xfree(t->nest_more);
  } else {
    t = static_cast<Thread*>(xaligned_alloc(kCacheLine, sizeof(Thread)));
    gtid = g_next_gtid.fetch_add(1, std::memory_order_relaxed);
  }
  memset(static_cast<void*>(t), 0, sizeof(Thread));
  new (&t->go) Futex();
  new (&t->cpu) std::atomic<int>(-1);
  new (&t->ord_wake) Futex();
  new (&t->ord_sleep_turn) std::atomic<unsigned long long>(0);
  new (&t->cg_busy) std::atomic<int>(0);
  t->gtid = gtid;
  t->task_cache = cache;
  t->is_worker = worker;
  t->place = -1;
  t->place_lo = 0;
  t->place_hi = places_count() > 0 ? places_count() - 1 : 0;
  t->league_size = 1;
  return t;
}

Thread* spawn_worker() {
  Thread* t = new_thread_record(true);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  if (g_icv.stacksize > 0) {
    int rc = pthread_attr_setstacksize(&attr, static_cast<size_t>(g_icv.stacksize));
    if (rc != 0) warn("cannot use OMP_STACKSIZE=%ld bytes for worker threads", g_icv.stacksize);
  }
  int rc = pthread_create(&t->handle, &attr, worker_entry, t);
  pthread_attr_destroy(&attr);
  if (rc != 0) fatal("cannot create a worker thread: %s", strerror(rc));
  int live = g_live_workers.fetch_add(1, std::memory_order_relaxed) + 2;
  spin_config_for_threads(live);
  return t;
}

Thread* pool_take() {
  pthread_mutex_lock(&g_pool_lock);
  Thread* t = g_pool_head;
  if (t) g_pool_head = t->pool_next;
  pthread_mutex_unlock(&g_pool_lock);
  return t ? t : spawn_worker();
}

void pool_give(Thread* t) {
  pthread_mutex_lock(&g_pool_lock);
  t->pool_next = g_pool_head;
  g_pool_head = t;
  pthread_mutex_unlock(&g_pool_lock);
}

Team* team_alloc(int capacity) {
  pthread_mutex_lock(&g_pool_lock);
  Team** link = &g_spare_teams;
  Team* found = nullptr;
  for (Team* t = g_spare_teams; t; link = &t->free_next, t = t->free_next) {
    if (t->capacity >= capacity) {
      *link = t->free_next;
      found = t;
      break;
    }
  }
  pthread_mutex_unlock(&g_pool_lock);
  if (found) return found;
  // Team objects are recycled, never freed: a worker may still touch the
  // `done` word of the team it just left while the primary moves on.
  Team* t = static_cast<Team*>(xaligned_alloc(kCacheLine, sizeof(Team)));
  memset(static_cast<void*>(t), 0, sizeof(Team));
  t->ws_used = kWorkShareRing;
  new (&t->done) Futex();
  new (&t->barrier) Barrier();
  int cap = capacity < 4 ? 4 : capacity;
  t->capacity = cap;
  // Storage for the tree of the largest team this object can hold; the
  // layout is made again for each size (Barrier::reset).
  t->barrier.layout_tree(cap);
  int counters = t->barrier.tree_used;
  t->barrier.tree = static_cast<TreeCounter*>(xaligned_alloc(kCacheLine, counters * sizeof(TreeCounter)));
  for (int i = 0; i < counters; ++i) new (&t->barrier.tree[i]) TreeCounter();
  t->threads = static_cast<Thread**>(xcalloc(cap, sizeof(Thread*)));
  t->implicit = static_cast<Task*>(xaligned_alloc(alignof(Task), cap * sizeof(Task)));
  memset(static_cast<void*>(t->implicit), 0, cap * sizeof(Task));
  t->places = static_cast<Team::PlaceAssign*>(xcalloc(cap, sizeof(Team::PlaceAssign)));
  return t;
}

void team_recycle(Team* t) {
  pthread_mutex_lock(&g_pool_lock);
  t->free_next = g_spare_teams;
  g_spare_teams = t;
  pthread_mutex_unlock(&g_pool_lock);
}

// Gives the workers of a team (all but thread 0) back to the idle pool.
void release_workers(Team* t, int from) {
  for (int i = from; i < t->nthreads; ++i) {
    if (t->threads[i]) pool_give(t->threads[i]);
    t->threads[i] = nullptr;
  }
}

// The end of a join: wait until every worker of the team's regions so far
// has made its last touch of them.
void finish_join(Team* t) {
  const uint32_t want = t->done_expect;
  wait_until(t->done, [&] { return int32_t(t->done.load() - want) >= 0; });
}

// What a thread does in a team: its implicit task, then the end barrier.
void run_implicit_task(Thread* me, Team* team, int tid) {
  me->team = team;
  me->tid = tid;
  me->task = &team->implicit[tid];
  me->ws_seq = 0;
  me->ws_cur = nullptr;
  me->cg_root = team->cg_root;
  if (team->bound && tid != 0) {
    const Team::PlaceAssign& pa = team->places[tid];
    if (pa.place != me->place) places_bind_self(me, pa.place);
    me->place_lo = pa.lo;
    me->place_hi = pa.hi;
  }
  affinity_on_region_start(me);
  ompt::on_implicit_task_begin(me, team, tid);
  ompt::run_outlined(team->fn, team->data, me->task);
}

// Hands worker `i` of `team` its implicit task.
void wake_worker(Team* team, int i) {
  Thread* w = team->threads[i];
  w->next_team = team;
  w->next_tid = i;
  w->go.add_and_wake(1);
}

// The fork of a team whose barrier is a tree goes down the same tree:
// thread i wakes its children kTreeRadix*i+1 .. kTreeRadix*i+kTreeRadix,
// so the wake-ups (futex wakes of sleeping workers) proceed in parallel,
// log4(n) deep, instead of n-1 in a row on the primary.
void wake_children(Team* team, int tid) {
  int n = team->nthreads;
  for (int c = tid * kTreeRadix + 1; c <= tid * kTreeRadix + kTreeRadix && c < n; ++c)
    wake_worker(team, c);
}

void worker_loop(Thread* me) {
  uint32_t seen = 0;
  for (;;) {
    wait_until(me->go, [&] { return me->go.load() != seen; });
    seen = me->go.load();
    Team* team = me->next_team;
    if (KITE_UNLIKELY(team == nullptr)) break;  // end_idle_workers()
    int tid = me->next_tid;
    if (team->barrier.shape == BarrierShape::kTree) wake_children(team, tid);
    run_implicit_task(me, team, tid);
    // A child process forked by this worker inside the region: its thread
    // became an initial thread (atfork_child) with no program of its own
    // to go back to, so leaving the region ends the child.
    if (KITE_UNLIKELY(tls_self != me)) exit(0);
    ompt::on_region_barrier_begin(me, team);
    team_barrier(me);
    ompt::on_region_barrier_end(me, team);
    me->awaited = team->owner;
    me->team = nullptr;
    me->task = nullptr;
    ompt::on_worker_idle(me);
    // Last touch of the team: the primary may reuse it right after.
    team->done.add_and_wake(1);
  }
  ompt::on_worker_end(me);
  g_live_workers.fetch_sub(1, std::memory_order_relaxed);
  g_workers_ended.add_and_wake(1);
}

void thread_exit_cleanup(void* arg) {
  Thread* me = static_cast<Thread*>(arg);
  if (me->is_worker) return;
  g_live_roots.fetch_sub(1, std::memory_order_relaxed);
  if (me->hot_team && me->hot_team->in_use) return;  // exited inside a region: keep everything
  ompt::on_initial_thread_end(me);
  if (me->hot_team) {
    finish_join(me->hot_team);
    release_workers(me->hot_team, 1);
    team_recycle(me->hot_team);
    me->hot_team = nullptr;
  }
  // A later OpenMP call from another TLS destructor of this thread gets a
  // fresh record.
  tls_self = nullptr;
  pthread_mutex_lock(&g_pool_lock);
  me->pool_next = g_spare_roots;
  g_spare_roots = me;
  pthread_mutex_unlock(&g_pool_lock);
}

// A child forked inside a parallel region (fork_pending): the gtid and the
// contention group's initial ICVs its thread starts over with.
bool g_fork_pending = false;
int g_fork_gtid;
TaskIcvs g_fork_icv;

void atfork_child() {
  // Only the forking thread exists in the child: forget every other thread.
  g_pool_head = nullptr;
  g_spare_roots = nullptr;
  pthread_mutex_init(&g_pool_lock, nullptr);
  g_live_workers.store(0);
  spin_config_for_threads(1);
  Thread* me = tls_self;
  if (me && (me->team != nullptr || me->is_worker)) {
    // Forked inside a region (as its primary or as a worker): the team is
    // gone, so the thread starts over as an initial thread outside any
    // region, as in a fresh runtime. Its next OpenMP call makes a new
    // record (self_slow) with the same gtid and the initial task's ICVs of
    // its contention group; the old record, still named by the frames of
    // the region on this thread's stack, is left alone: parallel() and the
    // worker loop see tls_self changed when the outlined function returns.
    g_fork_pending = true;
    g_fork_gtid = me->gtid;
    g_fork_icv = (me->cg_root ? me->cg_root : me)->initial_task.icv;
    tls_self = nullptr;
    pthread_setspecific(g_thread_key, nullptr);
    g_live_roots.store(0);
    return;
  }
  g_live_roots.store(me ? 1 : 0);
  if (me) {
    me->hot_team = nullptr;
    if (me->team == nullptr) me->cg_busy.store(1);
  }
}

pthread_once_t g_init_once = PTHREAD_ONCE_INIT;

void init_once() {
  pthread_key_create(&g_thread_key, thread_exit_cleanup);
  icv_init_from_environment();
  pthread_atfork(nullptr, nullptr, atfork_child);
}

}  // namespace

void runtime_init() { pthread_once(&g_init_once, init_once); }

int runtime_thread_count() {
  return g_live_roots.load(std::memory_order_relaxed) +
         g_live_workers.load(std::memory_order_relaxed);
}

__attribute__((constructor(101))) static void kite_load_constructor() { runtime_init(); }

Thread* self_slow() {
  runtime_init();
  Thread* t = new_thread_record(false);
  t->initial_task.icv = g_icv.initial;
  if (KITE_UNLIKELY(g_fork_pending)) {
    // The thread of a child forked inside a region (atfork_child).
    g_fork_pending = false;
    t->gtid = g_fork_gtid;
    t->initial_task.icv = g_fork_icv;
  }
  t->initial_task.kind = kTaskInitial;
  t->task = &t->initial_task;
  t->cg_root = t;
  t->cg_busy.store(1, std::memory_order_relaxed);
  t->handle = pthread_self();
  g_live_roots.fetch_add(1, std::memory_order_relaxed);
  tls_self = t;
  pthread_setspecific(g_thread_key, t);
  places_init_initial_thread(t);
  ompt::on_initial_thread(t);
  return t;
}

void icv_for_implicit_task(TaskIcvs& child, const TaskIcvs& parent) {
  child = parent;
  int np = parent.nthreads_list_pos + 1;
  if (np < g_icv.nthreads_list_len) {
    child.nthreads = g_icv.nthreads_list[np];
    child.nthreads_list_pos = static_cast<uint8_t>(np);
  }
  int bp = parent.bind_list_pos + 1;
  if (bp < g_icv.bind_list_len) {
    child.bind = g_icv.bind_list[bp];
    child.bind_list_pos = static_cast<uint8_t>(bp);
  }
}

int threads_for_region(const ForkSpec& spec, Thread* self) {
  if (!spec.if_clause) return 1;
  const TaskIcvs& icv = self->task->icv;
  int active = self->team ? self->team->active_level : 0;
  if (active >= icv.max_active_levels) return 1;
  int n = spec.num_threads > 0 ? spec.num_threads : icv.nthreads;
  if (n <= 1) return 1;
  Thread* root = self->cg_root ? self->cg_root : self;
  int busy = root->cg_busy.load(std::memory_order_relaxed);
  int limit = icv.thread_limit;
  int avail = limit - busy + 1;  // the encountering thread is already busy
  if (icv.dyn) {
    int procs = g_icv.num_procs - busy + 1;
    if (procs < avail) avail = procs;
  }
  if (avail < 1) avail = 1;
  return n < avail ? n : avail;
}

namespace {

// Claims want-1 more busy threads in the caller's contention group, fewer if
// thread-limit-var would be exceeded: nested regions started at the same
// time by threads of one group must not both see the same free threads.
int reserve_team_threads(Thread* me, int want) {
  if (want <= 1) return 1;
  Thread* root = me->cg_root ? me->cg_root : me;
  const int limit = me->task->icv.thread_limit;
  int busy = root->cg_busy.load(std::memory_order_relaxed);
  for (;;) {
    int avail = limit - busy + 1;
    int n = want < avail ? want : avail;
    if (n <= 1) return 1;
    if (root->cg_busy.compare_exchange_weak(busy, busy + n - 1, std::memory_order_relaxed))
      return n;
  }
}

// The barrier (and fork) shape of a team of n threads (barrier.h). Auto:
// the tree only where every thread can run at once, since a tree's parent
// that is not running holds up its whole subtree, where a flat counter
// lets whichever thread runs arrive (docs/internals.md, "Barriers").
BarrierShape barrier_shape_for(int n) {
  switch (g_barrier_mode) {
    case BarrierMode::kFlat:
      return BarrierShape::kFlat;
    case BarrierMode::kTree:
      return n >= 2 ? BarrierShape::kTree : BarrierShape::kFlat;
    case BarrierMode::kAuto:
      break;
  }
  return n >= kTreeMinThreads && n <= g_icv.num_procs ? BarrierShape::kTree : BarrierShape::kFlat;
}

Team* prepare_team(Thread* me, int n, int bind) {
  Team* team = me->hot_team;
  // The same threads again: a worker of the last region may still be on
  // its way out of that region's end barrier (it saw no release yet). It
  // reads only the barrier's epoch there, which only grows, and the team's
  // task queues: a task it finds now belongs to the new region and is one
  // the team's threads may run. Its last touch counts toward done_expect
  // whenever it comes. Any other change to the team waits for it.
  if (team && !team->in_use && (team->nthreads != n || team->capacity < n || ompt::active()))
    finish_join(team);
  if (team && (team->in_use || team->capacity < n)) {
    if (!team->in_use) {
      // Too small: give its workers back and start over.
      release_workers(team, 1);
      team_recycle(team);
      me->hot_team = nullptr;
    }
    team = nullptr;
  }
  // Only initial threads keep a hot team. A worker's reserved workers would
  // be stranded once the worker itself goes back to the pool and serves
  // other teams, and the pool would grow without bound.
  bool hot = !me->is_worker && (team != nullptr || me->hot_team == nullptr);
  if (!team) team = team_alloc(n);
  if (hot) me->hot_team = team;
  // Shrink or grow the reserved workers to exactly n-1.
  int have = 0;
  for (int i = 1; i < team->capacity && team->threads[i]; ++i) have = i;
  for (int i = n; i <= have; ++i) {
    pool_give(team->threads[i]);
    team->threads[i] = nullptr;
  }
  for (int i = have + 1; i < n; ++i) team->threads[i] = pool_take();
  team->threads[0] = me;
  team->owner = me;
  team->in_use = true;
  // Fields a worker still leaving the last region's end barrier may read
  // (see above: same threads again, no finish_join) are written only when
  // they change, which they cannot then: an unchanged field is not written
  // at all, so that worker's read races with nothing.
  if (team->nthreads != n) team->nthreads = n;
  team->parent = me->team;
  team->parent_task = me->task;
  team->parent_tid = me->tid;
  team->level = (me->team ? me->team->level : 0) + 1;
  team->active_level = (me->team ? me->team->active_level : 0) + (n > 1 ? 1 : 0);
  team->cg_root = me->cg_root ? me->cg_root : me;
  team->cancelled.store(0, std::memory_order_relaxed);
  team->barrier.reset(n, barrier_shape_for(n));
  team->ws.reset(team->ws_used);
  team->ws_used = 0;
  team->reduction_data = nullptr;
  const TaskIcvs& picv = me->task->icv;
  for (int i = 0; i < n; ++i) {
    Task& t = team->implicit[i];
    icv_for_implicit_task(t.icv, picv);
    t.parent = me->task;
    t.team = team;
    if (t.kind != kTaskImplicit) t.kind = kTaskImplicit;
    t.final = false;
  }
  team->bound = false;
  if (bind != int(ProcBind::kFalse) && places_count() > 0) places_assign(team, bind, me);
  return team;
}

}  // namespace

namespace {

// `runtime_invokes`: the runtime calls fn on the primary (GOMP_parallel),
// rather than the program (GOMP_parallel_start); tools see it in the flags.
void start_region(const ForkSpec& spec, void (*fn)(void*), void* data, bool runtime_invokes) {
  Thread* me = self();
  ompt::on_fork_enter(me, spec.enter_frame);
  int n = reserve_team_threads(me, threads_for_region(spec, me));
  int bind = spec.proc_bind >= 0 ? spec.proc_bind : me->task->icv.bind;
  Team* team = prepare_team(me, n, bind);
  team->fn = fn;
  team->data = data;
  Team::Saved& s = team->saved;
  s.team = me->team;
  s.task = me->task;
  s.tid = me->tid;
  s.ws_seq = me->ws_seq;
  s.ws_cur = me->ws_cur;
  s.ord_lo = me->ord_lo;
  s.ord_hi = me->ord_hi;
  s.ord_held = me->ord_held;
  s.place_lo = me->place_lo;
  s.place_hi = me->place_hi;
  if (ompt::active()) {
    const int flags = (runtime_invokes ? ompt_parallel_invoker_runtime
                                       : ompt_parallel_invoker_program) |
                      ompt_parallel_team;
    if (team->ompt.flags != flags) team->ompt.flags = flags;  // see store_if_changed
    ompt::on_parallel_begin(me, team, spec);
  }
  if (team->barrier.shape == BarrierShape::kTree)
    wake_children(team, 0);
  else
    for (int i = 1; i < n; ++i) wake_worker(team, i);
  me->team = team;
  me->tid = 0;
  me->task = &team->implicit[0];
  me->ws_seq = 0;
  me->ws_cur = nullptr;
  me->ord_held = false;
  if (team->bound) {
    me->place_lo = team->places[0].lo;
    me->place_hi = team->places[0].hi;
  }
  affinity_on_region_start(me);
  if (!runtime_invokes) ompt::set_program_exit_frame(me->task, spec.enter_frame);
  ompt::on_implicit_task_begin(me, team, 0);
}

}  // namespace

void parallel_start(const ForkSpec& spec, void (*fn)(void*), void* data) {
  start_region(spec, fn, data, false);
}

void parallel_end() {
  Thread* me = self();
  Team* team = me->team;
  // GOMP_parallel_end in a child forked inside the region: the region is
  // gone with the other threads (atfork_child).
  if (KITE_UNLIKELY(team == nullptr)) return;
  int n = team->nthreads;
  // The program's call of the outlined function (split form) has returned.
  const bool tool = ompt::active();
  if (tool) ompt::clear_exit_frame(me->task);
  ompt::on_region_barrier_begin(me, team);
  team_barrier(me);
  // Every worker bumps `done` as its last touch of the region, after it saw
  // the barrier's release. The primary of a hot team does not wait for that
  // here, nor (same threads again) at its next region (prepare_team): a
  // worker sees the release and the next region's `go` in one go. Waiting
  // cost each worker one more turn on a processor per region, a round of
  // context switches when threads outnumber processors. A tool sees the
  // workers' region end (their implicit tasks' end events) before
  // parallel_end, so with a tool the primary waits for them: inside its
  // implicit barrier's wait, which the tool is told of (sync_region_wait,
  // state wait_barrier_implicit_parallel), never after its own implicit
  // task ended, where the wait would be time no tool can place (issue 23).
  // A cancelled region's leftover tasks need the workers gone too.
  // (A team of one has no worker of this region, and prepare_team waited
  // for those of earlier ones when the size changed.)
  team->done_expect += uint32_t(n - 1);
  if (n > 1 && tool) finish_join(team);
  ompt::on_region_barrier_end(me, team);
  if (n > 1 && !tool &&
      (me->hot_team != team || team->cancelled.load(std::memory_order_acquire) != 0))
    finish_join(team);
  // Only a cancelled region gets here with tasks left (its barriers were
  // abandoned): the workers are gone, so the primary finishes them.
  if (KITE_UNLIKELY(team_tasks_pending(team)))
    task_wait_all_team_tasks(me, team);
  for (int i = 0; i < n; ++i)
    if (KITE_UNLIKELY(team->implicit[i].rt.taskgroup != nullptr)) task_implicit_end(&team->implicit[i]);
  team->ws_cancelled.store(0, std::memory_order_relaxed);
  if (n > 1) team->cg_root->cg_busy.fetch_sub(n - 1, std::memory_order_relaxed);
  // Every thread ran the same worksharing constructs as the primary and
  // left them all (the end barrier), unless the region was cancelled:
  // threads then skip constructs, and the whole ring is reset.
  team->ws_used = team->cancelled.load(std::memory_order_relaxed) != 0 ? kWorkShareRing
                                                                       : me->ws_seq;
  const Team::Saved& s = team->saved;
  me->team = s.team;
  me->task = s.task;
  me->tid = s.tid;
  me->ws_seq = s.ws_seq;
  me->ws_cur = s.ws_cur;
  me->ord_lo = s.ord_lo;
  me->ord_hi = s.ord_hi;
  me->ord_held = s.ord_held;
  me->place_lo = s.place_lo;
  me->place_hi = s.place_hi;
  ompt::on_parallel_end(me, team);
  team->in_use = false;
  if (me->hot_team != team) {
    release_workers(team, 1);
    team_recycle(team);
  }
}

void parallel(const ForkSpec& spec, void (*fn)(void*), void* data) {
  start_region(spec, fn, data, true);
  Thread* me = tls_self;
  ompt::run_outlined(fn, data, me->task);
  // The body forked and this is the child: its thread is an initial
  // thread outside any region now (atfork_child); the program goes on.
  if (KITE_UNLIKELY(tls_self != me)) return;
  parallel_end();
}

// A barrier is a task scheduling point: threads that wait run the team's
// tasks, and the barrier completes only when every thread arrived and every
// task of the team is complete. Waiters sleep on task_events, which the
// release bumps along with the epoch.
namespace {

struct BarrierWait {
  Team* team;
  uint32_t epoch;
};

bool barrier_passed(void* c) {
  BarrierWait* w = static_cast<BarrierWait*>(c);
  return w->team->barrier.epoch.load() != w->epoch ||
         w->team->cancelled.load(std::memory_order_acquire) != 0;
}

void barrier_with_tasks(Thread* me, Team* team) {
  Barrier& b = team->barrier;
  BarrierWait w{team, b.current_epoch()};
  if (b.arrive(me->tid)) {
    if (team_tasks_pending(team))
      task_wait_all_team_tasks(me, team);
    // The construct a cancelled loop/sections belonged to ends here.
    team->ws_cancelled.store(0, std::memory_order_relaxed);
    b.release();
    task_notify(team);
    return;
  }
  task_wait_until(me, team, barrier_passed, &w);
}

}  // namespace

void team_barrier(Thread* me) {
  Team* team = me->team;
  if (!team) return;
  if (team->nthreads == 1) {
    if (team_tasks_pending(team))
      task_wait_all_team_tasks(me, team);
    team->ws_cancelled.store(0, std::memory_order_relaxed);
    return;
  }
  if (team->cancelled.load(std::memory_order_acquire)) return;
  barrier_with_tasks(me, team);
}

void explicit_barrier(Thread* me, const void* codeptr_ra, void* enter_frame) {
  ompt::on_explicit_barrier(me, ompt_scope_begin, codeptr_ra, enter_frame);
  team_barrier(me);
  ompt::on_explicit_barrier(me, ompt_scope_end, codeptr_ra, enter_frame);
}

bool explicit_barrier_cancellable(Thread* me, const void* codeptr_ra, void* enter_frame) {
  ompt::on_explicit_barrier(me, ompt_scope_begin, codeptr_ra, enter_frame);
  bool cancelled = team_barrier_cancellable(me);
  ompt::on_explicit_barrier(me, ompt_scope_end, codeptr_ra, enter_frame);
  return cancelled;
}

// Workers waiting for work are in the idle pool, or reserved in the hot
// team of the calling thread; reserved workers of other threads' hot teams
// may be handed a region at any moment, so they are left alone.
int end_idle_workers() {
  Thread* me = tls_self;
  if (me && me->hot_team && !me->hot_team->in_use) {
    finish_join(me->hot_team);
    release_workers(me->hot_team, 1);
  }
  pthread_mutex_lock(&g_pool_lock);
  Thread* list = g_pool_head;
  g_pool_head = nullptr;
  pthread_mutex_unlock(&g_pool_lock);
  uint32_t base = g_workers_ended.load();
  int count = 0;
  for (Thread* t = list; t;) {
    Thread* next = t->pool_next;
    t->next_team = nullptr;
    t->go.add_and_wake(1);
    ++count;
    t = next;
  }
  wait_until(g_workers_ended, [&] { return g_workers_ended.load() - base == uint32_t(count); });
  return count;
}

BarrierMode g_barrier_mode = BarrierMode::kAuto;

void Barrier::layout_tree(int n) {
  levels = 0;
  int first = 0;
  for (int m = n;;) {
    int counters = (m + kTreeRadix - 1) / kTreeRadix;
    level_first[levels] = first;
    level_members[levels] = m;
    ++levels;
    first += counters;
    if (counters <= 1 || levels == kTreeMaxLevels) break;
    m = counters;
  }
  tree_used = first;
}

bool team_barrier_cancellable(Thread* me) {
  Team* team = me->team;
  if (!team) return false;
  if (team->cancelled.load(std::memory_order_acquire)) return true;
  if (team->nthreads > 1)
    barrier_with_tasks(me, team);
  else
    team_barrier(me);
  return team->cancelled.load(std::memory_order_acquire) != 0;
}

}  // namespace kite
