// OMP_DISPLAY_ENV / omp_display_env: the ICVs as "NAME = 'value'" lines
// between the BEGIN and END markers, in the layout libgomp 12 prints, so
// scripts written against it keep working. Task-scoped ICVs are shown as
// the calling thread sees them (the initial values before any thread runs).
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "barrier.h"
#include "device.h"
#include "places.h"
#include "version.h"

namespace kite {

namespace {

// The whole block is built in memory and written at once so that it is not
// interleaved with other output.
struct Block {
  char* buf;
  size_t len, cap;
  void line(const char* name, const char* fmt, ...) __attribute__((format(printf, 3, 4))) {
    char value[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    raw("  %s = '%s'\n", name, value);
  }
  void raw(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
    for (;;) {
      va_list ap;
      va_start(ap, fmt);
      int n = vsnprintf(buf + len, cap - len, fmt, ap);
      va_end(ap);
      if (n < 0) return;
      if (len + size_t(n) < cap) {
        len += size_t(n);
        return;
      }
      size_t ncap = cap * 2 + size_t(n);
      char* nb = static_cast<char*>(xmalloc(ncap));
      memcpy(nb, buf, len);
      xfree(buf);
      buf = nb;
      cap = ncap;
    }
  }
};

const char* sched_name(int kind) {
  switch (kind & ~kSchedMonotonic) {
    case int(Sched::kStatic): return "STATIC";
    case int(Sched::kDynamic): return "DYNAMIC";
    case int(Sched::kGuided): return "GUIDED";
    case int(Sched::kAuto): return "AUTO";
    default: return "UNKNOWN";
  }
}

const char* bind_name(int b) {
  switch (b) {
    case int(ProcBind::kFalse): return "FALSE";
    case int(ProcBind::kTrue): return "TRUE";
    case int(ProcBind::kPrimary): return "PRIMARY";
    case int(ProcBind::kClose): return "CLOSE";
    case int(ProcBind::kSpread): return "SPREAD";
    default: return "UNKNOWN";
  }
}

const char* allocator_name(uintptr_t a) {
  static const char* const names[] = {
      "omp_null_allocator",    "omp_default_mem_alloc", "omp_large_cap_mem_alloc",
      "omp_const_mem_alloc",   "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc",
      "omp_cgroup_mem_alloc",  "omp_pteam_mem_alloc",   "omp_thread_mem_alloc"};
  return a < sizeof names / sizeof names[0] ? names[a] : "user-defined allocator";
}

// "v0,v1,..." from the current value and the rest of a nesting-level list.
void list_value(char* out, size_t cap, int current, const int* list, int len, int pos,
                bool names) {
  size_t n = 0;
  auto add = [&](int v, bool comma) {
    int w = names ? snprintf(out + n, cap - n, "%s%s", comma ? "," : "", bind_name(v))
                  : snprintf(out + n, cap - n, "%s%d", comma ? "," : "", v);
    if (w > 0) n += size_t(w) < cap - n ? size_t(w) : cap - n - 1;
  };
  add(current, false);
  for (int i = pos + 1; i < len; ++i) add(list[i], true);
}

}  // namespace

void display_env(bool verbose) {
  const Thread* me = tls_self;
  const TaskIcvs& i = (me && me->task) ? me->task->icv : g_icv.initial;
  Block b{static_cast<char*>(xmalloc(4096)), 0, 4096};
  char tmp[1536];

  b.raw("\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
  b.line("_OPENMP", "%u", kOpenmpVersion);
  b.line("OMP_DYNAMIC", "%s", i.dyn ? "TRUE" : "FALSE");
  b.line("OMP_NESTED", "%s", i.max_active_levels > 1 ? "TRUE" : "FALSE");
  list_value(tmp, sizeof tmp, i.nthreads, g_icv.nthreads_list, g_icv.nthreads_list_len,
             i.nthreads_list_pos, false);
  b.line("OMP_NUM_THREADS", "%s", tmp);
  if (i.sched_chunk > 0)
    b.line("OMP_SCHEDULE", "%s%s,%ld", (i.sched & kSchedMonotonic) ? "MONOTONIC:" : "",
           sched_name(i.sched), i.sched_chunk);
  else
    b.line("OMP_SCHEDULE", "%s%s", (i.sched & kSchedMonotonic) ? "MONOTONIC:" : "",
           sched_name(i.sched));
  list_value(tmp, sizeof tmp, i.bind, g_icv.bind_list, g_icv.bind_list_len, i.bind_list_pos, true);
  b.line("OMP_PROC_BIND", "%s", tmp);
  places_format(tmp, sizeof tmp);
  b.line("OMP_PLACES", "%s", tmp);
  b.line("OMP_STACKSIZE", "%ld", g_icv.stacksize);
  b.line("OMP_WAIT_POLICY", "%s", g_icv.wait_policy == 1 ? "ACTIVE" : "PASSIVE");
  b.line("OMP_THREAD_LIMIT", "%d", i.thread_limit);
  b.line("OMP_MAX_ACTIVE_LEVELS", "%d", i.max_active_levels);
  b.line("OMP_NUM_TEAMS", "%d", g_icv.nteams);
  b.line("OMP_TEAMS_THREAD_LIMIT", "%d", g_icv.teams_thread_limit);
  b.line("OMP_CANCELLATION", "%s", g_icv.cancel ? "TRUE" : "FALSE");
  b.line("OMP_DEFAULT_DEVICE", "%d", i.default_device);
  b.line("OMP_MAX_TASK_PRIORITY", "%d", g_icv.max_task_priority);
  b.line("OMP_DISPLAY_AFFINITY", "%s", g_icv.display_affinity ? "TRUE" : "FALSE");
  b.line("OMP_AFFINITY_FORMAT", "%s", g_icv.affinity_format);
  b.line("OMP_ALLOCATOR", "%s", allocator_name(i.def_allocator));
  b.line("OMP_TARGET_OFFLOAD", "%s",
         g_icv.target_offload == 1 ? "MANDATORY"
                                   : g_icv.target_offload == 2 ? "DISABLED" : "DEFAULT");
  b.line("OMP_TOOL", "%s", g_icv.tool ? "ENABLED" : "DISABLED");
  b.line("OMP_TOOL_LIBRARIES", "%s", g_icv.tool_libraries);
  b.line("OMP_TOOL_VERBOSE_INIT", "%s", g_icv.tool_verbose_init);
  if (verbose) {
    if (g_icv.spin_us < 0)
      b.line("KITE_SPIN_US", "INFINITE");
    else
      b.line("KITE_SPIN_US", "%ld", g_icv.spin_us);
    b.line("KITE_NUM_PROCS", "%d", g_icv.num_procs);
    b.line("KITE_BARRIER", "%s",
           g_barrier_mode == BarrierMode::kFlat   ? "FLAT"
           : g_barrier_mode == BarrierMode::kTree ? "TREE"
                                                  : "AUTO");
    b.line("KITE_DEVICES", "%d", emulated_device_count());
  }
  b.raw("OPENMP DISPLAY ENVIRONMENT END\n");
  fwrite(b.buf, 1, b.len, stderr);
  fflush(stderr);
  xfree(b.buf);
}

}  // namespace kite
