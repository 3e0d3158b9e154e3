// omp_* routines that query or set the team, nesting and thread ICVs.
#include <limits.h>

#include "core/team.h"

using namespace kite;

namespace {

inline TaskIcvs& icv() { return self()->task->icv; }

// The team that executes nesting level `level` for the calling thread, and
// the thread number the caller's ancestor has in it.
const Team* team_at_level(const Thread* me, int level, int* tid) {
  const Team* t = me->team;
  int id = me->tid;
  while (t && t->level > level) {
    id = t->parent_tid;
    t = t->parent;
  }
  if (tid) *tid = id;
  return (t && t->level == level) ? t : nullptr;
}

}  // namespace

extern "C" {

KITE_EXPORT void omp_set_num_threads(int n) {
  if (n < 1) {
    warn("omp_set_num_threads(%d): the value must be positive; using 1", n);
    n = 1;
  }
  icv().nthreads = n;
}

KITE_EXPORT int omp_get_num_threads(void) {
  const Team* t = self()->team;
  return t ? t->nthreads : 1;
}

KITE_EXPORT int omp_get_max_threads(void) { return icv().nthreads; }

KITE_EXPORT int omp_get_thread_num(void) {
  const Thread* me = self();
  return me->team ? me->tid : 0;
}

KITE_EXPORT int omp_in_parallel(void) {
  const Team* t = self()->team;
  return t && t->active_level > 0;
}

KITE_EXPORT void omp_set_dynamic(int on) { icv().dyn = on != 0; }
KITE_EXPORT int omp_get_dynamic(void) { return icv().dyn; }

KITE_EXPORT void omp_set_nested(int on) {
  TaskIcvs& i = icv();
  if (on) {
    if (i.max_active_levels <= 1) i.max_active_levels = kSupportedActiveLevels;
  } else {
    i.max_active_levels = 1;
  }
}

KITE_EXPORT int omp_get_nested(void) { return icv().max_active_levels > 1; }

KITE_EXPORT void omp_set_schedule(int kind, int chunk) {
  int base = kind & ~kSchedMonotonic;
  if (base < int(Sched::kStatic) || base > int(Sched::kAuto)) {
    warn("omp_set_schedule: unknown schedule kind %d; the schedule is unchanged", kind);
    return;
  }
  TaskIcvs& i = icv();
  i.sched = kind;
  // A chunk below 1 selects the default chunk; auto takes no chunk.
  i.sched_chunk = (chunk < 1 || base == int(Sched::kAuto)) ? 0 : chunk;
}

KITE_EXPORT void omp_get_schedule(int* kind, int* chunk) {
  const TaskIcvs& i = icv();
  if (kind) *kind = i.sched;
  if (chunk) {
    long c = i.sched_chunk;
    // Static's default chunk is reported as 0, the others' as 1.
    if (c < 1) c = ((i.sched & ~kSchedMonotonic) == int(Sched::kStatic)) ? 0 : 1;
    *chunk = c > INT_MAX ? INT_MAX : int(c);
  }
}

KITE_EXPORT int omp_get_thread_limit(void) { return icv().thread_limit; }

KITE_EXPORT void omp_set_max_active_levels(int levels) {
  if (levels < 0) {
    warn("omp_set_max_active_levels(%d): the value must be non-negative; ignored", levels);
    return;
  }
  icv().max_active_levels = levels > kSupportedActiveLevels ? kSupportedActiveLevels : levels;
}

KITE_EXPORT int omp_get_max_active_levels(void) { return icv().max_active_levels; }

KITE_EXPORT int omp_get_supported_active_levels(void) { return kSupportedActiveLevels; }

KITE_EXPORT int omp_get_level(void) {
  const Team* t = self()->team;
  return t ? t->level : 0;
}

KITE_EXPORT int omp_get_active_level(void) {
  const Team* t = self()->team;
  return t ? t->active_level : 0;
}

KITE_EXPORT int omp_get_ancestor_thread_num(int level) {
  if (level == 0) return 0;
  const Thread* me = self();
  if (level < 0) return -1;
  int tid = 0;
  return team_at_level(me, level, &tid) ? tid : -1;
}

KITE_EXPORT int omp_get_team_size(int level) {
  if (level == 0) return 1;
  if (level < 0) return -1;
  const Team* t = team_at_level(self(), level, nullptr);
  return t ? t->nthreads : -1;
}

}  // extern "C"
