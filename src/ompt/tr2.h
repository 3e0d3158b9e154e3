// The draft OMPT interfaces: TR2 (2014, include/ompt-tr2.h) and the 2013
// proposal (include/ompt-2013.h). Both are served from the OMPT emitters'
// slow halves, as ORA is (ora.h): a draft tool's accepting ompt_initialize
// makes ompt::g_active true, so an event site still tests one flag; each
// hook below costs one more test of g_live, made only on a slow half.
//
// Only one OMPT interface is active in a process: the 5.x one when an
// ompt_start_tool returned a tool, else a draft one when the process
// defines ompt_initialize. A draft tool owns the 5.x ompt_data_t slots of
// threads and tasks the runtime keeps: TR2's thread and task ids live in
// them (the 2013 form hands them to the tool as its data); parallel ids are
// the regions' numbers from 1 (TeamState::ora_id).
#pragma once

#include "core/team.h"

namespace kite {
namespace tr2 {

// TR2's event numbers: the index of the callback table for both forms (a
// 2013 tool's numbers are translated at registration).
enum Event {
  kParallelBegin = 1, kParallelEnd, kTaskBegin, kTaskEnd, kThreadBegin, kThreadEnd, kControl,
  kRuntimeShutdown, kIdleBegin, kIdleEnd, kWaitBarrierBegin, kWaitBarrierEnd,
  kWaitTaskwaitBegin, kWaitTaskwaitEnd, kWaitTaskgroupBegin, kWaitTaskgroupEnd, kReleaseLock,
  kReleaseNestLockLast, kReleaseCritical, kReleaseAtomic, kReleaseOrdered, kImplicitTaskBegin,
  kImplicitTaskEnd, kInitialTaskBegin, kInitialTaskEnd, kTaskSwitch, kLoopBegin, kLoopEnd,
  kSectionsBegin, kSectionsEnd, kSingleInBlockBegin, kSingleInBlockEnd, kSingleOthersBegin,
  kSingleOthersEnd, kWorkshareBegin, kWorkshareEnd, kMasterBegin, kMasterEnd, kBarrierBegin,
  kBarrierEnd, kTaskwaitBegin, kTaskwaitEnd, kTaskgroupBegin, kTaskgroupEnd,
  kReleaseNestLockPrev, kWaitLock, kWaitNestLock, kWaitCritical, kWaitAtomic, kWaitOrdered,
  kAcquiredLock, kAcquiredNestLockFirst, kAcquiredNestLockNext, kAcquiredCritical,
  kAcquiredAtomic, kAcquiredOrdered, kInitLock, kInitNestLock, kDestroyLock, kDestroyNestLock,
  kFlush,
  kLastEvent = kFlush
};

enum class Form { kNone, kTr2, k2013 };

// A draft tool's ompt_initialize accepted and the runtime is not shut down.
extern std::atomic<bool> g_live;
inline bool live() { return KITE_UNLIKELY(g_live.load(std::memory_order_relaxed)); }
// Which form registered (or asked) first; kNone before.
Form form();
// ompt_initialize is running.
bool initializing();

// --- activation (activate.cpp, once no ompt_start_tool gave a tool) ---------
enum class Outcome { kNone, kDeclined, kAccepted };
// Looks up ompt_initialize in the global scope and calls it; `where` gets
// the object that defines it (for OMP_TOOL_VERBOSE_INIT).
Outcome activate(const char** where);
bool attached();

// --- the hooks, called from the emitters' slow halves ------------------------
void thread_begin_slow(Thread* t, bool worker, void* cfa);
void thread_end_slow(Thread* t);
void initial_task_slow(Thread* t, bool begin);
void parallel_slow(Thread* me, Team* team, bool begin);
void implicit_task_slow(Thread* me, Team* team, int tid, bool begin);
void idle_slow(Thread* me, bool begin);
void barrier_slow(Thread* me, bool begin);
void task_create_slow(Thread* me, Task* t);
void task_schedule_slow(Task* prior, int status, Task* next);
void task_sync_slow(Thread* me, int kind, bool begin, bool wait);
void mutex_slow(Thread* me, int what, int kind, const void* wait_id);
void work_slow(Thread* me, int work, bool begin, const void* codeptr_ra);
void master_slow(Thread* me, bool begin);
void flush_slow(Thread* me);

// The thread and its initial task (on_thread_begin_slow, on_initial_thread);
// cfa: the canonical frame address of the emitter, whose caller a worker
// runs its idle loop from.
inline void thread_begin(Thread* t, bool worker, void* cfa) {
  if (live()) thread_begin_slow(t, worker, cfa);
}
inline void thread_end(Thread* t) {
  if (live()) thread_end_slow(t);
}
inline void initial_task(Thread* t, bool begin) {
  if (live()) initial_task_slow(t, begin);
}
// The primary, after the region's ids are set (begin) or after the join.
inline void parallel(Thread* me, Team* team, bool begin) {
  if (live()) parallel_slow(me, team, begin);
}
inline void implicit_task(Thread* me, Team* team, int tid, bool begin) {
  if (live()) implicit_task_slow(me, team, tid, begin);
}
// A worker waits in the pool for work (begin) or leaves it.
inline void idle(Thread* me, bool begin) {
  if (live()) idle_slow(me, begin);
}
// Any barrier, once the wait state is set (begin) or before it is left:
// barrier_begin and wait_barrier_begin, or wait_barrier_end and barrier_end.
inline void barrier(Thread* me, bool begin) {
  if (live()) barrier_slow(me, begin);
}
inline void task_create(Thread* me, Task* t) {
  if (live()) task_create_slow(me, t);
}
// Every ompt_callback_task_schedule occurrence (prior, ompt_task_status_t, next).
inline void task_schedule(Task* prior, int status, Task* next) {
  if (live()) task_schedule_slow(prior, status, next);
}
// taskwait / taskgroup (kind: ompt_sync_region_t): the construct
// (wait=false) or its wait (wait=true, after the wait state is set).
inline void task_sync(Thread* me, int kind, bool begin, bool wait) {
  if (live()) task_sync_slow(me, kind, begin, wait);
}
// Mutexes: what is one of the values below, kind an ompt_mutex_t.
enum MutexWhat { kMutexWait, kMutexAcquired, kMutexReleased, kNestNext, kNestPrev, kLockInit,
                 kLockDestroy };
inline void mutex(Thread* me, int what, int kind, const void* wait_id) {
  if (live()) mutex_slow(me, what, kind, wait_id);
}
// Worksharing (work: ompt_work_t) begin/end.
inline void work(Thread* me, int work, bool begin, const void* codeptr_ra) {
  if (live()) work_slow(me, work, begin, codeptr_ra);
}
inline void master(Thread* me, bool begin) {
  if (live()) master_slow(me, begin);
}
inline void flush(Thread* me) {
  if (live()) flush_slow(me);
}

// --- shared with the 2013 form (tr2_2013.cpp) -----------------------------------
// Registers `cb` for TR2 event `e` on behalf of `who`; the answer (0-4).
int set_callback(Form who, int e, void (*cb)(void));
int get_callback(Form who, int e, void (**cb)(void));
// The calling thread's state in the drafts' numbering, and its wait id.
int state(uint64_t* wait_id);
int enumerate_state(int current, int* next, const char** name);
const Team* team_at(int ancestor_level);
Task* task_at(int depth);
void* idle_frame();
void* parallel_function(const Team* team);
// The program's function a task runs (an implicit task's region's); none for
// an initial task.
void* task_function(const Task* t);
void control(uint64_t command, uint64_t modifier);
extern const char kRuntimeVersion[];

}  // namespace tr2
}  // namespace kite
