// OMP_DEBUG, ompd_dll_locations, the thread list and the breakpoint
// functions (OpenMP 5.2 §20.2, §20.6). See debug.h.
#include "ompd/runtime/debug.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/team.h"

extern "C" KITE_EXPORT const char** ompd_dll_locations;

namespace kite {
namespace ompd {

int g_debugging = 0;
int g_tracking = 0;
DebugThread* g_threads = nullptr;

namespace {

pthread_mutex_t g_threads_lock = PTHREAD_MUTEX_INITIALIZER;

// The OMPD library sits next to the runtime: the directory of the file
// libkite.so really is (build/gomp/libgomp.so.1 and build/llvm/libomp.so.5
// are links to it), whatever name the program loaded it by.
char g_library_path[PATH_MAX + 32];
const char* g_locations[2] = {nullptr, nullptr};

void find_library() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(&find_library), &info) || !info.dli_fname) return;
  char real[PATH_MAX];
  if (!realpath(info.dli_fname, real)) return;
  char* slash = strrchr(real, '/');
  if (!slash) return;
  slash[1] = '\0';
  size_t n = strlen(real);
  static const char kName[] = "libkite-ompd.so";
  if (n + sizeof kName > sizeof g_library_path) return;
  memcpy(g_library_path, real, n);
  memcpy(g_library_path + n, kName, sizeof kName);
  g_locations[0] = g_library_path;
}

}  // namespace

bool debug_from_environment() {
  const char* v = getenv("OMP_DEBUG");
  if (!v || !v[0]) return false;
  if (strcasecmp(v, "enabled") == 0) return true;
  if (strcasecmp(v, "disabled") != 0)
    warn("OMP_DEBUG='%s' is invalid (expected enabled or disabled); using disabled", v);
  return false;
}

void tracking_started() { __atomic_store_n(&g_tracking, 1, __ATOMIC_RELEASE); }

void thread_begins(Thread* t) {
  long lwp = syscall(SYS_gettid);
  pthread_mutex_lock(&g_threads_lock);
  DebugThread* d = g_threads;
  while (d && d->thread != t) d = d->next;
  if (!d) {
    d = static_cast<DebugThread*>(xmalloc(sizeof(DebugThread)));
    d->thread = t;
    d->lwp = lwp;
    d->next = g_threads;
    __atomic_store_n(&g_threads, d, __ATOMIC_RELEASE);
  } else {
    d->lwp = lwp;
  }
  pthread_mutex_unlock(&g_threads_lock);
  if (KITE_UNLIKELY(g_debugging)) ompd_bp_thread_begin();
}

void thread_ends(Thread* t) {
  if (KITE_UNLIKELY(g_debugging)) ompd_bp_thread_end();
  pthread_mutex_lock(&g_threads_lock);
  for (DebugThread* d = g_threads; d; d = d->next)
    if (d->thread == t) d->lwp = 0;
  pthread_mutex_unlock(&g_threads_lock);
}

// At load, before any OpenMP code runs: a debugger that attaches (or reads
// a core file) finds the library's path whatever OMP_DEBUG says.
__attribute__((constructor(102))) void publish_dll_locations() {
  find_library();
  if (g_locations[0]) {
    __atomic_store_n(&ompd_dll_locations, &g_locations[0], __ATOMIC_RELEASE);
    ompd_dll_locations_valid();
  }
}

}  // namespace ompd
}  // namespace kite

// The names the specification gives them, unmangled and exported. The
// breakpoint functions do nothing: a debugger stops in them. noinline, the
// empty asm and no_icf keep each a distinct function at its own address
// (identical-code folding would give them all one).
#if defined(__GNUC__) && !defined(__clang__)
#define KITE_OMPD_NO_ICF __attribute__((no_icf))
#else
#define KITE_OMPD_NO_ICF
#endif
extern "C" {
KITE_EXPORT const char** ompd_dll_locations = nullptr;
#define KITE_OMPD_BREAKPOINT(name) \
  KITE_EXPORT KITE_OMPD_NO_ICF __attribute__((noinline, used)) void name(void) { \
    __asm__ volatile("");                                                        \
  }
KITE_OMPD_BREAKPOINT(ompd_dll_locations_valid)
KITE_OMPD_BREAKPOINT(ompd_bp_parallel_begin)
KITE_OMPD_BREAKPOINT(ompd_bp_parallel_end)
KITE_OMPD_BREAKPOINT(ompd_bp_task_begin)
KITE_OMPD_BREAKPOINT(ompd_bp_task_end)
KITE_OMPD_BREAKPOINT(ompd_bp_thread_begin)
KITE_OMPD_BREAKPOINT(ompd_bp_thread_end)
// Kite has no offload device: no device is ever initialized, so these two
// are never called; they exist because a debugger may set breakpoints in them.
KITE_OMPD_BREAKPOINT(ompd_bp_device_begin)
KITE_OMPD_BREAKPOINT(ompd_bp_device_end)
}
