// omp_control_tool (OpenMP 5.2 §18.14): a program's message to its tool.
//
// libgomp 12 neither exports nor declares it (gcc's omp.h has no
// prototype), so Kite exports it under its own version node, KITE_1.0,
// which programs built against libgomp never reference: their symbol set is
// unchanged. Kite's omp.h declares it, as the specification's header does.
#include "ompt/events_mutex.h"

extern "C" KITE_EXPORT int omp_control_tool(int command, int modifier, void* arg) {
  // The thread record first: making it activates the tool if this is the
  // program's first OpenMP call.
  kite::Thread* me = kite::self();
  return kite::ompt::control_tool(me, static_cast<uint64_t>(command),
                                  static_cast<uint64_t>(modifier), arg,
                                  __builtin_return_address(0), __builtin_dwarf_cfa());
}
