// The block behind each task created through the LLVM ABI: a small Kite
// header, then the kmp_task_t the compiler fills in (its privates follow
// it, within sizeof_kmp_task_t bytes), then the shared-variable pointers.
// The core allocates the block with the task descriptor.
#pragma once

#include "abi/kmpc/kmpc.h"
#include "core/task_split.h"

extern "C" {

typedef kmp_int32 (*kmp_routine_entry_t)(kmp_int32 gtid, void* task);

union kmp_cmplrdata_t {
  kmp_int32 priority;
  kmp_routine_entry_t destructors;
};

struct kmp_task_t {
  void* shareds;
  kmp_routine_entry_t routine;
  kmp_int32 part_id;
  kmp_cmplrdata_t data1;  // destructors thunk
  kmp_cmplrdata_t data2;  // priority
};

}  // extern "C"

namespace kite::kmpc {

// kmp_tasking_flags_t bits that clang sets.
constexpr kmp_int32 kFlagTied = 0x1;
constexpr kmp_int32 kFlagFinal = 0x2;
constexpr kmp_int32 kFlagDestructors = 0x8;
constexpr kmp_int32 kFlagProxy = 0x10;  // completed by __kmpc_proxy_task_completed(_ooo)
constexpr kmp_int32 kFlagPriority = 0x20;

// clang lays out the privates behind kmp_task_t at their own alignment
// and assumes the block is cache-line aligned (as libomp allocates it): a
// 64-byte header behind a 64-byte aligned start keeps kmp_task_t there.
struct alignas(64) Header {
  Task* task;           // the core descriptor
  size_t block_size;    // header included
  kmp_int32 flags;
  // Untied task parts: clang's task entry, at a task switching point, sets
  // the next part_id, hands the running task back (__kmpc_omp_task) and
  // returns. Kite continues the task on the same thread (a tied schedule is
  // a valid one for an untied task), so a hand-back only asks for another
  // call of the entry.
  bool running;
  bool resumed;
};

inline Header* header_of(void* task) { return static_cast<Header*>(task) - 1; }
inline kmp_task_t* task_of(Header* h) { return reinterpret_cast<kmp_task_t*>(h + 1); }

// The task this thread allocated last and has not handed over, begun or
// given to a taskloop yet: an if(0) task with depend clauses waits for its
// dependences (__kmpc_omp_wait_deps) between its allocation and
// __kmpc_omp_task_begin_if0, and that wait is the task's own (task.cpp).
extern __thread Header* t_unclaimed_task;

// A task whose kmp_task_t (with privates) takes task_size bytes and whose
// shareds take shareds_size; the kmp_task_t fields are initialized.
Header* new_task_block(Thread* me, kmp_int32 flags, size_t task_size, size_t shareds_size,
                       kmp_routine_entry_t entry);

// Runs the task's entry until it has no part left, then its destructors.
void run_task_parts(Header* h);

// What __kmpc_omp_task does with a task (task.cpp), for entry points that
// hand one over the same way; codeptr_ra / enter_frame: the program's call.
kmp_int32 task_hand_back_at(void* new_task, const void* codeptr_ra, void* enter_frame);

}  // namespace kite::kmpc
