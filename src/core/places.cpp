// The place list: parsing OMP_PLACES, expanding abstract names with hwloc,
// and binding threads. Place assignment for a team is in places_assign.cpp.
#include "places.h"

#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env_parse.h"
#include "place_list.h"

namespace kite {

// The final place list, valid once g_ready. Outside the anonymous namespace
// so that the OMPD layout (src/ompd/runtime/layout.cpp) can publish it.
PlaceList g_place_list;

namespace {

// --- the process mask ----------------------------------------------------

cpu_set_t* g_proc_mask = nullptr;  // CPUs the process may use at startup
size_t g_proc_mask_size = 0;       // bytes
int g_proc_mask_cpus = 0;          // bits in the mask

bool proc_allowed(int cpu) {
  return cpu >= 0 && cpu < g_proc_mask_cpus && CPU_ISSET_S(cpu, g_proc_mask_size, g_proc_mask);
}

// --- the list, once final ------------------------------------------------

enum class Source { kNone, kExplicit, kThreads, kCores, kLLCaches, kNuma, kSockets };

Source g_source = Source::kNone;
long g_abstract_limit = 0;      // abstract_name(n): n, 0 = all
char* g_env_text = nullptr;     // the OMP_PLACES value, for late warnings
PlaceList g_pending;            // explicit list parsed at load
cpu_set_t** g_masks = nullptr;  // per-place masks for binding
size_t g_mask_size = 0;
std::atomic<int> g_ready{0};
pthread_once_t g_once = PTHREAD_ONCE_INIT;
std::atomic<int> g_bind_warned{0};

// Keeps only processors the process may use; drops places left empty.
// Returns true when anything was removed.
bool restrict_to_process(PlaceList& l) {
  bool changed = false;
  PlaceList out;
  for (int p = 0; p < l.count; ++p) {
    int before = out.nprocs;
    for (int k = l.first[p]; k < l.first[p + 1]; ++k) {
      if (proc_allowed(l.procs[k]))
        out.add_proc(l.procs[k]);
      else
        changed = true;
    }
    if (out.nprocs > before) out.end_place();
  }
  l.release();
  l = out;
  return changed;
}

void list_threads(PlaceList& l) {
  for (int c = 0; c < g_proc_mask_cpus; ++c) {
    if (!proc_allowed(c)) continue;
    l.add_proc(c);
    l.end_place();
  }
}

// Places from the hwloc objects of one kind, restricted to the process.
bool list_from_topology(PlaceList& l, Source src) {
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) return false;
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    return false;
  }
  hwloc_obj_type_t type = HWLOC_OBJ_CORE;
  switch (src) {
    case Source::kCores: type = HWLOC_OBJ_CORE; break;
    case Source::kSockets: type = HWLOC_OBJ_PACKAGE; break;
    case Source::kNuma: type = HWLOC_OBJ_NUMANODE; break;
    case Source::kLLCaches: {
      // The last level is the highest cache level the machine reports.
      const hwloc_obj_type_t levels[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
                                         HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
      type = HWLOC_OBJ_CORE;
      for (hwloc_obj_type_t t : levels) {
        if (hwloc_get_nbobjs_by_type(topo, t) > 0) {
          type = t;
          break;
        }
      }
      break;
    }
    default: break;
  }
  int n = hwloc_get_nbobjs_by_type(topo, type);
  for (int i = 0; i < n; ++i) {
    hwloc_obj_t o = hwloc_get_obj_by_type(topo, type, unsigned(i));
    if (!o || !o->cpuset) continue;
    unsigned cpu;
    hwloc_bitmap_foreach_begin(cpu, o->cpuset) {
      if (proc_allowed(int(cpu))) l.add_proc(int(cpu));
    }
    hwloc_bitmap_foreach_end();
    l.end_place();
  }
  hwloc_topology_destroy(topo);
  return l.count > 0;
}

const char* source_name(Source s) {
  switch (s) {
    case Source::kThreads: return "threads";
    case Source::kCores: return "cores";
    case Source::kLLCaches: return "ll_caches";
    case Source::kNuma: return "numa_domains";
    case Source::kSockets: return "sockets";
    default: return "";
  }
}

void build_masks() {
  int maxcpu = 0;
  for (int k = 0; k < g_place_list.nprocs; ++k)
    if (g_place_list.procs[k] > maxcpu) maxcpu = g_place_list.procs[k];
  g_mask_size = CPU_ALLOC_SIZE(maxcpu + 1);
  g_masks = static_cast<cpu_set_t**>(xcalloc(size_t(g_place_list.count) + 1, sizeof(cpu_set_t*)));
  for (int p = 0; p < g_place_list.count; ++p) {
    cpu_set_t* m = static_cast<cpu_set_t*>(xcalloc(1, g_mask_size));
    for (int k = g_place_list.first[p]; k < g_place_list.first[p + 1]; ++k)
      CPU_SET_S(g_place_list.procs[k], g_mask_size, m);
    g_masks[p] = m;
  }
}

// Expands abstract names (hwloc) the first time places are needed.
void finish_list() {
  switch (g_source) {
    case Source::kNone: break;
    case Source::kExplicit: g_place_list = g_pending; break;
    case Source::kThreads: list_threads(g_place_list); break;
    default:
      if (!list_from_topology(g_place_list, g_source)) {
        warn("OMP_PLACES='%s': the machine topology does not describe %s; using 'threads'",
             g_env_text, source_name(g_source));
        g_place_list.release();
        list_threads(g_place_list);
      }
      break;
  }
  if (g_abstract_limit > 0 && g_source != Source::kExplicit) {
    if (g_abstract_limit > g_place_list.count)
      warn("OMP_PLACES='%s': only %d %s places are available; using %d", g_env_text,
           g_place_list.count, source_name(g_source), g_place_list.count);
    else
      g_place_list.truncate(int(g_abstract_limit));
  }
  if (g_place_list.count > 0) build_masks();
  g_ready.store(1, std::memory_order_release);
}

inline void ensure_list() {
  if (KITE_LIKELY(g_ready.load(std::memory_order_acquire))) return;
  pthread_once(&g_once, finish_list);
}

bool parse_abstract(const char* v, Source* src, long* limit, const char** why) {
  static const struct { const char* name; Source src; } names[] = {
      {"threads", Source::kThreads}, {"cores", Source::kCores},
      {"ll_caches", Source::kLLCaches}, {"numa_domains", Source::kNuma},
      {"sockets", Source::kSockets}};
  for (const auto& n : names) {
    const char* end;
    if (!env_word(v, n.name, &end)) continue;
    *src = n.src;
    *limit = 0;
    end = env_skip_blanks(end);
    if (*end == '(') {
      long num;
      const char* after;
      if (!env_parse_long_prefix(end + 1, &num, &after) || num < 1) {
        *why = "the number of places must be a positive integer";
        return false;
      }
      after = env_skip_blanks(after);
      if (*after != ')') {
        *why = "missing ')'";
        return false;
      }
      end = after + 1;
      *limit = num;
    }
    if (!env_blank(end)) {
      *why = "unexpected characters after the place name";
      return false;
    }
    return true;
  }
  *why = nullptr;  // not an abstract name
  return false;
}

}  // namespace

int places_process_cpus() {
  // The mask may be wider than the compile-time cpu_set_t on big machines.
  for (int ncpu = 1024;; ncpu *= 2) {
    size_t size = CPU_ALLOC_SIZE(ncpu);
    cpu_set_t* m = static_cast<cpu_set_t*>(xcalloc(1, size));
    if (sched_getaffinity(0, size, m) == 0) {
      g_proc_mask = m;
      g_proc_mask_size = size;
      g_proc_mask_cpus = ncpu;
      int n = CPU_COUNT_S(size, m);
      return n > 0 ? n : 1;
    }
    xfree(m);
    if (ncpu >= (1 << 20)) break;
  }
  // No affinity information: every online processor is usable.
  long np = sysconf(_SC_NPROCESSORS_ONLN);
  int n = np > 0 ? int(np) : 1;
  g_proc_mask_size = CPU_ALLOC_SIZE(n);
  g_proc_mask = static_cast<cpu_set_t*>(xcalloc(1, g_proc_mask_size));
  g_proc_mask_cpus = n;
  for (int c = 0; c < n; ++c) CPU_SET_S(c, g_proc_mask_size, g_proc_mask);
  return n;
}

bool places_from_env(const char* value, bool fallback_threads) {
  size_t len = strlen(value);
  g_env_text = static_cast<char*>(xmalloc(len + 1));
  memcpy(g_env_text, value, len + 1);
  const char* instead = fallback_threads ? "using 'threads'" : "using no place list";
  const char* why = nullptr;
  Source src;
  long limit;
  if (parse_abstract(value, &src, &limit, &why)) {
    g_source = src;
    g_abstract_limit = limit;
    return true;
  }
  if (why) {
    warn("OMP_PLACES='%s' is invalid (%s); %s", value, why, instead);
    return false;
  }
  PlaceList l;
  if (!place_list_parse(value, l, &why)) {
    l.release();
    warn("OMP_PLACES='%s' is invalid (%s); %s", value, why, instead);
    return false;
  }
  bool changed = restrict_to_process(l);
  if (l.count == 0) {
    warn("OMP_PLACES='%s' names no processor this process may use; %s", value, instead);
    l.release();
    return false;
  }
  if (changed) {
    char buf[256];
    l.format(buf, sizeof buf);
    warn("OMP_PLACES='%s' names processors this process may not use; using '%s'", value, buf);
  }
  g_pending = l;
  g_source = Source::kExplicit;
  return true;
}

void places_use_default_threads() {
  g_source = Source::kThreads;
  g_abstract_limit = 0;
}

bool places_process_allows(int cpu) { return proc_allowed(cpu); }

int places_process_cpu_end() {
  for (int c = g_proc_mask_cpus - 1; c >= 0; --c)
    if (CPU_ISSET_S(c, g_proc_mask_size, g_proc_mask)) return c + 1;
  return 0;
}

int places_count() {
  if (g_source == Source::kNone) return 0;
  ensure_list();
  return g_place_list.count;
}

int place_procs(int place, int* ids, int cap) {
  if (place < 0 || place >= places_count()) return 0;
  int n = g_place_list.first[place + 1] - g_place_list.first[place];
  for (int k = 0; k < n && k < cap; ++k) ids[k] = g_place_list.procs[g_place_list.first[place] + k];
  return n;
}

size_t places_format(char* buf, size_t cap) {
  if (places_count() == 0) {
    if (cap) buf[0] = '\0';
    return 0;
  }
  return g_place_list.format(buf, cap);
}

void places_bind_self(Thread* self, int place) {
  int rc;
  if (place >= 0 && place < places_count())
    rc = sched_setaffinity(0, g_mask_size, g_masks[place]);
  else
    rc = sched_setaffinity(0, g_proc_mask_size, g_proc_mask);
  if (rc != 0) {
    // Binding is a performance hint: the thread still runs, unbound.
    if (g_bind_warned.exchange(1) == 0) warn("cannot bind a thread to place %d; threads stay unbound", place);
    self->place = -1;
    return;
  }
  self->place = place;
}

void places_init_initial_thread(Thread* self) {
  self->place = -1;
  int n = places_count();
  if (n == 0 || g_icv.initial.bind == int(ProcBind::kFalse)) return;
  self->place_lo = 0;
  self->place_hi = n - 1;
  // The program's first thread takes the first place; threads the program
  // creates itself stay where they are running now.
  int place = 0;
  if (self->gtid != 0) {
    int cpu = sched_getcpu();
    for (int p = 0; p < n; ++p)
      for (int k = g_place_list.first[p]; k < g_place_list.first[p + 1]; ++k)
        if (g_place_list.procs[k] == cpu) {
          place = p;
          p = n;
          break;
        }
  }
  places_bind_self(self, place);
}

}  // namespace kite
