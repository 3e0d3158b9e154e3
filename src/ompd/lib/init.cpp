// libkite-ompd.so: initialization, versions and address spaces (OpenMP 5.2
// §20.5.1-20.5.2). The library reads Kite's layout out of the target itself
// (kite_ompd_layout, kite_ompd_addresses), so one build of it serves any
// Kite whose tables have the length it knows.
#include <stdio.h>
#include <string.h>

#include "ompd/lib/access.h"

using namespace kite_ompd;

#define KITE_OMPD_API extern "C" __attribute__((visibility("default")))

namespace {

// The OMPD API this library implements: OpenMP 5.2's (§20.5.1.2).
constexpr ompd_word_t kApiVersion = 202111;
// The oldest a debugger may ask for: 5.0's, which LLVM's gdb plugin asks for.
constexpr ompd_word_t kOldestApiVersion = 201811;
const char kVersionString[] =
    "Kite OMPD library " KITE_VERSION_STRING " (OpenMP 5.2 chapter 20; reads Kite's published layout)";

ompd_rc_t lookup(ompd_address_space_context_t* ctx, const char* name, ompd_addr_t* out) {
  ompd_address_t a = {OMPD_SEGMENT_UNSPECIFIED, 0};
  ompd_rc_t rc = g_cb->symbol_addr_lookup(ctx, nullptr, name, &a, nullptr);
  if (rc != ompd_rc_ok || a.address == 0 || a.address == ~ompd_addr_t(0)) return ompd_rc_incompatible;
  *out = a.address;
  return ompd_rc_ok;
}

// Reads the tables into s->layout; ompd_rc_incompatible when the target is
// not a Kite whose tables this library understands.
ompd_rc_t load_layout(_ompd_aspace_handle* s) {
  ompd_device_type_sizes_t sizes;
  ompd_rc_t rc = g_cb->sizeof_type(s->context, &sizes);
  // The debugger does not know the context: its answer is ours.
  if (rc == ompd_rc_stale_handle || rc == ompd_rc_bad_input) return rc;
  if (rc != ompd_rc_ok) return ompd_rc_callback_error;
  if (sizes.sizeof_pointer != 8) return ompd_rc_incompatible;
  ompd_addr_t table;
  rc = lookup(s->context, "kite_ompd_layout", &table);
  if (rc != ompd_rc_ok) return rc;
  uint64_t magic = 0, count = 0, names = 0;
  if (read_uint(s, table, 8, &magic) != ompd_rc_ok || read_uint(s, table + 8, 8, &count) != ompd_rc_ok ||
      read_uint(s, table + 16, 8, &names) != ompd_rc_ok)
    return ompd_rc_incompatible;
  if (magic != KITE_OMPD_LAYOUT_MAGIC || names != kKiteOmpdNamesHash) return ompd_rc_incompatible;
  // A runtime built from another list of entries: use the libkite-ompd.so
  // built with it (its ompd_dll_locations names it). No message through
  // print_string: LLVM's gdb plugin cannot print any string it is given.
  if (count != uint64_t(kFieldCount) + uint64_t(kConstantCount)) return ompd_rc_incompatible;
  ompd_addr_t at = table + 24;
  for (int i = 0; i < kFieldCount; ++i, at += 16) {
    if (read_uint(s, at, 8, &s->layout.field_offset[i]) != ompd_rc_ok ||
        read_uint(s, at + 8, 8, &s->layout.field_size[i]) != ompd_rc_ok)
      return ompd_rc_incompatible;
  }
  for (int i = 0; i < kConstantCount; ++i, at += 16)
    if (read_uint(s, at, 8, &s->layout.constant[i]) != ompd_rc_ok) return ompd_rc_incompatible;
  ompd_addr_t addrs;
  rc = lookup(s->context, "kite_ompd_addresses", &addrs);
  if (rc != ompd_rc_ok) return rc;
  for (int i = 0; i < kAddressCount; ++i)
    if (read_ptr(s, addrs + 8 * i, &s->layout.address[i]) != ompd_rc_ok) return ompd_rc_incompatible;
  return ompd_rc_ok;
}

}  // namespace

KITE_OMPD_API ompd_rc_t ompd_initialize(ompd_word_t api_version, const ompd_callbacks_t* callbacks) {
  if (!callbacks) return ompd_rc_bad_input;
  if (api_version < kOldestApiVersion || api_version > kApiVersion) return ompd_rc_unsupported;
  // Every callback the library calls must be there.
  if (!callbacks->alloc_memory || !callbacks->free_memory || !callbacks->sizeof_type ||
      !callbacks->symbol_addr_lookup || !callbacks->read_memory || !callbacks->device_to_host)
    return ompd_rc_bad_input;
  g_cb = callbacks;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_api_version(ompd_word_t* version) {
  if (!version) return ompd_rc_bad_input;
  *version = kApiVersion;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_version_string(const char** string) {
  if (!string) return ompd_rc_bad_input;
  *string = kVersionString;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_finalize(void) {
  if (!g_cb) return ompd_rc_unsupported;  // not initialized (§20.5.1.4)
  g_cb = nullptr;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_process_initialize(ompd_address_space_context_t* context,
                                                ompd_address_space_handle_t** handle) {
  if (!context || !handle) return ompd_rc_bad_input;
  if (!g_cb) return ompd_rc_error;
  void* mem;
  ompd_rc_t rc = new_handle(sizeof(_ompd_aspace_handle), kAddressSpace, &mem);
  if (rc != ompd_rc_ok) return rc;
  auto* s = static_cast<_ompd_aspace_handle*>(mem);
  s->context = context;
  rc = load_layout(s);
  if (rc != ompd_rc_ok) {
    free_handle(s);
    return rc;
  }
  // Without OMP_DEBUG=enabled (or before the program's first OpenMP call)
  // the routines that need thread states answer ompd_rc_needs_state_tracking.
  *handle = s;
  return ompd_rc_ok;
}

// Kite runs every target region on the host: there is no device address
// space to open.
KITE_OMPD_API ompd_rc_t ompd_device_initialize(ompd_address_space_handle_t* process_handle,
                                               ompd_address_space_context_t* device_context,
                                               ompd_device_t kind, ompd_size_t sizeof_id, void* id,
                                               ompd_address_space_handle_t** device_handle) {
  ompd_rc_t rc = check(process_handle, kAddressSpace);
  if (rc != ompd_rc_ok) return rc;
  if (!device_context || !id || !device_handle) return ompd_rc_bad_input;
  return ompd_rc_unsupported;
}

KITE_OMPD_API ompd_rc_t ompd_rel_address_space_handle(ompd_address_space_handle_t* handle) {
  ompd_rc_t rc = check(handle, kAddressSpace);
  if (rc != ompd_rc_ok) return rc;
  free_handle(handle);
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_omp_version(ompd_address_space_handle_t* address_space,
                                             ompd_word_t* omp_version) {
  ompd_rc_t rc = check(address_space, kAddressSpace);
  if (rc != ompd_rc_ok) return rc;
  if (!omp_version) return ompd_rc_bad_input;
  *omp_version = ompd_word_t(constant(address_space, C_omp_version));
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_omp_version_string(ompd_address_space_handle_t* address_space,
                                                    const char** string) {
  ompd_rc_t rc = check(address_space, kAddressSpace);
  if (rc != ompd_rc_ok) return rc;
  if (!string) return ompd_rc_bad_input;
  char runtime[128];
  memset(runtime, 0, sizeof runtime);
  // Byte by byte up to the terminator: a read past the string's end could
  // leave the mapped range.
  ompd_addr_t at = address(address_space, A_version_string);
  for (size_t i = 0; i + 1 < sizeof runtime; ++i) {
    rc = read_bytes(address_space, at + i, 1, &runtime[i]);
    if (rc != ompd_rc_ok) return rc;
    if (!runtime[i]) break;
  }
  char text[256];
  snprintf(text, sizeof text, "%s, OpenMP %lld", runtime,
           static_cast<long long>(constant(address_space, C_omp_version)));
  return alloc_string(text, string);
}
