// LLVM ABI: taskloop (__kmpc_taskloop, __kmpc_taskloop_5). Clang hands over
// a pattern task whose kmp_task_t holds the loop's bounds (lb and ub point
// into it) and whose privates are already initialized; each task of the
// loop is a copy of the pattern with its own bounds, finished by the
// compiler's task_dup (firstprivate copies, the lastprivate flag). The
// pattern itself never runs.
#include <string.h>

#include "abi/kmpc/task_block.h"
#include "core/taskloop_parts.h"
#include "ompt/events_ws.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

typedef void (*kmp_task_dup_t)(void* dst, void* src, kmp_int32 lastpriv);

// sched argument: what `grainsize` means.
constexpr int kSchedNone = 0;
constexpr int kSchedGrainsize = 1;
constexpr int kSchedNumTasks = 2;

// Iterations from lb to ub (inclusive) by st, in the loop's 64-bit
// arithmetic (clang passes the normalized loop, 0..n-1 by 1).
unsigned long long trip_count(unsigned long long lb, unsigned long long ub, long long st) {
  if (st > 0) {
    if (static_cast<long long>(lb) > static_cast<long long>(ub)) return 0;
    return (ub - lb) / static_cast<unsigned long long>(st) + 1;
  }
  if (st < 0) {
    if (static_cast<long long>(lb) < static_cast<long long>(ub)) return 0;
    return (lb - ub) / (0 - static_cast<unsigned long long>(st)) + 1;
  }
  warn("taskloop: loop step is zero; running the first iteration only");
  return 1;
}

void taskloop(void* pattern_task, int if_val, kmp_uint64* lb, kmp_uint64* ub, kmp_int64 st,
              int nogroup, int sched, kmp_uint64 grainsize, bool strict, void* task_dup,
              const void* codeptr_ra, void* enter_frame) {
  if (t_unclaimed_task == header_of(pattern_task)) t_unclaimed_task = nullptr;
  Thread* me = self();
  Header* ph = header_of(pattern_task);
  kmp_task_t* pattern = task_of(ph);
  char* pbase = reinterpret_cast<char*>(pattern);
  const size_t lb_off = reinterpret_cast<char*>(lb) - pbase;
  const size_t ub_off = reinterpret_cast<char*>(ub) - pbase;
  const size_t task_bytes = ph->block_size - sizeof(Header);
  const size_t shareds_off =
      pattern->shareds ? static_cast<char*>(pattern->shareds) - pbase : task_bytes;
  const unsigned long long n = trip_count(*lb, *ub, st);
  if (sched != kSchedNone && sched != kSchedGrainsize && sched != kSchedNumTasks) {
    warn("taskloop: unknown schedule %d; using the default number of tasks", sched);
    sched = kSchedNone;
  }
  TaskloopParts parts =
      taskloop_parts(n, sched == kSchedGrainsize, sched == kSchedNone ? 0 : grainsize, strict,
                     me->team ? me->team->nthreads : 1);
  const bool cancelled = cancellation_point(me, kCancelTaskgroup);
  const bool tool = ompt::active();
  if (tool) ompt::taskloop_slow(me, ompt_scope_begin, n, codeptr_ra, enter_frame);
  if (!nogroup) taskgroup_start(me, codeptr_ra, enter_frame);
  const kmp_task_dup_t dup = reinterpret_cast<kmp_task_dup_t>(task_dup);
  unsigned long long at = *lb;
  for (unsigned long long i = 0; i < parts.ntasks && !cancelled; ++i) {
    unsigned long long count = taskloop_part_size(parts, i);
    Header* h = new_task_block(me, ph->flags, shareds_off, task_bytes - shareds_off,
                               pattern->routine);
    kmp_task_t* t = task_of(h);
    char* base = reinterpret_cast<char*>(t);
    memcpy(base, pbase, task_bytes);
    t->shareds = pattern->shareds ? base + shareds_off : nullptr;
    *reinterpret_cast<kmp_uint64*>(base + lb_off) = at;
    at += count * static_cast<unsigned long long>(st);
    *reinterpret_cast<kmp_uint64*>(base + ub_off) = at - static_cast<unsigned long long>(st);
    if (dup) dup(t, pattern, i == parts.ntasks - 1 ? 1 : 0);
    int priority = (ph->flags & kFlagPriority) ? pattern->data2.priority : 0;
    HandOverTrace trace;
    trace.codeptr_ra = codeptr_ra;
    trace.taskloop_chunk = true;
    trace.first = *reinterpret_cast<kmp_uint64*>(base + lb_off);
    trace.count = count;
    task_hand_over(me, h->task, nullptr, 0, priority, if_val != 0, trace);
  }
  if (!nogroup) taskgroup_end(me, codeptr_ra, enter_frame);
  if (tool) ompt::taskloop_slow(me, ompt_scope_end, n, codeptr_ra, nullptr);
  // The pattern's privates were constructed; they are destroyed with it.
  if (ph->flags & kFlagDestructors) pattern->data1.destructors(me->gtid, pattern);
  task_discard(me, ph->task);
}

}  // namespace

extern "C" {

KITE_EXPORT void __kmpc_taskloop(ident_t*, kmp_int32, void* task, int if_val, kmp_uint64* lb,
                                 kmp_uint64* ub, kmp_int64 st, int nogroup, int sched,
                                 kmp_uint64 grainsize, void* task_dup) {
  taskloop(task, if_val, lb, ub, st, nogroup, sched, grainsize, false, task_dup,
           KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

// clang 15+: `modifier` is the strict modifier of grainsize / num_tasks.
KITE_EXPORT void __kmpc_taskloop_5(ident_t*, kmp_int32, void* task, int if_val, kmp_uint64* lb,
                                   kmp_uint64* ub, kmp_int64 st, int nogroup, int sched,
                                   kmp_uint64 grainsize, int modifier, void* task_dup) {
  taskloop(task, if_val, lb, ub, st, nogroup, sched, grainsize, modifier != 0, task_dup,
           KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"
