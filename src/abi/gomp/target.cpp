// libgomp ABI: device constructs (GOMP_target*, GOMP_offload_*).
//
// Kite has no offload device, so every construct takes libgomp's host
// fallback: data-mapping constructs have nothing to map (host and "device"
// memory are the same), and a target region runs on the host with private
// copies of its firstprivate data, so that the region's writes to them stay
// private as they would on a device. The adapters decode gcc's map kinds
// and argument lists; core/target.cpp runs the construct.
#include <alloca.h>
#include <stdint.h>

#include "abi/gomp/gomp.h"
#include "core/target.h"

using namespace kite;

namespace {

// gcc's encodings (gomp-constants.h).
constexpr int kGompDeviceIcv = -1;
constexpr int kGompDeviceHostFallback = -2;
constexpr unsigned short kMapFirstprivate = 0x0c;
constexpr unsigned kFlagNowait = 1 << 0;
constexpr intptr_t kArgDeviceMask = (1 << 7) - 1;
constexpr intptr_t kArgDeviceAll = 0;
constexpr intptr_t kArgSubsequentParam = 1 << 7;
constexpr intptr_t kArgIdMask = ((1 << 8) - 1) << 8;
constexpr intptr_t kArgNumTeams = 1 << 8;
constexpr intptr_t kArgThreadLimit = 2 << 8;
constexpr unsigned kFlagExitData = 1 << 1;
constexpr int kArgValueShift = 16;

void select_device(int device) {
  if (device == kGompDeviceIcv)
    device = kDeviceFromIcv;
  else if (device == kGompDeviceHostFallback)
    device = kDeviceForceHost;
  select_device_for_construct(device);
}

// A positive value of the argument list gcc builds for GOMP_target_ext
// (num_teams, thread_limit); 0 when absent or not positive (0: left to the
// runtime; -1: known only on the device).
int positive_arg(void** args, intptr_t which) {
  if (!args) return 0;
  while (*args) {
    intptr_t id = reinterpret_cast<intptr_t>(*args++);
    intptr_t val;
    if (id & kArgSubsequentParam)
      val = reinterpret_cast<intptr_t>(*args++);
    else
      val = id >> kArgValueShift;
    if ((id & kArgDeviceMask) != kArgDeviceAll) continue;
    if ((id & kArgIdMask) != which) continue;
    if (val <= 0) return 0;
    return val > 0x7fffffff ? 0x7fffffff : int(val);
  }
  return 0;
}

size_t firstprivate_alignment(unsigned short kind) {
  unsigned shift = kind >> 8;
  return size_t(1) << (shift < 20 ? shift : 20);
}

// The firstprivate entries of a map list (GOMP_MAP_FIRSTPRIVATE: the entry
// points at the data; FIRSTPRIVATE_INT carries the value itself).
size_t collect_firstprivates(size_t mapnum, void** hostaddrs, const size_t* sizes,
                             const unsigned short* kinds, TargetPrivate* out) {
  size_t n = 0;
  for (size_t i = 0; i < mapnum; ++i) {
    if ((kinds[i] & 0xff) != kMapFirstprivate || hostaddrs[i] == nullptr) continue;
    out[n++] = TargetPrivate{i, sizes[i], firstprivate_alignment(kinds[i])};
  }
  return n;
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
  TargetLaunch l{};
  l.fn = fn;
  l.hostaddrs = hostaddrs;
  l.mapnum = mapnum;
  l.codeptr_ra = __builtin_return_address(0);
  target_launch(l);
}

// A target region; with nowait, a target task.
KITE_EXPORT void GOMP_target_ext(int device, void (*fn)(void*), size_t mapnum, void** hostaddrs,
                                 size_t* sizes, unsigned short* kinds, unsigned int flags,
                                 void** depend, void** args) {
  select_device(device);
  TargetLaunch l{};
  l.fn = fn;
  l.hostaddrs = hostaddrs;
  l.mapnum = mapnum;
  if (mapnum) {
    auto* privates = static_cast<TargetPrivate*>(alloca(mapnum * sizeof(TargetPrivate)));
    l.nprivates = collect_firstprivates(mapnum, hostaddrs, sizes, kinds, privates);
    l.privates = privates;
  }
  l.thread_limit = positive_arg(args, kArgThreadLimit);
  l.num_teams = unsigned(positive_arg(args, kArgNumTeams));
  l.depend = depend;
  l.nowait = (flags & kFlagNowait) != 0;
  l.codeptr_ra = __builtin_return_address(0);
  target_launch(l);
}

KITE_EXPORT void GOMP_target_data(int device, const void* unused, size_t mapnum,
                                  void** hostaddrs, size_t* sizes, unsigned char* kinds) {
  (void)unused;
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  select_device(device);
  target_data_construct(kEnterData, nullptr, false, __builtin_return_address(0));
}

KITE_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void** hostaddrs, size_t* sizes,
                                      unsigned short* kinds) {
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  select_device(device);
  target_data_construct(kEnterData, nullptr, false, __builtin_return_address(0));
}

KITE_EXPORT void GOMP_target_end_data(void) {
  target_data_construct(kExitData, nullptr, false, __builtin_return_address(0));
}

KITE_EXPORT void GOMP_target_update(int device, const void* unused, size_t mapnum,
                                    void** hostaddrs, size_t* sizes, unsigned char* kinds) {
  (void)unused;
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  select_device(device);
  target_data_construct(kUpdate, nullptr, false, __builtin_return_address(0));
}

KITE_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void** hostaddrs, size_t* sizes,
                                        unsigned short* kinds, unsigned int flags, void** depend) {
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  select_device(device);
  target_data_construct(kUpdate, depend, (flags & kFlagNowait) != 0, __builtin_return_address(0));
}

KITE_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void** hostaddrs,
                                             size_t* sizes, unsigned short* kinds,
                                             unsigned int flags, void** depend) {
  (void)mapnum;
  (void)hostaddrs;
  (void)sizes;
  (void)kinds;
  select_device(device);
  target_data_construct((flags & kFlagExitData) ? kExitData : kEnterData, depend,
                        (flags & kFlagNowait) != 0, __builtin_return_address(0));
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
