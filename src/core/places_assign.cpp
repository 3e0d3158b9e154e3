// Which place each thread of a new team runs on, and which places it may
// hand to nested teams (its place partition): OpenMP 5.2 §10.1.3,
// "Controlling OpenMP Thread Affinity".
#include <sched.h>

#include "places.h"

namespace kite {

namespace {

// The place of the primary thread's processor inside [lo, hi], or lo.
int place_of_current_cpu(int lo, int hi) {
  int cpu = sched_getcpu();
  int ids[64];
  for (int p = lo; p <= hi; ++p) {
    int n = place_procs(p, ids, 64);
    for (int k = 0; k < n && k < 64; ++k)
      if (ids[k] == cpu) return p;
  }
  return lo;
}

// T > P: consecutive thread numbers share a place; the first T mod P
// places (counting from the primary's) take one thread more.
void fill_groups(Team* team, int T, int P, int lo, int first, bool own_partition, int plo,
                 int phi) {
  int base = T / P, extra = T % P;
  int tid = 0;
  for (int j = 0; j < P && tid < T; ++j) {
    int place = lo + (first - lo + j) % P;
    int size = base + (j < extra ? 1 : 0);
    for (int s = 0; s < size && tid < T; ++s, ++tid) {
      Team::PlaceAssign& a = team->places[tid];
      a.place = place;
      a.lo = own_partition ? place : plo;
      a.hi = own_partition ? place : phi;
    }
  }
}

}  // namespace

void places_assign(Team* team, int bind, Thread* primary) {
  team->bound = false;
  // Binding only happens when bind-var is not false; a proc_bind clause
  // picks the policy but does not switch binding on.
  if (primary->task->icv.bind == int(ProcBind::kFalse) || bind == int(ProcBind::kFalse)) return;
  int nplaces = places_count();
  if (nplaces == 0) return;
  int lo = primary->place_lo, hi = primary->place_hi;
  if (lo < 0 || hi >= nplaces || lo > hi) {
    lo = 0;
    hi = nplaces - 1;
  }
  int p = primary->place;
  if (p < lo || p > hi) {
    p = place_of_current_cpu(lo, hi);
    places_bind_self(primary, p);
  }
  const int T = team->nthreads, P = hi - lo + 1;

  switch (bind) {
    case int(ProcBind::kPrimary):
      for (int i = 0; i < T; ++i) team->places[i] = {p, lo, hi};
      break;
    case int(ProcBind::kSpread):
      if (T > P) {
        fill_groups(team, T, P, lo, p, true, lo, hi);
      } else {
        // T subpartitions of P/T or P/T+1 consecutive places; the primary
        // keeps its place and the subpartition holding it, the others take
        // the first place of the following subpartitions, wrapping around.
        int base = P / T, extra = P % T;
        auto start = [&](int k) { return lo + k * base + (k < extra ? k : extra); };
        int mine = 0;
        while (mine + 1 < T && start(mine + 1) <= p) ++mine;
        for (int i = 0; i < T; ++i) {
          int k = (mine + i) % T;
          int s = start(k), e = start(k) + base + (k < extra ? 1 : 0) - 1;
          team->places[i] = {i == 0 ? p : s, s, e};
        }
      }
      break;
    default:  // close, and true (an unspecified policy) behaves as close
      if (T > P) {
        fill_groups(team, T, P, lo, p, false, lo, hi);
      } else {
        for (int i = 0; i < T; ++i) team->places[i] = {lo + (p - lo + i) % P, lo, hi};
      }
      break;
  }
  team->bound = true;
}

}  // namespace kite
