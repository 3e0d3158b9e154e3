// Memory, diagnostics, and the few C++ runtime hooks the library needs so that
// it links no C++ standard library shared object.
#include "base.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace kite {

void* xmalloc(std::size_t size) {
  void* p = malloc(size ? size : 1);
  if (!p) fatal("out of memory allocating %zu bytes", size);
  return p;
}

void* xcalloc(std::size_t n, std::size_t size) {
  void* p = calloc(n ? n : 1, size ? size : 1);
  if (!p) fatal("out of memory allocating %zu x %zu bytes", n, size);
  return p;
}

void* xaligned_alloc(std::size_t align, std::size_t size) {
  void* p = nullptr;
  if (posix_memalign(&p, align, size ? size : 1) != 0 || !p)
    fatal("out of memory allocating %zu bytes", size);
  return p;
}

void xfree(void* p) { free(p); }

void fatal(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kite: fatal: %s\n", buf);
  fflush(stderr);
  abort();
}

namespace {
std::atomic<bool> g_warnings{true};
}  // namespace

void warnings_enable(bool on) { g_warnings.store(on, std::memory_order_relaxed); }

bool warnings_enabled() { return g_warnings.load(std::memory_order_relaxed); }

void warn(const char* fmt, ...) {
  if (!g_warnings.load(std::memory_order_relaxed)) return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kite: warning: %s\n", buf);
}

void sched_yield_portable() { sched_yield(); }

}  // namespace kite

// C++ runtime hooks, hidden so they never interpose on a program's own.
void* operator new(std::size_t n) { return kite::xmalloc(n); }
void* operator new[](std::size_t n) { return kite::xmalloc(n); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, std::size_t) noexcept { free(p); }
void operator delete[](void* p, std::size_t) noexcept { free(p); }
extern "C" KITE_HIDDEN void __cxa_pure_virtual() { kite::fatal("pure virtual call"); }
