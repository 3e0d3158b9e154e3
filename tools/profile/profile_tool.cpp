// libkite-profile.so: the in-process half of `kite profile`. An OMPT tool
// (the public interface only, so it profiles LLVM's libomp too) that
// samples every OpenMP thread on a timer of its own and records, per
// sample, the thread's OMPT state and wait id, its parallel region and task,
// and its user-level stack; plus the few events blame shifting needs: who
// holds which lock, where tasks are created, and the call path that created
// each parallel region. Everything goes through the recording layer
// (tools/common/recorder.h); analysis runs after the program.
//
// Environment (set by `kite profile`):
//   KITE_PROFILE_DIR     directory for the raw files (required; must exist)
//   KITE_PROFILE_RATE    samples per second per thread (default 200: docs/kite-profile.md, "Cost")
//   KITE_PROFILE_BUFFER  memory per thread and stream (bytes, K/M)
//   KITE_PROFILE_COUNTERS  perf_event counters read with each sample
//                          (sample_clocks.cpp: cycles,instructions,...)
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <omp-tools.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <link.h>
#include <ucontext.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "profile_format.h"
#include "recorder.h"
#include "sample_clocks.h"

namespace kite_profile {
namespace {

using kite_rec::new_id;
using kite_trace::Record;

ompt_get_state_t get_state;
ompt_get_parallel_info_t get_parallel_info;
ompt_get_task_info_t get_task_info;
long period_ns = 5000000;  // 200 Hz
volatile bool active;

// Code ranges of the runtime and of this tool: frames there are not the
// user's. Filled before the first sample, read-only after.
struct Range {
  uintptr_t lo, hi;
};
Range runtime_ranges[16], tool_ranges[8];
int n_runtime_ranges, n_tool_ranges;

struct Modules {
  uintptr_t runtime_addr, tool_addr;
};

int collect_ranges(dl_phdr_info *info, size_t, void *arg) {
  auto *m = static_cast<Modules *>(arg);
  for (int pass = 0; pass < 2; ++pass) {
    uintptr_t addr = pass == 0 ? m->runtime_addr : m->tool_addr;
    bool holds = false;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
      const ElfW(Phdr) &p = info->dlpi_phdr[i];
      uintptr_t lo = info->dlpi_addr + p.p_vaddr;
      if (p.p_type == PT_LOAD && addr >= lo && addr < lo + p.p_memsz) holds = true;
    }
    if (!holds) continue;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
      const ElfW(Phdr) &p = info->dlpi_phdr[i];
      if (p.p_type != PT_LOAD || !(p.p_flags & PF_X)) continue;
      Range r{info->dlpi_addr + p.p_vaddr, info->dlpi_addr + p.p_vaddr + p.p_memsz};
      if (pass == 0 && n_runtime_ranges < 16) runtime_ranges[n_runtime_ranges++] = r;
      if (pass == 1 && n_tool_ranges < 8) tool_ranges[n_tool_ranges++] = r;
    }
  }
  return 0;
}

inline bool in(const Range *rs, int n, uintptr_t ip) {
  for (int i = 0; i < n; ++i)
    if (ip >= rs[i].lo && ip < rs[i].hi) return true;
  return false;
}

// Copies the user frames of ips[0..n) into out: frames of this tool are
// dropped, each run of runtime frames becomes one 0 (a cut), so the part
// before the first cut is what the current implicit or explicit task runs.
// Returns the number of words; *leaf_in_runtime says whether the innermost
// frame was the runtime's (the thread waits or works inside it).
unsigned user_frames(const uintptr_t *ips, unsigned n, uint64_t *out, unsigned max,
                     bool *leaf_in_runtime) {
  unsigned k = 0;
  bool cut = false, seen_user = false;
  *leaf_in_runtime = false;
  for (unsigned i = 0; i < n && k < max; ++i) {
    uintptr_t ip = ips[i];
    if (in(tool_ranges, n_tool_ranges, ip)) continue;
    if (in(runtime_ranges, n_runtime_ranges, ip)) {
      if (!seen_user) *leaf_in_runtime = true;  // runtime frames above the first user frame
      cut = true;
      continue;
    }
    if (cut && seen_user) out[k++] = 0;
    cut = false;
    seen_user = true;
    if (k < max) out[k++] = ip;
  }
  if (cut && seen_user && k < max) out[k++] = 0;  // the runtime below the region
  return k;
}

struct TaskView {
  uint64_t parallel = 0, task = 0;
  int flags = 0;
};

TaskView current_task() {
  TaskView v;
  int flags = 0, thread_num = 0;
  ompt_data_t *task = nullptr, *parallel = nullptr;
  ompt_frame_t *frame = nullptr;
  if (get_task_info && get_task_info(0, &flags, &task, &frame, &parallel, &thread_num) == 2) {
    v.flags = flags;
    if (parallel && !(flags & ompt_task_initial)) v.parallel = parallel->value;
    if (task && (flags & (ompt_task_explicit | ompt_task_target))) v.task = task->value;
  }
  return v;
}

// One unwind at a time in the process, taken with a bounded wait. libunwind
// keeps its register-state cache global (Debian builds it without the
// per-thread one: its TLS segment is 16 bytes) behind a mutex held across
// the dl_iterate_phdr that looks a new code address up. Without this gate
// two sampled threads could deadlock on that mutex: one holding it and
// waiting for the loader's lock, which the other's interrupted code held,
// while the other's handler waited for the mutex (issue 24). With it, no
// thread ever waits for libunwind's mutex while another holds it: a handler
// that finds the gate closed for kGateWaitNs records the interrupted pc
// alone (counted: unwinds_skipped= in the meta file) and returns, which
// lets the thread holding the loader's lock go on. (Without any cache,
// unw_backtrace from a signal handler takes its slow path at every sample:
// 25-45 us here against 4, issue 23.)
std::atomic<bool> unwind_gate{false};
std::atomic<uint64_t> unwinds_skipped{0};
constexpr uint64_t kGateWaitNs = 50000;

bool gate_enter(uint64_t wait_ns) {
  if (!unwind_gate.exchange(true, std::memory_order_acquire)) return true;
  uint64_t deadline = wait_ns ? kite_rec::now_ns() + wait_ns : 0;
  while (wait_ns) {
    for (int i = 0; i < 64; ++i) __builtin_ia32_pause();
    if (!unwind_gate.load(std::memory_order_relaxed) &&
        !unwind_gate.exchange(true, std::memory_order_acquire))
      return true;
    if (kite_rec::now_ns() >= deadline) break;
  }
  return false;
}
void gate_leave() { unwind_gate.store(false, std::memory_order_release); }

void on_sigprof(int, siginfo_t *si, void *uc) {
  if (!active) return;
  int saved_errno = errno;
  uint64_t weight = 1 + uint64_t(si->si_overrun > 0 ? si->si_overrun : 0);
  ompt_wait_id_t wait_id = 0;
  int state = get_state ? get_state(&wait_id) : ompt_state_undefined;
  TaskView tv = current_task();
  // The interrupted frame first (its exact pc), then its callers.
  // libunwind's fast path (unw_backtrace: cached frame descriptions, no
  // DWARF interpretation per step once warm) from this handler, through the
  // kernel's signal frame; the frames above the interrupted one (this
  // handler, the signal trampoline) are dropped at the interrupted pc.
  void *raw[kMaxFrames + 4];
  uintptr_t pc = uintptr_t(static_cast<ucontext_t *>(uc)->uc_mcontext.gregs[REG_RIP]);
  int got;
  if (gate_enter(kGateWaitNs)) {
    got = unw_backtrace(raw, kMaxFrames + 4);
    gate_leave();
  } else {
    raw[0] = reinterpret_cast<void *>(pc);
    got = 1;
    unwinds_skipped.fetch_add(1, std::memory_order_relaxed);
  }
  int first = 0;
  for (int i = 0; i < got && i < 6; ++i)
    if (uintptr_t(raw[i]) == pc) {
      first = i;
      break;
    }
  uintptr_t ips[kMaxFrames];
  unsigned n = 0;
  for (int i = first; i < got && n < kMaxFrames; ++i) ips[n++] = uintptr_t(raw[i]);
  uint64_t words[kMaxFrames];
  bool leaf_in_runtime = false;
  unsigned k = user_frames(ips, n, words, kMaxFrames, &leaf_in_runtime);
  uint64_t extras[kMaxExtras];
  unsigned m = clocks_read(extras);
  Record *r = kite_rec::slots(kite_rec::kSamples, 1 + kite_trace::payload_records(k + m));
  if (r) {
    r->f16 = uint16_t(state);
    r->u32 = k;
    r->a = wait_id;
    r->b = tv.parallel;
    r->c = tv.task;
    r->d = weight;
    r->sub = uint8_t(kSampleFirstIsPc | (leaf_in_runtime ? kSampleLeafInRuntime : 0) |
                     ((tv.flags & ompt_task_initial) ? kSampleInitialTask : 0) | (m << 4));
    memcpy(r + 1, words, k * sizeof(uint64_t));
    memcpy(reinterpret_cast<uint64_t *>(r + 1) + k, extras, m * sizeof(uint64_t));
    __atomic_store_n(&r->kind, uint8_t(kite_trace::kSample), __ATOMIC_RELEASE);
  }
  errno = saved_errno;
}

__attribute__((tls_model("initial-exec"))) thread_local timer_t thread_timer;
__attribute__((tls_model("initial-exec"))) thread_local bool has_timer;

void start_thread_timer() {
  if (kite_rec::prepare_thread() < 0) return;
  clocks_thread_start();
  // Warm libunwind's caches on this thread outside any signal handler
  // (through the gate, without waiting: see on_sigprof).
  if (gate_enter(0)) {
    void *warm[4];
    unw_backtrace(warm, 4);
    gate_leave();
  }
  sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = SIGPROF;
  sev._sigev_un._tid = pid_t(syscall(SYS_gettid));
  if (timer_create(CLOCK_MONOTONIC, &sev, &thread_timer) != 0) {
    kite_rec::warn("cannot create this thread's sampling timer: %s", strerror(errno));
    return;
  }
  has_timer = true;
  // Threads start at different phases of the period, so they do not all
  // wake at once.
  long first = period_ns / 2 + long(syscall(SYS_gettid) * 7919 % period_ns) / 2;
  itimerspec its;
  its.it_interval.tv_sec = period_ns / 1000000000;
  its.it_interval.tv_nsec = period_ns % 1000000000;
  its.it_value.tv_sec = first / 1000000000;
  its.it_value.tv_nsec = first % 1000000000;
  timer_settime(thread_timer, 0, &its, nullptr);
}

void stop_thread_timer() {
  if (!has_timer) return;
  has_timer = false;
  timer_delete(thread_timer);
  clocks_thread_stop();
}

inline uint64_t idof(const ompt_data_t *d) { return d ? d->value : 0; }
inline uint64_t ra(const void *p) { return reinterpret_cast<uint64_t>(p); }

#define KP_EVENT KITE_RECORD_EVENT

void on_thread_begin(ompt_thread_t type, ompt_data_t *) {
  KP_EVENT(kite_trace::kThreadBegin, r_->sub = uint8_t(type));
  start_thread_timer();
}
void on_thread_end(ompt_data_t *) {
  stop_thread_timer();
  KP_EVENT(kite_trace::kThreadEnd, (void)0);
}

// The region's creating call path is found after the program, in the
// samples of the thread that began it (kite-profile-analyze): nothing is
// unwound here, so a region costs one record.
void on_parallel_begin(ompt_data_t *, const ompt_frame_t *, ompt_data_t *parallel,
                       unsigned requested, int flags, const void *codeptr) {
  uint64_t id = new_id();
  if (parallel) parallel->value = id;
  TaskView tv = current_task();
  KP_EVENT(kite_trace::kParallelBegin, r_->a = id; r_->b = tv.parallel; r_->c = ra(codeptr);
           r_->d = requested; r_->f16 = uint16_t(unsigned(flags) >> 16);
           r_->sub = (tv.flags & ompt_task_initial) ? kSampleInitialTask : 0);
}
void on_parallel_end(ompt_data_t *parallel, ompt_data_t *, int, const void *codeptr) {
  KP_EVENT(kite_trace::kParallelEnd, r_->a = idof(parallel); r_->c = ra(codeptr));
}
// Only the team size is kept (the primary's begin): the analyzer needs it
// for a region's potential gain; every other implicit-task event is left
// unrecorded, so the workers pay nothing here.
void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *,
                      unsigned parallelism, unsigned index, int flags) {
  if (endpoint != ompt_scope_begin || index != 0 || (flags & ompt_task_initial)) return;
  KP_EVENT(kite_trace::kImplicitTask, r_->sub = uint8_t(endpoint); r_->a = idof(parallel);
           r_->u32 = parallelism);
}
void on_task_create(ompt_data_t *, const ompt_frame_t *, ompt_data_t *task, int flags, int,
                    const void *codeptr) {
  uint64_t id = new_id();
  if (task) task->value = id;
  TaskView tv = current_task();
  KP_EVENT(kite_trace::kTaskCreate, r_->a = id; r_->u32 = unsigned(flags); r_->c = ra(codeptr);
           r_->d = tv.parallel);
}
void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  KP_EVENT(kite_trace::kMutexAcquired, r_->f16 = uint16_t(kind); r_->a = wait_id;
           r_->c = ra(codeptr));
}
void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  KP_EVENT(kite_trace::kMutexReleased, r_->f16 = uint16_t(kind); r_->a = wait_id;
           r_->c = ra(codeptr));
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t *) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  get_state = reinterpret_cast<ompt_get_state_t>(lookup("ompt_get_state"));
  get_parallel_info = reinterpret_cast<ompt_get_parallel_info_t>(lookup("ompt_get_parallel_info"));
  get_task_info = reinterpret_cast<ompt_get_task_info_t>(lookup("ompt_get_task_info"));
  if (!set_callback || !get_state || !get_task_info) return 0;
  Modules m{reinterpret_cast<uintptr_t>(set_callback), reinterpret_cast<uintptr_t>(&on_sigprof)};
  dl_iterate_phdr(collect_ranges, &m);
  Dl_info info;
  char real[4096];
  if (dladdr(reinterpret_cast<void *>(set_callback), &info) && info.dli_fname &&
      realpath(info.dli_fname, real))
    kite_rec::append_meta("runtime_module=%s\n", real);
  kite_rec::append_meta("rate_hz=%ld\nperiod_ns=%ld\n", 1000000000L / period_ns, period_ns);
  // libunwind's global register-state cache, every use of it behind
  // unwind_gate (on_sigprof says why). Without a cache (issue 24's first
  // answer to the deadlock) an unwind from the signal handler missed
  // unw_backtrace's trace cache every time and took 25-45 us; with it, 4.
  unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_GLOBAL);
  clocks_init(getenv("KITE_PROFILE_COUNTERS"));

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGPROF, &sa, nullptr) != 0) {
    kite_rec::warn("cannot handle SIGPROF: %s; not profiling", strerror(errno));
    return 0;
  }
  auto reg = [&](ompt_callbacks_t which, void (*fn)()) {
    return set_callback(which, reinterpret_cast<ompt_callback_t>(fn));
  };
#define KP_REG(WHICH, FN) reg(WHICH, reinterpret_cast<void (*)()>(FN))
  KP_REG(ompt_callback_thread_begin, on_thread_begin);
  KP_REG(ompt_callback_thread_end, on_thread_end);
  KP_REG(ompt_callback_parallel_begin, on_parallel_begin);
  KP_REG(ompt_callback_parallel_end, on_parallel_end);
  KP_REG(ompt_callback_implicit_task, on_implicit_task);
  KP_REG(ompt_callback_task_create, on_task_create);
  KP_REG(ompt_callback_mutex_acquired, on_mutex_acquired);
  KP_REG(ompt_callback_mutex_released, on_mutex_released);
#undef KP_REG
  active = true;
  return 1;
}

void finalize(ompt_data_t *) {
  if (!active) return;
  active = false;
  stop_thread_timer();
  kite_rec::append_meta("unwinds_skipped=%llu\n",
                        (unsigned long long)unwinds_skipped.load(std::memory_order_relaxed));
  kite_rec::finish();
}

}  // namespace
}  // namespace kite_profile

extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t *ompt_start_tool(
    unsigned int, const char *runtime_version) {
  using namespace kite_profile;
  const char *rate = getenv("KITE_PROFILE_RATE");
  if (rate && *rate) {
    char *end = nullptr;
    long hz = strtol(rate, &end, 10);
    if (!end || *end || hz < 1 || hz > 100000)
      fprintf(stderr, "kite profile: KITE_PROFILE_RATE=%s is not a rate of 1..100000 Hz; "
                      "using 200\n", rate);
    else
      period_ns = 1000000000L / hz;
  }
  if (!kite_rec::start_from_env("profile", "KITE_PROFILE", runtime_version)) return nullptr;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
