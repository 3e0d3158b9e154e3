// Task reductions whose initializer and combiner the runtime calls (the
// LLVM ABI's task_reduction / in_reduction / reduction(task, ...)): each
// thread of the team that runs a participating task gets its own copy of
// each item, made on first use; when the reduction ends, the copies are
// combined into the shared item and finalized.
#pragma once

#include "team.h"

namespace kite {

struct TaskredItem {
  void* shared;
  void* orig;   // passed to the two-argument initializer
  size_t size;
  void (*init1)(void* priv);              // one of these (or none: zero fill)
  void (*init2)(void* priv, void* orig);
  void (*fini)(void* priv);               // may be null
  void (*comb)(void* shared, void* priv);
};

struct Taskred {
  int nitems;
  int nthreads;
  TaskredItem* items;
  void** copies;    // [nitems * nthreads], null until first use
  // For the caller's bookkeeping (which construct ends the reduction).
  Taskred* link;
  const void* key;
};

// Copies for the threads of the calling thread's team.
Taskred* taskred_create(Thread* me, int nitems, const TaskredItem* items);
// The calling thread's copy of the item at `addr` (its shared address, or
// an address inside any thread's copy); null when no item matches.
void* taskred_private(Thread* me, Taskred* r, void* addr);
// After every participating task completed: combine, finalize, free.
void taskred_finish(Taskred* r);

}  // namespace kite
