// The ORA collector interface: __omp_collector_api and its events.
//
// A collector finds __omp_collector_api with dlsym and sends it messages
// of requests (include/omp_collector_api.h gives the layout). Requests that
// change the session (START, STOP, PAUSE, RESUME, REGISTER, UNREGISTER) take
// a lock; the inquiries (STATE, CURRENT_PRID, PARENT_PRID) read the calling
// thread's record with plain loads, take nothing and allocate nothing, so a
// collector may send them from a signal handler.
//
// States come from the OMPT state the slow halves of the emitters keep
// (one place per transition, callbacks.h), mapped onto the white paper's
// eleven, except inside OpenUH's task intervals, whose own state the task
// engine's traced paths keep beside it (ora_task_state).
#include "ompt/ora.h"

#include <pthread.h>
#include <string.h>

#include "ompt/callbacks.h"
#include "ompd/runtime/debug.h"

namespace kite {
namespace ora {

std::atomic<bool> g_live{false};
std::atomic<bool> g_tasks{false};

namespace {

constexpr int kHeader = 16;  // size, request, error, return size

std::atomic<bool> g_started{false};
bool g_paused = false;  // under g_control
pthread_mutex_t g_control = PTHREAD_MUTEX_INITIALIZER;
std::atomic<omp_collector_callback_t> g_callbacks[kLastEvent + 1];
std::atomic<uint64_t> g_next_region{1};
// Some task event (23..35) has a callback: under g_control, read relaxed.
std::atomic<bool> g_task_callbacks{false};

bool is_task_event(int ev) {
  return ev >= OMP_EVENT_THR_BEGIN_CREATE_TASK && ev <= OMP_EVENT_THR_END_FINISH_TASK;
}

// After a change of the callbacks, under g_control.
void update_task_callbacks() {
  bool any = false;
  for (int ev = OMP_EVENT_THR_BEGIN_CREATE_TASK; ev <= OMP_EVENT_THR_END_FINISH_TASK; ++ev)
    any |= g_callbacks[ev].load(std::memory_order_relaxed) != nullptr;
  g_task_callbacks.store(any, std::memory_order_relaxed);
}

// One entry of a message. Fields are read and written with memcpy: the
// message is the collector's memory, with no alignment promised.
struct Entry {
  char* at;
  int size() const { return load_int(0); }
  int request() const { return load_int(4); }
  int data_size() const { return size() - kHeader; }
  char* data() const { return at + kHeader; }
  int load_int(int off) const {
    int v;
    memcpy(&v, at + off, sizeof v);
    return v;
  }
  void answer(int error, int return_size) const {
    memcpy(at + 8, &error, sizeof error);
    memcpy(at + 12, &return_size, sizeof return_size);
  }
};

bool well_formed(int size) { return size >= kHeader && size % 4 == 0; }

int state_of(const Thread* me) {
  if (!me) return THR_SERIAL_STATE;  // a thread the runtime never saw
  // A task interval (create, schedule, steal, suspend, finish) names the
  // state; a task body inside one clears it until the body's end.
  if (int task_state = me->ompt.ora_task_state) return task_state;
  switch (me->ompt.state) {
    case ompt_state_work_serial:
      // Also a record made while nothing kept states (zeroed): a pool
      // worker is then idle or working, never serial.
      if (me->is_worker) return me->team ? THR_WORK_STATE : THR_IDLE_STATE;
      return THR_SERIAL_STATE;
    case ompt_state_work_parallel: return THR_WORK_STATE;
    case ompt_state_work_reduction: return THR_REDUC_STATE;
    case ompt_state_idle: return THR_IDLE_STATE;
    case ompt_state_wait_barrier:
    case ompt_state_wait_barrier_implicit_parallel:
    case ompt_state_wait_barrier_implicit_workshare:
    case ompt_state_wait_barrier_implementation:
    case ompt_state_wait_barrier_teams:
      return THR_IBAR_STATE;
    case ompt_state_wait_barrier_explicit: return THR_EBAR_STATE;
    case ompt_state_wait_mutex:
    case ompt_state_wait_lock:
      return THR_LKWT_STATE;
    case ompt_state_wait_critical: return THR_CTWT_STATE;
    case ompt_state_wait_atomic: return THR_ATWT_STATE;
    case ompt_state_wait_ordered: return THR_ODWT_STATE;
    case ompt_state_undefined:
      // A thread between its end and its record's reuse.
      return me->is_worker ? THR_IDLE_STATE : me->team ? THR_WORK_STATE : THR_SERIAL_STATE;
    default:
      // Task waits, target regions and the runtime's own work: ORA
      // predates them, and the thread is neither working nor in one of
      // ORA's waits.
      return THR_OVHD_STATE;
  }
}

bool has_wait_id(int ora_state) {
  switch (ora_state) {
    case THR_IBAR_STATE:
    case THR_EBAR_STATE:
    case THR_LKWT_STATE:
    case THR_CTWT_STATE:
    case THR_ODWT_STATE:
    case THR_ATWT_STATE:
      return true;
    default:
      return false;
  }
}

uint64_t region_id(const void* team) {
  return team ? static_cast<const Team*>(team)->ompt.ora_id : 0;
}

// Turns the event sites' slow halves on or off: on while a session, an
// OMPT tool or a debugger (OMP_DEBUG) needs them.
void update_active() {
  bool on = g_started.load(std::memory_order_relaxed) || ompt::tool_attached() ||
            ompd::g_debugging != 0;
  ompt::g_active.store(on, std::memory_order_release);
}

void start(const Entry& e) {
  // The runtime initializes itself on its first record; the collector's
  // thread gets one now (nothing is answered before START anyway).
  Thread* me = self();
  pthread_mutex_lock(&g_control);
  if (g_started.load(std::memory_order_relaxed)) {
    pthread_mutex_unlock(&g_control);
    return e.answer(OMP_ERRCODE_SEQUENCE_ERR, 0);
  }
  for (auto& cb : g_callbacks) cb.store(nullptr, std::memory_order_relaxed);
  update_task_callbacks();
  g_paused = false;
  // A task interval a thread left open when an earlier session stopped
  // must not answer for this one (the caller's; others' close or reopen
  // at their next task event).
  me->ompt.ora_task_state = 0;
  // Without a tool the states were not kept until now: the caller's
  // starts here, the others' at their next transition (state_of).
  if (!ompt::active())
    ompt::set_state(me, me->team ? ompt_state_work_parallel : ompt_state_work_serial);
  g_started.store(true, std::memory_order_relaxed);
  g_tasks.store(true, std::memory_order_relaxed);
  update_active();
  g_live.store(true, std::memory_order_release);
  ompt::refresh_barrier_hooked();
  pthread_mutex_unlock(&g_control);
  e.answer(OMP_ERRCODE_OK, 0);
}

// The requests that need a started session; false (answered) without one.
bool in_session(const Entry& e) {
  if (g_started.load(std::memory_order_acquire)) return true;
  e.answer(OMP_ERRCODE_SEQUENCE_ERR, 0);
  return false;
}

void stop(const Entry& e) {
  pthread_mutex_lock(&g_control);
  if (!g_started.load(std::memory_order_relaxed)) {
    pthread_mutex_unlock(&g_control);
    return e.answer(OMP_ERRCODE_SEQUENCE_ERR, 0);
  }
  g_live.store(false, std::memory_order_release);
  ompt::refresh_barrier_hooked();
  g_tasks.store(false, std::memory_order_relaxed);
  for (auto& cb : g_callbacks) cb.store(nullptr, std::memory_order_relaxed);
  update_task_callbacks();
  g_started.store(false, std::memory_order_relaxed);
  update_active();
  pthread_mutex_unlock(&g_control);
  e.answer(OMP_ERRCODE_OK, 0);
}

// PAUSE and RESUME: a repeated one is ignored, as the header says.
void pause(const Entry& e, bool paused) {
  pthread_mutex_lock(&g_control);
  if (!g_started.load(std::memory_order_relaxed)) {
    pthread_mutex_unlock(&g_control);
    return e.answer(OMP_ERRCODE_SEQUENCE_ERR, 0);
  }
  g_paused = paused;
  g_live.store(!paused, std::memory_order_release);
  ompt::refresh_barrier_hooked();
  pthread_mutex_unlock(&g_control);
  e.answer(OMP_ERRCODE_OK, 0);
}

bool known_event(int ev) { return ev >= OMP_EVENT_FORK && ev <= kLastEvent; }

void register_event(const Entry& e, bool add) {
  if (!in_session(e)) return;
  const int need = add ? 4 + 8 : 4;
  if (e.data_size() < need) return e.answer(OMP_ERRCODE_ERROR, 0);
  int ev;
  memcpy(&ev, e.data(), sizeof ev);
  if (!known_event(ev)) return e.answer(OMP_ERRCODE_UNKNOWN, 0);
  omp_collector_callback_t cb = nullptr;
  if (add) memcpy(&cb, e.data() + 4, sizeof cb);
  pthread_mutex_lock(&g_control);
  g_callbacks[ev].store(cb, std::memory_order_release);
  if (is_task_event(ev)) update_task_callbacks();
  pthread_mutex_unlock(&g_control);
  e.answer(OMP_ERRCODE_OK, 0);
}

void answer_id(const Entry& e, uint64_t id) {
  if (e.data_size() < int(sizeof id)) return e.answer(OMP_ERRCODE_MEM_TOO_SMALL, sizeof id);
  memcpy(e.data(), &id, sizeof id);
  e.answer(OMP_ERRCODE_OK, sizeof id);
}

void state(const Entry& e) {
  if (!in_session(e)) return;
  const Thread* me = tls_self;
  int s = state_of(me);
  // The emitters store the wait id before the wait state, and only the
  // thread itself (or a handler interrupting it) reads here, so an id read
  // after the state belongs to that wait.
  std::atomic_signal_fence(std::memory_order_acquire);
  uint64_t wait = has_wait_id(s) && me ? me->ompt.wait_id : 0;
  int answer = has_wait_id(s) ? 4 + 8 : 4;
  if (e.data_size() < answer) return e.answer(OMP_ERRCODE_MEM_TOO_SMALL, answer);
  memcpy(e.data(), &s, sizeof s);
  if (answer > 4) memcpy(e.data() + 4, &wait, sizeof wait);
  e.answer(OMP_ERRCODE_OK, answer);
}

void current_prid(const Entry& e) {
  if (!in_session(e)) return;
  const Thread* me = tls_self;
  uint64_t id = 0;
  if (me) id = me->ompt.ora_event_team ? region_id(me->ompt.ora_event_team) : region_id(me->team);
  answer_id(e, id);
}

// Only a region's primary has an answer: at its FORK or JOIN, the region
// around the one forked (0 for an outermost one); inside the region, the
// region it is nested in.
void parent_prid(const Entry& e) {
  if (!in_session(e)) return;
  const Thread* me = tls_self;
  if (!me) return e.answer(OMP_ERRCODE_THREAD_ERR, 0);
  if (me->ompt.ora_event_team) return answer_id(e, region_id(me->team));
  if (!me->team || me->tid != 0) return e.answer(OMP_ERRCODE_THREAD_ERR, 0);
  answer_id(e, region_id(me->team->parent));
}

void process(const Entry& e) {
  switch (e.request()) {
    case OMP_REQ_START: return start(e);
    case OMP_REQ_REGISTER: return register_event(e, true);
    case OMP_REQ_UNREGISTER: return register_event(e, false);
    case OMP_REQ_STATE: return state(e);
    case OMP_REQ_CURRENT_PRID: return current_prid(e);
    case OMP_REQ_PARENT_PRID: return parent_prid(e);
    case OMP_REQ_STOP: return stop(e);
    case OMP_REQ_PAUSE: return pause(e, true);
    case OMP_REQ_RESUME: return pause(e, false);
    default: return e.answer(OMP_ERRCODE_UNKNOWN, 0);
  }
}

}  // namespace

bool started() { return g_started.load(std::memory_order_acquire); }

void emit_slow(int event) {
  omp_collector_callback_t cb = g_callbacks[event].load(std::memory_order_acquire);
  if (cb) cb(static_cast<OMP_COLLECTORAPI_EVENT>(event));
}

void on_fork(Thread* me, Team* team) {
  team->ompt.ora_id = g_next_region.fetch_add(1, std::memory_order_relaxed);
  if (!g_live.load(std::memory_order_relaxed)) return;
  me->ompt.ora_event_team = team;
  emit_slow(OMP_EVENT_FORK);
  me->ompt.ora_event_team = nullptr;
}

void on_join(Thread* me, Team* team) {
  if (!g_live.load(std::memory_order_relaxed)) return;
  me->ompt.ora_event_team = team;
  emit_slow(OMP_EVENT_JOIN);
  me->ompt.ora_event_team = nullptr;
}

void idle_begin(Thread* me) {
  me->ompt.ora_idle = true;
  emit(OMP_EVENT_THR_BEGIN_IDLE);
}

void idle_end(Thread* me) {
  if (!me->ompt.ora_idle) return;
  me->ompt.ora_idle = false;
  emit(OMP_EVENT_THR_END_IDLE);
}

void wait_begin(Thread* me, int ompt_wait_state) {
  int begin;
  switch (ompt_wait_state) {
    case ompt_state_wait_lock:
    case ompt_state_wait_mutex:
      begin = OMP_EVENT_THR_BEGIN_LKWT;
      break;
    case ompt_state_wait_critical: begin = OMP_EVENT_THR_BEGIN_CTWT; break;
    case ompt_state_wait_atomic: begin = OMP_EVENT_THR_BEGIN_ATWT; break;
    case ompt_state_wait_ordered: begin = OMP_EVENT_THR_BEGIN_ODWT; break;
    default: return;
  }
  // Each begin's end is the next event number.
  me->ompt.ora_wait_end = begin + 1;
  emit(begin);
}

// --- tasks ---------------------------------------------------------------------

void task_event_slow(Thread* me, int event, int state) {
  me->ompt.ora_task_state = static_cast<uint8_t>(state);
  if (g_task_callbacks.load(std::memory_order_relaxed)) emit(event);
}

void search_begin_slow(Thread* me) {
  me->ompt.ora_searching = true;
  task_event_slow(me, OMP_EVENT_THR_BEGIN_SCHD_TASK, THR_TASK_SCHEDULE_STATE);
}

void steal_begin_slow(Thread* me) {
  me->ompt.ora_stealing = true;
  task_event(me, OMP_EVENT_THR_BEGIN_STEAL_TASK, THR_TASK_STEAL_STATE);
}

namespace {
void steal_end(Thread* me) {
  if (!me->ompt.ora_stealing) return;
  me->ompt.ora_stealing = false;
  task_event(me, OMP_EVENT_THR_END_STEAL_TASK, THR_TASK_SCHEDULE_STATE);
}
}  // namespace

void fetched_slow(Thread* me) {
  steal_end(me);
  task_event(me, OMP_EVENT_THR_FETCHED_TASK, THR_TASK_SCHEDULE_STATE);
  search_end_slow(me);
}

void search_end_slow(Thread* me) {
  steal_end(me);
  me->ompt.ora_searching = false;
  task_event(me, OMP_EVENT_THR_END_SCHD_TASK, 0);
}

uint8_t exec_begin_slow(Thread* me) {
  uint8_t before = me->ompt.ora_task_state;
  task_event_slow(me, OMP_EVENT_THR_BEGIN_EXEC_TASK, 0);
  return before;
}

void finish_begin_slow(Thread* me, uint8_t resume) {
  me->ompt.ora_task_resume = resume;
  task_event_slow(me, OMP_EVENT_THR_BEGIN_FINISH_TASK, THR_TASK_FINISH_STATE);
}

void finish_end_slow(Thread* me) {
  task_event_slow(me, OMP_EVENT_THR_END_FINISH_TASK, me->ompt.ora_task_resume);
}

}  // namespace ora
}  // namespace kite

// The header's contract for a batch, quoted: requests "will be processed
// sequentially, and will behave identically to the same requests made in
// independent calls", and when an entry's size "is not a multiple of 4 or
// less than 16 ... the remainder of the request is ignored, and -1 is
// returned". So each entry is answered (and takes effect) before the next
// one's size is even read; a bad size stops the walk there, leaving that
// entry and everything after it untouched, and the answers and effects of
// the entries before it stand.
extern "C" KITE_EXPORT int __omp_collector_api(void* msg) {
  using kite::ora::Entry;
  if (!msg) return -1;
  for (Entry e{static_cast<char*>(msg)}; e.size() != 0; e.at += e.size()) {
    if (!kite::ora::well_formed(e.size())) return -1;
    kite::ora::process(e);
  }
  return 0;
}
