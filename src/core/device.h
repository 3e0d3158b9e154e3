// Emulated offload devices (KITE_DEVICES=N): devices 0..N-1, each with its
// own memory, so that a program sees what a GPU would show it. The code of
// a target region still runs on the host (gcc's host-fallback function),
// but against device copies of its data: only the map clauses and the
// device memory routines move bytes between host and device memory.
//
// With KITE_DEVICES unset (or 0) there is no device and nothing here runs:
// every construct takes the host fallback of core/target.cpp.
//
// What the emulation cannot separate: data that the region's code reaches
// without going through its argument vector, i.e. global variables of a
// `declare target` directive (gcc's host-fallback code names them
// directly). Those stay shared with the host: each device maps them onto
// themselves, and never copies them (core/declare_target.h).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "base.h"

namespace kite {

// Most devices KITE_DEVICES may ask for.
constexpr int kMaxEmulatedDevices = 64;

// Number of emulated devices (KITE_DEVICES, read once; 0 when unset).
int emulated_device_count();
inline bool is_emulated_device(int device) {
  return device >= 0 && device < emulated_device_count();
}

// The device is initialized on its first use (a device construct or a
// device memory routine naming it); a tool hears device_initialize then.
void device_ensure_initialized(int device);
// At shutdown (before the tool's finalizer): device_unload for every code
// object loaded, then device_finalize, for each initialized device.
void devices_finalize();
// A region whose code is `fn` is about to run on `device`: the first time
// for fn's executable or shared object, a tool hears device_load.
void device_note_code(int device, const void* fn);

// --- device memory -------------------------------------------------------

// A block of `size` bytes (aligned at least to 64 and to `align`) in the
// device's arena. Never null for a valid device (size 0 gives a block too).
void* device_mem_alloc(int device, size_t size, size_t align);
// Frees a block of device_mem_alloc; false (and nothing freed) when p is
// not a live block of this device.
bool device_mem_free(int device, void* p);

// --- mapping --------------------------------------------------------------

// A map-list item as the core sees it (the ABI translates its compiler's
// kinds into these).
enum MapOp : uint8_t {
  kMapAlloc,            // allocate if absent
  kMapTo,               // ... and copy to the device when allocated
  kMapFrom,             // ... and copy back when the mapping ends
  kMapToFrom,
  kMapPresent,          // must be present (gcc: GOMP_MAP_FORCE_PRESENT)
  kMapRelease,          // exit data: decrement
  kMapDelete,           // exit data: reference count to zero
  kMapFirstprivate,     // the region gets a private copy of `size` bytes
  kMapFirstprivateInt,  // the value itself is in the host address slot
  kMapUseDevicePtr,     // translate to the device address (host's if absent)
  kMapZeroLen,          // zero-length section: translate if present, else as is
  kMapStruct,           // next `size` items are members of one structure
  kMapAttach,           // pointer at host address: point its device copy
  kMapDetach,           //   at the device copy of its pointee (bias: size)
  kMapPointer,          // map the pointer variable, then attach it
  kMapIfPresent,        // translate if present, else the host address
  kMapPassThrough,      // no mapping: the slot is handed over unchanged
};
enum : uint8_t {
  kMapFlagAlways = 1,    // always: copy even when the mapping existed
  kMapFlagImplicit = 2,  // implicitly mapped (may be partly present)
};

struct MapItem {
  void* host;
  size_t size;   // bytes (kMapStruct: member count; attach: bias)
  MapOp op;
  uint8_t flags;
  uint8_t align_log2;
};

// What a device construct needs to know to report its work to a tool.
struct MapContext {
  int device;
  const void* codeptr_ra;
};

// A structured mapping (target region, target data): what its end undoes.
struct MapScope {
  struct Held {
    void* entry;      // the mapping table entry whose count it holds
    void* host;
    size_t size;
    uint8_t copy_from;  // 1: from at the end, 2: always from
    uint8_t flags;      // the map item's kMapFlag* (for tools)
  };
  struct Attached {
    void* entry;     // the mapping table entry of the pointer's device copy
    void** dev_loc;  // the pointer's device copy
    void* restore;   // its value before the attach
  };
  MapContext ctx;
  Held* held;
  size_t nheld, cap_held;
  Attached* attached;
  size_t nattached, cap_attached;
  MapScope* outer;  // enclosing target data scope of this thread
  Held held_inline[16];
  Attached attached_inline[8];
};

// Maps items[0..n) for a target region or target data construct; fills
// devaddrs[i] with what the region sees in argument slot i (for a target
// data construct: the values use_device_ptr items take). Fatal errors
// (present on absent data, overlapping mappings) end the program.
void device_map_enter(MapScope* scope, const MapContext& ctx, const MapItem* items, size_t n,
                      void** devaddrs);
// Ends a structured mapping: detaches, decrements, copies from, frees.
void device_map_exit(MapScope* scope);

// target enter data / exit data / update: unstructured operations.
void device_enter_data(const MapContext& ctx, const MapItem* items, size_t n);
void device_exit_data(const MapContext& ctx, const MapItem* items, size_t n);
void device_update(const MapContext& ctx, const MapItem* items, size_t n);

// A target data construct's scope stays open on the encountering thread
// until GOMP_target_end_data.
void device_push_data_scope(MapScope* scope);
MapScope* device_pop_data_scope();

// --- routines --------------------------------------------------------------

// Device address of host address p on `device`, or null when absent.
void* device_translate(int device, const void* p, size_t size);
// omp_target_associate_ptr / disassociate: 0 or EINVAL.
int device_associate(int device, const void* host, void* dev, size_t size, const void* ra);
int device_disassociate(int device, const void* host, const void* ra);

// Reports one data operation to a tool around the work it describes.
void device_copy(int dst_device, void* dst, int src_device, const void* src, size_t bytes,
                 const void* ra);

}  // namespace kite
