// Handles and target reads for libkite-ompd.so (see access.h).
#include "ompd/lib/access.h"

#include <string.h>

namespace kite_ompd {

const ompd_callbacks_t* g_cb = nullptr;

namespace {

// Live handles: an open-addressing set of pointers, so that a handle the
// debugger already released, or any other pointer, is answered with an
// error code instead of being dereferenced.
struct Live {
  const void** slot = nullptr;
  size_t cap = 0, used = 0;  // used counts tombstones too
};
Live g_live;
const void* const kTombstone = reinterpret_cast<const void*>(uintptr_t(1));

size_t slot_of(const void* p, size_t cap) {
  uintptr_t h = reinterpret_cast<uintptr_t>(p);
  h ^= h >> 17;
  h *= 0x9e3779b97f4a7c15ull;
  return (h >> 20) & (cap - 1);
}

bool live_contains(const void* p) {
  if (!g_live.cap || !p) return false;
  for (size_t i = slot_of(p, g_live.cap), n = 0; n < g_live.cap; ++n, i = (i + 1) & (g_live.cap - 1)) {
    if (g_live.slot[i] == p) return true;
    if (g_live.slot[i] == nullptr) return false;
  }
  return false;
}

ompd_rc_t live_insert(const void* p);

ompd_rc_t live_grow() {
  size_t cap = g_live.cap ? g_live.cap * 2 : 64;
  void* mem = nullptr;
  if (g_cb->alloc_memory(cap * sizeof(void*), &mem) != ompd_rc_ok || !mem) return ompd_rc_nomem;
  memset(mem, 0, cap * sizeof(void*));
  Live old = g_live;
  g_live.slot = static_cast<const void**>(mem);
  g_live.cap = cap;
  g_live.used = 0;
  for (size_t i = 0; i < old.cap; ++i)
    if (old.slot[i] && old.slot[i] != kTombstone) live_insert(old.slot[i]);
  if (old.slot) g_cb->free_memory(old.slot);
  return ompd_rc_ok;
}

ompd_rc_t live_insert(const void* p) {
  if ((g_live.used + 1) * 2 > g_live.cap) {
    ompd_rc_t rc = live_grow();
    if (rc != ompd_rc_ok) return rc;
  }
  size_t i = slot_of(p, g_live.cap);
  while (g_live.slot[i] && g_live.slot[i] != kTombstone) i = (i + 1) & (g_live.cap - 1);
  if (!g_live.slot[i]) ++g_live.used;
  g_live.slot[i] = p;
  return ompd_rc_ok;
}

void live_erase(const void* p) {
  if (!g_live.cap) return;
  for (size_t i = slot_of(p, g_live.cap), n = 0; n < g_live.cap; ++n, i = (i + 1) & (g_live.cap - 1)) {
    if (g_live.slot[i] == p) {
      g_live.slot[i] = kTombstone;
      return;
    }
    if (g_live.slot[i] == nullptr) return;
  }
}

}  // namespace

ompd_rc_t new_handle(size_t bytes, HandleKind kind, void** out) {
  if (!g_cb) return ompd_rc_error;
  void* mem = nullptr;
  if (g_cb->alloc_memory(bytes, &mem) != ompd_rc_ok || !mem) return ompd_rc_nomem;
  memset(mem, 0, bytes);
  *static_cast<HandleKind*>(mem) = kind;
  ompd_rc_t rc = live_insert(mem);
  if (rc != ompd_rc_ok) {
    g_cb->free_memory(mem);
    return rc;
  }
  *out = mem;
  return ompd_rc_ok;
}

void free_handle(void* h) {
  live_erase(h);
  *static_cast<uint32_t*>(h) = 0;
  g_cb->free_memory(h);
}

ompd_rc_t check(const void* h, HandleKind kind) {
  // A null handle is no live handle: stale, as LLVM's plugin battery
  // (ompdtestapi) expects; bad_input is for the other arguments.
  if (!h || !g_cb || !live_contains(h)) return ompd_rc_stale_handle;
  if (*static_cast<const HandleKind*>(h) != kind) return ompd_rc_bad_input;
  if (kind != kAddressSpace) {
    // Every other handle starts {kind, space}.
    const _ompd_aspace_handle* s = static_cast<const _ompd_thread_handle*>(h)->space;
    if (!live_contains(s)) return ompd_rc_stale_handle;
  }
  return ompd_rc_ok;
}

ompd_rc_t check_scoped(const void* h, ompd_scope_t scope, _ompd_aspace_handle** space) {
  HandleKind kind;
  switch (scope) {
    case ompd_scope_global:
    case ompd_scope_address_space: kind = kAddressSpace; break;
    case ompd_scope_thread: kind = kThread; break;
    case ompd_scope_parallel: kind = kParallel; break;
    case ompd_scope_implicit_task:
    case ompd_scope_task: kind = kTask; break;
    default: return ompd_rc_bad_input;
  }
  ompd_rc_t rc = check(h, kind);
  if (rc != ompd_rc_ok) return rc;
  *space = kind == kAddressSpace ? static_cast<_ompd_aspace_handle*>(const_cast<void*>(h))
                                 : static_cast<const _ompd_thread_handle*>(h)->space;
  return ompd_rc_ok;
}

ompd_rc_t make_thread(_ompd_aspace_handle* s, ompd_addr_t thread, ompd_thread_handle_t** out) {
  void* mem;
  ompd_rc_t rc = new_handle(sizeof(_ompd_thread_handle), kThread, &mem);
  if (rc != ompd_rc_ok) return rc;
  auto* h = static_cast<_ompd_thread_handle*>(mem);
  h->space = s;
  h->thread = thread;
  *out = h;
  return ompd_rc_ok;
}

ompd_rc_t make_parallel(_ompd_aspace_handle* s, ompd_addr_t team, ompd_addr_t initial_task,
                        ompd_parallel_handle_t** out) {
  void* mem;
  ompd_rc_t rc = new_handle(sizeof(_ompd_parallel_handle), kParallel, &mem);
  if (rc != ompd_rc_ok) return rc;
  auto* h = static_cast<_ompd_parallel_handle*>(mem);
  h->space = s;
  h->team = team;
  h->initial_task = team ? 0 : initial_task;
  *out = h;
  return ompd_rc_ok;
}

ompd_rc_t make_task(_ompd_aspace_handle* s, ompd_addr_t task, ompd_task_handle_t** out) {
  void* mem;
  ompd_rc_t rc = new_handle(sizeof(_ompd_task_handle), kTask, &mem);
  if (rc != ompd_rc_ok) return rc;
  auto* h = static_cast<_ompd_task_handle*>(mem);
  h->space = s;
  h->task = task;
  *out = h;
  return ompd_rc_ok;
}

ompd_rc_t read_bytes(_ompd_aspace_handle* s, ompd_addr_t addr, size_t n, void* out) {
  if (!g_cb) return ompd_rc_error;
  if (addr == 0) return ompd_rc_unavailable;  // a null pointer in the target
  ompd_address_t a = {OMPD_SEGMENT_UNSPECIFIED, addr};
  ompd_rc_t rc = g_cb->read_memory(s->context, nullptr, &a, n, out);
  return rc == ompd_rc_ok ? rc : ompd_rc_device_read_error;
}

ompd_rc_t read_uint(_ompd_aspace_handle* s, ompd_addr_t addr, size_t size, uint64_t* out) {
  if (size != 1 && size != 2 && size != 4 && size != 8) return ompd_rc_incompatible;
  unsigned char raw[8], host[8];
  ompd_rc_t rc = read_bytes(s, addr, size, raw);
  if (rc != ompd_rc_ok) return rc;
  rc = g_cb->device_to_host(s->context, raw, size, 1, host);
  if (rc != ompd_rc_ok) return ompd_rc_callback_error;
  switch (size) {
    case 1: *out = host[0]; break;
    case 2: { uint16_t v; memcpy(&v, host, 2); *out = v; break; }
    case 4: { uint32_t v; memcpy(&v, host, 4); *out = v; break; }
    default: { uint64_t v; memcpy(&v, host, 8); *out = v; break; }
  }
  return ompd_rc_ok;
}

ompd_rc_t read_ptr(_ompd_aspace_handle* s, ompd_addr_t addr, ompd_addr_t* out) {
  uint64_t v;
  ompd_rc_t rc = read_uint(s, addr, 8, &v);
  if (rc == ompd_rc_ok) *out = v;
  return rc;
}

ompd_rc_t read_field(_ompd_aspace_handle* s, ompd_addr_t base, Field f, uint64_t* out) {
  if (base == 0) return ompd_rc_unavailable;
  return read_uint(s, field_addr(s, base, f), s->layout.field_size[f], out);
}

ompd_rc_t read_signed(_ompd_aspace_handle* s, ompd_addr_t base, Field f, int64_t* out) {
  uint64_t v;
  ompd_rc_t rc = read_field(s, base, f, &v);
  if (rc != ompd_rc_ok) return rc;
  uint64_t size = s->layout.field_size[f];
  if (size < 8) {
    uint64_t sign = uint64_t(1) << (size * 8 - 1);
    v = (v ^ sign) - sign;
  }
  *out = int64_t(v);
  return ompd_rc_ok;
}

ompd_rc_t need_tracking(_ompd_aspace_handle* s) {
  uint64_t on = 0;
  ompd_rc_t rc = read_uint(s, address(s, A_tracking), 4, &on);
  if (rc != ompd_rc_ok) return rc;
  return on ? ompd_rc_ok : ompd_rc_needs_state_tracking;
}

ompd_rc_t thread_lwp(_ompd_aspace_handle* s, ompd_addr_t thread, uint64_t* lwp) {
  ompd_addr_t node;
  ompd_rc_t rc = read_ptr(s, address(s, A_threads), &node);
  if (rc != ompd_rc_ok) return rc;
  for (int n = 0; node && n < kMaxWalk; ++n) {
    ompd_addr_t t;
    if ((rc = read_field(s, node, F_dthread_thread, &t)) != ompd_rc_ok) return rc;
    if (t == thread) return read_field(s, node, F_dthread_lwp, lwp);
    if ((rc = read_field(s, node, F_dthread_next, &node)) != ompd_rc_ok) return rc;
  }
  return ompd_rc_unavailable;
}

ompd_rc_t initial_task_of(_ompd_aspace_handle* s, ompd_addr_t task, ompd_addr_t* out) {
  for (int n = 0; task && n < kMaxWalk; ++n) {
    uint64_t kind;
    ompd_rc_t rc = read_field(s, task, F_task_kind, &kind);
    if (rc != ompd_rc_ok) return rc;
    if (kind == constant(s, C_kind_initial)) {
      *out = task;
      return ompd_rc_ok;
    }
    rc = read_field(s, task, F_task_parent, &task);
    if (rc != ompd_rc_ok) return rc;
  }
  return ompd_rc_unavailable;
}

ompd_rc_t alloc_string(const char* text, const char** out) {
  size_t n = strlen(text) + 1;
  void* mem = nullptr;
  if (!g_cb || g_cb->alloc_memory(n, &mem) != ompd_rc_ok || !mem) return ompd_rc_nomem;
  memcpy(mem, text, n);
  *out = static_cast<const char*>(mem);
  return ompd_rc_ok;
}

}  // namespace kite_ompd
