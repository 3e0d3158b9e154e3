// The declare target globals every emulated device maps onto themselves
// (core/declare_target.h).
#include "declare_target.h"

#include <pthread.h>
#include <string.h>

#include "base.h"
#include "device.h"

namespace kite {

namespace {

struct Range {
  uintptr_t start;
  size_t size;
};

pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
Range* g_globals;
size_t g_n, g_cap;
uint64_t g_devices;  // bit d: device d's table holds the globals
static_assert(kMaxEmulatedDevices <= 64, "one bit per device");

}  // namespace

void declare_target_global_add(uintptr_t start, size_t size) {
  if (!start || !size) return;
  pthread_mutex_lock(&g_lock);
  if (g_n == g_cap) {
    size_t cap = g_cap ? 2 * g_cap : 32;
    auto* r = static_cast<Range*>(xmalloc(cap * sizeof(Range)));
    if (g_n) memcpy(r, g_globals, g_n * sizeof(Range));
    xfree(g_globals);
    g_globals = r;
    g_cap = cap;
  }
  g_globals[g_n++] = Range{start, size};
  for (int d = 0; d < kMaxEmulatedDevices; ++d)
    if (g_devices >> d & 1) device_add_global(d, start, size);
  pthread_mutex_unlock(&g_lock);
}

void declare_target_global_remove(uintptr_t start, size_t size) {
  pthread_mutex_lock(&g_lock);
  for (size_t i = 0; i < g_n; ++i) {
    if (g_globals[i].start != start || g_globals[i].size != size) continue;
    g_globals[i] = g_globals[--g_n];
    for (int d = 0; d < kMaxEmulatedDevices; ++d)
      if (g_devices >> d & 1) device_remove_global(d, start, size);
    break;
  }
  pthread_mutex_unlock(&g_lock);
}

void declare_target_attach_device(int device) {
  pthread_mutex_lock(&g_lock);
  g_devices |= uint64_t(1) << device;
  for (size_t i = 0; i < g_n; ++i) device_add_global(device, g_globals[i].start, g_globals[i].size);
  pthread_mutex_unlock(&g_lock);
}

}  // namespace kite
