// Global variables of `declare target` directives on the emulated devices
// (core/device.h).
//
// gcc's host-fallback code names these globals directly: a `to` / `enter`
// global everywhere (gcc drops it from the region's map list), a `link`
// global in every function the region calls (the region's own body reaches
// it through its argument vector). A device copy would split one variable
// in two. So on an emulated device each of them is mapped onto itself:
// device address = host address, present from the device's initialization,
// with an infinite reference count, and nothing is ever copied either way.
//
// The compiler's ABI layer says which globals they are (abi/gomp: gcc's
// host variable tables); this registry hands them to every device, those
// initialized later included.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace kite {

// [start, start+size) is a declare target global (add), or no longer is
// (remove: its object is being unloaded).
void declare_target_global_add(uintptr_t start, size_t size);
void declare_target_global_remove(uintptr_t start, size_t size);

// Makes `device` see every global added so far and every one added later
// (once, when the device is initialized).
void declare_target_attach_device(int device);

// core/device.cpp: a declare target global on `device` (add: mapped onto
// itself, unless something already maps any of it; remove: that ends).
void device_add_global(int device, uintptr_t start, size_t size);
void device_remove_global(int device, uintptr_t start, size_t size);

}  // namespace kite
