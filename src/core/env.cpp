// Environment variables -> ICVs, read once at library load (OpenMP 5.2
// chapter 21, with libgomp 12's reading where the spec leaves room).
//
// Every variable is read by one function. A value that cannot be used gets
// exactly one warning naming the variable, the value and what is used
// instead, and the default stays in effect.
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "barrier.h"
#include "env_parse.h"
#include "icv.h"
#include "places.h"
#include "wait.h"

namespace kite {

GlobalIcvs g_icv;

namespace {

// Default spin before sleeping: long enough that workers stay awake across
// the short serial gaps between parallel regions (waking a sleeping thread
// costs tens to hundreds of microseconds, more in virtual machines), short
// enough that an idle program stops using the processors within milliseconds.
constexpr long kDefaultSpinUs = 2000;
const char kDefaultAffinityFormat[] = "level %L thread %i affinity %A";

void bad(const char* name, const char* value, const char* why, const char* instead) {
  warn("%s='%s' is invalid (%s); using %s", name, value, why, instead);
}

void read_bool(const char* name, int* out) {
  const char* v = env_get(name);
  if (!v) return;
  const char* why;
  int b;
  if (env_parse_bool(v, &b, &why))
    *out = b;
  else
    bad(name, v, why, *out ? "true" : "false");
}

// An integer in [lo, hi]; *set tells whether the variable gave it.
void read_int(const char* name, long lo, long hi, int* out, bool* set = nullptr) {
  const char* v = env_get(name);
  if (!v) return;
  const char* why;
  long x;
  if (env_parse_long(v, lo, hi, &x, &why)) {
    *out = int(x);
    if (set) *set = true;
  } else {
    char instead[32];
    snprintf(instead, sizeof instead, "%d", *out);
    bad(name, v, why, instead);
  }
}

// Reads a comma-separated list with parse(element) -> value or -1.
template <class Parse>
bool read_list(const char* v, int* list, int* len, Parse parse, const char** why) {
  int n = 0;
  const char* p = v;
  for (;;) {
    const char* comma = strchr(p, ',');
    size_t elen = comma ? size_t(comma - p) : strlen(p);
    char elem[64];
    if (elen >= sizeof elem) {
      *why = "an element is too long";
      return false;
    }
    memcpy(elem, p, elen);
    elem[elen] = '\0';
    if (env_blank(elem)) {
      *why = "an empty element";
      return false;
    }
    int x = parse(elem, why);
    if (x < 0) return false;
    if (n == kMaxIcvList) {
      *why = "more nesting levels than Kite keeps (16)";
      return false;
    }
    list[n++] = x;
    if (!comma) break;
    p = comma + 1;
  }
  *len = n;
  return true;
}

void read_num_threads() {
  const char* v = env_get("OMP_NUM_THREADS");
  if (!v) return;
  int list[kMaxIcvList], len = 0;
  const char* why;
  auto one = [](const char* e, const char** w) -> int {
    long x;
    if (!env_parse_long(e, 1, INT_MAX, &x, w)) {
      *w = "each element must be a positive integer";
      return -1;
    }
    return int(x);
  };
  if (!read_list(v, list, &len, one, &why)) {
    char instead[32];
    snprintf(instead, sizeof instead, "%d", g_icv.initial.nthreads);
    bad("OMP_NUM_THREADS", v, why, instead);
    return;
  }
  memcpy(g_icv.nthreads_list, list, sizeof(int) * size_t(len));
  g_icv.nthreads_list_len = len;
  g_icv.initial.nthreads = list[0];
}

void read_proc_bind(bool* set) {
  const char* v = env_get("OMP_PROC_BIND");
  if (!v) return;
  int list[kMaxIcvList], len = 0;
  const char* why = nullptr;
  bool ok;
  if (env_is(v, "true") || env_is(v, "false")) {
    list[0] = env_is(v, "true") ? int(ProcBind::kTrue) : int(ProcBind::kFalse);
    len = 1;
    ok = true;
  } else {
    auto one = [](const char* e, const char** w) -> int {
      if (env_is(e, "primary") || env_is(e, "master")) return int(ProcBind::kPrimary);
      if (env_is(e, "close")) return int(ProcBind::kClose);
      if (env_is(e, "spread")) return int(ProcBind::kSpread);
      *w = "expected true, false, or a list of primary, master, close, spread";
      return -1;
    };
    ok = read_list(v, list, &len, one, &why);
  }
  if (!ok) {
    bad("OMP_PROC_BIND", v, why, "false");
    return;
  }
  memcpy(g_icv.bind_list, list, sizeof(int) * size_t(len));
  g_icv.bind_list_len = len;
  g_icv.initial.bind = list[0];
  *set = true;
}

void read_schedule() {
  const char* v = env_get("OMP_SCHEDULE");
  if (!v) return;
  const char* p = v;
  int mono = -1;  // -1 no modifier, 1 monotonic, 0 nonmonotonic
  const char* end;
  if (env_word(p, "monotonic", &end) && *env_skip_blanks(end) == ':') {
    mono = 1;
    p = env_skip_blanks(end) + 1;
  } else if (env_word(p, "nonmonotonic", &end) && *env_skip_blanks(end) == ':') {
    mono = 0;
    p = env_skip_blanks(end) + 1;
  }
  static const struct { const char* name; Sched kind; } kinds[] = {
      {"static", Sched::kStatic}, {"dynamic", Sched::kDynamic},
      {"guided", Sched::kGuided}, {"auto", Sched::kAuto}};
  int kind = 0;
  for (const auto& k : kinds) {
    if (env_word(p, k.name, &end)) {
      kind = int(k.kind);
      p = env_skip_blanks(end);
      break;
    }
  }
  const char* why = nullptr;
  long chunk = 0;
  if (!kind) {
    why = "expected [monotonic:|nonmonotonic:]static|dynamic|guided|auto[,chunk]";
  } else if (mono == 0 && kind == int(Sched::kStatic)) {
    why = "static cannot be nonmonotonic";
  } else if (*p == ',') {
    if (!env_parse_long(p + 1, 1, INT_MAX, &chunk, &why)) why = "the chunk must be a positive integer";
  } else if (*p) {
    why = "unexpected characters after the schedule kind";
  }
  if (why) {
    bad("OMP_SCHEDULE", v, why, "dynamic");
    return;
  }
  g_icv.initial.sched = kind | (mono == 1 ? kSchedMonotonic : 0);
  // auto takes no chunk: its meaning is the runtime's choice.
  g_icv.initial.sched_chunk = kind == int(Sched::kAuto) ? 0 : chunk;
}

void read_stacksize() {
  const char* v = env_get("OMP_STACKSIZE");
  if (!v) return;
  const char* why;
  long bytes;
  if (!env_parse_size(v, &bytes, &why)) {
    bad("OMP_STACKSIZE", v, why, "the system default stack size");
  } else if (bytes == 0) {
    bad("OMP_STACKSIZE", v, "the size must be positive", "the system default stack size");
  } else {
    g_icv.stacksize = bytes;
  }
}

// OMP_WAIT_POLICY, then GOMP_SPINCOUNT, then KITE_SPIN_US: the most
// specific knob wins.
void read_wait_policy() {
  long spin = kDefaultSpinUs;
  bool adaptive = false;  // KITE_SPIN_US=adaptive
  const char* v = env_get("OMP_WAIT_POLICY");
  if (v) {
    if (env_is(v, "active")) {
      g_icv.wait_policy = 1;
      spin = -1;
    } else if (env_is(v, "passive")) {
      g_icv.wait_policy = 2;
      spin = 0;
    } else {
      bad("OMP_WAIT_POLICY", v, "expected active or passive", "the default policy");
    }
  }
  v = env_get("GOMP_SPINCOUNT");
  if (v && g_icv.wait_policy == 0) {
    long count;
    const char* end;
    if (env_is(v, "infinite") || env_is(v, "infinity")) {
      spin = -1;
    } else if (env_parse_long_prefix(v, &count, &end) && count >= 0) {
      end = env_skip_blanks(end);
      long mult = 1;
      switch (*end) {
        case 'k': case 'K': mult = 1000L; ++end; break;
        case 'M': mult = 1000000L; ++end; break;
        case 'G': mult = 1000000000L; ++end; break;
        case 'T': mult = 1000000000000L; ++end; break;
        default: break;
      }
      if (env_blank(end) && count <= LONG_MAX / mult) {
        spin = count * mult / 1000;  // about a thousand spins per microsecond
      } else {
        bad("GOMP_SPINCOUNT", v, "expected a count with optional k, M, G, T", "the default");
      }
    } else {
      bad("GOMP_SPINCOUNT", v, "expected a non-negative count or infinite", "the default");
    }
  }
  v = env_get("KITE_SPIN_US");
  if (v) {
    long us;
    const char* why;
    if (env_is(v, "infinite")) {
      spin = -1;
    } else if (env_is(v, "adaptive")) {
      spin = kDefaultSpinUs;
      adaptive = true;
    } else if (env_parse_long(v, -1, 1000000000L, &us, &why)) {
      spin = us;
    } else {
      bad("KITE_SPIN_US", v, "expected microseconds (0..1e9), -1, infinite or adaptive",
          "the default");
    }
  }
  g_icv.spin_us = spin;
  v = env_get("KITE_UNSTACK");
  if (v) {
    int b;
    const char* why;
    if (env_is(v, "verbose"))
      g_unstack = 2;
    else if (env_parse_bool(v, &b, &why))
      g_unstack = b != 0;
    else
      bad("KITE_UNSTACK", v, "expected true, false or verbose", "the default (false)");
  }
  // An infinite budget still sleeps when threads outnumber processors:
  // spin_config_for_threads caps the spin then.
  spin_set_budget_us(spin, adaptive);
}

// KITE_BARRIER: the shape of team barriers and forks (core/barrier.h).
void read_barrier_mode() {
  const char* v = env_get("KITE_BARRIER");
  if (!v) return;
  if (env_is(v, "auto"))
    g_barrier_mode = BarrierMode::kAuto;
  else if (env_is(v, "flat"))
    g_barrier_mode = BarrierMode::kFlat;
  else if (env_is(v, "tree"))
    g_barrier_mode = BarrierMode::kTree;
  else
    bad("KITE_BARRIER", v, "expected auto, flat or tree", "auto");
}

void read_max_active_levels(bool lists_nest) {
  int nested = -1;
  const char* v = env_get("OMP_NESTED");
  if (v) {
    int b;
    const char* why;
    if (env_parse_bool(v, &b, &why)) {
      nested = b;
      g_icv.nested_set = 1;
    } else {
      bad("OMP_NESTED", v, why, "the default nesting");
    }
  }
  int levels = nested == 1 || (nested == -1 && lists_nest) ? kSupportedActiveLevels : 1;
  v = env_get("OMP_MAX_ACTIVE_LEVELS");
  if (v) {
    long x;
    const char* why;
    char instead[32];
    snprintf(instead, sizeof instead, "%d", levels);
    if (!env_parse_long(v, 0, INT_MAX, &x, &why)) {
      bad("OMP_MAX_ACTIVE_LEVELS", v, why, instead);
    } else if (x > kSupportedActiveLevels) {
      warn("OMP_MAX_ACTIVE_LEVELS='%s' is more than the %d levels Kite supports; using %d", v,
           kSupportedActiveLevels, kSupportedActiveLevels);
      levels = kSupportedActiveLevels;
    } else {
      levels = int(x);
    }
  }
  g_icv.initial.max_active_levels = levels;
}

void read_display_env() {
  const char* v = env_get("OMP_DISPLAY_ENV");
  if (!v) return;
  if (env_is(v, "true"))
    g_icv.display_env = 1;
  else if (env_is(v, "verbose"))
    g_icv.display_env = 2;
  else if (!env_is(v, "false"))
    bad("OMP_DISPLAY_ENV", v, "expected true, false or verbose", "false");
}

void read_affinity_format() {
  memcpy(g_icv.affinity_format, kDefaultAffinityFormat, sizeof kDefaultAffinityFormat);
  const char* v = env_get("OMP_AFFINITY_FORMAT");
  if (!v) return;
  const char* why;
  char instead[sizeof g_icv.affinity_format + 2];
  snprintf(instead, sizeof instead, "'%s'", kDefaultAffinityFormat);
  if (strlen(v) >= sizeof g_icv.affinity_format)
    bad("OMP_AFFINITY_FORMAT", v, "longer than 255 characters", instead);
  else if (!affinity_format_valid(v, &why))
    bad("OMP_AFFINITY_FORMAT", v, why, instead);
  else
    memcpy(g_icv.affinity_format, v, strlen(v) + 1);
}

void read_target_offload() {
  const char* v = env_get("OMP_TARGET_OFFLOAD");
  if (!v) return;
  if (env_is(v, "default"))
    g_icv.target_offload = 0;
  else if (env_is(v, "mandatory"))
    g_icv.target_offload = 1;
  else if (env_is(v, "disabled"))
    g_icv.target_offload = 2;
  else
    bad("OMP_TARGET_OFFLOAD", v, "expected mandatory, disabled or default", "default");
}

void read_allocator() {
  const char* v = env_get("OMP_ALLOCATOR");
  if (!v) return;
  // Handle values as gcc's omp.h numbers them.
  static const char* const names[] = {
      "omp_default_mem_alloc", "omp_large_cap_mem_alloc", "omp_const_mem_alloc",
      "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc",   "omp_cgroup_mem_alloc",
      "omp_pteam_mem_alloc",   "omp_thread_mem_alloc"};
  for (unsigned k = 0; k < sizeof names / sizeof names[0]; ++k) {
    if (env_is(v, names[k])) {
      g_icv.initial.def_allocator = k + 1;
      return;
    }
  }
  bad("OMP_ALLOCATOR", v, "not a predefined allocator name", "omp_default_mem_alloc");
}

void read_tool() {
  const char* v = env_get("OMP_TOOL");
  if (v) {
    if (env_is(v, "enabled"))
      g_icv.tool = 1;
    else if (env_is(v, "disabled"))
      g_icv.tool = 0;
    else
      bad("OMP_TOOL", v, "expected enabled or disabled", "enabled");
  }
  v = env_get("OMP_TOOL_LIBRARIES");
  if (v) {
    if (strlen(v) >= sizeof g_icv.tool_libraries)
      bad("OMP_TOOL_LIBRARIES", v, "longer than 1023 characters", "no tool libraries");
    else
      memcpy(g_icv.tool_libraries, v, strlen(v) + 1);
  }
  v = env_get("OMP_TOOL_VERBOSE_INIT");
  if (v) {
    if (strlen(v) >= sizeof g_icv.tool_verbose_init)
      bad("OMP_TOOL_VERBOSE_INIT", v, "longer than 255 characters", "disabled");
    else
      memcpy(g_icv.tool_verbose_init, v, strlen(v) + 1);
  }
}

void read_places(bool bind_set) {
  const char* v = env_get("OMP_PLACES");
  bool have = false;
  if (v) {
    bool fallback = bind_set && g_icv.initial.bind != int(ProcBind::kFalse);
    have = places_from_env(v, fallback);
    // As in libgomp, a usable OMP_PLACES alone switches binding on.
    if (have && !bind_set) {
      g_icv.initial.bind = int(ProcBind::kTrue);
      g_icv.bind_list[0] = int(ProcBind::kTrue);
      g_icv.bind_list_len = 1;
    }
  }
  if (!have && g_icv.initial.bind != int(ProcBind::kFalse)) places_use_default_threads();
}

void set_defaults() {
  g_icv.num_procs = places_process_cpus();
  g_num_procs_for_spin = g_icv.num_procs;
  TaskIcvs& i = g_icv.initial;
  i.nthreads = g_icv.num_procs;
  i.dyn = 0;
  i.sched = int(Sched::kDynamic);
  i.sched_chunk = 0;
  i.bind = int(ProcBind::kFalse);
  i.thread_limit = INT_MAX;
  i.max_active_levels = 1;
  i.default_device = 0;
  i.def_allocator = 1;  // omp_default_mem_alloc
  g_icv.tool = 1;
}

}  // namespace

void icv_init_from_environment() {
  set_defaults();
  TaskIcvs& i = g_icv.initial;
  read_num_threads();
  read_schedule();
  read_bool("OMP_DYNAMIC", &i.dyn);
  read_int("OMP_THREAD_LIMIT", 1, INT_MAX, &i.thread_limit);
  read_stacksize();
  read_wait_policy();
  read_barrier_mode();
  bool bind_set = false;
  read_proc_bind(&bind_set);
  read_places(bind_set);
  read_max_active_levels(g_icv.nthreads_list_len > 1 || g_icv.bind_list_len > 1);
  read_bool("OMP_CANCELLATION", &g_icv.cancel);
  read_bool("OMP_DISPLAY_AFFINITY", &g_icv.display_affinity);
  read_affinity_format();
  read_int("OMP_DEFAULT_DEVICE", 0, INT_MAX, &i.default_device);
  read_int("OMP_MAX_TASK_PRIORITY", 0, INT_MAX, &g_icv.max_task_priority);
  read_target_offload();
  read_int("OMP_NUM_TEAMS", 1, INT_MAX, &g_icv.nteams);
  read_int("OMP_TEAMS_THREAD_LIMIT", 1, INT_MAX, &g_icv.teams_thread_limit);
  read_allocator();
  read_tool();
  read_display_env();
  if (g_icv.display_env) display_env(g_icv.display_env == 2);
}

}  // namespace kite
