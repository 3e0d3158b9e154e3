#include "wait.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <time.h>

namespace kite {

SpinConfig g_spin = {200000, false};

bool g_spin_adaptive = false;
__thread uint8_t t_spin_shift __attribute__((tls_model("initial-exec"))) = 0;
static uint64_t g_spin_base_ns = 2000000;

// After a sleep of `slept` ns that followed a full spin (wait.h).
static void spin_adapt(uint64_t slept) {
  const uint64_t budget = g_spin_base_ns << t_spin_shift;
  if (slept < budget) {
    if (t_spin_shift < kSpinMaxShift) ++t_spin_shift;
  } else if (slept > 8 * budget) {
    t_spin_shift = 0;
  }
}

void futex_wait(std::atomic<uint32_t>* addr, uint32_t expected) {
  thread_note_asleep(true);
  const bool adapt = g_spin_adaptive && !g_spin.yield_while_spinning.load(std::memory_order_relaxed);
  const uint64_t t0 = adapt ? mono_ns() : 0;
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(addr), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
  if (adapt) spin_adapt(mono_ns() - t0);
  thread_note_asleep(false);
}

void futex_wake(std::atomic<uint32_t>* addr, int count) {
  syscall(SYS_futex, reinterpret_cast<uint32_t*>(addr), FUTEX_WAKE_PRIVATE, count, nullptr,
          nullptr, 0);
}

void Futex::wake_all() {
  // The seq_cst fence pairs with the one in wait_while_equal: either the
  // waiter sees the new value, or we see its sleeper count.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (sleepers.load(std::memory_order_relaxed) != 0) futex_wake(&value, INT_MAX);
}

void Futex::store_and_wake(uint32_t v) {
  value.store(v, std::memory_order_release);
  wake_all();
}

uint32_t Futex::add_and_wake(uint32_t delta) {
  uint32_t old = value.fetch_add(delta, std::memory_order_acq_rel);
  wake_all();
  return old;
}

namespace {
__thread uint32_t t_flushes __attribute__((tls_model("initial-exec"))) = 0;
}

void flush_yield_slow() {
  if (++t_flushes % kFlushYieldEvery == 0) sched_yield_portable();
}

void wait_while_equal(Futex& f, uint32_t old) {
  const uint64_t spins = spin_budget();
  for (uint64_t i = 0; i < spins; ++i) {
    if (f.value.load(std::memory_order_acquire) != old) return;
    spin_step(i);
  }
  f.sleepers.fetch_add(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  while (f.value.load(std::memory_order_acquire) == old) futex_wait(&f.value, old);
  f.sleepers.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace kite

#include <time.h>

namespace kite {

static uint64_t g_spin_base = 200000;
int g_num_procs_for_spin = 1;

static double pauses_per_us() {
  static double cached = 0;
  if (cached > 0) return cached;
  timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < 2000; ++i) cpu_relax();
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
  if (ns < 1) ns = 1;
  cached = 2000.0 * 1000.0 / ns;
  if (cached < 1) cached = 1;
  return cached;
}

void spin_set_budget_us(long us, bool adaptive) {
  g_spin_adaptive = adaptive && us > 0;
  if (us < 0) {
    g_spin_base = UINT64_MAX;
  } else {
    g_spin_base = static_cast<uint64_t>(static_cast<double>(us) * pauses_per_us());
    g_spin_base_ns = static_cast<uint64_t>(us) * 1000;
  }
  g_spin.spin_iterations = g_spin_base;
}

void spin_config_for_threads(int running_threads) {
  if (running_threads > g_num_procs_for_spin) {
    // Oversubscribed: a spinning waiter steals the core from the thread it
    // waits for, so spin a little, yielding, then sleep.
    g_spin.spin_iterations = g_spin_base < 256 ? g_spin_base : 256;
    g_spin.yield_while_spinning = true;
  } else {
    g_spin.spin_iterations = g_spin_base;
    g_spin.yield_while_spinning = false;
  }
}

}  // namespace kite
