// libkite-trace.so: the in-process half of `kite trace`. An OMPT tool (the
// public interface only, so it records LLVM's libomp as well as Kite) that
// appends one fixed-size record per event to the calling thread's own file.
//
// Each thread writes into a window of its file mapped MAP_SHARED: a record
// is a few plain stores, with no lock and no allocation; a full window is
// unmapped (the kernel writes it back) and the next one mapped, so memory
// per thread stays at one window (KITE_TRACE_BUFFER, default 4 MiB). What a
// thread stored is in the page cache at once: if the program crashes, calls
// _exit or abort, every event recorded so far is in the file and converts.
// Names, file:line and formats are the converter's job, after the program.
//
// Environment (set by `kite trace`):
//   KITE_TRACE_DIR     directory for the raw files (required; must exist)
//   KITE_TRACE_EVENTS  groups: parallel,work,dispatch,tasks,sync,mutex,target
//                      or all / default (all but dispatch)
//   KITE_TRACE_BUFFER  window size per thread: bytes, or with K/M suffix
//   OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID, ...: the MPI rank, which
//                      names the files (one trace per rank, same directory)
#include <omp-tools.h>

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace_format.h"

namespace kite_trace {
namespace {

struct ThreadBuf {
  Record *cur = nullptr;
  Record *end = nullptr;
  Record *base = nullptr;
  uint64_t window_index = 0;
  uint64_t next_id = 1;
  uint32_t index = 0;
  int fd = -1;
  bool broken = false;  // the file could not be grown: events are dropped
};

char dir[4096];
char stem[128];
pid_t stem_pid;
size_t window_bytes = 4u << 20;
unsigned groups = kGroupDefault;
std::atomic<uint32_t> thread_count{0};
std::atomic<uint64_t> dropped{0};
const char *runtime_name = "";
bool active;

thread_local ThreadBuf *self_buf;
thread_local bool making_buf;

void warn(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kite trace: %s\n", line);
}

inline uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

const char *rank_from_env() {
  static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                      "MV2_COMM_WORLD_RANK", "SLURM_PROCID", "KITE_TRACE_RANK"};
  for (const char *n : names) {
    const char *v = getenv(n);
    if (v && *v) return v;
  }
  return nullptr;
}

// Names this process's files: rank<R>.pid<P> under a launcher, pid<P> else.
// A forked child gets its own stem (its pid) the first time it records.
void make_stem() {
  stem_pid = getpid();
  const char *rank = rank_from_env();
  if (rank)
    snprintf(stem, sizeof stem, "rank%s.pid%d", rank, int(stem_pid));
  else
    snprintf(stem, sizeof stem, "pid%d", int(stem_pid));
}

bool copy_file(const char *from, const char *to) {
  int in = open(from, O_RDONLY | O_CLOEXEC);
  if (in < 0) return false;
  char tmp[4608];
  snprintf(tmp, sizeof tmp, "%s.tmp", to);
  int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    close(in);
    return false;
  }
  char chunk[8192];
  ssize_t n;
  bool ok = true;
  while ((n = read(in, chunk, sizeof chunk)) > 0)
    if (write(out, chunk, size_t(n)) != n) ok = false;
  close(in);
  close(out);
  return ok && rename(tmp, to) == 0;
}

void write_maps() {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s.maps", dir, stem);
  if (!copy_file("/proc/self/maps", path)) warn("cannot write %s: %s", path, strerror(errno));
}

void append_meta(const char *fmt, ...) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s.meta", dir, stem);
  FILE *f = fopen(path, "ae");
  if (!f) {
    warn("cannot write %s: %s", path, strerror(errno));
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
  fclose(f);
}

void write_process_meta() {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  const char *rank = rank_from_env();
  append_meta("format=%u\npid=%d\nrank=%s\nexe=%s\nruntime=%s\nevents=%u\nstart_ns=%llu\n"
              "start_realtime_ns=%llu\nbuffer_bytes=%zu\n",
              kVersion, int(getpid()), rank ? rank : "", exe, runtime_name, groups,
              (unsigned long long)now_ns(),
              (unsigned long long)(uint64_t(rt.tv_sec) * 1000000000u + uint64_t(rt.tv_nsec)),
              window_bytes);
  write_maps();
}

bool map_window(ThreadBuf *b) {
  off_t offset = off_t(b->window_index * window_bytes);
  if (ftruncate(b->fd, offset + off_t(window_bytes)) != 0) return false;
  void *p = mmap(nullptr, window_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, offset);
  if (p == MAP_FAILED) return false;
  b->base = b->cur = static_cast<Record *>(p);
  b->end = b->base + window_bytes / sizeof(Record);
  return true;
}

ThreadBuf *make_buf() {
  if (making_buf) return nullptr;
  making_buf = true;
  if (stem_pid != getpid()) {  // first event of a forked child
    make_stem();
    write_process_meta();
  }
  auto *b = static_cast<ThreadBuf *>(calloc(1, sizeof(ThreadBuf)));
  ThreadBuf *result = nullptr;
  if (b) {
    b->index = thread_count.fetch_add(1, std::memory_order_relaxed);
    b->next_id = 1;
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.thread-%u.raw", dir, stem, b->index);
    b->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (b->fd >= 0 && map_window(b)) {
      Record *h = b->cur++;
      h->time = now_ns();
      h->kind = kHeader;
      h->u32 = kMagic;
      h->a = b->index;
      h->b = uint64_t(syscall(SYS_gettid));
      h->c = kVersion;
      result = b;
    } else {
      warn("cannot record thread %u into %s: %s", b->index, path, strerror(errno));
      if (b->fd >= 0) close(b->fd);
      free(b);
    }
  }
  self_buf = result;
  making_buf = false;
  return result;
}

// Out of line: the window is full. One munmap + ftruncate + mmap per
// window, never per event.
__attribute__((noinline)) Record *next_window(ThreadBuf *b) {
  if (b->broken) return nullptr;
  munmap(b->base, window_bytes);
  b->base = b->cur = b->end = nullptr;
  b->window_index++;
  if (!map_window(b)) {
    b->broken = true;
    warn("thread %u: cannot grow its trace file (%s); later events of this thread are dropped",
         b->index, strerror(errno));
    return nullptr;
  }
  return b->cur++;
}

// A zeroed record with its time; the caller fills it and stores the kind
// last (a window is fresh file space, all zeros).
inline Record *slot() {
  ThreadBuf *b = self_buf;
  if (__builtin_expect(!b, 0)) {
    b = make_buf();
    if (!b) {
      dropped.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
  }
  Record *r = b->cur;
  if (__builtin_expect(r != b->end, 1))
    b->cur = r + 1;
  else if (!(r = next_window(b))) {
    dropped.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  r->time = now_ns();
  return r;
}

inline uint64_t new_id() {
  ThreadBuf *b = self_buf;
  if (!b && !(b = make_buf())) return 0;
  return (uint64_t(b->index) << kIdThreadShift) | b->next_id++;
}

inline uint64_t idof(const ompt_data_t *d) { return d ? d->value : 0; }
inline uint64_t ra(const void *p) { return reinterpret_cast<uint64_t>(p); }

// Stores the fields, then the kind last: a record the converter sees with
// a kind is whole (a crash between the stores leaves kind 0, which ends the
// file there).
#define KT_RECORD(KIND, ...)                      \
  do {                                            \
    Record *r_ = slot();                      \
    if (r_) {                                     \
      __VA_ARGS__;                                \
      __atomic_store_n(&r_->kind, uint8_t(KIND), __ATOMIC_RELEASE); \
    }                                             \
  } while (0)

void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data) {
  KT_RECORD(kThreadBegin, r_->sub = uint8_t(type));
  if (thread_data && self_buf) thread_data->value = self_buf->index;
}
void on_thread_end(ompt_data_t *) { KT_RECORD(kThreadEnd, (void)0); }

void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *, ompt_data_t *parallel,
                       unsigned requested, int flags, const void *codeptr) {
  uint64_t id = new_id();
  if (parallel) parallel->value = id;
  KT_RECORD(kParallelBegin, r_->a = id; r_->b = idof(task); r_->u32 = requested;
            r_->d = unsigned(flags); r_->c = ra(codeptr));
}
void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task, int flags, const void *codeptr) {
  KT_RECORD(kParallelEnd, r_->a = idof(parallel); r_->b = idof(task); r_->d = unsigned(flags);
            r_->c = ra(codeptr));
}
void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
                      unsigned parallelism, unsigned index, int flags) {
  if (endpoint == ompt_scope_begin && task) task->value = new_id();
  KT_RECORD(kImplicitTask, r_->sub = uint8_t(endpoint); r_->a = idof(parallel);
            r_->b = idof(task); r_->u32 = parallelism; r_->d = index;
            r_->f16 = (flags & ompt_task_initial) ? 1 : 0);
}
void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
             ompt_data_t *task, uint64_t count, const void *codeptr) {
  KT_RECORD(kWork, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(type);
            r_->a = idof(parallel); r_->b = idof(task); r_->d = count; r_->c = ra(codeptr));
}
void on_dispatch(ompt_data_t *, ompt_data_t *task, ompt_dispatch_t kind, ompt_data_t instance) {
  uint64_t start = instance.value, iterations = 0;
  if (kind == ompt_dispatch_ws_loop_chunk || kind == ompt_dispatch_taskloop_chunk ||
      kind == ompt_dispatch_distribute_chunk) {
    const auto *chunk = static_cast<const ompt_dispatch_chunk_t *>(instance.ptr);
    if (chunk) {
      start = chunk->start;
      iterations = chunk->iterations;
    }
  }
  KT_RECORD(kDispatch, r_->sub = uint8_t(kind); r_->b = idof(task); r_->a = start;
            r_->d = iterations);
}
void on_sync(uint8_t kind, ompt_sync_region_t region, ompt_scope_endpoint_t endpoint,
             ompt_data_t *parallel, ompt_data_t *task, const void *codeptr) {
  KT_RECORD(kind, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(region);
            r_->a = idof(parallel); r_->b = idof(task); r_->c = ra(codeptr));
}
void on_sync_region(ompt_sync_region_t k, ompt_scope_endpoint_t e, ompt_data_t *p,
                    ompt_data_t *t, const void *c) {
  on_sync(kSyncRegion, k, e, p, t, c);
}
void on_sync_wait(ompt_sync_region_t k, ompt_scope_endpoint_t e, ompt_data_t *p, ompt_data_t *t,
                  const void *c) {
  on_sync(kSyncWait, k, e, p, t, c);
}
void on_reduction(ompt_sync_region_t k, ompt_scope_endpoint_t e, ompt_data_t *p, ompt_data_t *t,
                  const void *c) {
  on_sync(kReduction, k, e, p, t, c);
}
void on_task_create(ompt_data_t *parent, const ompt_frame_t *, ompt_data_t *task, int flags,
                    int has_dependences, const void *codeptr) {
  uint64_t id = new_id();
  if (task) task->value = id;
  KT_RECORD(kTaskCreate, r_->a = id; r_->b = idof(parent); r_->u32 = unsigned(flags);
            r_->sub = has_dependences ? 1 : 0; r_->c = ra(codeptr));
}
void on_task_schedule(ompt_data_t *prior, ompt_task_status_t status, ompt_data_t *next) {
  KT_RECORD(kTaskSchedule, r_->a = idof(prior); r_->sub = uint8_t(status); r_->b = idof(next));
}
void on_task_dependence(ompt_data_t *src, ompt_data_t *sink) {
  KT_RECORD(kTaskDependence, r_->a = idof(src); r_->b = idof(sink));
}
void on_mutex_acquire(ompt_mutex_t kind, unsigned hint, unsigned, ompt_wait_id_t wait_id,
                      const void *codeptr) {
  KT_RECORD(kMutexAcquire, r_->f16 = uint16_t(kind); r_->a = wait_id; r_->u32 = hint;
            r_->c = ra(codeptr));
}
void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  KT_RECORD(kMutexAcquired, r_->f16 = uint16_t(kind); r_->a = wait_id; r_->c = ra(codeptr));
}
void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr) {
  KT_RECORD(kMutexReleased, r_->f16 = uint16_t(kind); r_->a = wait_id; r_->c = ra(codeptr));
}
void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void *codeptr) {
  KT_RECORD(kNestLock, r_->sub = uint8_t(endpoint); r_->a = wait_id; r_->c = ra(codeptr));
}
void on_cancel(ompt_data_t *task, int flags, const void *codeptr) {
  KT_RECORD(kCancel, r_->u32 = unsigned(flags); r_->b = idof(task); r_->c = ra(codeptr));
}
void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
               const void *codeptr) {
  KT_RECORD(kMasked, r_->sub = uint8_t(endpoint); r_->a = idof(parallel); r_->b = idof(task);
            r_->c = ra(codeptr));
}
void on_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device,
                   ompt_data_t *task, ompt_data_t *target_task, ompt_data_t *target,
                   const void *codeptr) {
  if (endpoint == ompt_scope_begin && target) target->value = new_id();
  (void)target_task;
  KT_RECORD(kTarget, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(kind);
            r_->u32 = unsigned(device); r_->a = idof(target); r_->b = idof(task);
            r_->c = ra(codeptr));
}
void on_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device, ompt_data_t *task,
               ompt_id_t target_id, const void *codeptr) {
  KT_RECORD(kTarget, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(kind);
            r_->u32 = unsigned(device); r_->a = target_id; r_->b = idof(task);
            r_->c = ra(codeptr));
}
void on_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *, ompt_data_t *target,
                           ompt_id_t *, ompt_target_data_op_t optype, void *, int, void *,
                           int dest_device, size_t bytes, const void *codeptr) {
  KT_RECORD(kTargetDataOp, r_->sub = uint8_t(endpoint); r_->f16 = uint16_t(optype);
            r_->u32 = unsigned(dest_device); r_->a = idof(target); r_->d = bytes;
            r_->c = ra(codeptr));
}
void on_target_data_op(ompt_id_t target_id, ompt_id_t, ompt_target_data_op_t optype, void *, int,
                       void *, int dest_device, size_t bytes, const void *codeptr) {
  KT_RECORD(kTargetDataOp, r_->sub = uint8_t(ompt_scope_beginend); r_->f16 = uint16_t(optype);
            r_->u32 = unsigned(dest_device); r_->a = target_id; r_->d = bytes;
            r_->c = ra(codeptr));
}

unsigned parse_groups(const char *s) {
  if (!s || !*s || !strcmp(s, "default")) return kGroupDefault;
  unsigned g = 0;
  char copy[512];
  snprintf(copy, sizeof copy, "%s", s);
  char *save = nullptr;
  for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(nullptr, ",", &save)) {
    static const struct {
      const char *name;
      unsigned bits;
    } table[] = {{"parallel", kGroupParallel}, {"work", kGroupWork},
                 {"dispatch", kGroupDispatch}, {"tasks", kGroupTasks},
                 {"sync", kGroupSync},         {"mutex", kGroupMutex},
                 {"target", kGroupTarget},     {"default", kGroupDefault},
                 {"all", kGroupDefault | kGroupDispatch}};
    bool known = false;
    for (const auto &e : table)
      if (!strcmp(t, e.name)) {
        g |= e.bits;
        known = true;
      }
    if (!known) warn("KITE_TRACE_EVENTS: unknown group '%s' ignored", t);
  }
  return g ? g : kGroupDefault;
}

size_t parse_size(const char *s) {
  if (!s || !*s) return 4u << 20;
  char *end = nullptr;
  unsigned long long v = strtoull(s, &end, 10);
  if (end && (*end == 'k' || *end == 'K')) v <<= 10, ++end;
  else if (end && (*end == 'm' || *end == 'M')) v <<= 20, ++end;
  long page = sysconf(_SC_PAGESIZE);
  if (!end || *end || v < 64 * 1024 || v > (1ull << 30)) {
    warn("KITE_TRACE_BUFFER=%s is not a size between 64K and 1024M; using 4M", s);
    return 4u << 20;
  }
  return size_t(v) / size_t(page) * size_t(page);
}

// A forked child has only the forking thread, whose window is shared with
// the parent's file: drop it; the child records into files of its own pid.
void atfork_child() {
  if (ThreadBuf *b = self_buf) {
    munmap(b->base, window_bytes);
    close(b->fd);
    self_buf = nullptr;
  }
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t *) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set_callback) return 0;
  auto reg = [&](ompt_callbacks_t which, void (*fn)()) {
    return set_callback(which, reinterpret_cast<ompt_callback_t>(fn));
  };
#define KT_REG(WHICH, FN) reg(WHICH, reinterpret_cast<void (*)()>(FN))
  // Thread records name the tracks; always on.
  KT_REG(ompt_callback_thread_begin, on_thread_begin);
  KT_REG(ompt_callback_thread_end, on_thread_end);
  if (groups & (kGroupParallel | kGroupTasks)) {
    KT_REG(ompt_callback_parallel_begin, on_parallel_begin);
    KT_REG(ompt_callback_parallel_end, on_parallel_end);
    KT_REG(ompt_callback_implicit_task, on_implicit_task);
  }
  if (groups & kGroupWork) {
    KT_REG(ompt_callback_work, on_work);
    KT_REG(ompt_callback_masked, on_masked);
  }
  if (groups & kGroupDispatch) KT_REG(ompt_callback_dispatch, on_dispatch);
  if (groups & kGroupTasks) {
    KT_REG(ompt_callback_task_create, on_task_create);
    KT_REG(ompt_callback_task_schedule, on_task_schedule);
    KT_REG(ompt_callback_task_dependence, on_task_dependence);
  }
  if (groups & kGroupSync) {
    KT_REG(ompt_callback_sync_region, on_sync_region);
    KT_REG(ompt_callback_sync_region_wait, on_sync_wait);
    KT_REG(ompt_callback_reduction, on_reduction);
    KT_REG(ompt_callback_cancel, on_cancel);
  }
  if (groups & kGroupMutex) {
    KT_REG(ompt_callback_mutex_acquire, on_mutex_acquire);
    KT_REG(ompt_callback_mutex_acquired, on_mutex_acquired);
    KT_REG(ompt_callback_mutex_released, on_mutex_released);
    KT_REG(ompt_callback_nest_lock, on_nest_lock);
  }
  if (groups & kGroupTarget) {
    if (KT_REG(ompt_callback_target_emi, on_target_emi) == ompt_set_never)
      KT_REG(ompt_callback_target, on_target);
    if (KT_REG(ompt_callback_target_data_op_emi, on_target_data_op_emi) == ompt_set_never)
      KT_REG(ompt_callback_target_data_op, on_target_data_op);
  }
#undef KT_REG
  // The runtime's own file: a codeptr_ra inside it (a construct whose
  // runtime call the compiler made a tail call) is attributed by the
  // converter to the enclosing construct.
  Dl_info info;
  char real[4096];
  if (dladdr(reinterpret_cast<void *>(set_callback), &info) && info.dli_fname &&
      realpath(info.dli_fname, real))  // as the memory map names it
    append_meta("runtime_module=%s\n", real);
  pthread_atfork(nullptr, nullptr, atfork_child);
  active = true;
  return 1;
}

void finalize(ompt_data_t *) {
  if (!active) return;
  active = false;
  if (stem_pid != getpid()) return;  // a forked child that never recorded
  write_maps();  // libraries loaded since the start are in it now
  append_meta("end_ns=%llu\nthreads=%u\ndropped=%llu\n", (unsigned long long)now_ns(),
              thread_count.load(), (unsigned long long)dropped.load());
}

}  // namespace
}  // namespace kite_trace

extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t *ompt_start_tool(
    unsigned int, const char *runtime_version) {
  using namespace kite_trace;
  const char *d = getenv("KITE_TRACE_DIR");
  if (!d || !*d) {
    warn("KITE_TRACE_DIR is not set; not recording (run the program with `kite trace`)");
    return nullptr;
  }
  if (access(d, W_OK) != 0) {
    warn("cannot write into KITE_TRACE_DIR=%s: %s; not recording", d, strerror(errno));
    return nullptr;
  }
  snprintf(dir, sizeof dir, "%s", d);
  groups = parse_groups(getenv("KITE_TRACE_EVENTS"));
  window_bytes = parse_size(getenv("KITE_TRACE_BUFFER"));
  runtime_name = runtime_version ? runtime_version : "";
  if (strchr(runtime_name, '\n')) runtime_name = "unknown";
  make_stem();
  write_process_meta();
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}
