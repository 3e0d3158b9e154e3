// The draft OMPT interfaces (tr2.h): discovery of ompt_initialize, the
// callback table both forms register into, the events each slow half
// hands over, and TR2's inquiry functions, found through lookup.
//
// Telling the two forms apart. Both drafts name the tool's entry
// `ompt_initialize`: TR2 has the runtime call
//   int ompt_initialize(ompt_function_lookup_t lookup,
//                       const char *runtime_version, unsigned int ompt_version)
// and the 2013 proposal calls `int ompt_initialize(void)`, after which the
// tool calls the runtime's global ompt_set_callback. Kite calls every
// ompt_initialize with TR2's three arguments. Under the x86-64 System V
// ABI these travel in rdi, rsi and rdx, caller-saved registers that a
// function taking no parameters never reads, and the caller owns the
// stack either way, so a 2013 tool is called correctly too. What the tool
// then calls decides its form: TR2's ompt_set_callback comes from lookup,
// the 2013 one is a global symbol, and the first registration (or
// inquiry through lookup) fixes the form for the process; a call of the
// other family afterwards is refused with a warning.
#include "ompt/tr2.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompt/callbacks.h"
#include "ompt/ora.h"
#include "ompd/runtime/debug.h"

// TR2's public names, for the signatures (tr2.h holds the numbers Kite
// indexes by; the test tools, built against this header, check that they
// agree).
namespace kite {
namespace tr2 {
namespace pub {
#define KITE_DRAFT_OMPT_RUNTIME 1
#include <ompt-tr2.h>
}  // namespace pub
}  // namespace tr2
}  // namespace kite

// The LLVM ABI's fork wrappers and where their block keeps the program's
// outlined function (src/abi/kmpc/fork.cpp).
extern "C" const uintptr_t kite_ompd_kmpc_fork[3];
// And its task wrapper, and where the block keeps the program's task entry
// (src/abi/kmpc/task.cpp).
extern "C" const uintptr_t kite_ompd_kmpc_task[2];

namespace kite {
namespace tr2 {

const char kRuntimeVersion[] = "kite " KITE_VERSION_STRING;
std::atomic<bool> g_live{false};

namespace {

using Fn = void (*)(void);
std::atomic<Fn> g_cb[kLastEvent + 1];
std::atomic<int> g_form{int(Form::kNone)};
std::atomic<bool> g_initializing{false};
std::atomic<uint64_t> g_next_id{1};  // thread and task ids (TR2)

bool is2013() { return g_form.load(std::memory_order_relaxed) == int(Form::k2013); }

template <class F>
F cb(int e) {
  return reinterpret_cast<F>(g_cb[e].load(std::memory_order_acquire));
}

uint64_t new_id() { return g_next_id.fetch_add(1, std::memory_order_relaxed); }
uint64_t region_id(const Team* t) { return t ? t->ompt.ora_id : 0; }
uint64_t task_id(const Task* t) { return t ? t->ompt.task_data.value : 0; }
pub::ompt_frame_t* frame_of(Task* t) {
  // ompt_frame_t (5.x) begins with exit_frame and enter_frame, pointer
  // sized: TR2's exit_runtime_frame and reenter_runtime_frame.
  static_assert(offsetof(ompt_frame_t, exit_frame) == offsetof(pub::ompt_frame_t, exit_runtime_frame) &&
                    offsetof(ompt_frame_t, enter_frame) ==
                        offsetof(pub::ompt_frame_t, reenter_runtime_frame),
                "frame layouts");
  return t ? reinterpret_cast<pub::ompt_frame_t*>(&t->ompt.frame) : nullptr;
}

// --- the shapes of callbacks: TR2 passes ids, the 2013 form the tool's data ---
void emit_thread(int e, Thread* t) {
  Fn f = g_cb[e].load(std::memory_order_acquire);
  if (!f) return;
  if (is2013())
    return reinterpret_cast<void (*)(ompt_data_t*)>(f)(&t->ompt.thread_data);
  if (e == kThreadBegin || e == kThreadEnd)
    return reinterpret_cast<pub::ompt_thread_type_callback_t>(f)(
        t->is_worker ? pub::ompt_thread_worker : pub::ompt_thread_initial,
        t->ompt.thread_data.value);
  reinterpret_cast<pub::ompt_thread_callback_t>(f)(t->ompt.thread_data.value);
}

void emit_parallel(int e, const Team* team, Task* task) {
  Fn f = g_cb[e].load(std::memory_order_acquire);
  if (!f) return;
  if (is2013())
    return reinterpret_cast<void (*)(ompt_data_t*, uint64_t)>(f)(
        task ? &task->ompt.task_data : nullptr, region_id(team));
  reinterpret_cast<pub::ompt_parallel_callback_t>(f)(region_id(team), task_id(task));
}

void emit_wait(int e, const void* wait_id) {
  if (auto f = cb<pub::ompt_wait_callback_t>(e)) f(reinterpret_cast<uint64_t>(wait_id));
}

bool is_wait_barrier(int s) {
  switch (s) {
    case ompt_state_wait_barrier_implicit_parallel:
    case ompt_state_wait_barrier_implicit_workshare:
    case ompt_state_wait_barrier_explicit:
    case ompt_state_wait_barrier_implementation:
    case ompt_state_wait_barrier_teams:
      return true;
    default:
      return false;
  }
}

// The wait interval a thread is in (barrier, taskwait, taskgroup) ends
// before a task is scheduled inside it and begins again after.
void wait_interval(Thread* me, bool begin) {
  if (!me) return;
  int s = me->ompt.state;
  int e;
  if (is_wait_barrier(s))
    e = begin ? kWaitBarrierBegin : kWaitBarrierEnd;
  else if (s == ompt_state_wait_taskwait)
    e = begin ? kWaitTaskwaitBegin : kWaitTaskwaitEnd;
  else if (s == ompt_state_wait_taskgroup)
    e = begin ? kWaitTaskgroupBegin : kWaitTaskgroupEnd;
  else
    return;
  emit_parallel(e, me->team, me->task);
}

// --- which compilers built the program ------------------------------------------
// Per compiler, whether the runtime sees each construct: gcc inlines master,
// flush and static loops and marks no end of a single's block, clang makes
// a call for each but inlines the atomic operations the hardware has.
enum Compilers { kGcc = 1, kClang = 2 };

// The number of symbols of a GNU hash table (the highest index it hashes).
size_t gnu_hash_symbols(const uint32_t* h) {
  const uint32_t nbuckets = h[0], symoffset = h[1], bloom_words = h[2];
  const uint32_t* buckets = reinterpret_cast<const uint32_t*>(
      reinterpret_cast<const uint64_t*>(h + 4) + bloom_words);
  const uint32_t* chain = buckets + nbuckets;
  uint32_t last = 0;
  for (uint32_t b = 0; b < nbuckets; ++b)
    if (buckets[b] > last) last = buckets[b];
  if (last < symoffset) return symoffset;
  while (!(chain[last - symoffset] & 1)) ++last;
  return size_t(last) + 1;
}

// Looks at the undefined dynamic symbols of every loaded object: a GOMP_
// entry point is gcc's code, a __kmpc_ one clang's.
int scan_object(struct dl_phdr_info* info, size_t, void* out) {
  const ElfW(Dyn)* dyn = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  if (!dyn) return 0;
  // The loader relocates these entries in place on x86-64, except in
  // objects whose dynamic section is read-only; either way the address
  // is the one past the load base.
  auto addr = [&](ElfW(Addr) p) { return p < info->dlpi_addr ? info->dlpi_addr + p : p; };
  const ElfW(Sym)* syms = nullptr;
  const char* strs = nullptr;
  size_t count = 0;
  for (const ElfW(Dyn)* d = dyn; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_SYMTAB) syms = reinterpret_cast<const ElfW(Sym)*>(addr(d->d_un.d_ptr));
    if (d->d_tag == DT_STRTAB) strs = reinterpret_cast<const char*>(addr(d->d_un.d_ptr));
    if (d->d_tag == DT_HASH) count = reinterpret_cast<const uint32_t*>(addr(d->d_un.d_ptr))[1];
    if (d->d_tag == DT_GNU_HASH && !count)
      count = gnu_hash_symbols(reinterpret_cast<const uint32_t*>(addr(d->d_un.d_ptr)));
  }
  if (!syms || !strs) return 0;
  int& found = *static_cast<int*>(out);
  for (size_t i = 1; i < count; ++i) {
    if (syms[i].st_shndx != SHN_UNDEF) continue;
    const char* n = strs + syms[i].st_name;
    if (strncmp(n, "GOMP_", 5) == 0) found |= kGcc;
    if (strncmp(n, "__kmpc_", 7) == 0) found |= kClang;
  }
  return 0;
}

int compilers() {
  static std::atomic<int> cached{-1};
  int c = cached.load(std::memory_order_acquire);
  if (c >= 0) return c;
  int found = 0;
  dl_iterate_phdr(scan_object, &found);
  // Neither seen (the OpenMP code is loaded later): answer for both.
  if (!found) found = kGcc | kClang;
  cached.store(found, std::memory_order_release);
  return found;
}

constexpr int kAlways = 4, kSometimes = 3, kNever = 2;

int answer_for(int e, int compiler) {
  switch (e) {
    case kWorkshareBegin:
    case kWorkshareEnd:
      // Fortran's workshare reaches no runtime entry: gfortran turns it
      // into single and loop constructs; clang has no Fortran.
      return kNever;
    case kMasterBegin:
    case kMasterEnd:
    case kFlush:
      return compiler == kGcc ? kNever : kAlways;
    case kLoopBegin:
    case kLoopEnd:
    case kSingleInBlockBegin:
    case kSingleInBlockEnd:
      // gcc: a static loop is inline, and a single block's end makes no
      // call, so its executor is reported only with copyprivate.
      return compiler == kGcc ? kSometimes : kAlways;
    case kWaitAtomic:
    case kAcquiredAtomic:
    case kReleaseAtomic:
      return kSometimes;
    default:
      return kAlways;
  }
}

int answer(int e) {
  int c = compilers();
  int a = (c & kGcc) ? answer_for(e, kGcc) : -1;
  int b = (c & kClang) ? answer_for(e, kClang) : -1;
  if (a < 0) return b;
  if (b < 0 || a == b) return a;
  return kSometimes;  // the event occurs for one compiler's code only
}

// --- lookup and TR2's inquiry functions ---------------------------------------------
bool claim(Form who) {
  int none = int(Form::kNone);
  if (g_form.compare_exchange_strong(none, int(who), std::memory_order_acq_rel)) return true;
  if (none == int(who)) return true;
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    warn("OMPT draft interface: the tool uses both the TR2 (lookup) and the 2013 (global) "
         "functions; only the %s ones answer",
         none == int(Form::kTr2) ? "TR2" : "2013");
  return false;
}

int tr2_set_callback(pub::ompt_event_t e, pub::ompt_callback_t f) {
  return set_callback(Form::kTr2, e, f);
}
int tr2_get_callback(pub::ompt_event_t e, pub::ompt_callback_t* f) {
  return get_callback(Form::kTr2, e, f);
}
pub::ompt_state_t tr2_get_state(uint64_t* wait_id) {
  return static_cast<pub::ompt_state_t>(state(wait_id));
}
uint64_t tr2_get_thread_id() {
  const Thread* me = tls_self;
  return me ? me->ompt.thread_data.value : 0;
}
uint64_t tr2_get_parallel_id(int level) { return region_id(team_at(level)); }
int tr2_get_parallel_team_size(int level) {
  const Team* t = team_at(level);
  return t ? t->nthreads : -1;
}
uint64_t tr2_get_task_id(int depth) { return task_id(task_at(depth)); }
pub::ompt_frame_t* tr2_get_task_frame(int depth) { return frame_of(task_at(depth)); }

// TR2's placeholder functions: lookup hands out their addresses so that a
// tool sampling call stacks can show a thread that is idle, in runtime
// overhead or waiting (at a barrier, for tasks, for a mutex) under a
// function of that name when the stack itself names no such frame. Kite
// never calls them; each keeps a body and an address of its own (noipa:
// identical-code folding must not merge them, a tool compares addresses).
__attribute__((noinline, noipa, used)) void placeholder_idle() { __asm__ volatile("" ::"r"(1)); }
__attribute__((noinline, noipa, used)) void placeholder_overhead() { __asm__ volatile("" ::"r"(2)); }
__attribute__((noinline, noipa, used)) void placeholder_barrier_wait() { __asm__ volatile("" ::"r"(3)); }
__attribute__((noinline, noipa, used)) void placeholder_task_wait() { __asm__ volatile("" ::"r"(4)); }
__attribute__((noinline, noipa, used)) void placeholder_mutex_wait() { __asm__ volatile("" ::"r"(5)); }

struct Entry {
  const char* name;
  Fn fn;
};
#define KITE_TR2_ENTRY(name, fn) {name, reinterpret_cast<Fn>(fn)}
const Entry kEntries[] = {
    KITE_TR2_ENTRY("ompt_enumerate_state", &enumerate_state),
    KITE_TR2_ENTRY("ompt_set_callback", &tr2_set_callback),
    KITE_TR2_ENTRY("ompt_get_callback", &tr2_get_callback),
    KITE_TR2_ENTRY("ompt_get_thread_id", &tr2_get_thread_id),
    KITE_TR2_ENTRY("ompt_get_state", &tr2_get_state),
    KITE_TR2_ENTRY("ompt_get_idle_frame", &idle_frame),
    KITE_TR2_ENTRY("ompt_get_parallel_id", &tr2_get_parallel_id),
    KITE_TR2_ENTRY("ompt_get_parallel_team_size", &tr2_get_parallel_team_size),
    KITE_TR2_ENTRY("ompt_get_task_id", &tr2_get_task_id),
    KITE_TR2_ENTRY("ompt_get_task_frame", &tr2_get_task_frame),
    KITE_TR2_ENTRY("ompt_idle", &placeholder_idle),
    KITE_TR2_ENTRY("ompt_overhead", &placeholder_overhead),
    KITE_TR2_ENTRY("ompt_barrier_wait", &placeholder_barrier_wait),
    KITE_TR2_ENTRY("ompt_task_wait", &placeholder_task_wait),
    KITE_TR2_ENTRY("ompt_mutex_wait", &placeholder_mutex_wait),
};
#undef KITE_TR2_ENTRY

Fn lookup(const char* name) {
  if (!name) return nullptr;
  for (const Entry& e : kEntries)
    if (strcmp(e.name, name) == 0) return e.fn;
  return nullptr;
}

// Threads end before the runtime shuts down: idle workers, then the
// calling initial thread, then ompt_event_runtime_shutdown.
void shutdown_at_exit() {
  if (!g_live.load(std::memory_order_acquire)) return;
  end_idle_workers();
  Thread* me = tls_self;
  if (me && !me->is_worker && me->team == nullptr && me->task == &me->initial_task)
    ompt::on_initial_thread_end(me);
  if (auto f = cb<pub::ompt_callback_t>(kRuntimeShutdown)) f();
  g_live.store(false, std::memory_order_release);
  ompt::refresh_barrier_hooked();
  for (auto& c : g_cb) c.store(nullptr, std::memory_order_relaxed);
  ompt::g_active.store(ompd::g_debugging != 0 || ora::started(), std::memory_order_release);
}

}  // namespace

Form form() { return static_cast<Form>(g_form.load(std::memory_order_relaxed)); }
bool attached() { return g_live.load(std::memory_order_acquire); }
bool initializing() { return g_initializing.load(std::memory_order_acquire); }

namespace {
int find_runtime(struct dl_phdr_info* info, size_t, void*);
}  // namespace

Outcome activate(const char** where) {
  void* sym = dlsym(RTLD_DEFAULT, "ompt_initialize");
  if (!sym) return Outcome::kNone;
  dl_iterate_phdr(find_runtime, nullptr);
  Dl_info info;
  *where = dladdr(sym, &info) && info.dli_fname && info.dli_fname[0] ? info.dli_fname
                                                                      : "the program";
  auto init = reinterpret_cast<int (*)(pub::ompt_function_lookup_t, const char*, unsigned)>(sym);
  g_initializing.store(true, std::memory_order_release);
  int ok = init(reinterpret_cast<pub::ompt_function_lookup_t>(&lookup), kRuntimeVersion, 1);
  g_initializing.store(false, std::memory_order_release);
  if (!ok) {
    for (auto& c : g_cb) c.store(nullptr, std::memory_order_relaxed);
    return Outcome::kDeclined;
  }
  g_live.store(true, std::memory_order_release);
  ompt::refresh_barrier_hooked();
  ompt::g_active.store(true, std::memory_order_release);
  atexit(shutdown_at_exit);
  return Outcome::kAccepted;
}

int set_callback(Form who, int e, Fn f) {
  if (e < 1 || e > kLastEvent) return 0;
  // Registration is open from ompt_initialize on, until shutdown.
  if (!g_initializing.load(std::memory_order_acquire) && !live()) return 0;
  if (!claim(who)) return 0;
  g_cb[e].store(f, std::memory_order_release);
  return answer(e);
}

// A plain read (async-signal-safe): the form that registered answers; the
// other form, and either before any registration, finds nothing.
int get_callback(Form who, int e, Fn* f) {
  if (e < 1 || e > kLastEvent || !f || g_form.load(std::memory_order_acquire) != int(who)) return 0;
  *f = g_cb[e].load(std::memory_order_acquire);
  return *f != nullptr;
}

// --- inquiries shared by both forms (async-signal-safe: plain loads) ------------
int state(uint64_t* wait_id) {
  const Thread* me = tls_self;
  int s = me ? me->ompt.state : ompt_state_undefined;
  std::atomic_signal_fence(std::memory_order_acquire);
  uint64_t id = 0;
  int d;
  switch (s) {
    case ompt_state_work_serial: d = pub::ompt_state_work_serial; break;
    case ompt_state_work_parallel: d = pub::ompt_state_work_parallel; break;
    case ompt_state_work_reduction: d = pub::ompt_state_work_reduction; break;
    case ompt_state_idle: d = pub::ompt_state_idle; break;
    case ompt_state_wait_barrier_explicit: d = pub::ompt_state_wait_barrier_explicit; break;
    case ompt_state_wait_taskwait: d = pub::ompt_state_wait_taskwait; break;
    case ompt_state_wait_taskgroup: d = pub::ompt_state_wait_taskgroup; break;
    case ompt_state_wait_mutex:
    case ompt_state_wait_lock:
      d = me->ompt.tr2_nest_wait ? pub::ompt_state_wait_nest_lock : pub::ompt_state_wait_lock;
      break;
    case ompt_state_wait_critical: d = pub::ompt_state_wait_critical; break;
    case ompt_state_wait_atomic: d = pub::ompt_state_wait_atomic; break;
    case ompt_state_wait_ordered: d = pub::ompt_state_wait_ordered; break;
    case ompt_state_undefined: d = pub::ompt_state_undefined; break;
    default:
      // The implicit barriers, and what the drafts predate (target
      // regions and their waits): the runtime's own work.
      d = is_wait_barrier(s) ? pub::ompt_state_wait_barrier_implicit : pub::ompt_state_overhead;
      break;
  }
  if (d >= pub::ompt_state_wait_barrier && d < pub::ompt_state_undefined &&
      d != pub::ompt_state_wait_taskwait && d != pub::ompt_state_wait_taskgroup)
    id = me->ompt.wait_id;
  if (wait_id) *wait_id = id;
  return d;
}

namespace {
struct StateName {
  int value;
  const char* name;
};
const StateName kStates[] = {
    {pub::ompt_state_work_serial, "ompt_state_work_serial"},
    {pub::ompt_state_work_parallel, "ompt_state_work_parallel"},
    {pub::ompt_state_work_reduction, "ompt_state_work_reduction"},
    {pub::ompt_state_idle, "ompt_state_idle"},
    {pub::ompt_state_overhead, "ompt_state_overhead"},
    {pub::ompt_state_wait_barrier_implicit, "ompt_state_wait_barrier_implicit"},
    {pub::ompt_state_wait_barrier_explicit, "ompt_state_wait_barrier_explicit"},
    {pub::ompt_state_wait_taskwait, "ompt_state_wait_taskwait"},
    {pub::ompt_state_wait_taskgroup, "ompt_state_wait_taskgroup"},
    {pub::ompt_state_wait_lock, "ompt_state_wait_lock"},
    {pub::ompt_state_wait_nest_lock, "ompt_state_wait_nest_lock"},
    {pub::ompt_state_wait_critical, "ompt_state_wait_critical"},
    {pub::ompt_state_wait_atomic, "ompt_state_wait_atomic"},
    {pub::ompt_state_wait_ordered, "ompt_state_wait_ordered"},
    {pub::ompt_state_undefined, "ompt_state_undefined"},
};
}  // namespace

// The states Kite answers, in this order from ompt_state_first; 0 after
// the last (or for a value that is not one of them).
int enumerate_state(int current, int* next, const char** name) {
  const size_t n = sizeof kStates / sizeof kStates[0];
  size_t i = 0;
  if (current != pub::ompt_state_first) {
    while (i < n && kStates[i].value != current) ++i;
    if (i == n) return 0;
    ++i;
  }
  if (i >= n) return 0;
  if (next) *next = kStates[i].value;
  if (name) *name = kStates[i].name;
  return 1;
}

// The region `ancestor_level` levels out from the thread's current one;
// none for an idle worker, outside any region, or past the outermost.
const Team* team_at(int ancestor_level) {
  const Thread* me = tls_self;
  if (!me || ancestor_level < 0) return nullptr;
  const Team* t = me->team;
  for (int i = 0; t && i < ancestor_level; ++i) t = t->parent;
  return t;
}

Task* task_at(int depth) {
  const Thread* me = tls_self;
  if (!me || depth < 0) return nullptr;
  Task* t = me->task;
  for (int i = 0; t && i < depth; ++i) t = t->parent;
  return t;
}

// TR2 answers NULL only when "the current thread has no idle frame in its
// call stack", and its worked example shows a worker's idle frame while
// the worker runs an implicit task. A pool worker runs every implicit task
// from inside the loop where it waits for work, so that loop's frame is on
// its stack from thread_begin to thread_end, idle or not; the initial
// thread (and any thread the program made) has none.
void* idle_frame() {
  const Thread* me = tls_self;
  return me && me->is_worker ? me->ompt.tr2_idle_frame : nullptr;
}

// The runtime's own code, [lo, hi): found at activation, so that telling a
// runtime function from the program's is two compares, fit for a signal
// handler.
namespace {
uintptr_t g_runtime_lo, g_runtime_hi;

int find_runtime(struct dl_phdr_info* info, size_t, void*) {
  const uintptr_t self = reinterpret_cast<uintptr_t>(&find_runtime);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr, hi = lo + ph.p_memsz;
    if (self >= lo && self < hi) {
      g_runtime_lo = lo;
      g_runtime_hi = hi;
      return 1;
    }
  }
  return 0;
}

bool in_runtime(uintptr_t fn) { return fn >= g_runtime_lo && fn < g_runtime_hi; }
}  // namespace

void* parallel_function(const Team* team) {
  if (!team) return nullptr;
  auto fn = reinterpret_cast<uintptr_t>(team->fn);
  if ((fn == kite_ompd_kmpc_fork[0] || fn == kite_ompd_kmpc_fork[1]) && team->data) {
    void* program_fn;
    memcpy(&program_fn, static_cast<const char*>(team->data) + kite_ompd_kmpc_fork[2],
           sizeof program_fn);
    return program_fn;
  }
  // A region whose body the program runs itself (clang's if(false)
  // regions): the runtime was given no function.
  if (in_runtime(fn)) return nullptr;
  return reinterpret_cast<void*>(team->fn);
}

void* task_function(const Task* t) {
  if (!t) return nullptr;
  if (t->kind == kTaskImplicit) return parallel_function(t->team);
  if (t->kind != kTaskExplicit) return nullptr;
  if (reinterpret_cast<uintptr_t>(t->rt.fn) == kite_ompd_kmpc_task[0] && t->rt.arg) {
    void* program_fn;
    memcpy(&program_fn, static_cast<const char*>(t->rt.arg) + kite_ompd_kmpc_task[1],
           sizeof program_fn);
    return program_fn;
  }
  return reinterpret_cast<void*>(t->rt.fn);
}

void control(uint64_t command, uint64_t modifier) {
  (void)self();  // a call before any other initializes the runtime (and the tool)
  if (!live()) return;
  if (auto f = cb<pub::ompt_control_callback_t>(kControl)) f(command, modifier);
}

// --- the hooks ------------------------------------------------------------------------
void thread_begin_slow(Thread* t, bool worker, void* cfa) {
  if (!is2013()) t->ompt.thread_data.value = new_id();
  emit_thread(kThreadBegin, t);
  // A worker's caller is the thread's entry routine, which runs the idle
  // loop next: cfa is the canonical frame address of that loop's frame.
  if (worker) {
    t->ompt.tr2_idle_frame = cfa;
    idle_slow(t, true);
  }
}

void thread_end_slow(Thread* t) {
  idle_slow(t, false);
  emit_thread(kThreadEnd, t);
}

// TR2's table of events types initial_task_begin and _end as
// ompt_task_callback_t, `void (*)(ompt_task_id_t task_id)`: the initial
// task's id is the only argument (the initial task belongs to no parallel
// region in TR2's terms). The 2013 proposal has no initial-task events: a
// 2013 tool cannot register these numbers (tr2_2013.cpp), so nothing is
// dispatched for it.
void initial_task_slow(Thread* t, bool begin) {
  if (is2013()) return;
  Task* task = &t->initial_task;
  if (begin) task->ompt.task_data.value = new_id();
  if (auto f = cb<pub::ompt_task_callback_t>(begin ? kInitialTaskBegin : kInitialTaskEnd))
    f(task_id(task));
}

void parallel_slow(Thread* me, Team* team, bool begin) {
  Task* enc = me->task;
  if (is2013()) {
    // parallel_create and parallel_exit share the creation's shape.
    if (auto f = cb<void (*)(ompt_data_t*, pub::ompt_frame_t*, uint64_t)>(
            begin ? kParallelBegin : kParallelEnd))
      f(&enc->ompt.task_data, frame_of(enc), region_id(team));
    return;
  }
  if (!begin) return emit_parallel(kParallelEnd, team, enc);
  if (auto f = cb<pub::ompt_new_parallel_callback_t>(kParallelBegin))
    f(task_id(enc), frame_of(enc), region_id(team), team->ompt.requested,
      parallel_function(team));
}

void implicit_task_slow(Thread* me, Team* team, int tid, bool begin) {
  Task* task = &team->implicit[tid];
  if (begin) {
    idle_slow(me, false);
    if (!is2013()) task->ompt.task_data.value = new_id();
  }
  emit_parallel(begin ? kImplicitTaskBegin : kImplicitTaskEnd, team, task);
}

void idle_slow(Thread* me, bool begin) {
  if (me->ompt.tr2_idle == begin) return;
  me->ompt.tr2_idle = begin;
  emit_thread(begin ? kIdleBegin : kIdleEnd, me);
}

void barrier_slow(Thread* me, bool begin) {
  if (begin) {
    emit_parallel(kBarrierBegin, me->team, me->task);
    emit_parallel(kWaitBarrierBegin, me->team, me->task);
  } else {
    emit_parallel(kWaitBarrierEnd, me->team, me->task);
    emit_parallel(kBarrierEnd, me->team, me->task);
  }
}

void task_create_slow(Thread* me, Task* t) {
  // A taskwait with depend clauses makes a task without a body: the drafts
  // have no such task, only the taskwait.
  if (t->ompt.flags & ompt_task_taskwait) return;
  Task* enc = me->task;
  if (is2013()) {
    if (auto f = cb<void (*)(ompt_data_t*, pub::ompt_frame_t*, ompt_data_t*)>(kTaskBegin))
      f(&enc->ompt.task_data, frame_of(enc), &t->ompt.task_data);
    return;
  }
  t->ompt.task_data.value = new_id();
  if (auto f = cb<pub::ompt_new_task_callback_t>(kTaskBegin))
    f(task_id(enc), frame_of(enc), task_id(t), task_function(t));
}

namespace {
void emit_switch(Task* from, Task* to) {
  Fn f = g_cb[kTaskSwitch].load(std::memory_order_acquire);
  if (!f || !from || !to) return;
  if (is2013())
    return reinterpret_cast<void (*)(ompt_data_t*, ompt_data_t*)>(f)(&from->ompt.task_data,
                                                                     &to->ompt.task_data);
  reinterpret_cast<pub::ompt_task_switch_callback_t>(f)(task_id(from), task_id(to));
}

void emit_task_end(Task* t) {
  Fn f = g_cb[kTaskEnd].load(std::memory_order_acquire);
  if (!f) return;
  if (is2013()) return reinterpret_cast<void (*)(ompt_data_t*)>(f)(&t->ompt.task_data);
  reinterpret_cast<pub::ompt_task_callback_t>(f)(task_id(t));
}
}  // namespace

void task_schedule_slow(Task* prior, int status, Task* next) {
  Thread* me = tls_self;
  switch (status) {
    case ompt_task_switch:
    case ompt_task_yield:
      // Taken up inside a wait: the wait interval ends first.
      wait_interval(me, false);
      emit_switch(prior, next);
      return;
    case ompt_task_complete:
    case ompt_task_cancel:
      emit_task_end(prior);
      emit_switch(prior, next);
      wait_interval(me, true);
      return;
    case ompt_task_detach:
      emit_switch(prior, next);
      wait_interval(me, true);
      return;
    case ompt_task_late_fulfill:
      emit_task_end(prior);
      return;
    default:
      return;
  }
}

void task_sync_slow(Thread* me, int kind, bool begin, bool wait) {
  const bool taskwait = kind == ompt_sync_region_taskwait;
  int e;
  if (wait)
    e = taskwait ? (begin ? kWaitTaskwaitBegin : kWaitTaskwaitEnd)
                 : (begin ? kWaitTaskgroupBegin : kWaitTaskgroupEnd);
  else
    e = taskwait ? (begin ? kTaskwaitBegin : kTaskwaitEnd)
                 : (begin ? kTaskgroupBegin : kTaskgroupEnd);
  emit_parallel(e, me->team, me->task);
}

void mutex_slow(Thread* me, int what, int kind, const void* wait_id) {
  const bool nest = kind == ompt_mutex_nest_lock || kind == ompt_mutex_test_nest_lock;
  const bool lock = kind == ompt_mutex_lock || kind == ompt_mutex_test_lock;
  int e = 0;
  switch (what) {
    case kMutexWait:
      if (nest) me->ompt.tr2_nest_wait = true;
      e = lock ? kWaitLock : nest ? kWaitNestLock : kind == ompt_mutex_critical ? kWaitCritical
          : kind == ompt_mutex_atomic ? kWaitAtomic : kWaitOrdered;
      break;
    case kMutexAcquired:
      me->ompt.tr2_nest_wait = false;
      e = lock ? kAcquiredLock : nest ? kAcquiredNestLockFirst
          : kind == ompt_mutex_critical ? kAcquiredCritical
          : kind == ompt_mutex_atomic ? kAcquiredAtomic : kAcquiredOrdered;
      break;
    case kMutexReleased:
      e = lock ? kReleaseLock : nest ? kReleaseNestLockLast
          : kind == ompt_mutex_critical ? kReleaseCritical
          : kind == ompt_mutex_atomic ? kReleaseAtomic : kReleaseOrdered;
      break;
    case kNestNext:
      me->ompt.tr2_nest_wait = false;
      e = kAcquiredNestLockNext;
      break;
    case kNestPrev: e = kReleaseNestLockPrev; break;
    case kLockInit: e = nest ? kInitNestLock : kInitLock; break;
    case kLockDestroy: e = nest ? kDestroyNestLock : kDestroyLock; break;
  }
  if (e) emit_wait(e, wait_id);
}

void work_slow(Thread* me, int work, bool begin, const void* codeptr_ra) {
  int e;
  switch (work) {
    case ompt_work_loop:
    case ompt_work_loop_static:
    case ompt_work_loop_dynamic:
    case ompt_work_loop_guided:
    case ompt_work_loop_other:
      e = begin ? kLoopBegin : kLoopEnd;
      break;
    case ompt_work_sections: e = begin ? kSectionsBegin : kSectionsEnd; break;
    case ompt_work_single_executor: e = begin ? kSingleInBlockBegin : kSingleInBlockEnd; break;
    case ompt_work_single_other: e = begin ? kSingleOthersBegin : kSingleOthersEnd; break;
    case ompt_work_workshare: e = begin ? kWorkshareBegin : kWorkshareEnd; break;
    default: return;  // distribute, taskloop, scope: after the drafts
  }
  // The begin of a loop, sections or single block passes what TR2 calls
  // the workshare function: no function is outlined for them, so Kite
  // passes the construct's return address into the program.
  if (begin && e != kSingleOthersBegin && !is2013()) {
    if (auto f = cb<pub::ompt_new_workshare_callback_t>(e))
      f(region_id(me->team), task_id(me->task), const_cast<void*>(codeptr_ra));
    return;
  }
  emit_parallel(e, me->team, me->task);
}

void master_slow(Thread* me, bool begin) {
  emit_parallel(begin ? kMasterBegin : kMasterEnd, me->team, me->task);
}

void flush_slow(Thread* me) { emit_thread(kFlush, me); }

}  // namespace tr2
}  // namespace kite

// TR2 and the 2013 proposal: a global function of the runtime.
extern "C" KITE_EXPORT void ompt_control(uint64_t command, uint64_t modifier) {
  kite::tr2::control(command, modifier);
}
