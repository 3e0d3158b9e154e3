// Team barrier: threads arrive, the last one to arrive (who then finishes
// the team's tasks, team.cpp's barrier_with_tasks) bumps an epoch word the
// others wait on.
//
// Two shapes of arrival, chosen per team when it is formed (prepare_team,
// barrier_shape_for): flat, one counter every thread increments, the right
// shape for the small teams of a few cores; and a combining tree of
// counters, radix 4, for large teams on machines with the processors to
// run them (docs/internals.md, "Barriers"): thread i arrives at leaf
// counter i/4, the last of each group of four climbs to the next level,
// and the last at the root is the last arriver. Each counter lives on its
// own cache line, so at most four threads contend for a line, and the
// last arriver at a counter sets it back to zero before climbing (nobody
// arrives at it again before the release). The release is one epoch word
// in both shapes: a store every waiter sees.
#pragma once

#include "wait.h"

namespace kite {

enum class BarrierShape : uint8_t { kFlat, kTree };

// KITE_BARRIER (env.cpp): flat, tree (every team of two or more threads:
// for testing and measuring), auto (the default: the tree for teams of at
// least kTreeMinThreads that fit the processors).
enum class BarrierMode : uint8_t { kAuto, kFlat, kTree };
extern BarrierMode g_barrier_mode;
constexpr int kTreeMinThreads = 16;
constexpr int kTreeRadix = 4;
constexpr int kTreeMaxLevels = 16;  // 4^16 threads

struct alignas(kCacheLine) TreeCounter {
  std::atomic<uint32_t> arrived{0};
};

struct Barrier {
  alignas(kCacheLine) std::atomic<uint32_t> arrived{0};
  alignas(kCacheLine) Futex epoch;
  int nthreads = 1;
  BarrierShape shape = BarrierShape::kFlat;
  // Tree shape: counters level by level (leaves first), level_first[l] the
  // index of level l's first counter, level_members[l] how many arrive at
  // level l (threads at 0, counters of level l-1 above), tree_used the
  // counters of the layout; storage for a team of the team object's
  // capacity, allocated once with it (team_alloc).
  int levels = 0;
  int tree_used = 0;
  int level_first[kTreeMaxLevels];
  int level_members[kTreeMaxLevels];
  TreeCounter* tree = nullptr;

  // The tree's layout for n threads (levels, level_first, level_members,
  // tree_used); team.cpp.
  void layout_tree(int n);

  // Size (and shape) for the next region. An unchanged size and shape is
  // not written: a thread of the last region may still be leaving this
  // barrier and read it (team.cpp, prepare_team). The counters are zero
  // after every completed barrier; a cancelled region may leave some
  // behind, and nobody arrives while the next region is prepared.
  void reset(int n, BarrierShape s) {
    if (nthreads != n || shape != s) {
      nthreads = n;
      shape = s;
      if (s == BarrierShape::kTree) layout_tree(n);
    }
    arrived.store(0, std::memory_order_relaxed);
    if (s == BarrierShape::kTree)
      for (int i = 0; i < tree_used; ++i) tree[i].arrived.store(0, std::memory_order_relaxed);
  }
  // The epoch a thread is about to wait for; read before arriving.
  uint32_t current_epoch() const { return epoch.load(); }
  // Arrive as team thread `tid`; returns true for the last thread, which
  // then must call release().
  bool arrive(int tid) {
    if (shape == BarrierShape::kFlat)
      return arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == uint32_t(nthreads);
    return arrive_tree(tid);
  }
  void release() {
    arrived.store(0, std::memory_order_relaxed);
    epoch.add_and_wake(1);
  }

 private:
  bool arrive_tree(int tid) {
    int index = tid;
    for (int l = 0; l < levels; ++l) {
      int group = index / kTreeRadix;
      int members = level_members[l] - group * kTreeRadix;
      if (members > kTreeRadix) members = kTreeRadix;
      TreeCounter& c = tree[level_first[l] + group];
      // acq_rel: the last arriver at a counter sees what every thread that
      // arrived there before it did, and passes it on up the tree.
      if (c.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 != uint32_t(members)) return false;
      c.arrived.store(0, std::memory_order_relaxed);
      index = group;
    }
    return true;
  }
};

}  // namespace kite
