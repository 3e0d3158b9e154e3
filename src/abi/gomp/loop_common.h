// What the libgomp loop adapters (long, unsigned long long, combined forms)
// share: schedule constants, and handing a core chunk back through the
// compiler's istart/iend pointers in the loop's own integer type.
#pragma once

#include "abi/gomp/gomp.h"
#include "core/loop.h"

namespace kite {
namespace gomp {

constexpr int kStatic = int(Sched::kStatic);
constexpr int kDynamic = int(Sched::kDynamic);
constexpr int kGuided = int(Sched::kGuided);

// Enters the loop `spec` describes and stores the caller's first chunk.
// A null istart (gcc's task-reduction form) only enters the construct.
template <class T>
inline bool start_chunk(const LoopSpec& spec, T* istart, T* iend) {
  LoopChunk c;
  if (!istart) return loop_start(self(), spec, nullptr);
  if (!loop_start(self(), spec, &c)) return false;
  *istart = static_cast<T>(c.istart);
  *iend = static_cast<T>(c.iend);
  return true;
}

template <class T>
inline bool next_chunk(T* istart, T* iend) {
  LoopChunk c;
  if (!loop_next(self(), &c)) return false;
  *istart = static_cast<T>(c.istart);
  *iend = static_cast<T>(c.iend);
  return true;
}

}  // namespace gomp
}  // namespace kite
