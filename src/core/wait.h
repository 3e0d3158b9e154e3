// Waiting: spin briefly, then sleep on a futex. Every blocking wait in the
// runtime goes through here so OMP_WAIT_POLICY and KITE_SPIN_US mean the same
// thing everywhere.
#pragma once

#include "base.h"

#include <time.h>

namespace kite {

// A 32-bit word threads wait on, plus a count of sleepers so that a waker
// makes a system call only when somebody actually sleeps.
struct Futex {
  std::atomic<uint32_t> value{0};
  std::atomic<uint32_t> sleepers{0};

  uint32_t load() const { return value.load(std::memory_order_acquire); }
  // Store and wake every waiter.
  void store_and_wake(uint32_t v);
  // Add and wake every waiter; returns the previous value.
  uint32_t add_and_wake(uint32_t delta);
  void wake_all();
};

// How long a waiter spins before sleeping. Set once from OMP_WAIT_POLICY and
// KITE_SPIN_US (see env.cpp); adjusted when threads outnumber cores.
// Atomic because the pool's growth changes it while threads wait (plain x86
// loads and stores; rarely written).
struct SpinConfig {
  std::atomic<uint64_t> spin_iterations;   // pause iterations before sleeping
  std::atomic<bool> yield_while_spinning;  // oversubscribed: sched_yield between spins
};
extern SpinConfig g_spin;

// With KITE_SPIN_US=adaptive the budget adapts per thread: a thread whose
// sleep ended within the budget it had spun (spinning twice as long would
// have saved the sleep and the wake) doubles its budget, up to 16 times
// the 2 ms base; a thread whose sleep lasted more than 8 budgets goes back
// to the base. Why: on cores shared with another process, a teammate
// descheduled for one of that process's time slices (a few ms) outlasts
// the 2 ms base, the waiter sleeps, its processor goes idle, the balancer
// moves the other process there, and the wake then places the sleeper on
// its waker's processor: the pair ends up stacked on one processor
// (bench/results/2026-11-29-vm-shared-cores.md). With KITE_UNSTACK it keeps
// a team spread; off by default for the reason given in team.cpp.
extern bool g_spin_adaptive;
extern __thread uint8_t t_spin_shift __attribute__((tls_model("initial-exec")));
constexpr uint8_t kSpinMaxShift = 4;
inline uint64_t spin_budget() {
  const uint64_t s = g_spin.spin_iterations.load(std::memory_order_relaxed);
  if (KITE_LIKELY(!g_spin_adaptive)) return s;
  const uint8_t k = t_spin_shift;
  return k == 0 || s > (UINT64_MAX >> kSpinMaxShift) ? s : s << k;
}

// Whether a spinning thread should give its processor away now: when a
// thread it may be waiting for last ran on this very processor, or sleeps
// on a futex (a woken thread is placed next to its waker when no processor
// is idle), or is not known (team.cpp). Otherwise the threads it waits for
// run elsewhere, and yielding only hands the processor to whatever else
// wants it: another process when the cores are shared, for a whole
// scheduler slice (bench/results/2026-11-29-vm-shared-cores.md).
bool spin_should_yield();
// KITE_UNSTACK (team.cpp): 0 off (default), 1 on, 2 on and say each move.
extern int g_unstack;
// Processors of the process's affinity mask at start-up (env.cpp), what
// "more threads than processors" is measured against.
extern int g_num_procs_for_spin;
// CLOCK_MONOTONIC in ns (the adaptive budget and un-stacking's backoff).
inline uint64_t mono_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}
// The calling thread goes to sleep on a futex (true) or woke up (team.cpp).
void thread_note_asleep(bool asleep);

// One step of a spin-wait. Every 32nd step asks spin_should_yield (every
// step yields when threads outnumber processors): the scheduler (or, in a
// virtual machine, the host) may have put the thread we wait for on this
// very processor — a woken worker lands next to its waker — and a spinner
// that never yields holds it off for the whole spin budget. Measured on the
// 2-core VM: without any yield, a 2-thread barrier in bench/ sometimes cost
// ~70-300 us.
constexpr uint64_t kSpinYieldMask = 31;
inline void spin_step(uint64_t i) {
  if (g_spin.yield_while_spinning.load(std::memory_order_relaxed) ||
      ((i & kSpinYieldMask) == kSpinYieldMask && spin_should_yield()))
    sched_yield_portable();
  else
    cpu_relax();
}
// The same for a wait on a thread that need not be a teammate (a lock's
// holder, whoever fulfils an event): every 32nd step yields.
inline void spin_step_any(uint64_t i) {
  if (g_spin.yield_while_spinning.load(std::memory_order_relaxed) ||
      (i & kSpinYieldMask) == kSpinYieldMask)
    sched_yield_portable();
  else
    cpu_relax();
}

// A flush the program asked for (LLVM ABI's __kmpc_flush). Flushes in a
// loop are how flag-based pipelines wait (NPB's LU spins on a flag with a
// flush in the loop body); with more threads than processors, such a
// spinner holds the processor the thread it waits for needs, for a whole
// time slice. So when oversubscribed, every kFlushYieldEvery-th flush of a
// thread gives the processor away; otherwise a flush costs one load here.
constexpr uint32_t kFlushYieldEvery = 4;
void flush_yield_slow();
inline void flush_hint() {
  if (KITE_UNLIKELY(g_spin.yield_while_spinning.load(std::memory_order_relaxed))) flush_yield_slow();
}

// Block until f.value != old.
void wait_while_equal(Futex& f, uint32_t old);

// Block until pred() is true; pred must become true only after someone
// changes f.value and wakes it. Spins on pred, sleeps on f.
template <class Pred>
inline void wait_until(Futex& f, Pred pred) {
  while (!pred()) {
    uint32_t v = f.load();
    if (pred()) return;
    wait_while_equal(f, v);
  }
}

// Recompute spin settings for the number of threads that may be running.
void spin_config_for_threads(int running_threads);

// Raw futex system calls. futex_wait marks the calling thread asleep for
// spin_should_yield while it sleeps.
void futex_wait(std::atomic<uint32_t>* addr, uint32_t expected);
void futex_wake(std::atomic<uint32_t>* addr, int count);

}  // namespace kite

namespace kite {
// Base spin budget, in microseconds (OMP_WAIT_POLICY / KITE_SPIN_US). A
// negative value means "spin forever" (active policy), 0 means sleep at once.
void spin_set_budget_us(long us, bool adaptive = false);
}  // namespace kite
