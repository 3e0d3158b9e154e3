// omp_* routines about devices, device memory and teams, with their Fortran
// bindings (name_, and name_8_ for 8-byte integer arguments). Without
// emulated devices the host is the only device (see core/target.h): device
// memory is host memory, and the routines accept the host's device number
// or omp_initial_device. With KITE_DEVICES=N, devices 0..N-1 have their own
// memory (core/device.h) and the routines move data between them.
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/target.h"
#include "ompt/events_target.h"

using namespace kite;

namespace {

// Strided copy of a num_dims-dimensional sub-volume, outermost dimension
// first. Returns 0 or EINVAL when a size overflows.
int copy_rect(char* dst, const char* src, size_t elem, int num_dims, const size_t* volume,
              const size_t* dst_off, const size_t* src_off, const size_t* dst_dim,
              const size_t* src_dim) {
  // The sub-volume must lie inside both arrays in this dimension.
  size_t dst_end, src_end;
  if (__builtin_add_overflow(dst_off[0], volume[0], &dst_end) || dst_end > dst_dim[0] ||
      __builtin_add_overflow(src_off[0], volume[0], &src_end) || src_end > src_dim[0])
    return EINVAL;
  if (num_dims == 1) {
    size_t len, d, s;
    if (__builtin_mul_overflow(elem, volume[0], &len) ||
        __builtin_mul_overflow(elem, dst_off[0], &d) || __builtin_mul_overflow(elem, src_off[0], &s))
      return EINVAL;
    if (len) memmove(dst + d, src + s, len);
    return 0;
  }
  // Bytes spanned by one index step of the outermost dimension.
  size_t dst_slice = elem, src_slice = elem;
  for (int i = 1; i < num_dims; ++i)
    if (__builtin_mul_overflow(dst_slice, dst_dim[i], &dst_slice) ||
        __builtin_mul_overflow(src_slice, src_dim[i], &src_slice))
      return EINVAL;
  size_t d, s, span;
  if (__builtin_mul_overflow(dst_slice, dst_off[0], &d) ||
      __builtin_mul_overflow(src_slice, src_off[0], &s) ||
      __builtin_mul_overflow(dst_slice, dst_end, &span) ||
      __builtin_mul_overflow(src_slice, src_end, &span))
    return EINVAL;
  for (size_t j = 0; j < volume[0]; ++j) {
    int rc = copy_rect(dst + d, src + s, elem, num_dims - 1, volume + 1, dst_off + 1, src_off + 1,
                       dst_dim + 1, src_dim + 1);
    if (rc) return rc;
    d += dst_slice;
    s += src_slice;
  }
  return 0;
}

// The device number a tool is told: omp_initial_device names the host.
int device_number(int device) { return device == kOmpInitialDevice ? initial_device() : device; }

// A data operation of a device memory routine, reported to a tool around
// what the routine does (OpenMP 5.2 §18.8: target-data-op-begin/-end).
struct ReportedOp {
  ompt::DataOp op;
  Thread* me;
  ReportedOp(ompt_target_data_op_t type, void* src, int src_dev, void* dst, int dst_dev,
             size_t bytes, const void* ra)
      : op{},
        // self() first: a device memory routine may be the program's first
        // OpenMP call, which is when the tool is looked for.
        me(self() && ompt::active() ? self() : nullptr) {
    op.optype = type;
    op.src_addr = src;
    op.src_device_num = device_number(src_dev);
    op.dest_addr = dst;
    op.dest_device_num = device_number(dst_dev);
    op.bytes = bytes;
    op.codeptr_ra = ra;
    if (KITE_UNLIKELY(me)) ompt::data_op_slow(me, &op, ompt_scope_begin);
  }
  void end(void* dest_addr) {
    op.dest_addr = dest_addr;
    if (KITE_UNLIKELY(me)) ompt::data_op_slow(me, &op, ompt_scope_end);
  }
};

int clamp_int64(int64_t v, const char* routine) {
  if (v > INT_MAX || v < INT_MIN) {
    int c = v > INT_MAX ? INT_MAX : INT_MIN;
    warn("%s(%lld): the value does not fit a default integer; using %d", routine, (long long)v, c);
    return c;
  }
  return int(v);
}

}  // namespace

extern "C" {

// --- devices -----------------------------------------------------------

KITE_EXPORT int omp_get_num_devices(void) { return device_count(); }
KITE_EXPORT int omp_get_initial_device(void) { return initial_device(); }
// Inside a region on an emulated device, the code "runs" on that device.
KITE_EXPORT int omp_is_initial_device(void) { return self()->task->icv.on_device == 0; }
KITE_EXPORT int omp_get_device_num(void) {
  int on = self()->task->icv.on_device;
  return on ? on - 1 : initial_device();
}

KITE_EXPORT int omp_get_default_device(void) { return self()->task->icv.default_device; }

KITE_EXPORT void omp_set_default_device(int device_num) {
  bool known = (device_num >= 0 && device_num <= device_count()) || device_num == kOmpInitialDevice ||
               device_num == kOmpInvalidDevice;
  if (!known)
    warn("omp_set_default_device(%d): no such device (the host is device %d); device constructs "
         "using the default device will run on the host",
         device_num, initial_device());
  self()->task->icv.default_device = device_num;
  note_default_device_chosen();
}

// --- device memory -----------------------------------------------------

KITE_EXPORT void* omp_target_alloc(size_t size, int device_num) {
  int d = device_for_routine(device_num);
  if (d == kNoSuchDevice) return nullptr;
  ReportedOp r(ompt_target_data_alloc, nullptr, initial_device(), nullptr, d, size,
               __builtin_return_address(0));
  void* p = d == initial_device() ? malloc(size) : device_mem_alloc(d, size, 64);
  r.end(p);
  return p;
}

KITE_EXPORT void omp_target_free(void* device_ptr, int device_num) {
  int d = device_for_routine(device_num);
  if (d == kNoSuchDevice) return;
  // Freeing a null pointer does nothing, and is not an operation.
  if (!device_ptr) return;
  ReportedOp r(ompt_target_data_delete, device_ptr, d, nullptr, d, 0, __builtin_return_address(0));
  if (d == initial_device())
    free(device_ptr);
  else if (!device_mem_free(d, device_ptr))
    warn("omp_target_free(%p, %d): not a block omp_target_alloc gave for device %d; nothing freed",
         device_ptr, device_num, d);
  r.end(nullptr);
}

KITE_EXPORT int omp_target_is_present(const void* ptr, int device_num) {
  int d = device_for_routine(device_num);
  if (d == kNoSuchDevice) return 0;
  if (d == initial_device()) return 1;  // host memory is present on the host
  return ptr && device_translate(d, ptr, 0) ? 1 : 0;
}

// OpenMP 5.1: can the device reach host memory [ptr, ptr+size) itself? The
// host can; an emulated device has separate memory and cannot.
KITE_EXPORT int omp_target_is_accessible(const void* ptr, size_t size, int device_num) {
  (void)ptr;
  (void)size;
  return device_for_routine(device_num) == initial_device() ? 1 : 0;
}

// OpenMP 5.1: the device address of host address ptr, null when absent.
KITE_EXPORT void* omp_get_mapped_ptr(const void* ptr, int device_num) {
  int d = device_for_routine(device_num);
  if (d == kNoSuchDevice || !ptr) return nullptr;
  if (d == initial_device()) return const_cast<void*>(ptr);
  return device_translate(d, ptr, 0);
}

KITE_EXPORT int omp_target_memcpy(void* dst, const void* src, size_t length, size_t dst_offset,
                                  size_t src_offset, int dst_device_num, int src_device_num) {
  int dd = device_for_routine(dst_device_num), sd = device_for_routine(src_device_num);
  if (dd == kNoSuchDevice || sd == kNoSuchDevice) return EINVAL;
  if (length == 0) return 0;
  if (!dst || !src) return EINVAL;
  char* to = static_cast<char*>(dst) + dst_offset;
  const char* from = static_cast<const char*>(src) + src_offset;
  device_copy(dd, to, sd, from, length, __builtin_return_address(0));
  return 0;
}

// With dst and src both null, answers the number of dimensions supported:
// any (INT_MAX, as libgomp answers).
KITE_EXPORT int omp_target_memcpy_rect(void* dst, const void* src, size_t element_size,
                                       int num_dims, const size_t* volume,
                                       const size_t* dst_offsets, const size_t* src_offsets,
                                       const size_t* dst_dimensions,
                                       const size_t* src_dimensions, int dst_device_num,
                                       int src_device_num) {
  if (!dst && !src) return INT_MAX;
  int dd = device_for_routine(dst_device_num), sd = device_for_routine(src_device_num);
  if (dd == kNoSuchDevice || sd == kNoSuchDevice) return EINVAL;
  if (!dst || !src || num_dims < 1 || !volume || !dst_offsets || !src_offsets ||
      !dst_dimensions || !src_dimensions)
    return EINVAL;
  // One operation for the whole sub-volume: its bytes, between the arrays.
  size_t bytes = element_size;
  for (int i = 0; i < num_dims; ++i)
    if (__builtin_mul_overflow(bytes, volume[i], &bytes)) bytes = SIZE_MAX;
  ompt_target_data_op_t type = (sd != initial_device() && dd == initial_device())
                                   ? ompt_target_data_transfer_from_device
                                   : ompt_target_data_transfer_to_device;
  ReportedOp r(type, const_cast<void*>(src), sd, dst, dd, bytes, __builtin_return_address(0));
  int rc = copy_rect(static_cast<char*>(dst), static_cast<const char*>(src), element_size,
                     num_dims, volume, dst_offsets, src_offsets, dst_dimensions, src_dimensions);
  r.end(dst);
  return rc;
}

// Association pairs host memory with memory of an emulated device; the host
// has no other memory to pair with (libgomp answers EINVAL too).
KITE_EXPORT int omp_target_associate_ptr(const void* host_ptr, const void* device_ptr, size_t size,
                                         size_t device_offset, int device_num) {
  int d = device_for_routine(device_num);
  if (d == kNoSuchDevice || d == initial_device()) return EINVAL;
  if (!device_ptr) return EINVAL;
  return device_associate(d, host_ptr,
                          const_cast<char*>(static_cast<const char*>(device_ptr)) + device_offset,
                          size, __builtin_return_address(0));
}

KITE_EXPORT int omp_target_disassociate_ptr(const void* ptr, int device_num) {
  int d = device_for_routine(device_num);
  if (d == kNoSuchDevice || d == initial_device()) return EINVAL;
  return device_disassociate(d, ptr, __builtin_return_address(0));
}

// --- teams -------------------------------------------------------------

KITE_EXPORT int omp_get_team_num(void) { return league_team_num(self()); }
KITE_EXPORT int omp_get_num_teams(void) { return league_size(self()); }

// nteams-var unset means a teams construct without num_teams makes one team.
KITE_EXPORT int omp_get_max_teams(void) {
  int n = __atomic_load_n(&g_icv.nteams, __ATOMIC_RELAXED);
  return n > 0 ? n : 1;
}

KITE_EXPORT void omp_set_num_teams(int num_teams) {
  if (num_teams < 1) {
    warn("omp_set_num_teams(%d): the value must be positive; nteams-var is unchanged", num_teams);
    return;
  }
  __atomic_store_n(&g_icv.nteams, num_teams, __ATOMIC_RELAXED);
}

// teams-thread-limit-var unset means each team is limited by thread-limit-var.
KITE_EXPORT int omp_get_teams_thread_limit(void) {
  int n = __atomic_load_n(&g_icv.teams_thread_limit, __ATOMIC_RELAXED);
  return n > 0 ? n : g_icv.initial.thread_limit;
}

KITE_EXPORT void omp_set_teams_thread_limit(int thread_limit) {
  if (thread_limit < 1) {
    warn("omp_set_teams_thread_limit(%d): the value must be positive; teams-thread-limit-var is "
         "unchanged",
         thread_limit);
    return;
  }
  __atomic_store_n(&g_icv.teams_thread_limit, thread_limit, __ATOMIC_RELAXED);
}

// --- Fortran bindings --------------------------------------------------

KITE_EXPORT int omp_get_num_devices_(void) { return omp_get_num_devices(); }
KITE_EXPORT int omp_get_initial_device_(void) { return omp_get_initial_device(); }
KITE_EXPORT int omp_is_initial_device_(void) { return omp_is_initial_device(); }
KITE_EXPORT int omp_get_device_num_(void) { return omp_get_device_num(); }
KITE_EXPORT int omp_get_default_device_(void) { return omp_get_default_device(); }
KITE_EXPORT void omp_set_default_device_(const int32_t* d) { omp_set_default_device(*d); }
KITE_EXPORT void omp_set_default_device_8_(const int64_t* d) {
  omp_set_default_device(clamp_int64(*d, "omp_set_default_device"));
}
KITE_EXPORT int omp_get_team_num_(void) { return omp_get_team_num(); }
KITE_EXPORT int omp_get_num_teams_(void) { return omp_get_num_teams(); }
KITE_EXPORT int omp_get_max_teams_(void) { return omp_get_max_teams(); }
KITE_EXPORT void omp_set_num_teams_(const int32_t* n) { omp_set_num_teams(*n); }
KITE_EXPORT void omp_set_num_teams_8_(const int64_t* n) {
  omp_set_num_teams(clamp_int64(*n, "omp_set_num_teams"));
}
KITE_EXPORT int omp_get_teams_thread_limit_(void) { return omp_get_teams_thread_limit(); }
KITE_EXPORT void omp_set_teams_thread_limit_(const int32_t* n) { omp_set_teams_thread_limit(*n); }
KITE_EXPORT void omp_set_teams_thread_limit_8_(const int64_t* n) {
  omp_set_teams_thread_limit(clamp_int64(*n, "omp_set_teams_thread_limit"));
}

}  // extern "C"
