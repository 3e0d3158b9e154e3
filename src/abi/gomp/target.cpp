// libgomp ABI: device constructs (GOMP_target*, GOMP_offload_*).
//
// Kite has no offload device, so every construct takes libgomp's host
// fallback: data-mapping constructs have nothing to map (host and "device"
// memory are the same), and a target region runs on the encountering thread
// once its firstprivate data has been copied, so that the region's writes
// to them stay private as they would on a device.
#include <alloca.h>
#include <stdint.h>
#include <string.h>

#include "abi/gomp/gomp.h"
#include "core/target.h"

using namespace kite;

// The task engine's "wait for these dependences" (taskwait with depend
// clauses). Weak: until the task engine exists, every task is undeferred,
// so there is never a predecessor left to wait for.
extern "C" void GOMP_taskwait_depend(void** depend) __attribute__((weak));

namespace {

// gcc's encodings (gomp-constants.h).
constexpr int kGompDeviceIcv = -1;
constexpr int kGompDeviceHostFallback = -2;
constexpr unsigned short kMapFirstprivate = 0x0c;
constexpr intptr_t kArgDeviceMask = (1 << 7) - 1;
constexpr intptr_t kArgDeviceAll = 0;
constexpr intptr_t kArgSubsequentParam = 1 << 7;
constexpr intptr_t kArgIdMask = ((1 << 8) - 1) << 8;
constexpr intptr_t kArgThreadLimit = 2 << 8;
constexpr int kArgValueShift = 16;
// Firstprivate copies up to this size live on the stack.
constexpr size_t kStackCopyLimit = 256 * 1024;

void select_device(int device) {
  if (device == kGompDeviceIcv)
    device = kDeviceFromIcv;
  else if (device == kGompDeviceHostFallback)
    device = kDeviceForceHost;
  select_device_for_construct(device);
}

void wait_for_dependences(void** depend) {
  if (depend && GOMP_taskwait_depend) GOMP_taskwait_depend(depend);
}

// The thread_limit the target region's teams may use, from the argument
// list gcc builds for GOMP_target_ext (0: no limit given).
int thread_limit_from_args(void** args) {
  if (!args) return 0;
  while (*args) {
    intptr_t id = reinterpret_cast<intptr_t>(*args++);
    intptr_t val;
    if (id & kArgSubsequentParam)
      val = reinterpret_cast<intptr_t>(*args++);
    else
      val = id >> kArgValueShift;
    if ((id & kArgDeviceMask) != kArgDeviceAll) continue;
    if ((id & kArgIdMask) != kArgThreadLimit) continue;
    // -1 means "known only on the device": no limit from here.
    if (val <= 0) return 0;
    return val > 0x7fffffff ? 0x7fffffff : int(val);
  }
  return 0;
}

size_t firstprivate_alignment(unsigned short kind) {
  unsigned shift = kind >> 8;
  return size_t(1) << (shift < 20 ? shift : 20);
}

// Bytes needed to copy every firstprivate item, each at its alignment
// relative to a base aligned to the largest of them.
size_t firstprivate_space(size_t mapnum, void** hostaddrs, const size_t* sizes,
                          const unsigned short* kinds, size_t* max_align) {
  size_t total = 0;
  *max_align = 1;
  for (size_t i = 0; i < mapnum; ++i) {
    if ((kinds[i] & 0xff) != kMapFirstprivate || hostaddrs[i] == nullptr) continue;
    size_t a = firstprivate_alignment(kinds[i]);
    if (a > *max_align) *max_align = a;
    total = (total + a - 1) & ~(a - 1);
    total += sizes[i];
  }
  return total;
}

// Copies each firstprivate item into `buf` and points hostaddrs at the copy.
void copy_firstprivate(char* buf, size_t mapnum, void** hostaddrs, const size_t* sizes,
                       const unsigned short* kinds) {
  size_t off = 0;
  for (size_t i = 0; i < mapnum; ++i) {
    if ((kinds[i] & 0xff) != kMapFirstprivate || hostaddrs[i] == nullptr) continue;
    size_t a = firstprivate_alignment(kinds[i]);
    off = (off + a - 1) & ~(a - 1);
    memcpy(buf + off, hostaddrs[i], sizes[i]);
    hostaddrs[i] = buf + off;
    off += sizes[i];
  }
}

inline char* align_up(char* p, size_t a) {
  uintptr_t v = reinterpret_cast<uintptr_t>(p);
  return reinterpret_cast<char*>((v + a - 1) & ~uintptr_t(a - 1));
}

}  // namespace

extern "C" {

// OpenMP 4.0 entry (gcc < 6): no firstprivate kinds, no arguments.
KITE_EXPORT void GOMP_target(int device, void (*fn)(void*), const void* unused, size_t mapnum,
                             void** hostaddrs, size_t* sizes, unsigned char* kinds) {
  (void)unused;
  (void)mapnum;
  (void)sizes;
  (void)kinds;
  select_device(device);
  target_region_on_host(fn, hostaddrs, 0);
}

// A target region. With nowait it is a deferrable target task; running it
// right here, after its dependences are met, is one conforming schedule.
KITE_EXPORT void GOMP_target_ext(int device, void (*fn)(void*), size_t mapnum, void** hostaddrs,
                                 size_t* sizes, unsigned short* kinds, unsigned int flags,
                                 void** depend, void** args) {
  (void)flags;
  select_device(device);
  // Firstprivate values are those at the construct, before any wait.
  size_t align;
  size_t space = firstprivate_space(mapnum, hostaddrs, sizes, kinds, &align);
  char* heap = nullptr;
  if (space > 0) {
    char* raw;
    if (space + align <= kStackCopyLimit) {
      raw = static_cast<char*>(alloca(space + align - 1));
    } else {
      heap = static_cast<char*>(xaligned_alloc(align < sizeof(void*) ? sizeof(void*) : align, space));
      raw = heap;
    }
    copy_firstprivate(align_up(raw, align), mapnum, hostaddrs, sizes, kinds);
  }
  wait_for_dependences(depend);
  target_region_on_host(fn, hostaddrs, thread_limit_from_args(args));
  if (heap) xfree(heap);
}

KITE_EXPORT void GOMP_target_data(int device, const void* unused, size_t mapnum,
                                  void** hostaddrs, size_t* sizes, unsigned char* kinds) {
  (void)unused;
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  select_device(device);
}

KITE_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void** hostaddrs, size_t* sizes,
                                      unsigned short* kinds) {
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  select_device(device);
}

KITE_EXPORT void GOMP_target_end_data(void) {}

KITE_EXPORT void GOMP_target_update(int device, const void* unused, size_t mapnum,
                                    void** hostaddrs, size_t* sizes, unsigned char* kinds) {
  (void)unused;
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  select_device(device);
}

KITE_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void** hostaddrs, size_t* sizes,
                                        unsigned short* kinds, unsigned int flags, void** depend) {
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  (void)flags;
  select_device(device);
  wait_for_dependences(depend);
}

KITE_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void** hostaddrs,
                                             size_t* sizes, unsigned short* kinds,
                                             unsigned int flags, void** depend) {
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  (void)flags;
  select_device(device);
  wait_for_dependences(depend);
}

// Offload images are registered by programs built with an offload compiler.
// With no device to load them on, every target region of theirs takes the
// host version compiled alongside, so the images are not needed.
KITE_EXPORT void GOMP_offload_register_ver(unsigned version, const void* host_table,
                                           int target_type, const void* target_data) {
  (void)version;
  (void)host_table;
  (void)target_type;
  (void)target_data;
}

KITE_EXPORT void GOMP_offload_register(const void* host_table, int target_type,
                                       const void* target_data) {
  GOMP_offload_register_ver(0, host_table, target_type, target_data);
}

KITE_EXPORT void GOMP_offload_unregister_ver(unsigned version, const void* host_table,
                                             int target_type, const void* target_data) {
  (void)version;
  (void)host_table;
  (void)target_type;
  (void)target_data;
}

KITE_EXPORT void GOMP_offload_unregister(const void* host_table, int target_type,
                                         const void* target_data) {
  GOMP_offload_unregister_ver(0, host_table, target_type, target_data);
}

}  // extern "C"
