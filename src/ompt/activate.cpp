// Tool activation and finalization (OpenMP 5.2 §19.2).
//
// When: the first time any thread gets a runtime record (its first OpenMP
// construct or runtime call, see self_slow), not at library load. A tool
// compiled into the program may keep C++ objects whose constructors run
// after the runtime library's own, so it cannot be called that early; and
// the first record is made before any OpenMP event, as §19.2 requires.
//
// How (§19.2.1-19.2.3): with tool-var enabled, call ompt_start_tool found
// in the process's global scope; if there is none, or it returns NULL, try
// each library of tool-libraries-var in order. The first non-NULL result
// is the tool; its initializer decides whether the OMPT interface becomes
// active. Its finalizer runs at process exit or from ompt_finalize_tool.
//
// omp_version: kOpenmpVersion (core/version.h says why it is 5.2's).
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/places.h"
#include "core/version.h"
#include "core/device.h"
#include "ompt/callbacks.h"
#include "ompt/ora.h"
#include "ompt/tr2.h"
#include "ompd/runtime/debug.h"

extern "C" int omp_get_initial_device(void);

namespace kite {
namespace ompt {

namespace {

constexpr unsigned kOmpVersion = kOpenmpVersion;
const char kRuntimeVersion[] = "kite " KITE_VERSION_STRING;

typedef ompt_start_tool_result_t* (*StartToolFn)(unsigned int, const char*);

ompt_start_tool_result_t* g_tool = nullptr;  // the active tool's result
std::atomic<int> g_once{0};                  // 0 not started, 1 running, 2 done
std::atomic<bool> g_finalized{false};

// OMP_TOOL_VERBOSE_INIT: where every activation step is logged.
class VerboseLog {
 public:
  explicit VerboseLog(const char* where) {
    if (!where[0] || strcasecmp(where, "disabled") == 0) return;
    if (strcasecmp(where, "stdout") == 0) {
      out_ = stdout;
    } else if (strcasecmp(where, "stderr") == 0) {
      out_ = stderr;
    } else {
      out_ = fopen(where, "w");
      if (!out_) warn("OMP_TOOL_VERBOSE_INIT=%s: cannot open the file; logging nothing", where);
      owned_ = out_ != nullptr;
    }
  }
  ~VerboseLog() {
    if (!out_) return;
    if (owned_)
      fclose(out_);
    else
      fflush(out_);
  }
  void operator()(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
    if (!out_) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("OMPT tool init: ", out_);
    vfprintf(out_, fmt, ap);
    fputc('\n', out_);
    va_end(ap);
  }

 private:
  FILE* out_ = nullptr;
  bool owned_ = false;
};

const char* object_of(void* sym) {
  Dl_info info;
  if (dladdr(sym, &info) && info.dli_fname && info.dli_fname[0]) return info.dli_fname;
  return "the program";
}

// Kite defines no ompt_start_tool; this guards against one ever being
// linked into the runtime, which would otherwise shadow every real tool.
bool defined_by_kite(void* sym) {
  Dl_info a, b;
  return dladdr(sym, &a) && dladdr(reinterpret_cast<void*>(&activate_once), &b) &&
         a.dli_fbase == b.dli_fbase;
}

ompt_start_tool_result_t* start(void* sym, VerboseLog& log) {
  auto fn = reinterpret_cast<StartToolFn>(sym);
  log("calling ompt_start_tool(%u, \"%s\")", kOmpVersion, kRuntimeVersion);
  ompt_start_tool_result_t* r = fn(kOmpVersion, kRuntimeVersion);
  if (r)
    log("ompt_start_tool returned a tool");
  else
    log("ompt_start_tool returned NULL: this tool does not want to be used");
  return r;
}

ompt_start_tool_result_t* find_in_process(VerboseLog& log) {
  log("looking for ompt_start_tool in the process (the program and its loaded libraries)");
  void* sym = dlsym(RTLD_DEFAULT, "ompt_start_tool");
  if (sym && defined_by_kite(sym)) {
    log("found only the runtime's own ompt_start_tool; ignored");
    sym = nullptr;
  }
  if (!sym) {
    log("not found");
    return nullptr;
  }
  log("found in %s", object_of(sym));
  return start(sym, log);
}

ompt_start_tool_result_t* find_in_libraries(VerboseLog& log) {
  const char* list = g_icv.tool_libraries;
  if (!list[0]) {
    log("OMP_TOOL_LIBRARIES is empty: no tool libraries to try");
    return nullptr;
  }
  log("trying the libraries of OMP_TOOL_LIBRARIES=%s in order", list);
  char name[sizeof g_icv.tool_libraries];
  for (const char* p = list; *p;) {
    const char* end = strchr(p, ':');
    size_t len = end ? size_t(end - p) : strlen(p);
    memcpy(name, p, len);
    name[len] = '\0';
    p += len + (end ? 1 : 0);
    if (len == 0) continue;
    log("opening %s", name);
    void* h = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
      const char* why = dlerror();
      log("cannot open %s: %s", name, why ? why : "unknown error");
      continue;
    }
    void* sym = dlsym(h, "ompt_start_tool");
    if (!sym) {
      log("%s does not define ompt_start_tool", name);
      dlclose(h);
      continue;
    }
    log("found ompt_start_tool in %s", name);
    if (ompt_start_tool_result_t* r = start(sym, log)) return r;
  }
  log("no library of OMP_TOOL_LIBRARIES provided a tool");
  return nullptr;
}

ompt_interface_fn_t lookup_entry(const char* name) { return lookup(name); }

void finalize_at_exit() { finalize_tool(); }

void activate() {
  VerboseLog log(g_icv.tool_verbose_init);
  log("begin (runtime \"%s\", omp_version %u)", kRuntimeVersion, kOmpVersion);
  if (!g_icv.tool) {
    log("OMP_TOOL=disabled: not looking for a tool; the OMPT interface stays inactive");
    return;
  }
  // Abstract place names are expanded on first use; do it now so that the
  // place inquiries never do it inside a tool's signal handler.
  (void)places_count();
  ompt_start_tool_result_t* r = find_in_process(log);
  if (!r) r = find_in_libraries(log);
  if (!r) {
    // The draft OMPT interfaces (src/ompt/tr2.cpp), only when no
    // ompt_start_tool returned a tool: one interface per process.
    const char* where = nullptr;
    log("no ompt_start_tool tool; looking for a draft OMPT tool's ompt_initialize");
    switch (tr2::activate(&where)) {
      case tr2::Outcome::kAccepted:
        log("ompt_initialize in %s returned non-zero: the draft OMPT interface is active", where);
        return;
      case tr2::Outcome::kDeclined:
        log("ompt_initialize in %s returned 0: no draft OMPT interface", where);
        break;
      case tr2::Outcome::kNone: break;
    }
    log("no tool found; the OMPT interface stays inactive");
    return;
  }
  if (!r->initialize) {
    log("the tool's initializer is NULL; the OMPT interface stays inactive");
    return;
  }
  int device = omp_get_initial_device();
  log("calling the tool's initializer (initial device %d)", device);
  int ok = r->initialize(&lookup_entry, device, &r->tool_data);
  if (!ok) {
    clear_callbacks();
    log("the initializer returned 0: the tool declined; the OMPT interface stays inactive");
    return;
  }
  g_tool = r;
  g_active.store(true, std::memory_order_release);
  // Registered now, after the program's static constructors ran, so the
  // finalizer runs before the static destructors of a tool in the program.
  atexit(finalize_at_exit);
  log("the initializer returned %d: the OMPT interface is active", ok);
}

}  // namespace

void activate_once() {
  int s = g_once.load(std::memory_order_acquire);
  if (KITE_LIKELY(s == 2)) return;
  int expected = 0;
  if (g_once.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
    activate();
    // OMP_DEBUG=enabled (OpenMP 5.2 §21.4.1, debug-var): the runtime keeps
    // what an OMPD library reads (thread states, wait ids, frames, the
    // thread list) and calls the breakpoint functions, tool or no tool. The
    // emitters then run their slow halves, which call only registered
    // callbacks: none, without a tool.
    if (ompd::debug_from_environment()) {
      ompd::g_debugging = 1;
      g_active.store(true, std::memory_order_release);
    }
    if (g_active.load(std::memory_order_relaxed)) ompd::tracking_started();
    g_once.store(2, std::memory_order_release);
    return;
  }
  // Another thread is activating: no thread may see an event before the
  // tool is initialized. (The activating thread itself never comes back
  // here: its record exists before activation starts.)
  while (g_once.load(std::memory_order_acquire) != 2) sched_yield_portable();
}

bool tool_attached() {
  return (g_tool && !g_finalized.load(std::memory_order_relaxed)) || tr2::attached();
}

void finalize_tool() {
  if (!g_active.load(std::memory_order_acquire) || !g_tool) return;
  if (g_finalized.exchange(true)) return;
  // Emulated devices shut down first (device_unload, device_finalize):
  // OpenMP 5.2 §13.4, "before an OpenMP implementation shuts down".
  devices_finalize();
  // Threads end before the tool does: idle workers report thread_end, then
  // the calling initial thread its initial task and itself.
  end_idle_workers();
  Thread* me = tls_self;
  if (me && !me->is_worker && me->team == nullptr && me->task == &me->initial_task)
    on_initial_thread_end(me);
  // Under OMP_DEBUG the bookkeeping goes on for the debugger, and for an
  // ORA collector's session (ora.cpp).
  g_active.store(ompd::g_debugging != 0 || ora::started(), std::memory_order_release);
  clear_callbacks();
  if (g_tool->finalize) g_tool->finalize(&g_tool->tool_data);
}

}  // namespace ompt
}  // namespace kite
