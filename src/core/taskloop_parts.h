// How a taskloop's iterations are divided into tasks: the one rule used by
// the core's taskloop (gcc's entry points) and by the LLVM ABI, which
// creates the tasks itself from a pattern task.
#pragma once

#include "base.h"

namespace kite {

struct TaskloopParts {
  unsigned long long ntasks;
  unsigned long long per;    // iterations of each task...
  unsigned long long extra;  // ...plus one for the first `extra` tasks
  unsigned long long last;   // strict grainsize: the last task's count (0: unused)
};

// `n` iterations; `grainsize` selects what `value` means (grainsize or
// num_tasks; 0 = default: one task per thread of the team).
TaskloopParts taskloop_parts(unsigned long long n, bool grainsize, unsigned long long value,
                             bool strict, int nthreads);

// Iterations of task i.
inline unsigned long long taskloop_part_size(const TaskloopParts& p, unsigned long long i) {
  if (p.last && i == p.ntasks - 1) return p.last;
  return p.per + (i < p.extra ? 1 : 0);
}

}  // namespace kite
