// The runtime's half of OMPD (OpenMP 5.2 chapter 20), inside libkite.so:
// OMP_DEBUG, the list of thread records a debugger can map OS threads to,
// and the breakpoint functions.
//
// Everything here is reached from the slow halves of the OMPT emitters
// (src/ompt), which run only while the runtime keeps OMPT state: with a
// tool attached, or with OMP_DEBUG=enabled, which turns that bookkeeping on
// without a tool (ompt/activate.cpp). So a program with neither pays nothing
// new at any event site: the one predictable branch on ompt::g_active it
// already had. With a tool and without OMP_DEBUG, each breakpoint site is
// one more predictable branch on g_debugging.
#pragma once

#include <omp-tools.h>

#include "core/base.h"

namespace kite {

struct Thread;

namespace ompd {

// One thread record the debugger can find, linked from kite_ompd_threads.
// Records are never freed (team.cpp), and neither are these; a recycled
// user-thread record keeps its node and gets the new thread's id.
struct DebugThread {
  Thread* thread;
  long lwp;  // Linux thread id; 0 once the thread ended
  DebugThread* next;
};

// OMP_DEBUG=enabled (debug-var): the breakpoint functions are called.
extern int g_debugging;

// Reads OMP_DEBUG; true when it asks for debugging. Called once, by the
// activation of the OMPT interface.
bool debug_from_environment();
// The OMPT state (thread states, wait ids, frames) is kept from now on.
void tracking_started();

// The calling thread begins or ends (runs on that thread): its record is
// listed with its thread id, and ompd_bp_thread_begin/end are called.
void thread_begins(Thread* t);
void thread_ends(Thread* t);

// ompd_bp_parallel_begin/end need the thread's view adjusted around them
// (the region and the encountering task): ompt/events.cpp calls them.
inline void bp_task_begin() {
  if (KITE_UNLIKELY(g_debugging)) ompd_bp_task_begin();
}
inline void bp_task_end() {
  if (KITE_UNLIKELY(g_debugging)) ompd_bp_task_end();
}

}  // namespace ompd
}  // namespace kite
