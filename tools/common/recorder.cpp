#include "recorder.h"

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/futex.h>
#include <new>
#include <csignal>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace kite_rec {

// Side by side: stamp() reads both on the ns clock.
__attribute__((aligned(16))) bool use_tsc;
int64_t clock_skew_ns;
__thread Cursor *tls_cursors __attribute__((tls_model("initial-exec")));
__thread uint64_t tls_next_id __attribute__((tls_model("initial-exec")));

namespace {

uint64_t tsc_start, ns_start;
double tsc_per_ns = 1.0;

bool invariant_tsc() {
  FILE *f = fopen("/proc/cpuinfo", "re");
  if (!f) return false;
  char line[4096];
  bool constant = false, nonstop = false;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "flags", 5) != 0) continue;
    constant = strstr(line, " constant_tsc") != nullptr;
    nonstop = strstr(line, " nonstop_tsc") != nullptr;
    break;
  }
  fclose(f);
  return constant && nonstop;
}

// One (CLOCK_MONOTONIC ns, TSC) pair: of a few reads ns, tsc, ns the one
// whose two ns reads lie closest (no preemption, no page fault between),
// its ns the midpoint. Processes of one machine map their stamps through
// their own pairs: a pair read with a pause inside put one process's times
// hundreds of ns off another's (a message received "before" it was sent).
void clock_pair(uint64_t &ns, uint64_t &tsc) {
  uint64_t best = ~uint64_t(0);
  for (int i = 0; i < 16; ++i) {
    uint64_t a = now_ns(), t = __rdtsc(), b = now_ns();
    if (b - a < best) {
      best = b - a;
      ns = a + (b - a) / 2;
      tsc = t;
    }
  }
}

// Chooses the clock and measures the TSC's rate against CLOCK_MONOTONIC
// over 2 ms (what a trace cut short by a crash uses; finish() records a
// second pair that spans the whole run).
void choose_clock() {
  const char *want = getenv("KITE_CLOCK");
  use_tsc = !(want && !strcmp(want, "monotonic")) && invariant_tsc();
  if (!use_tsc) {
    append_meta("clock=ns\n");
    return;
  }
  clock_pair(ns_start, tsc_start);
  uint64_t ns1, tsc1;
  do {
    ns1 = now_ns();
  } while (ns1 - ns_start < 2000000);
  clock_pair(ns1, tsc1);
  double hz = double(tsc1 - tsc_start) * 1e9 / double(ns1 - ns_start);
  tsc_per_ns = hz / 1e9;
  append_meta("clock=tsc\ntsc_start=%llu\nns_start=%llu\ntsc_hz=%.0f\n",
              (unsigned long long)tsc_start, (unsigned long long)ns_start, hz);
}

using kite_trace::kHeader;
using kite_trace::kIdThreadShift;
using kite_trace::kMagic;
using kite_trace::kPad;
using kite_trace::kVersion;

// A stream's records go to its file in windows of window_bytes, through a
// tail: a small file beside it (<file>.tail), mapped MAP_SHARED once and
// reused, that holds a ring of kSlots windows. The thread stores into one
// slot; when it is full the slot is handed to the writer thread, which
// copies it into the file with pwrite() at its window's offset and zeroes
// it, while the thread goes on in the next slot. A page of the tail is
// faulted in once (and populated when the stream opens), not once per
// window: the event path is a few stores into memory the thread touched
// before. (Issue 23: with one fresh MAP_SHARED mapping per window, the
// first touch of each page cost 35-40 ns of the ~66 ns an event cost.) If
// the next slot is not written yet (the writer is behind, or descheduled),
// the thread writes its full slot itself: it never waits and never drops.
//
// What a crash loses: nothing stored. The tail is a file, so after a crash,
// abort, _exit or SIGKILL every record not yet copied is still in it; the
// first reader of the file (reader.h, salvage_tail) copies the tail's
// windows into the file and removes the tail. A normal end (finish())
// writes every slot itself and removes the tail.
constexpr unsigned kSlots = 4;

struct TailControl {  // the tail's first page (reader.h salvage_tail reads it)
  uint64_t magic;
  uint64_t window_bytes;
  uint64_t slots;
  uint64_t window[kSlots];  // 1 + the window index a slot holds (0: none yet)
};

enum SlotState : uint32_t { kFree = 0, kFull, kWriting };

struct Window {
  Cursor *pos = nullptr;   // its thread's cursor (recorder.h) into the slot being filled
  Record *base = nullptr;  // the slot being filled
  uint64_t index = 0;      // its window index
  unsigned slot = 0;
  int fd = -1;
  std::atomic<bool> broken{false};  // the file cannot be written: records are dropped
  bool over_limit = false;  // stopped by --max-size, not by an error (its thread only)
  TailControl *ctl = nullptr;
  char *slots = nullptr;  // the tail's windows
  std::atomic<uint32_t> state[kSlots] = {};
  uint64_t full_index[kSlots] = {};  // the window index of a kFull slot
  Window *next_open = nullptr;       // every open stream of the process
  char tail_path[4406];
};

struct ThreadFiles {
  Cursor cursor[kStreamCount];  // tls_cursors of its thread
  Window stream[kStreamCount];
  uint32_t index = 0;
};

char tool_name[32] = "kite";
char dir[4096];
char stem[128];
pid_t stem_pid;
size_t buffer_bytes = kDefaultBufferBytes;  // per stream: the ring
size_t window_bytes = kDefaultBufferBytes / kSlots;
const char *runtime_name = "";
std::atomic<uint32_t> thread_count{0};
std::atomic<uint64_t> dropped_records{0};
// --max-size (set_max_bytes): no window is begun past it, counting every
// thread's files; what comes after is counted, not recorded.
uint64_t max_bytes;  // 0: no limit
std::atomic<uint64_t> mapped_bytes{0};
std::atomic<uint64_t> over_limit_records{0};

// Initial-exec: a plain %fs-relative load on every record instead of a call
// to __tls_get_addr (the libraries are dlopen'ed by the runtime; glibc keeps
// static TLS room for a few such words).
#define KITE_REC_TLS __attribute__((tls_model("initial-exec"))) thread_local
KITE_REC_TLS ThreadFiles *self;  // and tls_cursors = self->cursor
KITE_REC_TLS bool making;

const char *rank_from_env() {
  static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                      "MV2_COMM_WORLD_RANK", "SLURM_PROCID", "KITE_TRACE_RANK"};
  for (const char *n : names) {
    const char *v = getenv(n);
    if (v && *v) return v;
  }
  return nullptr;
}

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

// The boot id: processes on one machine, in one boot, share
// CLOCK_MONOTONIC. An injected skew makes the clock one of its own.
void write_clock_domain() {
  char id[64] = "unknown";
  if (FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re")) {
    if (!fgets(id, sizeof id, f)) snprintf(id, sizeof id, "unknown");
    fclose(f);
    id[strcspn(id, "\n")] = 0;
  }
  if (clock_skew_ns)
    append_meta("clock_domain=%s+skew%lld\n", id, (long long)clock_skew_ns);
  else
    append_meta("clock_domain=%s\n", id);
}

// KITE_TEST_CLOCK_SKEW_NS (recorder.h): a signed decimal number of ns.
void read_clock_skew() {
  const char *v = getenv("KITE_TEST_CLOCK_SKEW_NS");
  if (!v || !*v) return;
  char *end = nullptr;
  errno = 0;
  long long ns = strtoll(v, &end, 10);
  if (errno || !end || *end || end == v) {
    warn("KITE_TEST_CLOCK_SKEW_NS=%s is not a signed number of ns; using 0", v);
    return;
  }
  clock_skew_ns = ns;
}

void write_process_meta() {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  const char *rank = rank_from_env();
  append_meta("format=%u\npid=%d\nrank=%s\nexe=%s\nruntime=%s\nstart_ns=%llu\n"
              "start_realtime_ns=%llu\nbuffer_bytes=%zu\nwindow_bytes=%zu\n",
              kVersion, int(getpid()), rank ? rank : "", exe, runtime_name,
              (unsigned long long)now_ns(),
              (unsigned long long)(uint64_t(rt.tv_sec) * 1000000000u + uint64_t(rt.tv_nsec)),
              buffer_bytes, window_bytes);
  write_clock_domain();
  write_maps();
}

constexpr size_t kTailControlBytes = 4096;
static_assert(sizeof(TailControl) <= kTailControlBytes, "tail control page");

size_t tail_bytes() { return kTailControlBytes + kSlots * window_bytes; }

Record *slot_base(Window *w, unsigned k) {
  return reinterpret_cast<Record *>(w->slots + size_t(k) * window_bytes);
}

std::atomic<bool> started{false};   // start() succeeded: the external entry points record
std::atomic<bool> finished{false};  // finish() wrote the windows: later records are dropped

// Every open stream, newest first (the writer's and finish()'s list).
std::atomic<Window *> open_streams{nullptr};

// The writer thread: it sleeps on `work` (a futex word bumped by every
// hand-off) while nothing is full.
std::atomic<uint32_t> work{0};
std::atomic<bool> writer_sleeping{false};
std::atomic<bool> writer_stop{false};
// Whether this process's writer runs: false in a forked child (atfork_child)
// until its first thread files start one.
std::atomic<bool> writer_running{false};
pthread_t writer;

long futex(std::atomic<uint32_t> *word, int op, uint32_t value) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), op, value, nullptr, nullptr, 0);
}

// Copies a full window into the file at its offset. False on a write error
// (the file system is full or gone).
bool write_window(Window *w, const Record *data, uint64_t index) {
  const char *p = reinterpret_cast<const char *>(data);
  size_t left = window_bytes;
  off_t at = off_t(index * window_bytes);
  while (left) {
    ssize_t n = pwrite(w->fd, p, left, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n, at += n, left -= size_t(n);
  }
  return true;
}

std::atomic<bool> write_error_said{false};
void say_write_error(Window *w) {
  if (!write_error_said.exchange(true))
    warn("cannot write %.*s (%s); later records of its thread are dropped",
         int(strlen(w->tail_path) - 5), w->tail_path, strerror(errno));
}

// The writer's pass: every full slot written and zeroed. True if it wrote.
bool write_full_slots() {
  bool wrote = false;
  for (Window *w = open_streams.load(std::memory_order_acquire); w; w = w->next_open)
    for (unsigned k = 0; k < kSlots; ++k) {
      uint32_t expect = kFull;
      if (!w->state[k].compare_exchange_strong(expect, kWriting, std::memory_order_acquire))
        continue;
      if (!write_window(w, slot_base(w, k), w->full_index[k])) {
        say_write_error(w);
        w->broken.store(true, std::memory_order_relaxed);  // its thread stops at its next window
      }
      memset(slot_base(w, k), 0, window_bytes);
      w->state[k].store(kFree, std::memory_order_release);
      wrote = true;
    }
  return wrote;
}

void *writer_main(void *) {
  while (!writer_stop.load(std::memory_order_acquire)) {
    uint32_t seen = work.load(std::memory_order_seq_cst);
    if (write_full_slots()) continue;
    writer_sleeping.store(true, std::memory_order_seq_cst);
    if (work.load(std::memory_order_seq_cst) == seen && !writer_stop.load())
      futex(&work, FUTEX_WAIT_PRIVATE, seen);
    writer_sleeping.store(false, std::memory_order_relaxed);
  }
  return nullptr;
}

void wake_writer() {
  work.fetch_add(1, std::memory_order_seq_cst);
  if (writer_sleeping.load(std::memory_order_seq_cst)) futex(&work, FUTEX_WAKE_PRIVATE, 1);
}

// Starts this process's writer thread, with every signal blocked (a
// profiling timer's signal must reach the program's threads, not it).
void start_writer() {
  static std::atomic<bool> starting{false};
  if (writer_running.load() || finished.load() || starting.exchange(true)) return;
  writer_stop.store(false);
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  if (pthread_create(&writer, nullptr, writer_main, nullptr) == 0)
    writer_running.store(true);
  else  // every thread writes its own windows
    warn("no writer thread (%s); threads write their full windows themselves", strerror(errno));
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  starting.store(false);
}

// Starts filling slot k as window `index`.
void begin_slot(Window *w, unsigned k, uint64_t index) {
  w->slot = k;
  w->index = index;
  w->ctl->window[k] = index + 1;
  w->base = w->pos->cur = slot_base(w, k);
  w->pos->end = w->base + window_bytes / sizeof(Record);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

bool open_stream(ThreadFiles *t, Stream s) {
  Window *w = &t->stream[s];
  char path[4400];
  snprintf(path, sizeof path, "%s/%s.thread-%u%s.raw", dir, stem, t->index,
           s == kSamples ? ".samples" : "");
  snprintf(w->tail_path, sizeof w->tail_path, "%s.tail", path);
  w->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int tail = w->fd < 0 ? -1 : open(w->tail_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  void *map = MAP_FAILED;
  if (tail >= 0 && ftruncate(tail, off_t(tail_bytes())) == 0)
    map = mmap(nullptr, tail_bytes(), PROT_READ | PROT_WRITE, MAP_SHARED, tail, 0);
  if (tail >= 0) close(tail);  // the mapping keeps the file
  if (map == MAP_FAILED) {
    warn("cannot record thread %u into %s: %s", t->index, path, strerror(errno));
    if (w->fd >= 0) close(w->fd);
    unlink(w->tail_path);
    w->fd = -1;
    w->broken.store(true);
    return false;
  }
  // The pages of the tail at once, rather than one fault per page on the
  // event path (an older kernel says EINVAL: the pages fault in as used);
  // of a large buffer only the first window: the others fault in once, on
  // the ring's first round.
  madvise(map, tail_bytes() <= (16u << 20) ? tail_bytes() : kTailControlBytes + window_bytes,
          MADV_POPULATE_WRITE);
  w->ctl = static_cast<TailControl *>(map);
  w->slots = static_cast<char *>(map) + kTailControlBytes;
  w->ctl->magic = kMagic;
  w->ctl->window_bytes = window_bytes;
  w->ctl->slots = kSlots;
  begin_slot(w, 0, 0);
  Record *h = w->pos->cur++;
  h->time = stamp();
  h->u32 = kMagic;
  h->a = t->index;
  h->b = uint64_t(syscall(SYS_gettid));
  h->c = kVersion;
  h->kind = kHeader;
  Window *head = open_streams.load(std::memory_order_relaxed);
  do w->next_open = head;
  while (!open_streams.compare_exchange_weak(head, w, std::memory_order_release));
  return true;
}

// The calling thread's files (the event stream at least).
ThreadFiles *make_files(bool all_streams) {
  if (making) return nullptr;
  making = true;
  if (stem_pid != getpid()) {  // first record of a forked child
    make_stem();
    write_process_meta();
  }
  start_writer();
  ThreadFiles *t = self;
  if (!t) {
    t = static_cast<ThreadFiles *>(calloc(1, sizeof(ThreadFiles)));
    if (t) {
      for (int k = 0; k < kStreamCount; ++k) {
        new (&t->cursor[k]) Cursor();
        new (&t->stream[k]) Window();
        t->stream[k].pos = &t->cursor[k];
      }
      t->index = thread_count.fetch_add(1, std::memory_order_relaxed);
      if (!open_stream(t, kEvents)) {
        free(t);
        t = nullptr;
      } else {
        tls_next_id = (uint64_t(t->index) << kIdThreadShift) | 1;
      }
    }
  }
  if (t && all_streams)
    for (int s = 1; s < kStreamCount; ++s)
      if (t->stream[s].fd < 0 && !t->stream[s].broken) open_stream(t, Stream(s));
  self = t;
  tls_cursors = t && use_tsc ? t->cursor : nullptr;  // recorder.h: the inline path stamps the TSC
  making = false;
  return t;
}

// Out of line: the slot is full (or n records do not fit in it). Runs in
// a signal handler too (the samples stream): pwrite, memset and the futex
// are async-signal-safe.
__attribute__((noinline)) Record *next_window(Window *w, unsigned n) {
  if (w->broken.load(std::memory_order_relaxed) || finished.load(std::memory_order_relaxed) ||
      w->over_limit || n > window_bytes / sizeof(Record) - 1)
    return nullptr;
  if (max_bytes && mapped_bytes.fetch_add(window_bytes, std::memory_order_relaxed) +
                           window_bytes > max_bytes) {
    // --max-size: this thread records nothing more; its full window is
    // written as it is (finish(), or the tail after a crash), and every
    // later record counts as over the limit.
    mapped_bytes.fetch_sub(window_bytes, std::memory_order_relaxed);
    w->over_limit = true;
    return nullptr;
  }
  for (Record *r = w->pos->cur; r != w->pos->end; ++r) __atomic_store_n(&r->kind, uint8_t(kPad), __ATOMIC_RELEASE);
  unsigned k = w->slot, next = (k + 1) % kSlots;
  if (writer_running.load(std::memory_order_relaxed) &&
      w->state[next].load(std::memory_order_acquire) == kFree) {
    w->full_index[k] = w->index;
    w->state[k].store(kFull, std::memory_order_release);
    wake_writer();
    begin_slot(w, next, w->index + 1);
  } else {  // the writer is behind (or there is none): this slot is written here
    if (!write_window(w, w->base, w->index)) {
      say_write_error(w);
      w->broken.store(true, std::memory_order_relaxed);
      return nullptr;
    }
    memset(w->base, 0, window_bytes);
    begin_slot(w, k, w->index + 1);
  }
  Record *r = w->pos->cur;
  w->pos->cur += n;
  return r;
}

// A forked child has only the forking thread, whose windows are shared with
// the parent's files: drop them; the child records into files of its own
// (the parent's streams leave the child's list; its writer is started anew).
void atfork_child() {
  if (ThreadFiles *t = self) {
    for (Window &w : t->stream)
      if (w.fd >= 0) {
        munmap(w.ctl, tail_bytes());
        close(w.fd);
      }
    self = nullptr;
    tls_cursors = nullptr;
    tls_next_id = 0;
  }
  open_streams.store(nullptr);
  writer_running.store(false);
}

// At the end: the writer stopped, then every stream's full slots and the
// slot being filled written by this thread, and the tails removed. The
// mappings stay: a thread that records after this stores into its slot,
// and drops the records when it is full.
void write_all_windows() {
  finished.store(true);
  if (writer_running.load()) {
    writer_stop.store(true, std::memory_order_release);
    work.fetch_add(1);
    futex(&work, FUTEX_WAKE_PRIVATE, 1);
    pthread_join(writer, nullptr);
    writer_running.store(false);
  }
  for (Window *w = open_streams.load(std::memory_order_acquire); w; w = w->next_open) {
    if (w->broken.load()) continue;
    for (unsigned k = 0; k < kSlots; ++k)
      if (w->state[k].load(std::memory_order_acquire) == kFull &&
          !write_window(w, slot_base(w, k), w->full_index[k]))
        say_write_error(w);
    if (w->pos->cur != w->base && !write_window(w, w->base, w->index)) say_write_error(w);
    unlink(w->tail_path);
  }
}

}  // namespace

void warn(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s: %s\n", tool_name, line);
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

size_t parse_size(const char *s, const char *what) {
  if (!s || !*s) return kDefaultBufferBytes;
  // Digits and an optional K, M or G (either case, powers of 1024): the
  // sizes the kite command's --buffer takes, in the same range.
  const unsigned long long lo = 64ull << 10, hi = 1ull << 30;
  char *end = nullptr;
  unsigned long long v = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
  unsigned shift = 0;
  if (end && *end) {
    switch (*end) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      default: end = nullptr;
    }
    if (end && *++end) end = nullptr;
  }
  if (!end || v > (hi >> shift) || (v << shift) < lo) {
    warn("%s=%s is not a size from 64K to 1G (bytes, or a K, M or G suffix); using %zuK", what,
         s, kDefaultBufferBytes >> 10);
    return kDefaultBufferBytes;
  }
  v <<= shift;
  long page = sysconf(_SC_PAGESIZE);
  return size_t(v) / size_t(page) * size_t(page);
}

bool start(const char *tool, const char *d, size_t bytes, const char *runtime) {
  snprintf(tool_name, sizeof tool_name, "%s", tool);
  if (!d || !*d) {
    warn("no directory to record into; not recording");
    return false;
  }
  if (access(d, W_OK) != 0) {
    warn("cannot write into %s: %s; not recording", d, strerror(errno));
    return false;
  }
  snprintf(dir, sizeof dir, "%s", d);
  long page = sysconf(_SC_PAGESIZE);
  buffer_bytes = bytes;
  window_bytes = bytes / kSlots / size_t(page) * size_t(page);
  if (window_bytes < size_t(page)) window_bytes = size_t(page);
  runtime_name = runtime ? runtime : "";
  if (strchr(runtime_name, '\n')) runtime_name = "unknown";
  read_clock_skew();
  make_stem();
  write_process_meta();
  choose_clock();
  pthread_atfork(nullptr, nullptr, atfork_child);
  started.store(true, std::memory_order_release);
  return true;
}

bool start_from_env(const char *command, const char *prefix, const char *runtime) {
  char var[64], tool[64];
  snprintf(tool, sizeof tool, "kite %s", command);
  snprintf(var, sizeof var, "%s_DIR", prefix);
  const char *d = getenv(var);
  if (!d || !*d) {
    fprintf(stderr, "%s: %s is not set; not recording (run the program with `%s`)\n", tool, var,
            tool);
    return false;
  }
  snprintf(var, sizeof var, "%s_BUFFER", prefix);
  return start(tool, d, parse_size(getenv(var), var), runtime);
}

void finish() {
  if (stem_pid != getpid()) return;  // a forked child that never recorded
  write_all_windows();
  write_maps();
  uint64_t ns = now_ns(), tsc = 0;
  if (use_tsc) clock_pair(ns, tsc);
  if (use_tsc)
    append_meta("tsc_end=%llu\nns_end=%llu\n", (unsigned long long)tsc, (unsigned long long)ns);
  append_meta("end_ns=%llu\nthreads=%u\ndropped=%llu\n", (unsigned long long)ns,
              thread_count.load(), (unsigned long long)dropped_records.load());
  if (max_bytes)
    append_meta("max_bytes=%llu\nover_limit_records=%llu\n", (unsigned long long)max_bytes,
                (unsigned long long)over_limit_records.load());
}

void set_max_bytes(uint64_t bytes) { max_bytes = bytes; }

uint64_t stamp_ticks(uint64_t ns) { return use_tsc ? uint64_t(double(ns) * tsc_per_ns) : ns; }

int prepare_thread() {
  ThreadFiles *t = make_files(true);
  return t ? int(t->index) : -1;
}

int thread_index() { return self ? int(self->index) : -1; }

Record *slots_slow(Stream s, unsigned n) {
  ThreadFiles *t = self;
  if (!t && (s != kEvents || !(t = make_files(false)))) {
    dropped_records.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  Window *w = &t->stream[s];
  Record *r = w->pos->cur;
  if (r && size_t(w->pos->end - r) >= n) {
    w->pos->cur = r + n;
  } else if (!w->base || !(r = next_window(w, n))) {
    if (w->over_limit)
      over_limit_records.fetch_add(n, std::memory_order_relaxed);
    else
      dropped_records.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  r->time = stamp();
  return r;
}

__attribute__((noinline, cold)) void record_slow(const Record &rec) {
  if (Record *r = slots_slow(kEvents, 1)) fill_from(r, rec);
}

uint64_t new_id_slow() {
  if (!self && !make_files(false)) return 0;
  uint64_t v = tls_next_id;
  if (v) tls_next_id = v + 1;
  return v;
}

uint64_t dropped() { return dropped_records.load(std::memory_order_relaxed); }

}  // namespace kite_rec

// The MPI wrappers' entry points (recorder.h, mpi_format.h): exported from
// the tool library, whatever its visibility default.
extern "C" {

__attribute__((visibility("default"))) int kite_rec_external(const kite_trace::Record *r) {
  using namespace kite_trace;
  // Only the kinds of external recorders: never a header, pad or end.
  if (!r || r->kind < kMpiEnter || r->kind > kMpiRequestCancelled) return 0;
  if (!kite_rec::started.load(std::memory_order_acquire)) return 0;
  kite_rec::Record *s = kite_rec::slot(kite_rec::kEvents);
  if (!s) return 0;
  kite_rec::fill_from(s, *r);
  return 1;
}

__attribute__((visibility("default"))) void kite_rec_meta(const char *text) {
  if (text && kite_rec::started.load(std::memory_order_acquire))
    kite_rec::append_meta("%s", text);
}

__attribute__((visibility("default"))) uint64_t kite_rec_now_ns(void) {
  return kite_rec::now_ns();
}

}
