// Read-modify-write of one object as an OpenMP atomic construct, for ABI
// entry points that receive the object's address and the operation.
//
// Which path an object takes is decided by its type alone, the same rule gcc
// applies when it decides between a native atomic and GOMP_atomic_start:
// scalars of 1, 2, 4 or 8 bytes are updated by a compare-and-swap loop on the
// object itself; everything else (long double, __float128, complex numbers)
// under the one atomic lock shared with GOMP_atomic_start/GOMP_atomic_end, so
// code from either compiler touching the same object excludes the other, and
// tools see the same ompt_mutex_atomic events for both.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "lock.h"

namespace kite {

template <class T>
inline constexpr bool kAtomicByCas =
    (std::is_integral_v<T> || std::is_floating_point_v<T>) &&
    (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);

namespace atomic_detail {
template <std::size_t N> struct Bits;
template <> struct Bits<1> { using type = uint8_t; };
template <> struct Bits<2> { using type = uint16_t; };
template <> struct Bits<4> { using type = uint32_t; };
template <> struct Bits<8> { using type = uint64_t; };

// The object seen as an unsigned word of its size: floating-point values are
// compared by their bits, so -0.0 vs 0.0 and NaNs cannot make a CAS loop spin.
template <class T>
inline std::atomic_ref<typename Bits<sizeof(T)>::type> word_of(T* obj) {
  using B = typename Bits<sizeof(T)>::type;
  return std::atomic_ref<B>(*reinterpret_cast<B*>(obj));
}
}  // namespace atomic_detail

template <class T>
struct AtomicUpdated {
  T before;
  T after;
};

// *obj = next(*obj) as one atomic step; returns both values. `codeptr_ra`
// (the program's return address) is reported to tools when the lock is used.
template <class T, class F>
inline AtomicUpdated<T> atomic_update(T* obj, F next, const void* codeptr_ra) {
  if constexpr (kAtomicByCas<T>) {
    using B = typename atomic_detail::Bits<sizeof(T)>::type;
    auto word = atomic_detail::word_of(obj);
    B seen = word.load(std::memory_order_relaxed);
    for (;;) {
      const T before = std::bit_cast<T>(seen);
      const T after = next(before);
      const B want = std::bit_cast<B>(after);
      // Nothing to store (min/max that loses, x & ~0...): the load was the
      // atomic step, and the cache line stays shared.
      if (want == seen) return {before, after};
      if (word.compare_exchange_weak(seen, want, std::memory_order_seq_cst,
                                     std::memory_order_relaxed))
        return {before, after};
    }
  } else {
    atomic_enter(codeptr_ra);
    const T before = *obj;
    const T after = next(before);
    *obj = after;
    atomic_exit(codeptr_ra);
    return {before, after};
  }
}

template <class T>
inline T atomic_read(T* obj, const void* codeptr_ra) {
  if constexpr (kAtomicByCas<T>) {
    return std::bit_cast<T>(atomic_detail::word_of(obj).load(std::memory_order_seq_cst));
  } else {
    atomic_enter(codeptr_ra);
    const T value = *obj;
    atomic_exit(codeptr_ra);
    return value;
  }
}

// Stores `value`; returns the value it replaced.
template <class T>
inline T atomic_swap(T* obj, T value, const void* codeptr_ra) {
  if constexpr (kAtomicByCas<T>) {
    using B = typename atomic_detail::Bits<sizeof(T)>::type;
    return std::bit_cast<T>(
        atomic_detail::word_of(obj).exchange(std::bit_cast<B>(value), std::memory_order_seq_cst));
  } else {
    atomic_enter(codeptr_ra);
    const T before = *obj;
    *obj = value;
    atomic_exit(codeptr_ra);
    return before;
  }
}

// If *obj == expected, stores desired; returns the value found.
template <class T>
inline T atomic_compare_swap(T* obj, T expected, T desired) {
  static_assert(kAtomicByCas<T> && std::is_integral_v<T>, "integer compare-and-swap only");
  std::atomic_ref<T>(*obj).compare_exchange_strong(expected, desired, std::memory_order_seq_cst,
                                                   std::memory_order_seq_cst);
  return expected;
}

// Runs body() inside the atomic lock (objects of sizes no CAS covers).
template <class F>
inline void atomic_locked(F body, const void* codeptr_ra) {
  atomic_enter(codeptr_ra);
  body();
  atomic_exit(codeptr_ra);
}

}  // namespace kite
