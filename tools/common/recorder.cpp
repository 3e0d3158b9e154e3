#include "recorder.h"

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace kite_rec {

bool use_tsc;

namespace {

uint64_t tsc_start, ns_start;

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
  ns_start = now_ns();
  tsc_start = __rdtsc();
  uint64_t ns1, tsc1;
  do {
    ns1 = now_ns();
    tsc1 = __rdtsc();
  } while (ns1 - ns_start < 2000000);
  double hz = double(tsc1 - tsc_start) * 1e9 / double(ns1 - ns_start);
  append_meta("clock=tsc\ntsc_start=%llu\nns_start=%llu\ntsc_hz=%.0f\n",
              (unsigned long long)tsc_start, (unsigned long long)ns_start, hz);
}

using kite_trace::kHeader;
using kite_trace::kIdThreadShift;
using kite_trace::kMagic;
using kite_trace::kPad;
using kite_trace::kVersion;

struct Window {
  Record *cur = nullptr;
  Record *end = nullptr;
  Record *base = nullptr;
  uint64_t index = 0;
  int fd = -1;
  bool broken = false;  // the file could not be grown: records are dropped
};

struct ThreadFiles {
  Window stream[kStreamCount];
  uint64_t next_id = 1;
  uint32_t index = 0;
};

char tool_name[32] = "kite";
char dir[4096];
char stem[128];
pid_t stem_pid;
size_t window_bytes = 4u << 20;
const char *runtime_name = "";
std::atomic<uint32_t> thread_count{0};
std::atomic<uint64_t> dropped_records{0};

// Initial-exec: a plain %fs-relative load on every record instead of a call
// to __tls_get_addr (the libraries are dlopen'ed by the runtime; glibc keeps
// static TLS room for a few such words).
#define KITE_REC_TLS __attribute__((tls_model("initial-exec"))) thread_local
KITE_REC_TLS ThreadFiles *self;
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

void write_process_meta() {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  timespec rt;
  clock_gettime(CLOCK_REALTIME, &rt);
  const char *rank = rank_from_env();
  append_meta("format=%u\npid=%d\nrank=%s\nexe=%s\nruntime=%s\nstart_ns=%llu\n"
              "start_realtime_ns=%llu\nbuffer_bytes=%zu\n",
              kVersion, int(getpid()), rank ? rank : "", exe, runtime_name,
              (unsigned long long)now_ns(),
              (unsigned long long)(uint64_t(rt.tv_sec) * 1000000000u + uint64_t(rt.tv_nsec)),
              window_bytes);
  write_maps();
}

bool map_window(Window *w) {
  off_t offset = off_t(w->index * window_bytes);
  if (ftruncate(w->fd, offset + off_t(window_bytes)) != 0) return false;
  void *p = mmap(nullptr, window_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, w->fd, offset);
  if (p == MAP_FAILED) return false;
  w->base = w->cur = static_cast<Record *>(p);
  w->end = w->base + window_bytes / sizeof(Record);
  return true;
}

bool open_stream(ThreadFiles *t, Stream s) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s.thread-%u%s.raw", dir, stem, t->index,
           s == kSamples ? ".samples" : "");
  Window *w = &t->stream[s];
  w->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (w->fd < 0 || !map_window(w)) {
    warn("cannot record thread %u into %s: %s", t->index, path, strerror(errno));
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    w->broken = true;
    return false;
  }
  Record *h = w->cur++;
  h->time = stamp();
  h->u32 = kMagic;
  h->a = t->index;
  h->b = uint64_t(syscall(SYS_gettid));
  h->c = kVersion;
  h->kind = kHeader;
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
  ThreadFiles *t = self;
  if (!t) {
    t = static_cast<ThreadFiles *>(calloc(1, sizeof(ThreadFiles)));
    if (t) {
      for (Window &w : t->stream) w = Window();
      t->next_id = 1;
      t->index = thread_count.fetch_add(1, std::memory_order_relaxed);
      if (!open_stream(t, kEvents)) {
        free(t);
        t = nullptr;
      }
    }
  }
  if (t && all_streams)
    for (int s = 1; s < kStreamCount; ++s)
      if (t->stream[s].fd < 0 && !t->stream[s].broken) open_stream(t, Stream(s));
  self = t;
  making = false;
  return t;
}

// Out of line: the window is full (or n records do not fit in it).
__attribute__((noinline)) Record *next_window(ThreadFiles *t, Window *w, unsigned n) {
  if (w->broken || n > window_bytes / sizeof(Record) - 1) return nullptr;
  for (Record *r = w->cur; r != w->end; ++r) __atomic_store_n(&r->kind, uint8_t(kPad), __ATOMIC_RELEASE);
  munmap(w->base, window_bytes);
  w->base = w->cur = w->end = nullptr;
  w->index++;
  if (!map_window(w)) {
    w->broken = true;
    warn("thread %u: cannot grow its file (%s); its later records are dropped", t->index,
         strerror(errno));
    return nullptr;
  }
  Record *r = w->cur;
  w->cur += n;
  return r;
}

// A forked child has only the forking thread, whose windows are shared with
// the parent's files: drop them; the child records into files of its own.
void atfork_child() {
  if (ThreadFiles *t = self) {
    for (Window &w : t->stream)
      if (w.fd >= 0) {
        munmap(w.base, window_bytes);
        close(w.fd);
      }
    self = nullptr;
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
  if (!s || !*s) return 4u << 20;
  char *end = nullptr;
  unsigned long long v = strtoull(s, &end, 10);
  if (end && (*end == 'k' || *end == 'K')) v <<= 10, ++end;
  else if (end && (*end == 'm' || *end == 'M')) v <<= 20, ++end;
  long page = sysconf(_SC_PAGESIZE);
  if (!end || *end || v < 64 * 1024 || v > (1ull << 30)) {
    warn("%s=%s is not a size between 64K and 1024M; using 4M", what, s);
    return 4u << 20;
  }
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
  window_bytes = bytes;
  runtime_name = runtime ? runtime : "";
  if (strchr(runtime_name, '\n')) runtime_name = "unknown";
  make_stem();
  write_process_meta();
  choose_clock();
  pthread_atfork(nullptr, nullptr, atfork_child);
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
  write_maps();
  uint64_t ns = now_ns(), tsc = __rdtsc();
  if (use_tsc)
    append_meta("tsc_end=%llu\nns_end=%llu\n", (unsigned long long)tsc, (unsigned long long)ns);
  append_meta("end_ns=%llu\nthreads=%u\ndropped=%llu\n", (unsigned long long)ns,
              thread_count.load(), (unsigned long long)dropped_records.load());
}

int prepare_thread() {
  ThreadFiles *t = make_files(true);
  return t ? int(t->index) : -1;
}

int thread_index() { return self ? int(self->index) : -1; }

Record *slots(Stream s, unsigned n) {
  ThreadFiles *t = self;
  if (__builtin_expect(!t, 0)) {
    if (s != kEvents || !(t = make_files(false))) {
      dropped_records.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
  }
  Window *w = &t->stream[s];
  Record *r = w->cur;
  if (__builtin_expect(r && size_t(w->end - r) >= n, 1)) {
    w->cur = r + n;
  } else if (!w->base || !(r = next_window(t, w, n))) {
    dropped_records.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  r->time = stamp();
  return r;
}

uint64_t new_id() {
  ThreadFiles *t = self;
  if (!t && !(t = make_files(false))) return 0;
  return (uint64_t(t->index) << kIdThreadShift) | t->next_id++;
}

uint64_t dropped() { return dropped_records.load(std::memory_order_relaxed); }

}  // namespace kite_rec
