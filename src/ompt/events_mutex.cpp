// The mutex events of events_mutex.h. Each function writes the thread's
// state (the only places the wait_lock / wait_critical / wait_atomic /
// wait_ordered states are written) and then calls the tool, so a tool that
// asks ompt_get_state from mutex_acquire already sees the wait state and
// the mutex's wait id, and from mutex_acquired sees the thread working again.
#include "ompt/events_mutex.h"

#include "ompt/ora.h"
#include "ompt/tr2.h"

namespace kite {
namespace ompt {

namespace {

inline ompt_wait_id_t as_wait_id(const void* p) { return reinterpret_cast<ompt_wait_id_t>(p); }

// Mutexes are taken by tasks, so a thread holding or waiting for one is
// working in its implicit task's region (or serially outside any team).
void set_working(Thread* me) {
  set_state(me, me->team ? ompt_state_work_parallel : ompt_state_work_serial);
  me->ompt.wait_id = ompt_wait_id_none;
}

void set_waiting(Thread* me, int wait_state, const void* wait_id) {
  // The wait id first: a signal handler that sees the wait state must not
  // see a stale id.
  me->ompt.wait_id = as_wait_id(wait_id);
  std::atomic_signal_fence(std::memory_order_release);
  set_state(me, wait_state);
}

// Ordered regions have no lock of their own: the loop's shared record is
// what the thread waits on.
const void* ordered_wait_id(Thread* me) {
  if (me->ws_cur) return me->ws_cur;
  return me->team;
}

// Hints of locks initialized with one while a tool is attached: a fixed
// table keyed by the lock's address, filled by lock_init, read by the
// acquire events of lock routines. Nothing is allocated and nothing waits:
// a slot, once claimed for an address, stays that address's (a destroyed
// lock's hint goes back to none), and a lock that finds no free slot within
// a short probe is reported with no hint, as the documentation says.
struct HintSlot {
  std::atomic<uintptr_t> lock;
  std::atomic<unsigned> hint;
};
constexpr size_t kHintSlots = 1024;  // a power of two
constexpr size_t kHintProbe = 32;
HintSlot g_hints[kHintSlots];
// Some slot was ever claimed: until then every lock's hint is none, and an
// acquire event looks nothing up (most programs give no hint at all).
std::atomic<bool> g_any_hint{false};

size_t hint_home(uintptr_t lock) {
  return size_t((lock >> 2) * 0x9E3779B97F4A7C15ull >> 54) & (kHintSlots - 1);
}

// The slot of `lock`; with `claim`, a free one is taken for it if it has
// none. NULL if there is none (or no room).
HintSlot* hint_slot(const void* lock, bool claim) {
  const uintptr_t key = reinterpret_cast<uintptr_t>(lock);
  size_t i = hint_home(key);
  for (size_t n = 0; n < kHintProbe; ++n, i = (i + 1) & (kHintSlots - 1)) {
    HintSlot& s = g_hints[i];
    uintptr_t k = s.lock.load(std::memory_order_acquire);
    if (k == key) return &s;
    if (k == 0) {
      if (!claim) return nullptr;
      if (s.lock.compare_exchange_strong(k, key, std::memory_order_acq_rel)) {
        g_any_hint.store(true, std::memory_order_release);
        return &s;
      }
      if (k == key) return &s;
    }
  }
  return nullptr;
}

void remember_hint(const void* lock, unsigned hint) {
  if (HintSlot* s = hint_slot(lock, hint != 0)) s->hint.store(hint, std::memory_order_release);
}

}  // namespace

unsigned lock_hint(const void* lock) {
  if (!g_any_hint.load(std::memory_order_acquire)) return 0;
  HintSlot* s = hint_slot(lock, false);
  return s ? s->hint.load(std::memory_order_acquire) : 0;
}

void on_mutex_acquire(Thread* me, ompt_mutex_t kind, unsigned hint, const void* wait_id,
                      int wait_state, const void* codeptr_ra) {
  if (wait_state) {
    set_waiting(me, wait_state, wait_id);
    ora::wait_begin(me, wait_state);
    tr2::mutex(me, tr2::kMutexWait, kind, wait_id);
  }
  auto cb = callback<ompt_callback_mutex_acquire_t>(ompt_callback_mutex_acquire);
  if (cb) cb(kind, hint, kMutexImplSpinFutex, as_wait_id(wait_id), codeptr_ra);
}

void on_mutex_acquired(Thread* me, ompt_mutex_t kind, const void* wait_id,
                       const void* codeptr_ra) {
  set_working(me);
  ora::wait_end(me);
  tr2::mutex(me, tr2::kMutexAcquired, kind, wait_id);
  auto cb = callback<ompt_callback_mutex_t>(ompt_callback_mutex_acquired);
  if (cb) cb(kind, as_wait_id(wait_id), codeptr_ra);
}

void on_mutex_released(ompt_mutex_t kind, const void* wait_id, const void* codeptr_ra) {
  auto cb = callback<ompt_callback_mutex_t>(ompt_callback_mutex_released);
  if (cb) cb(kind, as_wait_id(wait_id), codeptr_ra);
  tr2::mutex(tls_self, tr2::kMutexReleased, kind, wait_id);
}

void on_nest_lock(Thread* me, ompt_scope_endpoint_t ep, const void* wait_id,
                  const void* codeptr_ra) {
  if (ep == ompt_scope_begin) {
    set_working(me);
    ora::wait_end(me);
  }
  auto cb = callback<ompt_callback_nest_lock_t>(ompt_callback_nest_lock);
  if (cb) cb(ep, as_wait_id(wait_id), codeptr_ra);
  tr2::mutex(me, ep == ompt_scope_begin ? tr2::kNestNext : tr2::kNestPrev, ompt_mutex_nest_lock,
             wait_id);
}

void on_ordered_begin(Thread* me, const void* codeptr_ra) {
  on_mutex_acquire(me, ompt_mutex_ordered, 0 /* omp_sync_hint_none */, ordered_wait_id(me),
                   ompt_state_wait_ordered, codeptr_ra);
}

void on_ordered_acquired(Thread* me, const void* codeptr_ra) {
  on_mutex_acquired(me, ompt_mutex_ordered, ordered_wait_id(me), codeptr_ra);
  ora::emit(OMP_EVENT_THR_BEGIN_ORDERED);
}

void on_ordered_end(Thread* me, const void* codeptr_ra) {
  ora::emit(OMP_EVENT_THR_END_ORDERED);
  on_mutex_released(ompt_mutex_ordered, ordered_wait_id(me), codeptr_ra);
}

void on_lock_init(ompt_mutex_t kind, unsigned hint, const void* wait_id, const void* codeptr_ra) {
  remember_hint(wait_id, hint);
  auto cb = callback<ompt_callback_mutex_acquire_t>(ompt_callback_lock_init);
  if (cb) cb(kind, hint, kMutexImplSpinFutex, as_wait_id(wait_id), codeptr_ra);
  tr2::mutex(tls_self, tr2::kLockInit, kind, wait_id);
}

void on_lock_destroy(ompt_mutex_t kind, const void* wait_id, const void* codeptr_ra) {
  remember_hint(wait_id, 0);
  auto cb = callback<ompt_callback_mutex_t>(ompt_callback_lock_destroy);
  if (cb) cb(kind, as_wait_id(wait_id), codeptr_ra);
  tr2::mutex(tls_self, tr2::kLockDestroy, kind, wait_id);
}

int control_tool(Thread* me, uint64_t command, uint64_t modifier, void* arg,
                 const void* codeptr_ra, void* enter_frame) {
  constexpr int kNoTool = -2;      // omp_control_tool_notool
  constexpr int kNoCallback = -1;  // omp_control_tool_nocallback
  // A tool, not just the OMPT bookkeeping (OMP_DEBUG=enabled turns that on
  // without one).
  if (!active() || !tool_attached()) return kNoTool;
  auto cb = callback<ompt_callback_control_tool_t>(ompt_callback_control_tool);
  if (!cb) return kNoCallback;
  // The program is in the runtime for the call: a tool that unwinds from
  // its callback finds where the application's frames begin.
  Task* task = me ? me->task : nullptr;
  if (task) set_enter_frame(task, enter_frame);
  int answer = cb(command, modifier, arg, codeptr_ra);
  if (task) clear_enter_frame(task);
  return answer;
}

}  // namespace ompt
}  // namespace kite
