// libkite-ompd.so internals: the handles, the registry that tells a live
// handle from a stale or bogus pointer, and reads of the target's memory
// through the debugger's callbacks. Nothing here runs in the program.
#pragma once

#include <omp-tools.h>
#include <stddef.h>
#include <stdint.h>

#include "ompd/layout.h"

namespace kite_ompd {

// Indices into the published tables (src/ompd/layout.h).
enum Field : int {
#define KITE_FIELD_NAME(name, type, member) F_##name,
  KITE_OMPD_FIELDS(KITE_FIELD_NAME)
#undef KITE_FIELD_NAME
  kFieldCount
};
enum Constant : int {
#define KITE_CONST_NAME(name, expr) C_##name,
  KITE_OMPD_CONSTANTS(KITE_CONST_NAME)
#undef KITE_CONST_NAME
  kConstantCount
};
enum Address : int {
#define KITE_ADDR_NAME(name) A_##name,
  KITE_OMPD_ADDRESSES(KITE_ADDR_NAME)
#undef KITE_ADDR_NAME
  kAddressCount
};

enum HandleKind : uint32_t {
  kAddressSpace = 0x4b415331,  // distinct tags, never 0
  kThread = 0x4b544831,
  kParallel = 0x4b504131,
  kTask = 0x4b544b31,
};

struct Layout {
  uint64_t field_offset[kFieldCount];
  uint64_t field_size[kFieldCount];
  uint64_t constant[kConstantCount];
  uint64_t address[kAddressCount];
};

}  // namespace kite_ompd

struct _ompd_aspace_handle {
  kite_ompd::HandleKind kind;
  ompd_address_space_context_t* context;
  kite_ompd::Layout layout;
};
struct _ompd_thread_handle {
  kite_ompd::HandleKind kind;
  _ompd_aspace_handle* space;
  ompd_addr_t thread;  // kite::Thread in the target
};
// A parallel region: a Kite team, or (team 0) the implicit parallel region
// around an initial task, which has no team object.
struct _ompd_parallel_handle {
  kite_ompd::HandleKind kind;
  _ompd_aspace_handle* space;
  ompd_addr_t team;
  ompd_addr_t initial_task;
};
struct _ompd_task_handle {
  kite_ompd::HandleKind kind;
  _ompd_aspace_handle* space;
  ompd_addr_t task;  // kite::Task in the target
};

namespace kite_ompd {

// The debugger's callbacks (ompd_initialize); null before it and after
// ompd_finalize.
extern const ompd_callbacks_t* g_cb;

// --- handles ----------------------------------------------------------------
// Memory from the debugger (alloc_memory), registered as live.
ompd_rc_t new_handle(size_t bytes, HandleKind kind, void** out);
void free_handle(void* h);
// ompd_rc_ok when h is a live handle of that kind (and its address space
// is still live); ompd_rc_bad_input for a live handle of another kind,
// ompd_rc_stale_handle for anything else (null included).
ompd_rc_t check(const void* h, HandleKind kind);
// For the routines taking a handle of the kind `scope` says.
ompd_rc_t check_scoped(const void* h, ompd_scope_t scope, _ompd_aspace_handle** space);

ompd_rc_t make_thread(_ompd_aspace_handle* s, ompd_addr_t thread, ompd_thread_handle_t** out);
ompd_rc_t make_parallel(_ompd_aspace_handle* s, ompd_addr_t team, ompd_addr_t initial_task,
                        ompd_parallel_handle_t** out);
ompd_rc_t make_task(_ompd_aspace_handle* s, ompd_addr_t task, ompd_task_handle_t** out);

// --- reading the target -----------------------------------------------------
ompd_rc_t read_bytes(_ompd_aspace_handle* s, ompd_addr_t addr, size_t n, void* out);
// An unsigned integer of `size` bytes (1, 2, 4 or 8) in target byte order.
ompd_rc_t read_uint(_ompd_aspace_handle* s, ompd_addr_t addr, size_t size, uint64_t* out);
ompd_rc_t read_ptr(_ompd_aspace_handle* s, ompd_addr_t addr, ompd_addr_t* out);
// A field of the structure at `base`: unsigned, or sign-extended from its size.
ompd_rc_t read_field(_ompd_aspace_handle* s, ompd_addr_t base, Field f, uint64_t* out);
ompd_rc_t read_signed(_ompd_aspace_handle* s, ompd_addr_t base, Field f, int64_t* out);
inline ompd_addr_t field_addr(const _ompd_aspace_handle* s, ompd_addr_t base, Field f) {
  return base + s->layout.field_offset[f];
}
inline uint64_t constant(const _ompd_aspace_handle* s, Constant c) { return s->layout.constant[c]; }
inline ompd_addr_t address(const _ompd_aspace_handle* s, Address a) { return s->layout.address[a]; }

// The runtime keeps states, frames and its thread list (OMP_DEBUG=enabled,
// or an OMPT tool): ompd_rc_ok, else ompd_rc_needs_state_tracking.
ompd_rc_t need_tracking(_ompd_aspace_handle* s);

// The Linux thread id the runtime listed for a thread record: 0 once the
// thread ended, ompd_rc_unavailable while the thread has not begun.
ompd_rc_t thread_lwp(_ompd_aspace_handle* s, ompd_addr_t thread, uint64_t* lwp);

// The initial task that `task` descends from (itself for an initial task).
ompd_rc_t initial_task_of(_ompd_aspace_handle* s, ompd_addr_t task, ompd_addr_t* out);

// Memory for strings handed to the debugger.
ompd_rc_t alloc_string(const char* text, const char** out);

// Long walks over target lists stop here (a corrupt core never loops).
constexpr int kMaxWalk = 1 << 20;

}  // namespace kite_ompd
