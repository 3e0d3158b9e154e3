// Loop worksharing: schedules, chunk hand-out, ordered turns, loop end.
//
// Every loop is reduced to logical iterations 0..total-1 when the first
// thread initializes the slot; chunks are ranges [lo, hi) of that space and
// become user bounds only when handed to the adapter. That one normalization
// serves long and unsigned long long, upward and downward loops.
//
// Per-thread loop position lives in Thread::ord_lo/ord_hi (as unsigned bit
// patterns): lo > hi means "no chunk yet", lo == hi "no more chunks",
// lo < hi the chunk being executed. Static schedules derive the next chunk
// from it; ordered loops pass the turn on when the chunk is done.
#include "loop.h"
#include "ompt/events_mutex.h"
#include "ompt/events_task.h"
#include "ompt/events_ws.h"

#include <pthread.h>
#include <string.h>

namespace kite {

// Task reductions on worksharing constructs belong to the tasking code
// (task.h); weak so that loops work in a runtime built without it.
void ws_task_reductions_register(Thread* me, uintptr_t* reductions, uintptr_t* first)
    __attribute__((weak));

namespace {

using ull = unsigned long long;

inline ull pos_lo(const Thread* t) { return static_cast<ull>(t->ord_lo); }
inline ull pos_hi(const Thread* t) { return static_cast<ull>(t->ord_hi); }
inline void set_pos(Thread* t, ull lo, ull hi) {
  t->ord_lo = static_cast<long>(lo);
  t->ord_hi = static_cast<long>(hi);
  t->ord_held = false;
}
inline void set_no_chunk_yet(Thread* t) { set_pos(t, 1, 0); }
inline void set_exhausted(Thread* t) { set_pos(t, 0, 0); }

// A thread outside any parallel region is a team of one; its constructs use
// a private slot, allocated on first use and freed when the thread exits
// (user threads may come and go by the thousand).
__thread WorkShare* t_serial_ws = nullptr;
pthread_key_t g_serial_key;
pthread_once_t g_serial_once = PTHREAD_ONCE_INIT;

void serial_ws_free(void* p) {
  WorkShare* ws = static_cast<WorkShare*>(p);
  if (ws->scratch) xfree(ws->scratch);
  if (ws->doacross) xfree(ws->doacross);
  xfree(ws);
}
void serial_key_create() { pthread_key_create(&g_serial_key, serial_ws_free); }

WorkShare* serial_ws() {
  WorkShare* ws = t_serial_ws;
  if (KITE_LIKELY(ws != nullptr)) return ws;
  ws = static_cast<WorkShare*>(xaligned_alloc(kCacheLine, sizeof(WorkShare)));
  memset(static_cast<void*>(ws), 0, sizeof(WorkShare));
  pthread_once(&g_serial_once, serial_key_create);
  pthread_setspecific(g_serial_key, ws);
  t_serial_ws = ws;
  return ws;
}

std::atomic<bool> g_warned_incr{false};
std::atomic<bool> g_warned_sched{false};
std::atomic<bool> g_warned_reductions{false};

void warn_once(std::atomic<bool>& flag, const char* what) {
  if (!flag.exchange(true, std::memory_order_relaxed)) warn("%s", what);
}

// Iterations of the loop described by b (0 for an empty loop).
ull iteration_count(const LoopBounds& b) {
  ull diff, step;
  if (b.is_signed) {
    long s = static_cast<long>(b.start), e = static_cast<long>(b.end);
    long inc = static_cast<long>(b.incr);
    if (inc > 0) {
      if (s >= e) return 0;
      diff = b.end - b.start;
      step = b.incr;
    } else if (inc < 0) {
      if (s <= e) return 0;
      diff = b.start - b.end;
      step = 0 - b.incr;
    } else {
      diff = step = 0;
    }
  } else if (b.up) {
    if (b.start >= b.end) return 0;
    diff = b.end - b.start;
    step = b.incr;
  } else {
    if (b.start <= b.end) return 0;
    diff = b.start - b.end;
    step = 0 - b.incr;
  }
  if (step == 0) {
    warn_once(g_warned_incr, "loop with a zero increment: running none of its iterations");
    return 0;
  }
  return diff / step + (diff % step != 0 ? 1 : 0);
}

bool static_next(Thread* t, WorkShare* ws, ull* lo_out, ull* hi_out) {
  ull lo = pos_lo(t), hi = pos_hi(t);
  const ull total = ws->total, c = ws->chunk;
  const ull n = static_cast<ull>(ws->nthreads);
  const ull tid = t->team ? static_cast<ull>(t->tid) : 0;
  if (lo == hi) return false;  // exhausted
  if (c == 0) {
    if (lo < hi) return false;  // the one block was handed out
    if (n == 1) {  // a team of one: the whole loop, no divisions
      lo = 0;
      hi = total;
    } else {
      // Balanced contiguous blocks: the first total % n threads get one more.
      ull q = total / n, r = total % n;
      lo = tid * q + (tid < r ? tid : r);
      hi = lo + q + (tid < r ? 1 : 0);
    }
    if (lo >= hi) return false;
  } else {
    if (lo > hi) {
      if (__builtin_mul_overflow(tid, c, &lo)) return false;
    } else {
      ull stride;
      if (__builtin_mul_overflow(n, c, &stride) || __builtin_add_overflow(lo, stride, &lo))
        return false;
    }
    if (lo >= total) return false;
    hi = total - lo < c ? total : lo + c;
  }
  *lo_out = lo;
  *hi_out = hi;
  return true;
}

bool dynamic_next(WorkShare* ws, ull* lo_out, ull* hi_out) {
  const ull total = ws->total, c = ws->chunk;
  if (KITE_LIKELY(!ws->dyn_cas)) {
    ull lo = ws->next.fetch_add(c, std::memory_order_relaxed);
    if (lo >= total) return false;
    *lo_out = lo;
    *hi_out = total - lo < c ? total : lo + c;
    return true;
  }
  // Near the top of the 64-bit range, overshooting fetch_adds could wrap.
  ull lo = ws->next.load(std::memory_order_relaxed);
  for (;;) {
    if (lo >= total) return false;
    ull hi = total - lo < c ? total : lo + c;
    if (ws->next.compare_exchange_weak(lo, hi, std::memory_order_relaxed)) {
      *lo_out = lo;
      *hi_out = hi;
      return true;
    }
  }
}

bool guided_next(WorkShare* ws, ull* lo_out, ull* hi_out) {
  const ull total = ws->total;
  ull lo = ws->next.load(std::memory_order_relaxed);
  for (;;) {
    if (lo >= total) return false;
    ull hi = lo + guided_size(total - lo, ws->nthreads, ws->chunk);
    if (ws->next.compare_exchange_weak(lo, hi, std::memory_order_relaxed)) {
      *lo_out = lo;
      *hi_out = hi;
      return true;
    }
  }
}

inline bool team_cancelled(const Thread* t) {
  return t->team && t->team->cancelled.load(std::memory_order_acquire) != 0;
}

// Waits until the turn reaches the chunk starting at lo (or the region is
// cancelled). Spins first, as every wait does (yielding when threads
// outnumber processors); then sleeps on the thread's own word, having said
// which turn it sleeps for. One word per team, woken at every hand-off,
// woke every sleeper each time for one of them to go on: a herd of
// wake-ups, each a context switch taken from the thread doing the work.
void ordered_wait_for(Thread* t, WorkShare* ws, ull lo) {
  auto my_turn = [&] {
    return ws->ordered_turn.load(std::memory_order_acquire) == lo || team_cancelled(t);
  };
  // The budget starts over whenever the turn moves: while the loop makes
  // progress the turn is coming, and with many threads (each hand-off a
  // context switch when oversubscribed) one budget for the whole wait would
  // put the waiter to sleep just before its turn, and its wake-up on the
  // loop's critical path.
  const uint64_t spins = spin_budget();
  ull seen = ws->ordered_turn.load(std::memory_order_relaxed);
  for (uint64_t i = 0; i < spins; ++i) {
    if (my_turn()) return;
    ull now = ws->ordered_turn.load(std::memory_order_relaxed);
    if (now != seen) {
      seen = now;
      i = 0;
    }
    spin_step(i);
  }
  t->ord_sleep_turn.store(lo + 1, std::memory_order_relaxed);
  // Pairs with the fence in ordered_hand_off: either the passer sees this
  // sleeper (and the turn it waits for), or we see the turn it stored.
  ws->turn_sleepers.fetch_add(1, std::memory_order_seq_cst);
  Futex& f = t->ord_wake;
  for (;;) {
    uint32_t v = f.value.load(std::memory_order_acquire);
    if (my_turn()) break;
    f.sleepers.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (!my_turn()) futex_wait(&f.value, v);
    f.sleepers.fetch_sub(1, std::memory_order_relaxed);
  }
  ws->turn_sleepers.fetch_sub(1, std::memory_order_relaxed);
  t->ord_sleep_turn.store(0, std::memory_order_relaxed);
}

// Gives the turn to the chunk starting at hi; wakes its thread if it sleeps
// (every sleeper once the region is cancelled: their turns may never come).
void ordered_hand_off(Thread* t, WorkShare* ws, ull hi) {
  ws->ordered_turn.store(hi, std::memory_order_release);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (KITE_LIKELY(ws->turn_sleepers.load(std::memory_order_acquire) == 0)) return;
  Team* team = t->team;
  if (!team) return;
  const bool all = team_cancelled(t);
  for (int i = 0; i < team->nthreads; ++i) {
    Thread* o = team->threads[i];
    unsigned long long want = o ? o->ord_sleep_turn.load(std::memory_order_relaxed) : 0;
    if (want != 0 && (all || want == hi + 1)) o->ord_wake.add_and_wake(1);
  }
}

// The chunk [lo, hi) is done: wait for its turn if its ordered regions never
// took it, then give the turn to the chunk that follows.
void ordered_pass(Thread* t, WorkShare* ws, ull lo, ull hi) {
  if (!t->ord_held) ordered_wait_for(t, ws, lo);
  ordered_hand_off(t, ws, hi);
  t->ord_held = false;
}

// Ends the thread's part of the loop (its chunk, then the slot).
void loop_leave(Thread* t) {
  WorkShare* ws = t->ws_cur;
  if (!ws) return;
  if (ws->ordered && pos_lo(t) < pos_hi(t)) ordered_pass(t, ws, pos_lo(t), pos_hi(t));
  set_exhausted(t);
  construct_leave(t, ws);
}

}  // namespace

// --- shared construct helpers --------------------------------------------

WorkShare* construct_enter(Thread* self, bool* first) {
  if (KITE_LIKELY(self->team != nullptr)) return ws_enter(self, first);
  *first = true;
  return serial_ws();
}

void construct_leave(Thread* self, WorkShare* ws) {
  if (self->team) ws_leave(self, ws);
  self->ws_cur = nullptr;
}

int construct_nthreads(const Thread* self) { return self->team ? self->team->nthreads : 1; }

void construct_scratch(WorkShare* ws, void** mem, bool first) {
  if (!mem) return;
  if (first) {
    std::size_t size = static_cast<std::size_t>(reinterpret_cast<uintptr_t>(*mem));
    if (size > ws->scratch_cap) {
      if (ws->scratch) xfree(ws->scratch);
      std::size_t cap = (size + kCacheLine - 1) & ~(kCacheLine - 1);
      ws->scratch = xaligned_alloc(kCacheLine, cap);
      ws->scratch_cap = cap;
    }
    if (size) memset(ws->scratch, 0, size);
  }
  *mem = ws->scratch;
}

void construct_task_reductions(Thread* self, WorkShare* ws, uintptr_t* reductions, bool first) {
  if (first) ws->task_reductions = reductions;
  if (!reductions) return;
  if (ws_task_reductions_register)
    ws_task_reductions_register(self, reductions, first ? nullptr : ws->task_reductions);
  else
    warn_once(g_warned_reductions,
              "task reductions on a worksharing construct are not supported yet: "
              "the reduction(task, ...) variables are not combined");
}

// --- schedules --------------------------------------------------------------

void loop_resolve_schedule(Thread* self, int sched, ull chunk, int* kind_out, ull* chunk_out) {
  int kind = sched & ~kSchedMonotonic;
  if (kind == kSchedRuntime) {
    const TaskIcvs& icv = self->task->icv;
    kind = icv.sched & ~kSchedMonotonic;
    chunk = icv.sched_chunk > 0 ? static_cast<ull>(icv.sched_chunk) : 0;
  }
  switch (kind) {
    case int(Sched::kStatic):
      break;
    case int(Sched::kDynamic):
    case int(Sched::kGuided):
      if (chunk == 0) chunk = 1;
      break;
    case int(Sched::kAuto):
      kind = int(Sched::kStatic);
      chunk = 0;
      break;
    default:
      warn_once(g_warned_sched, "unknown loop schedule kind: using static");
      kind = int(Sched::kStatic);
      chunk = 0;
      break;
  }
  *kind_out = kind;
  *chunk_out = chunk;
}

WorkShare* loop_enter(Thread* self, const LoopSpec& spec, int kind, ull chunk,
                      void (*init)(WorkShare* ws, const void* arg), const void* arg,
                      bool whole_if_alone) {
  bool first;
  WorkShare* ws = construct_enter(self, &first);
  if (first) {
    const int n = construct_nthreads(self);
    // A team of one runs every chunk itself, in iteration order, whatever
    // the schedule: without a tool (whose dispatch events name each chunk)
    // one block of the whole loop is the same execution, with one loop_next
    // instead of one per chunk and one ordered hand-off per loop (libgomp
    // does the same for static schedules).
    if (whole_if_alone && n == 1 && !ompt::active()) {
      kind = int(Sched::kStatic);
      chunk = 0;
    }
    ws->sched = kind;
    ws->nthreads = n;
    ws->ordered = spec.ordered;
    ws->chunk = chunk;
    ws->start = spec.bounds.start;
    ws->end = spec.bounds.end;
    ws->incr = spec.bounds.incr;
    ws->total = iteration_count(spec.bounds);
    ull overshoot;
    ws->dyn_cas = __builtin_mul_overflow(static_cast<ull>(n) + 1, chunk, &overshoot) ||
                  ws->total > ~0ull - overshoot;
    ws->next.store(0, std::memory_order_relaxed);
    ws->ordered_turn.store(0, std::memory_order_relaxed);
    ws->entered.value.store(0, std::memory_order_relaxed);
    ws->doacross_on = false;
    construct_task_reductions(self, ws, spec.reductions, true);
    construct_scratch(ws, spec.mem, true);
    if (init) init(ws, arg);
    ws_publish(ws);
  } else {
    construct_task_reductions(self, ws, spec.reductions, false);
    construct_scratch(ws, spec.mem, false);
  }
  self->ws_cur = ws;
  set_no_chunk_yet(self);
  return ws;
}

bool loop_start(Thread* self, const LoopSpec& spec, LoopChunk* out) {
  int kind;
  ull chunk;
  loop_resolve_schedule(self, spec.sched, spec.chunk, &kind, &chunk);
  WorkShare* ws = loop_enter(self, spec, kind, chunk, nullptr, nullptr, true);
  ompt::on_work_begin(self, spec.work ? spec.work : ompt::loop_work_type(kind), ws->total,
                      spec.codeptr_ra);
  if (!out) return true;
  return loop_next(self, out);
}

bool loop_next(Thread* self, LoopChunk* out) {
  WorkShare* ws = self->ws_cur;
  if (KITE_UNLIKELY(!ws)) return false;
  ull lo = pos_lo(self), hi = pos_hi(self);
  if (ws->ordered && lo < hi) ordered_pass(self, ws, lo, hi);
  bool got;
  ull nlo = 0, nhi = 0;
  switch (ws->sched) {
    case int(Sched::kDynamic):
      got = dynamic_next(ws, &nlo, &nhi);
      break;
    case int(Sched::kGuided):
      got = guided_next(ws, &nlo, &nhi);
      break;
    default:
      got = static_next(self, ws, &nlo, &nhi);
      break;
  }
  if (!got) {
    set_exhausted(self);
    return false;
  }
  set_pos(self, nlo, nhi);
  out->istart = ws->start + nlo * ws->incr;
  // The last chunk ends at the user's bound: start + total * incr may
  // overflow the iteration variable's type.
  out->iend = nhi == ws->total ? ws->end : ws->start + nhi * ws->incr;
  ompt::on_dispatch(self, out->istart, nhi - nlo);
  return true;
}

void loop_end(Thread* self, const void* codeptr_ra, void* enter_frame) {
  loop_leave(self);
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::work_end_slow(self);
    ompt::ws_barrier(self, ompt_scope_begin, codeptr_ra, enter_frame);
    team_barrier(self);
    ompt::ws_barrier(self, ompt_scope_end, codeptr_ra, enter_frame);
    return;
  }
  team_barrier(self);
}

void loop_end_nowait(Thread* self) {
  loop_leave(self);
  if (KITE_UNLIKELY(ompt::active())) ompt::work_end_slow(self);
}

bool loop_end_cancel(Thread* self, const void* codeptr_ra, void* enter_frame) {
  loop_leave(self);
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::work_end_slow(self);
    ompt::ws_barrier(self, ompt_scope_begin, codeptr_ra, enter_frame);
    bool cancelled = team_barrier_cancellable(self);
    ompt::ws_barrier(self, ompt_scope_end, codeptr_ra, enter_frame);
    if (cancelled) ompt::cancel_slow(self, kCancelParallel, ompt_cancel_detected, codeptr_ra);
    return cancelled;
  }
  return team_barrier_cancellable(self);
}

void workshare_barrier(Thread* self, const void* codeptr_ra, void* enter_frame) {
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::ws_barrier(self, ompt_scope_begin, codeptr_ra, enter_frame);
    team_barrier(self);
    ompt::ws_barrier(self, ompt_scope_end, codeptr_ra, enter_frame);
    return;
  }
  team_barrier(self);
}

bool workshare_barrier_cancellable(Thread* self, const void* codeptr_ra, void* enter_frame) {
  if (KITE_UNLIKELY(ompt::active())) {
    ompt::ws_barrier(self, ompt_scope_begin, codeptr_ra, enter_frame);
    bool cancelled = team_barrier_cancellable(self);
    ompt::ws_barrier(self, ompt_scope_end, codeptr_ra, enter_frame);
    if (cancelled) ompt::cancel_slow(self, kCancelParallel, ompt_cancel_detected, codeptr_ra);
    return cancelled;
  }
  return team_barrier_cancellable(self);
}

// --- ordered ------------------------------------------------------------------

namespace {

void ordered_wait_turn(Thread* self) {
  WorkShare* ws = self->ws_cur;
  // Outside an ordered loop (orphaned ordered, or a loop without the
  // clause) there is nothing to order against.
  if (!ws || !ws->ordered || self->ord_held) return;
  const ull lo = pos_lo(self);
  if (lo >= pos_hi(self)) return;
  ordered_wait_for(self, ws, lo);
  self->ord_held = true;
}

}  // namespace

// With a tool attached, an ordered region is reported as an ordered mutex
// (state wait_ordered while the thread waits for its turn).
void ordered_start(Thread* self, const void* codeptr_ra) {
  if (ompt::active()) {
    ompt::on_ordered_begin(self, codeptr_ra);
    ordered_wait_turn(self);
    ompt::on_ordered_acquired(self, codeptr_ra);
    return;
  }
  ordered_wait_turn(self);
}

// The turn stays with the chunk until it is done (loop_next / loop end):
// the chunk's later iterations come next in iteration order anyway.
void ordered_end(Thread* self, const void* codeptr_ra) {
  if (ompt::active()) ompt::on_ordered_end(self, codeptr_ra);
}

}  // namespace kite
