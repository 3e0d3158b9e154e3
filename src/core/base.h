// Common definitions for the Kite core: visibility, branch hints, cache-line
// alignment, and the small set of atomics helpers the runtime uses.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#define KITE_EXPORT __attribute__((visibility("default")))
#define KITE_HIDDEN __attribute__((visibility("hidden")))
#define KITE_LIKELY(x) __builtin_expect(!!(x), 1)
#define KITE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define KITE_NOINLINE __attribute__((noinline))
#define KITE_RETURN_ADDRESS() __builtin_return_address(0)
#define KITE_FRAME_ADDRESS() __builtin_frame_address(0)

namespace kite {

constexpr std::size_t kCacheLine = 64;

// Pause instruction for spin loops.
inline void cpu_relax() { __builtin_ia32_pause(); }

// Allocation that never returns null: the runtime cannot continue without
// memory, so it reports and aborts (as libgomp and libomp do).
void* xmalloc(std::size_t size);
void* xcalloc(std::size_t n, std::size_t size);
void* xaligned_alloc(std::size_t align, std::size_t size);
void xfree(void* p);

// Fatal runtime error: message on stderr, then abort().
[[noreturn]] void fatal(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// One-line warning on stderr prefixed with "kite: ".
void warn(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Turns warn() on or off for the whole process (libomp's kmp_set_warnings_*).
void warnings_enable(bool on);
bool warnings_enabled();

}  // namespace kite

namespace kite {
void sched_yield_portable();
}
