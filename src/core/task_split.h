// Tasks created in two steps, for ABIs where the compiler fills in the
// task's data block itself after the runtime allocated it, and gives the
// dependences (and the choice between deferred and undeferred execution)
// only when the task is handed back: the LLVM ABI's task_alloc, then
// omp_task / omp_task_with_deps / task_begin_if0.
#pragma once

#include "team.h"

namespace kite {

// One dependence item, ABI-independent. omp_all_memory comes as out or
// inout (the same ordering; a tool is told which).
enum class DependType : uint8_t {
  kIn,
  kOut,
  kInout,
  kMutexinoutset,
  kInoutset,
  kAllMemoryOut,
  kAllMemoryInout
};
struct DependItem {
  void* addr;
  DependType type;
};

// A descriptor with an uninitialized data block of spec.arg_size bytes
// (spec.data and spec.cpyfn are ignored, spec.depend must be null).
Task* task_create_unfilled(Thread* me, const TaskSpec& spec, void** block);

// For tools, captured at the ABI boundary: the call's return address and
// CFA; for a task of a taskloop, its chunk (first iteration, count), which
// reports it as the taskloop's (task_create, then its dispatch).
struct HandOverTrace {
  const void* codeptr_ra = nullptr;
  void* enter_frame = nullptr;
  bool taskloop_chunk = false;
  uint64_t first = 0;
  uint64_t count = 0;
};

// Hands the task over: deferred unless if_clause is false or it must run
// now (no team, final parent, a long local queue); after its dependences
// are met. With a tool, task_create (and the dependences) come first.
void task_hand_over(Thread* me, Task* t, const DependItem* deps, int ndeps, int priority,
                    bool if_clause = true, const HandOverTrace& trace = HandOverTrace());

// Disposes of a task that is never to run (the LLVM ABI's taskloop pattern,
// of which the real tasks are copies).
void task_discard(Thread* me, Task* t);

// Undeferred execution with the body called by the compiler between the
// two: begin makes `t` the thread's current task, end completes it.
// codeptr_ra / enter_frame: the begin call's; exit_frame: stands for the
// runtime's frame below the body (the begin call's CFA), for tools.
void task_undeferred_begin(Thread* me, Task* t, const void* codeptr_ra = nullptr,
                           void* enter_frame = nullptr);
void task_undeferred_end(Thread* me, Task* t);

// Makes `t` complete only when both its body ended and the returned event
// was fulfilled (omp_fulfill_event); call before handing it over.
void* task_allow_completion_event(Task* t);

// Waits until the sibling tasks these items depend on are complete.
// codeptr_ra / enter_frame: the ABI call's, for tools.
void task_wait_depend(Thread* me, const DependItem* deps, int ndeps,
                      const void* codeptr_ra = nullptr, void* enter_frame = nullptr);

// The same wait for an undeferred task `t` not yet begun (the LLVM ABI's
// if(0) task with depend clauses, whose dependences come before
// task_undeferred_begin): `t` takes the items as its own dependences, is
// reported created with them, and waits as its own node of the graph, so
// tools see its dependences and edges on it; task_undeferred_begin does not
// report it again, and its completion releases the dependences.
void task_undeferred_wait_depend(Thread* me, Task* t, const DependItem* deps, int ndeps,
                                 const void* codeptr_ra = nullptr, void* enter_frame = nullptr);

}  // namespace kite
