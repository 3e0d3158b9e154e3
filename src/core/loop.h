// Worksharing constructs of the core: loops (every schedule, signed and
// unsigned iteration spaces, ordered, doacross), sections, single, scope.
//
// A loop is described by the compiler's bounds: start, end, incr, as 64-bit
// patterns (signed loops sign-extend). The core numbers the iterations
// 0..total-1 and hands out chunks of that logical space; the adapters see
// chunks as user bounds again (LoopChunk).
#pragma once

#include "team.h"

namespace kite {

// Schedule kinds accepted by loop entry points: the Sched values, plus
// "runtime" (take run-sched-var from the current task's ICVs). The
// kSchedMonotonic bit may be or-ed in; chunks are always handed out in
// increasing order, which satisfies both monotonic and nonmonotonic.
constexpr int kSchedRuntime = 0;

struct LoopBounds {
  unsigned long long start, end, incr;  // bit patterns
  bool is_signed;  // long loop (incr's sign gives the direction)
  bool up;         // unsigned loop direction (incr is then negated if down)
};

inline LoopBounds loop_bounds_long(long start, long end, long incr) {
  return {static_cast<unsigned long long>(start), static_cast<unsigned long long>(end),
          static_cast<unsigned long long>(incr), true, incr > 0};
}
inline LoopBounds loop_bounds_ull(bool up, unsigned long long start, unsigned long long end,
                                  unsigned long long incr) {
  return {start, end, incr, false, up};
}

// A chunk in user values: iterate from istart while "before" iend.
struct LoopChunk {
  unsigned long long istart, iend;
};

// What a loop construct asks for besides its bounds.
struct LoopSpec {
  LoopBounds bounds;
  int sched;                  // Sched or kSchedRuntime, maybe | kSchedMonotonic
  unsigned long long chunk;   // 0 = default for the kind
  bool ordered;
  // gcc 9+ generic entry points: task reductions array (may be null) and a
  // scratch request (*mem holds a byte count on entry, the shared zeroed
  // area on return; mem may be null).
  uintptr_t* reductions;
  void** mem;
  // For tools: the construct's ompt_work_t (0: a loop, typed by its
  // schedule) and the return address of the ABI call that began it.
  int work = 0;
  const void* codeptr_ra = nullptr;
};

// Run-sched-var of the current task as (kind, chunk) with runtime/auto
// resolved. Used by combined forms that must resolve before forking.
void loop_resolve_schedule(Thread* self, int sched, unsigned long long chunk, int* kind_out,
                           unsigned long long* chunk_out);

// Enters a loop construct and returns the calling thread's first chunk
// (false: no iterations for this thread). `out` may be null when the caller
// only needs the construct (gcc does this for task reductions on a loop
// whose iterations it schedules itself); then it returns true.
bool loop_start(Thread* self, const LoopSpec& spec, LoopChunk* out);
// Next chunk of the construct the thread is in.
bool loop_next(Thread* self, LoopChunk* out);
// End of the construct: with the implicit barrier, without it, or with a
// barrier that reports parallel cancellation (true = cancelled).
// codeptr_ra / enter_frame: the ABI end call's, for tools.
void loop_end(Thread* self, const void* codeptr_ra = nullptr, void* enter_frame = nullptr);
void loop_end_nowait(Thread* self);
bool loop_end_cancel(Thread* self, const void* codeptr_ra = nullptr, void* enter_frame = nullptr);

// Ordered regions inside an ordered loop. Regions of one chunk run on one
// thread in order; chunks take turns in iteration order.
void ordered_start(Thread* self, const void* codeptr_ra);
void ordered_end(Thread* self, const void* codeptr_ra);

// Doacross loops (ordered(n) with depend(sink/source)). counts[d] is the
// iteration count of loop d; the workshared loop is 0..counts[0]-1 step 1.
// Iteration vectors given to post/wait are logical (0-based per dimension).
// codeptr_ra: the program's call, whose loop is reported to tools here;
// null when the caller reports the loop itself.
bool loop_doacross_start(Thread* self, unsigned ncounts, const unsigned long long* counts,
                         int sched, unsigned long long chunk, uintptr_t* reductions, void** mem,
                         LoopChunk* out, const void* codeptr_ra = nullptr);
// Number of dimensions of the doacross loop the thread is in (0 if none).
unsigned doacross_dims(Thread* self);

// The next guided chunk of a loop with `remaining` (> 0) unassigned
// iterations: "each chunk contains a number of iterations proportional to
// the number of unassigned iterations divided by the number of threads in
// the team, decreasing to 1" (5.2 §11.5.3), at least chunk_size, at most
// what is left. Half the unassigned iterations over the team size, rounded
// up, as LLVM libomp: libgomp takes all of it over the team size, half as
// many chunks to claim, but a first chunk of half the loop on 2 threads,
// and with more threads than processors a thread descheduled holding it.
// Measured both ways (bench/README.md, "Issue 16"): the 2-thread guided
// sweep gains, the 4-thread one on 2 cores loses, so the split stays.
inline unsigned long long guided_size(unsigned long long remaining, int nthreads,
                                      unsigned long long chunk) {
  unsigned long long q = (remaining - 1) / (2 * static_cast<unsigned long long>(nthreads)) + 1;
  if (q < chunk) q = chunk;
  return q < remaining ? q : remaining;
}
void doacross_post(Thread* self, const unsigned long long* iter);
// Vectors with a negative (signed) or out-of-range element return at once.
void doacross_wait(Thread* self, const unsigned long long* iter, bool is_signed);

// Sections: numbers 1..count, 0 when none is left.
unsigned sections_start(Thread* self, unsigned count, uintptr_t* reductions, void** mem,
                        const void* codeptr_ra = nullptr);
unsigned sections_next(Thread* self);
// sections end == loop_end / loop_end_nowait / loop_end_cancel.

// Single: true on the one thread that executes the block. executor_ends:
// the ABI reports the block's end (single_end), so tools see the executor's
// construct as well (work single_executor).
bool single_start(Thread* self, const void* codeptr_ra = nullptr, bool executor_ends = false);
void single_end(Thread* self);

// The implicit barrier of a worksharing construct made by its own ABI call
// after the construct ended (the LLVM ABI's __kmpc_barrier with an
// implicit-barrier location): a team barrier that tools see as
// barrier_implicit_workshare. codeptr_ra / enter_frame: that call's.
void workshare_barrier(Thread* self, const void* codeptr_ra, void* enter_frame);
bool workshare_barrier_cancellable(Thread* self, const void* codeptr_ra, void* enter_frame);
// Single with copyprivate: null on the executing thread, which later calls
// single_copy_end(data); the others get that data.
void* single_copy_start(Thread* self, const void* codeptr_ra = nullptr,
                        void* enter_frame = nullptr);
void single_copy_end(Thread* self, void* data, const void* codeptr_ra = nullptr,
                     void* enter_frame = nullptr);

// Scope with task reductions: a worksharing construct that only chooses
// which thread registers the reductions first.
void scope_start(Thread* self, uintptr_t* reductions);

// Combined parallel + loop / parallel + sections: the team starts with the
// construct already entered, so the outlined function begins with "next".
// The spec's sched must be resolved (no runtime) unless noted.
void parallel_loop(const ForkSpec& fork, void (*fn)(void*), void* data, const LoopSpec& loop);
// Split form (GOMP_parallel_loop_*_start): the caller runs fn(data) on
// return and ends the region with parallel_end().
void parallel_loop_start(const ForkSpec& fork, void (*fn)(void*), void* data,
                         const LoopSpec& loop);

// --- shared by the construct implementations -------------------------------

// ws_enter / ws_leave that also work outside any parallel region (the
// thread is then a team of one with a private slot).
WorkShare* construct_enter(Thread* self, bool* first);
void construct_leave(Thread* self, WorkShare* ws);
int construct_nthreads(const Thread* self);
// Fills ws->scratch for a `mem` request (first thread) or hands it out.
void construct_scratch(WorkShare* ws, void** mem, bool first);
// Calls the task-reduction hook, or warns once that it is missing.
void construct_task_reductions(Thread* self, WorkShare* ws, uintptr_t* reductions, bool first);

// Enters a loop construct with its schedule resolved (kind is a Sched,
// chunk 0 only for unchunked static); `init` runs on the initializing thread
// before the construct is published (doacross sets up its state there).
// The thread holds no chunk yet: its first loop_next gives the first one.
// whole_if_alone: a plain loop (not sections, not doacross), which a team of
// one thread with no tool attached runs as one chunk (loop.cpp).
WorkShare* loop_enter(Thread* self, const LoopSpec& spec, int kind, unsigned long long chunk,
                      void (*init)(WorkShare* ws, const void* arg), const void* arg,
                      bool whole_if_alone = false);

}  // namespace kite
