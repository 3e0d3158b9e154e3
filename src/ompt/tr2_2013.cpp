// The 2013 OMPT proposal's global functions (include/ompt-2013.h). A 2013
// tool calls them by name from its ompt_initialize(void) and afterwards;
// they answer only while a draft tool is being initialized or is active
// (tr2.cpp), and each inquiry is a plain read of the calling thread's
// record, safe in a signal handler.
//
// The proposal numbers its events like TR2 up to 23; from its task_switch
// (24) on, each is translated to TR2's number, the index of the one
// callback table.
#include "ompt/tr2.h"

#include <stdio.h>
#include <string.h>

namespace kite {
namespace tr2 {
namespace v2013 {
#define KITE_DRAFT_OMPT_RUNTIME 1
#include <ompt-2013.h>
}  // namespace v2013

namespace {

// The TR2 number of a 2013 event; 0 for none.
int to_tr2(int e) {
  using namespace v2013;
  if (e >= ompt_event_parallel_create && e <= ompt_event_implicit_task_exit) return e;
  if (e == ompt_event_task_switch) return kTaskSwitch;
  // loop .. single_others_end: TR2 put initial task begin/end before them.
  if (e >= ompt_event_loop_begin && e <= ompt_event_single_others_end) return e + 2;
  // master .. flush: TR2 also put workshare begin/end before them.
  if (e >= ompt_event_master_begin && e <= ompt_event_flush) return e + 4;
  return 0;
}

static_assert(v2013::ompt_event_loop_begin + 2 == kLoopBegin, "2013 numbering");
static_assert(v2013::ompt_event_single_others_end + 2 == kSingleOthersEnd, "2013 numbering");
static_assert(v2013::ompt_event_master_begin + 4 == kMasterBegin, "2013 numbering");
static_assert(v2013::ompt_event_flush + 4 == kFlush, "2013 numbering");

bool answering() { return live() || initializing(); }

}  // namespace
}  // namespace tr2
}  // namespace kite

using namespace kite::tr2;
namespace v = kite::tr2::v2013;

extern "C" {

KITE_EXPORT int ompt_set_callback(v::ompt_event_t event, v::ompt_callback_t callback) {
  int e = to_tr2(event);
  return e ? set_callback(Form::k2013, e, callback) : 0;
}

KITE_EXPORT int ompt_get_callback(v::ompt_event_t event, v::ompt_callback_t* callback) {
  int e = to_tr2(event);
  return e ? get_callback(Form::k2013, e, callback) : 0;
}

KITE_EXPORT v::ompt_state_t ompt_get_state(v::ompt_wait_id_t* wait_id) {
  if (!answering()) {
    if (wait_id) *wait_id = 0;
    return v::ompt_state_undefined;
  }
  return static_cast<v::ompt_state_t>(state(wait_id));
}

KITE_EXPORT v::ompt_data_t* ompt_get_thread_data(void) {
  kite::Thread* me = kite::tls_self;
  if (!answering() || !me) return nullptr;
  return reinterpret_cast<v::ompt_data_t*>(&me->ompt.thread_data);
}

KITE_EXPORT void* ompt_get_idle_frame(void) { return answering() ? idle_frame() : nullptr; }

KITE_EXPORT v::ompt_parallel_id_t ompt_get_parallel_id(int ancestor_level) {
  const kite::Team* t = answering() ? team_at(ancestor_level) : nullptr;
  return t ? t->ompt.ora_id : 0;
}

KITE_EXPORT void* ompt_get_parallel_function(int ancestor_level) {
  return answering() ? parallel_function(team_at(ancestor_level)) : nullptr;
}

KITE_EXPORT v::ompt_data_t* ompt_get_task_data(int ancestor_level) {
  kite::Task* t = answering() ? task_at(ancestor_level) : nullptr;
  return t ? reinterpret_cast<v::ompt_data_t*>(&t->ompt.task_data) : nullptr;
}

KITE_EXPORT v::ompt_frame_t* ompt_get_task_frame(int ancestor_level) {
  kite::Task* t = answering() ? task_at(ancestor_level) : nullptr;
  return t ? reinterpret_cast<v::ompt_frame_t*>(&t->ompt.frame) : nullptr;
}

KITE_EXPORT void* ompt_get_task_function(int ancestor_level) {
  return answering() ? task_function(task_at(ancestor_level)) : nullptr;
}

// Copies the version string (truncated to fit, always terminated) and
// answers its full length.
KITE_EXPORT int ompt_get_runtime_version(char* buffer, int length) {
  int n = int(strlen(kRuntimeVersion));
  if (buffer && length > 0) {
    int c = n < length - 1 ? n : length - 1;
    memcpy(buffer, kRuntimeVersion, size_t(c));
    buffer[c] = '\0';
  }
  return n;
}

KITE_EXPORT int ompt_enumerate_state(int current_state, int* next_state,
                                     const char** next_state_name) {
  return enumerate_state(current_state, next_state, next_state_name);
}

KITE_EXPORT int ompt_get_ompt_version(void) { return 1; }

}  // extern "C"
