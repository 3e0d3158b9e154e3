// OMPT state carried by the runtime model: embedded in kite::Thread,
// kite::Task and kite::Team (team.h) so that the inquiry entry points answer
// from plain loads, from any thread, even inside a signal handler.
//
// This header knows nothing of the runtime model; callbacks.h joins the two.
#pragma once

#include <omp-tools.h>
#include <stdint.h>

namespace kite {
namespace ompt {

struct ThreadState {
  ompt_data_t thread_data;  // the tool's, ompt_data_none when the thread starts
  int state;                // ompt_state_t, written only by the thread itself
  ompt_wait_id_t wait_id;   // what the thread waits for, when state says so
  // The worksharing construct in progress (src/ompt/events_ws.cpp):
  // ompt_work_t, 0 for none, and its codeptr_ra.
  int work;
  const void* work_ra;
};

struct TaskState {
  ompt_data_t task_data;
  ompt_frame_t frame;
  // Only meaningful for initial tasks: the implicit parallel region that
  // encloses an initial task has no Team object, so its data lives here.
  ompt_data_t implicit_parallel_data;
  // Explicit tasks (src/ompt/events_task.cpp): the ompt_task_flag_t bits
  // reported at creation, and the thread that runs the task (tied tasks
  // never move), for ompt_get_task_info.
  int flags;
  int thread_num;
};

struct TeamState {
  ompt_data_t parallel_data;
  const void* codeptr_ra;     // return address of the construct's ABI call
  unsigned requested;         // requested team size (parallel_begin)
  int flags;                  // ompt_parallel_flag_t bits of the region
};

}  // namespace ompt
}  // namespace kite
