// libgomp ABI: device constructs (GOMP_target*; GOMP_offload_* are in
// offload_register.cpp).
//
// Without emulated devices every construct takes libgomp's host fallback:
// data-mapping constructs have nothing to map (host and "device" memory
// are the same), and a target region runs on the host with private copies
// of its firstprivate data, so that the region's writes to them stay
// private as they would on a device. On an emulated device (KITE_DEVICES)
// the map list is decoded into core map items (core/device.h). The
// adapters decode gcc's map kinds and argument lists; core/target.cpp runs
// the construct.
#include <alloca.h>
#include <stdint.h>

#include <atomic>

#include "abi/gomp/gomp.h"
#include "core/target.h"

using namespace kite;

namespace {

// gcc's encodings (gomp-constants.h).
constexpr int kGompDeviceIcv = -1;
constexpr int kGompDeviceHostFallback = -2;
constexpr unsigned short kGompMapFirstprivate = 0x0c;
constexpr unsigned kFlagNowait = 1 << 0;
constexpr intptr_t kArgDeviceMask = (1 << 7) - 1;
constexpr intptr_t kArgDeviceAll = 0;
constexpr intptr_t kArgSubsequentParam = 1 << 7;
constexpr intptr_t kArgIdMask = ((1 << 8) - 1) << 8;
constexpr intptr_t kArgNumTeams = 1 << 8;
constexpr intptr_t kArgThreadLimit = 2 << 8;
constexpr unsigned kFlagExitData = 1 << 1;
constexpr int kArgValueShift = 16;

int select_device(int device) {
  if (device == kGompDeviceIcv)
    device = kDeviceFromIcv;
  else if (device == kGompDeviceHostFallback)
    device = kDeviceForceHost;
  return select_device_for_construct(device);
}

// gcc 12's map kinds (gomp-constants.h): the low byte is the kind, the
// high byte log2 of the item's alignment.
constexpr unsigned kSpecialBits = 0x7c;  // GOMP_MAP_FLAG_SPECIAL_0..4
constexpr unsigned kImplicit = 0x60;     // GOMP_MAP_IMPLICIT (gcc 12)
constexpr unsigned kForce = 0x80;        // GOMP_MAP_FLAG_FORCE (OpenACC)

MapItem decode_item(void* host, size_t size, unsigned kind) {
  MapItem it{host, size, kMapPassThrough, 0, uint8_t(kind >> 8 < 63 ? kind >> 8 : 63)};
  unsigned k = kind & 0xff;
  if ((k & kSpecialBits) == kImplicit) {
    it.flags |= kMapFlagImplicit;
    k &= ~kImplicit;
  }
  switch (k) {
    case 0x00: case 0x80: it.op = kMapAlloc; break;              // alloc, force_alloc
    case 0x01: case 0x81: case 0x05: it.op = kMapTo; break;      // to, force_to, to_pset
    case 0x02: case 0x82: it.op = kMapFrom; break;
    case 0x03: case 0x83: it.op = kMapToFrom; break;
    case 0x11: it.op = kMapTo; it.flags |= kMapFlagAlways; break;      // always, to
    case 0x12: it.op = kMapFrom; it.flags |= kMapFlagAlways; break;
    case 0x13: it.op = kMapToFrom; it.flags |= kMapFlagAlways; break;
    case 0x04: case 0x1e: it.op = kMapPointer; break;  // pointer, to a zero-length section
    case 0x06: it.op = kMapPresent; break;           // force_present: "present"
    case 0x07: case 0x1f: it.op = kMapDelete; break; // delete (zero-length too)
    case 0x17: it.op = kMapRelease; break;
    case 0x08: it.op = kMapPassThrough; break;       // force_deviceptr
    case 0x0b: it.op = kMapIfPresent; break;
    case 0x0c: it.op = kMapFirstprivate; break;
    case 0x0d: it.op = kMapFirstprivateInt; break;
    case 0x0e: case 0x10: case 0x8e: it.op = kMapUseDevicePtr; break;  // use_device_ptr/addr
    case 0x0f: it.op = kMapZeroLen; break;
    case 0x1c: it.op = kMapStruct; break;
    case 0x1d: it.op = kMapAttach; break;            // always_pointer
    case 0x50: case 0x52: it.op = kMapAttach; break;  // attach, to a zero-length section
    case 0x51: case 0xd1: it.op = kMapDetach; break;
    default: {
      static std::atomic<bool> warned{false};
      if (!warned.exchange(true))
        warn("map kind %#x of gcc's offloading ABI is not known to Kite; the item is passed to "
             "the device unmapped",
             k);
      break;
    }
  }
  (void)kForce;
  return it;
}

MapItem* decode_list(size_t mapnum, void** hostaddrs, const size_t* sizes,
                     const unsigned short* kinds, MapItem* out) {
  for (size_t i = 0; i < mapnum; ++i) out[i] = decode_item(hostaddrs[i], sizes[i], kinds[i]);
  return out;
}

MapItem* decode_list8(size_t mapnum, void** hostaddrs, const size_t* sizes,
                      const unsigned char* kinds, MapItem* out) {
  for (size_t i = 0; i < mapnum; ++i) out[i] = decode_item(hostaddrs[i], sizes[i], kinds[i]);
  return out;
}

#define KITE_MAP_ITEMS(n) static_cast<MapItem*>(alloca(((n) ? (n) : 1) * sizeof(MapItem)))

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
    if ((kinds[i] & 0xff) != kGompMapFirstprivate || hostaddrs[i] == nullptr) continue;
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
  TargetLaunch l{};
  l.device = select_device(device);
  l.fn = fn;
  l.hostaddrs = hostaddrs;
  l.mapnum = mapnum;
  l.codeptr_ra = __builtin_return_address(0);
  if (l.device >= 0) l.items = decode_list8(mapnum, hostaddrs, sizes, kinds, KITE_MAP_ITEMS(mapnum));
  target_launch(l);
}

// A target region; with nowait, a target task.
KITE_EXPORT void GOMP_target_ext(int device, void (*fn)(void*), size_t mapnum, void** hostaddrs,
                                 size_t* sizes, unsigned short* kinds, unsigned int flags,
                                 void** depend, void** args) {
  TargetLaunch l{};
  l.device = select_device(device);
  if (l.device >= 0) l.items = decode_list(mapnum, hostaddrs, sizes, kinds, KITE_MAP_ITEMS(mapnum));
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
  int d = select_device(device);
  MapItem* items = d >= 0 ? decode_list8(mapnum, hostaddrs, sizes, kinds, KITE_MAP_ITEMS(mapnum)) : nullptr;
  target_data_begin(d, items, mapnum, hostaddrs, __builtin_return_address(0));
}

KITE_EXPORT void GOMP_target_data_ext(int device, size_t mapnum, void** hostaddrs, size_t* sizes,
                                      unsigned short* kinds) {
  int d = select_device(device);
  MapItem* items = d >= 0 ? decode_list(mapnum, hostaddrs, sizes, kinds, KITE_MAP_ITEMS(mapnum)) : nullptr;
  target_data_begin(d, items, mapnum, hostaddrs, __builtin_return_address(0));
}

KITE_EXPORT void GOMP_target_end_data(void) { target_data_end(__builtin_return_address(0)); }

KITE_EXPORT void GOMP_target_update(int device, const void* unused, size_t mapnum,
                                    void** hostaddrs, size_t* sizes, unsigned char* kinds) {
  (void)unused;
  int d = select_device(device);
  MapItem* items = d >= 0 ? decode_list8(mapnum, hostaddrs, sizes, kinds, KITE_MAP_ITEMS(mapnum)) : nullptr;
  target_data_construct(kUpdate, nullptr, false, __builtin_return_address(0), d, items, mapnum);
}

KITE_EXPORT void GOMP_target_update_ext(int device, size_t mapnum, void** hostaddrs, size_t* sizes,
                                        unsigned short* kinds, unsigned int flags, void** depend) {
  int d = select_device(device);
  MapItem* items = d >= 0 ? decode_list(mapnum, hostaddrs, sizes, kinds, KITE_MAP_ITEMS(mapnum)) : nullptr;
  target_data_construct(kUpdate, depend, (flags & kFlagNowait) != 0, __builtin_return_address(0),
                        d, items, mapnum);
}

KITE_EXPORT void GOMP_target_enter_exit_data(int device, size_t mapnum, void** hostaddrs,
                                             size_t* sizes, unsigned short* kinds,
                                             unsigned int flags, void** depend) {
  int d = select_device(device);
  MapItem* items = d >= 0 ? decode_list(mapnum, hostaddrs, sizes, kinds, KITE_MAP_ITEMS(mapnum)) : nullptr;
  target_data_construct((flags & kFlagExitData) ? kExitData : kEnterData, depend,
                        (flags & kFlagNowait) != 0, __builtin_return_address(0), d, items, mapnum);
}

}  // extern "C"
