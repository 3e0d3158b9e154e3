// Device constructs on a runtime whose only device is the host.
//
// A target region runs on the encountering thread as a fresh initial task,
// as OpenMP describes the host device executing it: no enclosing team, its
// own contention group, the device's initial ICVs. The thread's previous
// state is kept on its stack and restored at the end of the region.
#include "target.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "places.h"

namespace kite {

namespace {

// Set once the program chooses default-device-var itself.
std::atomic<bool> g_default_device_chosen{false};
std::atomic<bool> g_warned_unknown_device{false};

// Offload failures end the program the way libgomp ends it: a message and
// exit status 1 (EXIT_FAILURE), so scripts see the same outcome.
[[noreturn]] void offload_failure(const char* what) {
  fflush(stdout);
  fprintf(stderr, "kite: error: %s\n", what);
  exit(EXIT_FAILURE);
}

bool default_device_chosen() {
  if (g_default_device_chosen.load(std::memory_order_relaxed)) return true;
  return getenv("OMP_DEFAULT_DEVICE") != nullptr;
}

}  // namespace

int device_count() { return 0; }
int initial_device() { return device_count(); }
bool is_host_device(int device) { return device == initial_device() || device == kOmpInitialDevice; }

void note_default_device_chosen() { g_default_device_chosen.store(true, std::memory_order_relaxed); }

void select_device_for_construct(int device) {
  if (device == kDeviceForceHost) return;
  int policy = g_icv.target_offload;
  bool from_icv = device == kDeviceFromIcv;
  if (from_icv) device = self()->task->icv.default_device;
  if (device == kOmpInvalidDevice) offload_failure("omp_invalid_device encountered");
  if (is_host_device(device)) {
    // OpenMP 5.2: with mandatory offload, default-device-var starts out
    // naming no available device; a program that picks the host itself
    // (device clause, OMP_DEFAULT_DEVICE, omp_set_default_device) gets it.
    if (policy == kOffloadMandatory && from_icv && !default_device_chosen())
      offload_failure("OMP_TARGET_OFFLOAD is set to MANDATORY, but only the host device is available");
    return;
  }
  if (policy == kOffloadMandatory)
    offload_failure("OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found");
  if (!g_warned_unknown_device.exchange(true, std::memory_order_relaxed))
    warn("device %d does not exist (the host is device %d); device constructs for it run on the host",
         device, initial_device());
}

bool device_routine_on_host(int device) {
  if (is_host_device(device)) return true;
  if (g_icv.target_offload == kOffloadMandatory) {
    if (device == kOmpInvalidDevice) offload_failure("omp_invalid_device encountered");
    offload_failure("OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found");
  }
  return false;
}

InitialTaskScope::InitialTaskScope(Thread* me, const TaskIcvs& icv) : me_(me), task_(), cg_() {
  task_.icv = icv;
  task_.kind = kTaskInitial;
  cg_.cg_busy.store(1, std::memory_order_relaxed);
  cg_.gtid = me->gtid;
  cg_.handle = me->handle;
  cg_.place = me->place;
  cg_.cg_root = &cg_;

  team_ = me->team;
  task_saved_ = me->task;
  tid_ = me->tid;
  ws_seq_ = me->ws_seq;
  ws_cur_ = me->ws_cur;
  ord_lo_ = me->ord_lo;
  ord_hi_ = me->ord_hi;
  ord_held_ = me->ord_held;
  cg_root_ = me->cg_root;
  league_num_ = me->league_num;
  league_size_ = me->league_size;
  place_lo_ = me->place_lo;
  place_hi_ = me->place_hi;

  me->team = nullptr;
  me->task = &task_;
  me->tid = 0;
  me->ws_seq = 0;
  me->ws_cur = nullptr;
  me->ord_held = false;
  me->cg_root = &cg_;
  me->league_num = 0;
  me->league_size = 1;
  // An initial task's place partition is the whole place list.
  me->place_lo = 0;
  me->place_hi = places_count() > 0 ? places_count() - 1 : 0;
}

InitialTaskScope::~InitialTaskScope() {
  Thread* me = me_;
  me->team = team_;
  me->task = task_saved_;
  me->tid = tid_;
  me->ws_seq = ws_seq_;
  me->ws_cur = ws_cur_;
  me->ord_lo = ord_lo_;
  me->ord_hi = ord_hi_;
  me->ord_held = ord_held_;
  me->cg_root = cg_root_;
  me->league_num = league_num_;
  me->league_size = league_size_;
  me->place_lo = place_lo_;
  me->place_hi = place_hi_;
}

void target_region_on_host(void (*fn)(void*), void* data, int thread_limit) {
  Thread* me = self();
  TaskIcvs icv = g_icv.initial;
  if (thread_limit > 0) icv.thread_limit = thread_limit;
  InitialTaskScope scope(me, icv);
  fn(data);
}

namespace {

inline int clamp_to_int(unsigned v) { return v > 0x7fffffffu ? 0x7fffffff : int(v); }

void apply_teams_thread_limit(Thread* me, unsigned thread_limit) {
  int limit = thread_limit ? clamp_to_int(thread_limit) : g_icv.teams_thread_limit;
  if (limit > 0) me->task->icv.thread_limit = limit;
}

}  // namespace

bool teams_in_target_step(unsigned num_teams_low, unsigned num_teams_high, unsigned thread_limit,
                          bool first) {
  Thread* me = self();
  if (first) {
    apply_teams_thread_limit(me, thread_limit);
    // Any count in [low, high] conforms; the teams run one after the other
    // on this thread, so the smallest is the cheapest. Without a clause
    // (both 0) the league has one team.
    (void)num_teams_high;
    me->league_size = num_teams_low ? clamp_to_int(num_teams_low) : 1;
    me->league_num = 0;
    return true;
  }
  if (me->league_num + 1 < me->league_size) {
    ++me->league_num;
    return true;
  }
  // The league is over: code after the teams construct sees no league.
  me->league_num = 0;
  me->league_size = 1;
  return false;
}

void teams_in_target_legacy(unsigned num_teams, unsigned thread_limit) {
  (void)num_teams;  // the caller runs the body once: a league of one team
  apply_teams_thread_limit(self(), thread_limit);
}

// Threads of a parallel region nested in a team see the team number of the
// thread that runs the team's initial task: the primary of the outermost
// team above them.
static const Thread* league_owner(const Thread* me) {
  const Team* t = me->team;
  if (!t) return me;
  while (t->parent) t = t->parent;
  return t->owner ? t->owner : me;
}

int league_team_num(const Thread* me) { return league_owner(me)->league_num; }
int league_size(const Thread* me) { return league_owner(me)->league_size; }

}  // namespace kite
