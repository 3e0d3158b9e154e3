// libgomp ABI: the taskloop construct (long and unsigned long long loops).
#include "abi/gomp/gomp.h"

using namespace kite;

namespace {

enum : unsigned {  // gcc's gomp-constants.h
  kFlagUntied = 1u << 0,
  kFlagFinal = 1u << 1,
  kFlagMergeable = 1u << 2,
  kFlagUp = 1u << 8,
  kFlagGrainsize = 1u << 9,
  kFlagIf = 1u << 10,
  kFlagNogroup = 1u << 11,
  kFlagReduction = 1u << 12,
  kFlagStrict = 1u << 14,
};

TaskloopSpec spec_from(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size,
                       long arg_align, unsigned flags, unsigned long num_tasks, int priority) {
  TaskloopSpec s{};
  s.task.fn = fn;
  s.task.data = data;
  s.task.cpyfn = cpyfn;
  s.task.arg_size = arg_size;
  s.task.arg_align = arg_align;
  s.task.if_clause = (flags & kFlagIf) != 0;
  s.task.final = (flags & kFlagFinal) != 0;
  s.task.untied = (flags & kFlagUntied) != 0;
  s.task.mergeable = (flags & kFlagMergeable) != 0;
  s.task.priority = priority;
  s.num_tasks = num_tasks;
  s.grainsize = (flags & kFlagGrainsize) != 0;
  s.strict = (flags & kFlagStrict) != 0;
  s.nogroup = (flags & kFlagNogroup) != 0;
  s.reduction = (flags & kFlagReduction) != 0;
  s.up = (flags & kFlagUp) != 0;
  return s;
}

}  // namespace

extern "C" {

KITE_EXPORT void GOMP_taskloop(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                               long arg_size, long arg_align, unsigned flags,
                               unsigned long num_tasks, int priority, long start, long end,
                               long step) {
  TaskloopSpec s = spec_from(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority);
  s.is_ull = false;
  s.start = start;
  s.end = end;
  s.step = step;
  s.task.codeptr_ra = KITE_RETURN_ADDRESS();
  s.task.enter_frame = __builtin_dwarf_cfa();
  taskloop(self(), s);
}

KITE_EXPORT void GOMP_taskloop_ull(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*),
                                   long arg_size, long arg_align, unsigned flags,
                                   unsigned long num_tasks, int priority,
                                   unsigned long long start, unsigned long long end,
                                   unsigned long long step) {
  TaskloopSpec s = spec_from(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority);
  s.is_ull = true;
  s.start = static_cast<long long>(start);
  s.end = static_cast<long long>(end);
  s.step = static_cast<long long>(step);
  s.task.codeptr_ra = KITE_RETURN_ADDRESS();
  s.task.enter_frame = __builtin_dwarf_cfa();
  taskloop(self(), s);
}

}  // extern "C"
