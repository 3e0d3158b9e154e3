// Shared declarations for the LLVM ABI adapters (__kmpc_*): the types clang
// passes across the boundary, as laid out by the LLVM OpenMP runtime ABI.
#pragma once

#include "core/team.h"

extern "C" {

// Source location of a construct. Only `flags` is read: it tells an implicit
// barrier from an explicit one.
struct ident_t {
  int32_t reserved_1;
  int32_t flags;
  int32_t reserved_2;
  int32_t reserved_3;
  const char* psource;  // ";file;function;line;column;;"
};

typedef int32_t kmp_int32;
typedef uint32_t kmp_uint32;
typedef int64_t kmp_int64;
typedef uint64_t kmp_uint64;

// The per-name lock storage clang emits for critical regions and
// reductions: 32 zero-initialized bytes, shared by every object file that
// names the same region.
typedef kmp_int32 kmp_critical_name[8];

// The outlined body of a parallel or teams region: (gtid*, btid*, shared
// variable pointers...).
typedef void (*kmpc_micro)(kmp_int32* gtid, kmp_int32* btid, ...);

}  // extern "C"

namespace kite::kmpc {

// ident_t flags (LLVM's KMP_IDENT_*): a barrier directive; the implicit
// barrier ending a loop (0x40), sections (0xC0), single (0x140) or
// workshare (0x1C0) construct, any of them nonzero under the mask; the
// construct a static_init call begins.
constexpr int32_t kIdentBarrierExplicit = 0x20;
constexpr int32_t kIdentBarrierImplicitMask = 0x1C0;
// The loop value is also clang's generic "implicit barrier": it marks the
// __kmpc_cancel_barrier ending a parallel region that has cancel
// constructs, and the barrier after copyin.
constexpr int32_t kIdentBarrierImplicitGeneric = 0x40;
constexpr int32_t kIdentWorkLoop = 0x200;
constexpr int32_t kIdentWorkSections = 0x400;
constexpr int32_t kIdentWorkDistribute = 0x800;

// Number of the calling thread as clang's outlined code passes it around
// (the runtime-wide thread index).
inline kmp_int32 gtid_of(const Thread* t) { return t->gtid; }

// Begins a dynamically scheduled loop (__kmpc_dispatch_init_*'s work;
// dispatch.cpp) for entry points that compute the bounds first.
// codeptr_ra: the program's call, for tools. Defined for the four loop
// types (T, ST): (int32, int32), (uint32, int32), (int64, int64),
// (uint64, int64).
template <typename T, typename ST>
void dispatch_init_at(kmp_int32 schedule, T lb, T ub, ST st, ST chunk, const void* codeptr_ra);

// --- fork hooks (fork.cpp, push_threads.cpp) ---------------------------------
// num_threads(list): the values for the levels below the next region.
struct NestedThreads {
  kmp_int32 v[kMaxIcvList];
  int n;
};
// What the next fork's implicit tasks and their nested regions get: a
// pushed list, else what the enclosing region's list left for this level;
// stored in *out. False (nothing stored) when there is none, the common case.
bool nested_for_fork(NestedThreads* out);
// In an implicit task of a region forked with a list: sets its
// nthreads-var; returns what to restore with nested_leave.
NestedThreads nested_enter(Thread* me, const NestedThreads& list);
void nested_leave(const NestedThreads& saved);
// num_threads(strict: n) pushed for the next fork.
bool strict_pending();
// Raises the strict modifier's error when the fork cannot give exactly n.
void strict_check(const ForkSpec& spec);
// The pushed num_threads value of the next fork.
void push_num_threads_value(int num_threads);
// Forks fn(gtid, btid, argv[0..argc-1]) with the pushed clauses; argv holds
// at least four entries. if_clause false: a team of one.
void fork_outlined(kmpc_micro fn, long argc, void** argv, bool if_clause, const void* codeptr_ra,
                   void* enter_frame);

}  // namespace kite::kmpc
