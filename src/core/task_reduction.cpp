// Task reductions (task_reduction / in_reduction, reduction(task, ...)).
//
// gcc describes the reduction items of a construct in an array of
// uintptr_t, which the runtime completes:
//   [0] number of items          [1] bytes of one thread's private copies
//   [2] alignment; the runtime replaces it by the copies' base address
//   [3] allocator (-1: default)  [4] next array of the same construct; the
//       runtime links the last one to the arrays of the enclosing taskgroup
//   [5] runtime use (here: marks the first array of a registration)
//   [6] runtime: end of the private copies
//   then per item, 3 words: original address, offset in a thread's copy,
//   runtime use.
// Thread i's copy of an item is at [2] + i * [1] + offset. The compiler
// initializes and combines the copies; the runtime allocates them and maps
// addresses (GOMP_task_reduction_remap).
#include <string.h>

#include "team.h"

namespace kite {

namespace {

inline uintptr_t* next_of(uintptr_t* d) { return reinterpret_cast<uintptr_t*>(d[4]); }

inline int team_size(Thread* me) { return me->team ? me->team->nthreads : 1; }

}  // namespace

void task_reduction_setup(uintptr_t* data, uintptr_t* prev, uintptr_t* orig, int nthreads) {
  uintptr_t* d = data;
  for (;;) {
    if (orig) {
      // A worksharing construct: the thread that initialized it allocated.
      d[2] = orig[2];
      d[6] = orig[6];
      orig = next_of(orig);
    } else {
      size_t align = d[2];
      if (align < sizeof(void*) || (align & (align - 1)) != 0) align = 2 * sizeof(void*);
      size_t bytes = d[1] * static_cast<size_t>(nthreads);
      void* p = xaligned_alloc(align, bytes);
      memset(p, 0, bytes);
      d[2] = reinterpret_cast<uintptr_t>(p);
      d[6] = d[2] + bytes;
    }
    d[5] = 0;
    if (d[4] == 0) {
      d[4] = reinterpret_cast<uintptr_t>(prev);
      break;
    }
    d = next_of(d);
  }
  data[5] = reinterpret_cast<uintptr_t>(data);
}

void task_reduction_register(Thread* me, uintptr_t* data) {
  Task* cur = me->task;
  if (!cur->rt.taskgroup) taskgroup_start(me);  // compiler opens one; be safe
  Taskgroup* tg = cur->rt.taskgroup;
  task_reduction_setup(data, tg->reductions, nullptr, team_size(me));
  tg->reductions = data;
}

void task_reduction_unregister(uintptr_t* data) {
  // Frees the copies of this registration's arrays, stopping at the arrays
  // of the enclosing registration (they start with their own mark).
  uintptr_t* d = data;
  do {
    xfree(reinterpret_cast<void*>(d[2]));
    d = next_of(d);
  } while (d && d[5] == 0);
}

void task_reduction_remap(Thread* me, size_t cnt, size_t cntorig, void** ptrs) {
  Taskgroup* tg = me->task ? me->task->rt.taskgroup : nullptr;
  uintptr_t* chain = tg ? tg->reductions : nullptr;
  const uintptr_t id = me->team ? static_cast<uintptr_t>(me->tid) : 0;
  for (size_t i = 0; i < cnt; ++i) {
    const uintptr_t p = reinterpret_cast<uintptr_t>(ptrs[i]);
    bool found = false;
    // An original list item...
    for (uintptr_t* d = chain; d && !found; d = next_of(d)) {
      for (uintptr_t j = 0; j < d[0]; ++j) {
        if (d[7 + 3 * j] != p) continue;
        ptrs[i] = reinterpret_cast<void*>(d[2] + id * d[1] + d[7 + 3 * j + 1]);
        if (i < cntorig) ptrs[cnt + i] = reinterpret_cast<void*>(p);
        found = true;
        break;
      }
    }
    // ...or some thread's private copy of one.
    for (uintptr_t* d = chain; d && !found; d = next_of(d)) {
      if (p < d[2] || p >= d[6]) continue;
      uintptr_t off = (p - d[2]) % d[1];
      ptrs[i] = reinterpret_cast<void*>(d[2] + id * d[1] + off);
      found = true;
      if (i < cntorig) {
        bool orig = false;
        for (uintptr_t j = 0; j < d[0]; ++j) {
          if (d[7 + 3 * j + 1] == off) {
            ptrs[cnt + i] = reinterpret_cast<void*>(d[7 + 3 * j]);
            orig = true;
            break;
          }
        }
        if (!orig) fatal("in_reduction: no reduction item at offset %lu of %p", off, (void*)d);
      }
    }
    if (!found)
      fatal("in_reduction: %p is not an item of an enclosing task_reduction or "
            "reduction(task, ...)", reinterpret_cast<void*>(p));
  }
}

// --- reduction(task, ...) on parallel ----------------------------------------

namespace {

struct ParallelReduction {
  void (*fn)(void*);
  void* data;
  Taskgroup* tg;
  int nthreads;
};

void parallel_reduction_body(void* arg) {
  ParallelReduction* pr = static_cast<ParallelReduction*>(arg);
  Thread* me = self();
  // Every implicit task sees the region's reductions; its explicit tasks
  // inherit them at creation.
  me->task->rt.taskgroup = pr->tg;
  if (me->tid == 0) pr->nthreads = me->team->nthreads;
  pr->fn(pr->data);
  if (me->task->rt.taskgroup == pr->tg) me->task->rt.taskgroup = nullptr;
}

}  // namespace

unsigned parallel_with_task_reductions(void (*fn)(void*), void* data, unsigned num_threads,
                                       unsigned flags_bind, const void* codeptr_ra,
                                       void* enter_frame) {
  Thread* me = self();
  ForkSpec spec;
  spec.codeptr_ra = codeptr_ra;
  spec.enter_frame = enter_frame;
  spec.num_threads = static_cast<int>(num_threads);
  spec.proc_bind = (flags_bind & 7) ? static_cast<int>(flags_bind & 7) : -1;
  spec.if_clause = true;
  int n = threads_for_region(spec, me);
  spec.num_threads = n;
  uintptr_t* rdata = *static_cast<uintptr_t**>(data);
  Taskgroup* tg = taskgroup_new(me, nullptr);
  task_reduction_setup(rdata, nullptr, nullptr, n);
  tg->reductions = rdata;
  ParallelReduction pr{fn, data, tg, n};
  parallel(spec, parallel_reduction_body, &pr);
  taskgroup_free(me, tg);
  return static_cast<unsigned>(pr.nthreads);
}

// --- reduction(task, ...) on worksharing constructs -------------------------

void ws_task_reductions_register(Thread* me, uintptr_t* reductions, uintptr_t* first) {
  Task* cur = me->task;
  Taskgroup* tg = taskgroup_new(me, cur->rt.taskgroup);
  tg->workshare = true;
  cur->rt.taskgroup = tg;
  task_reduction_setup(reductions, tg->reductions, first, team_size(me));
  tg->reductions = reductions;
}

void ws_task_reductions_unregister(Thread* me, bool cancelled, const void* codeptr_ra) {
  Taskgroup* tg = me->task->rt.taskgroup;
  if (!tg || !tg->workshare) {
    warn("GOMP_workshare_task_reduction_unregister without a worksharing task reduction; ignored");
    return;
  }
  uintptr_t* data = tg->reductions;
  taskgroup_end(me, codeptr_ra);
  // Every thread registered its own array, all sharing the copies; the
  // construct's barrier has passed, so one thread frees them.
  if (!me->team || me->tid == 0) task_reduction_unregister(data);
  if (!cancelled) team_barrier(me);
}

}  // namespace kite
