// The per-sample clocks of libkite-profile.so (sample_clocks.h).
//
// CPU time: clock_gettime(CLOCK_THREAD_CPUTIME_ID), exact at the moment of
// the sample (the kernel brings the running thread's total up to date).
// Run delay: the second field of /proc/thread-self/schedstat, the time the
// thread waited on a run queue while runnable; read with pread on a file
// kept open per thread (a seq_file regenerates its text at offset 0). A
// thread sleeping in a futex is not runnable, so this is descheduling
// alone, which wall time minus CPU time cannot tell from sleeping.
// Counters: one perf_event group per thread (the first event leads), read
// with one read() of PERF_FORMAT_GROUP; user space only, so an unprivileged
// process (perf_event_paranoid 2) may count its own threads.
#include "sample_clocks.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "profile_format.h"
#include "recorder.h"

namespace kite_profile {
namespace {

struct EventName {
  const char *name;
  uint32_t type;
  uint64_t config;
};

const EventName kEvents[] = {
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
};

const EventName *counters[kMaxCounters];
unsigned n_counters;

__attribute__((tls_model("initial-exec"))) thread_local int sched_fd = -1;
__attribute__((tls_model("initial-exec"))) thread_local int group_fd = -1;
__attribute__((tls_model("initial-exec"))) thread_local int member_fds[kMaxCounters];

// Software events count the kernel's side too where that is allowed
// (context switches happen there); hardware events and a refused software
// one count user space only.
int open_event(const EventName &e, int leader) {
  perf_event_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = e.type;
  attr.config = e.config;
  attr.exclude_hv = 1;
  attr.read_format = PERF_FORMAT_GROUP;
  attr.exclude_kernel = e.type == PERF_TYPE_SOFTWARE ? 0 : 1;
  int fd = int(syscall(SYS_perf_event_open, &attr, 0 /* this thread */, -1, leader, PERF_FLAG_FD_CLOEXEC));
  if (fd < 0 && !attr.exclude_kernel) {
    attr.exclude_kernel = 1;
    fd = int(syscall(SYS_perf_event_open, &attr, 0, -1, leader, PERF_FLAG_FD_CLOEXEC));
  }
  return fd;
}

// Reads "<cpu ns> <run delay ns> <slices>" into the run delay; no libc
// function that could take a lock or allocate.
uint64_t read_run_delay() {
  if (sched_fd < 0) return kNoValue;
  char buf[96];
  ssize_t n = pread(sched_fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return kNoValue;
  int field = 0;
  uint64_t v = 0;
  bool in_number = false;
  for (ssize_t i = 0; i < n; ++i) {
    char c = buf[i];
    if (c >= '0' && c <= '9') {
      v = v * 10 + uint64_t(c - '0');
      in_number = true;
    } else if (in_number) {
      if (field == 1) return v;
      ++field;
      v = 0;
      in_number = false;
    }
  }
  return field == 1 && in_number ? v : kNoValue;
}

}  // namespace

void clocks_init(const char *list) {
  char missing[512] = "";
  if (list && *list) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = nullptr;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(nullptr, ",", &save)) {
      const EventName *e = nullptr;
      for (const EventName &k : kEvents)
        if (!strcmp(k.name, tok)) e = &k;
      if (!e) {
        kite_rec::warn("unknown counter '%s'; profiling without it", tok);
        continue;
      }
      if (n_counters == kMaxCounters) {
        kite_rec::warn("at most %u counters; profiling without %s", kMaxCounters, tok);
        continue;
      }
      // Probe once on this thread: an event the machine cannot count (a
      // virtual machine without a PMU) is left out for every thread.
      int fd = open_event(*e, -1);
      if (fd < 0) {
        int err = errno;
        kite_rec::append_meta("counter_unavailable.%s=%s: perf_event_open: %s\n", e->name, e->name,
                              strerror(err));
        size_t used = strlen(missing);
        snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", e->name);
        continue;
      }
      close(fd);
      counters[n_counters++] = e;
    }
  }
  if (*missing)
    kite_rec::warn("counters %s are not available here (perf_event_open failed); "
                   "profiling without them", missing);
  char extras[512] = "cpu_ns,run_delay_ns";
  for (unsigned i = 0; i < n_counters; ++i) {
    size_t used = strlen(extras);
    snprintf(extras + used, sizeof extras - used, ",%s", counters[i]->name);
  }
  kite_rec::append_meta("sample_extras=%s\n", extras);
}

void clocks_thread_start() {
  sched_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (sched_fd < 0) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", long(syscall(SYS_gettid)));
    sched_fd = open(path, O_RDONLY | O_CLOEXEC);
  }
  group_fd = -1;
  for (unsigned i = 0; i < kMaxCounters; ++i) member_fds[i] = -1;
  for (unsigned i = 0; i < n_counters; ++i) {
    member_fds[i] = open_event(*counters[i], group_fd);
    if (member_fds[i] < 0) {
      // A member that fails on this thread alone: its column reads kNoValue.
      if (i == 0) break;
      continue;
    }
    if (i == 0) group_fd = member_fds[0];
  }
}

void clocks_thread_stop() {
  if (sched_fd >= 0) close(sched_fd);
  sched_fd = -1;
  for (unsigned i = 0; group_fd >= 0 && i < n_counters; ++i)
    if (member_fds[i] >= 0) close(member_fds[i]);
  group_fd = -1;
}

unsigned clocks_read(uint64_t *out) {
  timespec ts;
  out[0] = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0
               ? uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec)
               : kNoValue;
  out[1] = read_run_delay();
  unsigned n = 2;
  if (!n_counters) return n;
  uint64_t values[1 + kMaxCounters];
  bool ok = group_fd >= 0 && read(group_fd, values, sizeof values) > 0;
  // Members that failed to open on this thread are missing from the group.
  unsigned at = 1;
  for (unsigned i = 0; i < n_counters; ++i) {
    bool member = group_fd >= 0 && member_fds[i] >= 0;
    out[n++] = ok && member && at <= values[0] ? values[at] : kNoValue;
    if (member) ++at;
  }
  return n;
}

}  // namespace kite_profile
