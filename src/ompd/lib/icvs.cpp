// libkite-ompd.so: ICVs and display control variables (OpenMP 5.2
// §20.5.10). Each ICV is read where the runtime keeps it (src/core/icv.h):
// data-environment ICVs in the task, the team's derived values in the team,
// device and global ICVs once in g_icv.
//
// Every ICV of OpenMP 5.2's table (§2.1, §2.2) is enumerated, plus
// implicit-task-var (see below). Scopes: LLVM's gdb plugin (`ompd icvs`)
// handles the address-space, thread, parallel and task scopes, and stops
// at the first ICV of another scope, so each ICV takes one of these four:
// device and global ICVs the address space; data-environment ICVs, and
// def-allocator-var (an implicit-task ICV that Kite keeps with every
// task), a task; the derived region values a parallel region;
// thread-num-var and place-partition-var a thread, whose current implicit
// task is the one they describe.
#include <stdio.h>
#include <string.h>

#include "ompd/lib/access.h"

using namespace kite_ompd;

#define KITE_OMPD_API extern "C" __attribute__((visibility("default")))

namespace {

enum Icv : int {
  kNone = 0,
  kDyn, kRunSched, kNthreads, kThreadLimit, kMaxActiveLevels, kBind, kDefaultDevice,
  kDefAllocator, kFinalTask, kExplicitTask, kImplicitTask, kLevels, kActiveLevels, kTeamSize, kThreadNum,
  kStacksize, kWaitPolicy, kCancel, kMaxTaskPriority, kDisplayAffinity, kAffinityFormat,
  kNteams, kTeamsThreadLimit, kTargetOffload, kTool, kToolLibraries, kToolVerboseInit, kDebug,
  // Last, so that the numbers above stay what they were.
  kNumProcs, kPlacePartition,
  kIcvEnd
};

struct IcvInfo {
  const char* name;
  ompd_scope_t scope;
  bool has_int;     // ompd_get_icv_from_scope answers
  bool has_string;  // ompd_get_icv_string_from_scope answers
};

const IcvInfo kIcvs[kIcvEnd] = {
    {"", ompd_scope_global, false, false},
    {"dyn-var", ompd_scope_task, true, false},
    {"run-sched-var", ompd_scope_task, false, true},
    {"nthreads-var", ompd_scope_task, true, true},
    {"thread-limit-var", ompd_scope_task, true, false},
    {"max-active-levels-var", ompd_scope_task, true, false},
    {"bind-var", ompd_scope_task, true, true},
    {"default-device-var", ompd_scope_task, true, false},
    {"def-allocator-var", ompd_scope_task, true, false},
    {"final-task-var", ompd_scope_task, true, false},
    {"explicit-task-var", ompd_scope_task, true, false},
    // Not an ICV of the specification: its negation, which LLVM's gdb
    // plugin reads to label frames (`ompd bt on`) as a task's or a region's.
    {"implicit-task-var", ompd_scope_task, true, false},
    {"levels-var", ompd_scope_parallel, true, false},
    {"active-levels-var", ompd_scope_parallel, true, false},
    {"team-size-var", ompd_scope_parallel, true, false},
    {"thread-num-var", ompd_scope_thread, true, false},
    {"stacksize-var", ompd_scope_address_space, true, false},
    {"wait-policy-var", ompd_scope_address_space, true, false},
    {"cancel-var", ompd_scope_address_space, true, false},
    {"max-task-priority-var", ompd_scope_address_space, true, false},
    {"display-affinity-var", ompd_scope_address_space, true, false},
    {"affinity-format-var", ompd_scope_address_space, false, true},
    {"nteams-var", ompd_scope_address_space, true, false},
    {"teams-thread-limit-var", ompd_scope_address_space, true, false},
    {"target-offload-var", ompd_scope_address_space, true, false},
    {"tool-var", ompd_scope_address_space, true, false},
    {"tool-libraries-var", ompd_scope_address_space, false, true},
    {"tool-verbose-init-var", ompd_scope_address_space, false, true},
    {"debug-var", ompd_scope_address_space, true, false},
    // Device scope (the host is the only device): omp_get_num_procs().
    {"num-procs-var", ompd_scope_address_space, true, false},
    // OpenMP 5.2 §2: "One copy exists of each ICV per instance of its
    // scope", and place-partition-var's scope is the implicit task. A
    // thread runs one implicit task at a time, and Kite keeps that task's
    // partition on the thread (Thread::place_lo/hi, what
    // omp_get_partition_num_places reads), so it is asked for with the
    // thread's handle: the plugin refuses ompd_scope_implicit_task. Its
    // number is the count of places in the partition, its text the places
    // as OMP_PLACES writes them ("{0:2},{2:2}").
    {"place-partition-var", ompd_scope_thread, true, true},
};

ompd_rc_t global_int(_ompd_aspace_handle* s, Field f, ompd_word_t* out) {
  int64_t v;
  ompd_rc_t rc = read_signed(s, address(s, A_icvs), f, &v);
  if (rc == ompd_rc_ok) *out = v;
  return rc;
}

ompd_rc_t task_int(_ompd_aspace_handle* s, ompd_addr_t task, Field f, ompd_word_t* out) {
  int64_t v;
  ompd_rc_t rc = read_signed(s, task, f, &v);
  if (rc == ompd_rc_ok) *out = v;
  return rc;
}

// A team's level, active level or size; the implicit region around an
// initial task is level 0, inactive, of one thread.
ompd_rc_t region_int(_ompd_aspace_handle* s, const _ompd_parallel_handle* p, Field f,
                     ompd_word_t fallback, ompd_word_t* out) {
  if (!p->team) {
    *out = fallback;
    return ompd_rc_ok;
  }
  return task_int(s, p->team, f, out);
}

// The place list, as the runtime finished it (places.cpp).
struct PlaceList {
  int64_t count;
  ompd_addr_t first;  // int[count + 1]: where each place starts in procs
  ompd_addr_t procs;  // int[]: processor ids, place after place
};

ompd_rc_t read_place_list(_ompd_aspace_handle* s, PlaceList* out) {
  ompd_addr_t list = address(s, A_places);
  ompd_rc_t rc;
  if ((rc = read_signed(s, list, F_places_count, &out->count)) != ompd_rc_ok) return rc;
  if ((rc = read_field(s, list, F_places_first, &out->first)) != ompd_rc_ok) return rc;
  if ((rc = read_field(s, list, F_places_procs, &out->procs)) != ompd_rc_ok) return rc;
  if (out->count < 0 || out->count > kMaxWalk) return ompd_rc_error;  // not a list
  return ompd_rc_ok;
}

ompd_rc_t read_int_at(_ompd_aspace_handle* s, ompd_addr_t base, int64_t i, int64_t* out) {
  uint64_t v;
  ompd_rc_t rc = read_uint(s, base + 4 * uint64_t(i), 4, &v);
  if (rc == ompd_rc_ok) *out = int32_t(uint32_t(v));
  return rc;
}

// The thread's place partition, places [*lo, *hi] of the list; an empty
// range (lo > hi) without places. The same bounds omp_get_partition_num_places
// and omp_get_partition_place_nums use (api/affinity_api.cpp): the
// thread's own, or the whole list where they do not fit it.
ompd_rc_t partition(_ompd_aspace_handle* s, ompd_addr_t thread, const PlaceList& list, int64_t* lo,
                    int64_t* hi) {
  *lo = 0;
  *hi = list.count - 1;
  if (list.count == 0) return ompd_rc_ok;
  int64_t tlo, thi;
  ompd_rc_t rc;
  if ((rc = read_signed(s, thread, F_thread_place_lo, &tlo)) != ompd_rc_ok) return rc;
  if ((rc = read_signed(s, thread, F_thread_place_hi, &thi)) != ompd_rc_ok) return rc;
  if (tlo >= 0 && thi < list.count && tlo <= thi) {
    *lo = tlo;
    *hi = thi;
  }
  return ompd_rc_ok;
}

ompd_rc_t icv_int(void* handle, _ompd_aspace_handle* s, Icv icv, ompd_word_t* out) {
  auto task = [&] { return static_cast<_ompd_task_handle*>(handle)->task; };
  switch (icv) {
    case kDyn: return task_int(s, task(), F_icv_dyn, out);
    case kNthreads: return task_int(s, task(), F_icv_nthreads, out);
    case kThreadLimit: return task_int(s, task(), F_icv_thread_limit, out);
    case kMaxActiveLevels: return task_int(s, task(), F_icv_max_active_levels, out);
    case kBind: return task_int(s, task(), F_icv_bind, out);
    case kDefaultDevice: return task_int(s, task(), F_icv_default_device, out);
    case kDefAllocator: return task_int(s, task(), F_icv_def_allocator, out);
    case kFinalTask: return task_int(s, task(), F_task_final, out);
    case kExplicitTask:
    case kImplicitTask: {
      ompd_word_t kind;
      ompd_rc_t rc = task_int(s, task(), F_task_kind, &kind);
      bool explicit_task = uint64_t(kind) == constant(s, C_kind_explicit);
      if (rc == ompd_rc_ok) *out = (icv == kExplicitTask) == explicit_task ? 1 : 0;
      return rc;
    }
    case kLevels:
      return region_int(s, static_cast<_ompd_parallel_handle*>(handle), F_team_level, 0, out);
    case kActiveLevels:
      return region_int(s, static_cast<_ompd_parallel_handle*>(handle), F_team_active_level, 0, out);
    case kTeamSize:
      return region_int(s, static_cast<_ompd_parallel_handle*>(handle), F_team_nthreads, 1, out);
    case kThreadNum: {
      // The thread's number in its current team; 0 outside any team.
      ompd_addr_t thread = static_cast<_ompd_thread_handle*>(handle)->thread;
      ompd_addr_t team;
      ompd_rc_t rc = read_field(s, thread, F_thread_team, &team);
      if (rc != ompd_rc_ok) return rc;
      if (!team) {
        *out = 0;
        return ompd_rc_ok;
      }
      return task_int(s, thread, F_thread_tid, out);
    }
    case kStacksize: return global_int(s, F_g_stacksize, out);
    case kWaitPolicy: return global_int(s, F_g_wait_policy, out);
    case kCancel: return global_int(s, F_g_cancel, out);
    case kMaxTaskPriority: return global_int(s, F_g_max_task_priority, out);
    case kDisplayAffinity: return global_int(s, F_g_display_affinity, out);
    case kNteams: return global_int(s, F_g_nteams, out);
    case kTeamsThreadLimit: return global_int(s, F_g_teams_thread_limit, out);
    case kTargetOffload: return global_int(s, F_g_target_offload, out);
    case kTool: return global_int(s, F_g_tool, out);
    case kDebug: {
      uint64_t v;
      ompd_rc_t rc = read_uint(s, address(s, A_debugging), 4, &v);
      if (rc == ompd_rc_ok) *out = ompd_word_t(v);
      return rc;
    }
    case kNumProcs: return global_int(s, F_g_num_procs, out);  // omp_get_num_procs()
    case kPlacePartition: {
      // omp_get_partition_num_places(), as the thread would answer it.
      PlaceList list;
      int64_t lo, hi;
      ompd_rc_t rc = read_place_list(s, &list);
      if (rc == ompd_rc_ok)
        rc = partition(s, static_cast<_ompd_thread_handle*>(handle)->thread, list, &lo, &hi);
      if (rc == ompd_rc_ok) *out = hi - lo + 1;
      return rc;
    }
    default: return ompd_rc_incompatible;  // no integer form
  }
}

// Appends to a fixed buffer; reports truncation through `full`.
struct Text {
  char buf[2048];
  size_t len = 0;
  bool full = false;
  void add(const char* fmt, long long v) {
    int n = snprintf(buf + len, sizeof buf - len, fmt, v);
    if (n < 0 || size_t(n) >= sizeof buf - len) {
      full = true;
      len = sizeof buf - 1;
    } else {
      len += size_t(n);
    }
  }
  void add_str(const char* s) {
    size_t n = strnlen(s, sizeof buf);
    if (len + n >= sizeof buf) {
      full = true;
      n = sizeof buf - 1 - len;
    }
    memcpy(buf + len, s, n);
    len += n;
    buf[len] = '\0';
  }
};

const char* bind_name(long long v) {
  static const char* const kNames[] = {"false", "true", "primary", "close", "spread"};
  return v >= 0 && v < 5 ? kNames[v] : "unknown";
}

ompd_rc_t read_global_string(_ompd_aspace_handle* s, Field f, Text* out) {
  char raw[1024];
  size_t n = s->layout.field_size[f];
  if (n > sizeof raw) n = sizeof raw;
  ompd_rc_t rc = read_bytes(s, field_addr(s, address(s, A_icvs), f), n, raw);
  if (rc != ompd_rc_ok) return rc;
  raw[n - 1] = '\0';
  out->add_str(raw);
  return ompd_rc_ok;
}

// A nested-level list from the element the task is at: "4,2".
ompd_rc_t list_from(_ompd_aspace_handle* s, ompd_addr_t task, Field current, Field pos,
                    Field list, Field len, bool names, Text* out) {
  ompd_word_t cur, at, n;
  ompd_rc_t rc;
  if ((rc = task_int(s, task, current, &cur)) != ompd_rc_ok) return rc;
  if ((rc = task_int(s, task, pos, &at)) != ompd_rc_ok) return rc;
  if ((rc = global_int(s, len, &n)) != ompd_rc_ok) return rc;
  if (names) out->add_str(bind_name(cur)); else out->add("%lld", cur);
  ompd_addr_t base = field_addr(s, address(s, A_icvs), list);
  for (ompd_word_t i = at + 1; i < n && i < 64; ++i) {
    uint64_t v;
    if ((rc = read_uint(s, base + 4 * uint64_t(i), 4, &v)) != ompd_rc_ok) return rc;
    out->add_str(",");
    if (names) out->add_str(bind_name(int32_t(v))); else out->add("%lld", int32_t(v));
  }
  return ompd_rc_ok;
}

// Places [lo, hi] of the list as OMP_PLACES writes them, as the runtime
// shows its list (PlaceList::format): "{0,1},{2:4}", a run of consecutive
// processor ids as start:length. Like snprintf: writes at most cap bytes,
// the NUL included, and sets *len to the length of the whole text (a list
// of many places outgrows any fixed buffer).
ompd_rc_t places_text(_ompd_aspace_handle* s, const PlaceList& list, int64_t lo, int64_t hi,
                      char* buf, size_t cap, size_t* len) {
  size_t n = 0;
  auto put = [&](const char* fmt, long long v) {
    char tmp[32];
    int w = snprintf(tmp, sizeof tmp, fmt, v);
    for (int i = 0; i < w; ++i, ++n)
      if (n + 1 < cap) buf[n] = tmp[i];
  };
  ompd_rc_t rc;
  for (int64_t p = lo; p <= hi; ++p) {
    int64_t begin, end;
    if ((rc = read_int_at(s, list.first, p, &begin)) != ompd_rc_ok) return rc;
    if ((rc = read_int_at(s, list.first, p + 1, &end)) != ompd_rc_ok) return rc;
    if (begin < 0 || end < begin || end - begin > kMaxWalk) return ompd_rc_error;
    put(p > lo ? ",{" : "{", 0);
    for (int64_t k = begin; k < end;) {
      int64_t cpu, next;
      if ((rc = read_int_at(s, list.procs, k, &cpu)) != ompd_rc_ok) return rc;
      int64_t run = 1;
      for (; k + run < end; ++run) {
        if ((rc = read_int_at(s, list.procs, k + run, &next)) != ompd_rc_ok) return rc;
        if (next != cpu + run) break;
      }
      put(k > begin ? ",%lld" : "%lld", cpu);
      if (run > 1) put(":%lld", run);
      k += run;
    }
    put("}", 0);
  }
  if (cap) buf[n < cap ? n : cap - 1] = '\0';
  *len = n;
  return ompd_rc_ok;
}

// place-partition-var as text, in memory from the debugger.
ompd_rc_t place_partition_string(_ompd_thread_handle* thread, const char** out) {
  _ompd_aspace_handle* s = thread->space;
  PlaceList list;
  int64_t lo, hi;
  ompd_rc_t rc = read_place_list(s, &list);
  if (rc == ompd_rc_ok) rc = partition(s, thread->thread, list, &lo, &hi);
  size_t len;
  if (rc == ompd_rc_ok) rc = places_text(s, list, lo, hi, nullptr, 0, &len);
  if (rc != ompd_rc_ok) return rc;
  void* mem = nullptr;
  if (g_cb->alloc_memory(len + 1, &mem) != ompd_rc_ok || !mem) return ompd_rc_nomem;
  rc = places_text(s, list, lo, hi, static_cast<char*>(mem), len + 1, &len);
  if (rc != ompd_rc_ok) {
    g_cb->free_memory(mem);
    return rc;
  }
  *out = static_cast<const char*>(mem);
  return ompd_rc_ok;
}

ompd_rc_t icv_text(void* handle, _ompd_aspace_handle* s, Icv icv, Text* out) {
  auto task = [&] { return static_cast<_ompd_task_handle*>(handle)->task; };
  switch (icv) {
    case kRunSched: {
      ompd_word_t kind, chunk;
      ompd_rc_t rc;
      if ((rc = task_int(s, task(), F_icv_sched, &kind)) != ompd_rc_ok) return rc;
      if ((rc = task_int(s, task(), F_icv_sched_chunk, &chunk)) != ompd_rc_ok) return rc;
      uint64_t mono = constant(s, C_sched_monotonic);
      bool monotonic = (uint64_t(uint32_t(kind)) & mono) != 0;
      static const char* const kKinds[] = {"?", "static", "dynamic", "guided", "auto"};
      long long k = (long long)(uint64_t(uint32_t(kind)) & ~mono);
      out->add_str(k >= 1 && k <= 4 ? kKinds[k] : "?");
      out->add(",%lld", chunk);
      if (monotonic) out->add_str(",monotonic");
      return ompd_rc_ok;
    }
    case kNthreads:
      return list_from(s, task(), F_icv_nthreads, F_icv_nthreads_list_pos, F_g_nthreads_list,
                       F_g_nthreads_list_len, false, out);
    case kBind:
      return list_from(s, task(), F_icv_bind, F_icv_bind_list_pos, F_g_bind_list,
                       F_g_bind_list_len, true, out);
    case kAffinityFormat: return read_global_string(s, F_g_affinity_format, out);
    case kToolLibraries: return read_global_string(s, F_g_tool_libraries, out);
    case kToolVerboseInit: return read_global_string(s, F_g_tool_verbose_init, out);
    default: return ompd_rc_incompatible;
  }
}

// Common checks: a known ICV, asked for with a handle of its scope.
ompd_rc_t check_icv(void* handle, ompd_scope_t scope, ompd_icv_id_t id, _ompd_aspace_handle** s) {
  ompd_rc_t rc = check_scoped(handle, scope, s);
  if (rc != ompd_rc_ok) return rc;
  if (id == ompd_icv_undefined || id >= kIcvEnd) return ompd_rc_bad_input;
  if (kIcvs[id].scope != scope) return ompd_rc_bad_input;
  return ompd_rc_ok;
}

}  // namespace

KITE_OMPD_API ompd_rc_t ompd_enumerate_icvs(ompd_address_space_handle_t* handle,
                                            ompd_icv_id_t current, ompd_icv_id_t* next_id,
                                            const char** next_icv_name, ompd_scope_t* next_scope,
                                            int* more) {
  ompd_rc_t rc = check(handle, kAddressSpace);
  if (rc != ompd_rc_ok) return rc;
  if (!next_id || !next_icv_name || !next_scope || !more) return ompd_rc_bad_input;
  if (current >= kIcvEnd - 1) return ompd_rc_bad_input;  // past the last one
  ompd_icv_id_t next = current + 1;
  *next_id = next;
  *next_icv_name = kIcvs[next].name;
  *next_scope = kIcvs[next].scope;
  *more = next + 1 < kIcvEnd ? 1 : 0;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_get_icv_from_scope(void* handle, ompd_scope_t scope,
                                                ompd_icv_id_t icv_id, ompd_word_t* icv_value) {
  _ompd_aspace_handle* s;
  ompd_rc_t rc = check_icv(handle, scope, icv_id, &s);
  if (rc != ompd_rc_ok) return rc;
  if (!icv_value) return ompd_rc_bad_input;
  if (!kIcvs[icv_id].has_int) return ompd_rc_incompatible;
  return icv_int(handle, s, Icv(icv_id), icv_value);
}

KITE_OMPD_API ompd_rc_t ompd_get_icv_string_from_scope(void* handle, ompd_scope_t scope,
                                                       ompd_icv_id_t icv_id,
                                                       const char** icv_string) {
  _ompd_aspace_handle* s;
  ompd_rc_t rc = check_icv(handle, scope, icv_id, &s);
  if (rc != ompd_rc_ok) return rc;
  if (!icv_string) return ompd_rc_bad_input;
  if (icv_id == kPlacePartition)
    return place_partition_string(static_cast<_ompd_thread_handle*>(handle), icv_string);
  Text text;
  text.buf[0] = '\0';
  if (kIcvs[icv_id].has_string) {
    rc = icv_text(handle, s, Icv(icv_id), &text);
  } else {
    ompd_word_t v;
    rc = icv_int(handle, s, Icv(icv_id), &v);
    if (rc == ompd_rc_ok) text.add("%lld", v);
  }
  if (rc != ompd_rc_ok) return rc;
  return alloc_string(text.buf, icv_string);
}

// The control variables a person sets for this process, as OMP_DISPLAY_ENV
// names them, read from the initial values the runtime keeps.
KITE_OMPD_API ompd_rc_t ompd_get_display_control_vars(ompd_address_space_handle_t* handle,
                                                      const char* const** control_vars) {
  ompd_rc_t rc = check(handle, kAddressSpace);
  if (rc != ompd_rc_ok) return rc;
  if (!control_vars) return ompd_rc_bad_input;
  _ompd_aspace_handle* s = handle;
  // The initial values sit in g_icv.initial, a TaskIcvs like Task::icv: read
  // it as the icv of a Task placed so that its icv lands there.
  ompd_addr_t as_task = address(s, A_icvs) + s->layout.field_offset[F_g_initial] -
                        s->layout.field_offset[F_task_icv];
  struct Var {
    const char* name;
    Text value;
  } vars[16];
  int n = 0;
  auto add_int = [&](const char* name, Field f, bool global) -> ompd_rc_t {
    ompd_word_t v;
    ompd_rc_t r = global ? global_int(s, f, &v) : task_int(s, as_task, f, &v);
    if (r != ompd_rc_ok) return r;
    vars[n].name = name;
    vars[n].value.buf[0] = '\0';
    vars[n].value.add("%lld", v);
    ++n;
    return ompd_rc_ok;
  };
  struct {
    const char* name;
    Field f;
    bool global;
  } const ints[] = {
      {"OMP_DYNAMIC", F_icv_dyn, false},
      {"OMP_THREAD_LIMIT", F_icv_thread_limit, false},
      {"OMP_MAX_ACTIVE_LEVELS", F_icv_max_active_levels, false},
      {"OMP_DEFAULT_DEVICE", F_icv_default_device, false},
      {"OMP_STACKSIZE", F_g_stacksize, true},
      {"OMP_WAIT_POLICY", F_g_wait_policy, true},
      {"OMP_CANCELLATION", F_g_cancel, true},
      {"OMP_MAX_TASK_PRIORITY", F_g_max_task_priority, true},
      {"OMP_DISPLAY_AFFINITY", F_g_display_affinity, true},
      {"OMP_TARGET_OFFLOAD", F_g_target_offload, true},
      {"OMP_TOOL", F_g_tool, true},
  };
  for (const auto& v : ints)
    if ((rc = add_int(v.name, v.f, v.global)) != ompd_rc_ok) return rc;
  vars[n].name = "OMP_NUM_THREADS";
  vars[n].value.buf[0] = '\0';
  if ((rc = list_from(s, as_task, F_icv_nthreads, F_icv_nthreads_list_pos, F_g_nthreads_list,
                      F_g_nthreads_list_len, false, &vars[n].value)) != ompd_rc_ok)
    return rc;
  ++n;
  vars[n].name = "OMP_PROC_BIND";
  vars[n].value.buf[0] = '\0';
  if ((rc = list_from(s, as_task, F_icv_bind, F_icv_bind_list_pos, F_g_bind_list, F_g_bind_list_len,
                      true, &vars[n].value)) != ompd_rc_ok)
    return rc;
  ++n;
  vars[n].name = "OMP_TOOL_LIBRARIES";
  vars[n].value.buf[0] = '\0';
  if ((rc = read_global_string(s, F_g_tool_libraries, &vars[n].value)) != ompd_rc_ok) return rc;
  ++n;
  // One block: the vector, then the strings.
  size_t bytes = sizeof(char*) * size_t(n + 1);
  for (int i = 0; i < n; ++i) bytes += strlen(vars[i].name) + 1 + vars[i].value.len + 1;
  void* mem = nullptr;
  if (g_cb->alloc_memory(bytes, &mem) != ompd_rc_ok || !mem) return ompd_rc_nomem;
  const char** vec = static_cast<const char**>(mem);
  char* at = static_cast<char*>(mem) + sizeof(char*) * size_t(n + 1);
  for (int i = 0; i < n; ++i) {
    vec[i] = at;
    size_t k = strlen(vars[i].name);
    memcpy(at, vars[i].name, k);
    at[k] = '=';
    memcpy(at + k + 1, vars[i].value.buf, vars[i].value.len);
    at[k + 1 + vars[i].value.len] = '\0';
    at += k + 1 + vars[i].value.len + 1;
  }
  vec[n] = nullptr;
  *control_vars = vec;
  return ompd_rc_ok;
}

KITE_OMPD_API ompd_rc_t ompd_rel_display_control_vars(const char* const** control_vars) {
  if (!control_vars || !*control_vars) return ompd_rc_bad_input;
  if (!g_cb) return ompd_rc_error;
  g_cb->free_memory(const_cast<char**>(*control_vars));
  *control_vars = nullptr;
  return ompd_rc_ok;
}
