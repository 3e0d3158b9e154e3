#include "trace_filter.h"

#include <omp-tools.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "recorder.h"
#include "region_lines.h"

namespace kite_trace {

bool filtering;
bool regions_on;

namespace {

bool window_on;
uint64_t window_start, window_end = UINT64_MAX;  // recorder stamps
char window_text[128];                           // as asked, for the meta file

constexpr size_t kMaxSpecs = 64, kMaxRanges = 4096;
LineSpec specs[kMaxSpecs];
size_t spec_count;
CodeRange ranges[kMaxRanges];
size_t range_count;
char regions_text[4096];

// The begin records of what is open on a thread before the window, the
// innermost last; deeper nesting than this is not replayed (counted).
constexpr unsigned kShadowDepth = 48;

struct FilterThread {
  int inside = 0;
  bool entered = false;  // its first event in the window replayed the shadow
  unsigned depth = 0;
  uint64_t before = 0, after = 0, outside = 0, replayed = 0, too_deep = 0;
  FilterThread *next = nullptr;
  Record shadow[kShadowDepth];
};

std::atomic<FilterThread *> all_threads{nullptr};
__attribute__((tls_model("initial-exec"))) thread_local FilterThread *self;
FilterThread fallback;  // a thread whose state could not be allocated shares this one

FilterThread *me() {
  FilterThread *t = self;
  if (__builtin_expect(t != nullptr, 1)) return t;
  void *p = calloc(1, sizeof(FilterThread));
  if (!p) return self = &fallback;
  t = new (p) FilterThread();
  FilterThread *head = all_threads.load(std::memory_order_relaxed);
  do t->next = head;
  while (!all_threads.compare_exchange_weak(head, t, std::memory_order_release));
  return self = t;
}

void write_record(const Record &r, bool keep_time) {
  Record *s = kite_rec::slot(kite_rec::kEvents);
  if (!s) return;
  if (keep_time) s->time = r.time;
  kite_rec::fill_from(s, r);
}

// Removes the innermost shadow entry that matches; with `above`, what is
// open above it too (it ended inside them: the converter does the same).
template <typename Match>
void remove_innermost(FilterThread *t, Match match, bool above) {
  for (unsigned i = t->depth; i-- > 0;) {
    if (!match(t->shadow[i])) continue;
    if (above) {
      t->depth = i;
    } else {
      memmove(&t->shadow[i], &t->shadow[i + 1], (t->depth - i - 1) * sizeof(Record));
      t->depth--;
    }
    return;
  }
}

void push(FilterThread *t, const Record &r) {
  if (t->depth == kShadowDepth) {
    t->too_deep++;
    return;
  }
  t->shadow[t->depth++] = r;
}

// Keeps the shadow: what the converter would have open on this thread.
void shadow(FilterThread *t, const Record &r, bool in_region) {
  uint8_t kind = r.kind;
  auto same_kind = [kind](const Record &o) { return o.kind == kind; };
  bool begin = r.sub == ompt_scope_begin;
  switch (kind) {
    case kThreadBegin:
      if (in_region) push(t, r);
      break;
    case kThreadEnd: t->depth = 0; break;
    case kParallelBegin:
      if (in_region) push(t, r);
      break;
    case kParallelEnd:
      remove_innermost(t, [&r](const Record &o) { return o.kind == kParallelBegin && o.a == r.a; },
                       true);
      break;
    case kImplicitTask:
      if (begin) {
        if (in_region) push(t, r);
      } else {
        remove_innermost(t, [&r](const Record &o) { return o.kind == kImplicitTask && o.b == r.b; },
                         true);
      }
      break;
    case kWork:
    case kSyncRegion:
    case kSyncWait:
    case kReduction:
    case kMasked:
    case kTarget:
    case kTargetDataOp:
      if (r.sub == ompt_scope_beginend) break;
      if (begin) {
        if (in_region) push(t, r);
      } else {
        remove_innermost(t, same_kind, true);
      }
      break;
    case kDispatch:  // a chunk lasts until the next one or its loop's end
      if (t->depth && t->shadow[t->depth - 1].kind == kDispatch) t->depth--;
      if (in_region) push(t, r);
      break;
    case kMutexAcquire:
      if (in_region) push(t, r);
      break;
    case kMutexAcquired:
      remove_innermost(t, [&r](const Record &o) { return o.kind == kMutexAcquire && o.a == r.a; },
                       false);
      if (in_region) push(t, r);
      break;
    case kNestLock:
      if (begin)
        remove_innermost(
            t, [&r](const Record &o) { return o.kind == kMutexAcquire && o.a == r.a; }, false);
      break;
    case kMutexReleased:
      remove_innermost(t, [&r](const Record &o) { return o.kind == kMutexAcquired && o.a == r.a; },
                       false);
      break;
    default: break;  // instants, and explicit tasks (not replayed: see the header)
  }
}

bool parse_seconds(const char *var, double *out) {
  const char *v = getenv(var);
  if (!v || !*v) return false;
  char *end = nullptr;
  double s = strtod(v, &end);
  if (!end || *end || !(s >= 0) || s > 1e9) {
    kite_rec::warn("%s=%s is not a number of seconds; ignored", var, v);
    return false;
  }
  *out = s;
  return true;
}

void parse_regions(const char *v) {
  snprintf(regions_text, sizeof regions_text, "%s", v);
  char copy[4096];
  snprintf(copy, sizeof copy, "%s", v);
  char *save = nullptr;
  for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(nullptr, ",", &save)) {
    char *colon = strrchr(item, ':');
    char *end = nullptr;
    long line = colon ? strtol(colon + 1, &end, 10) : 0;
    if (!colon || colon == item || !end || *end || line <= 0 ||
        size_t(colon - item) >= sizeof specs[0].file) {
      kite_rec::warn("KITE_TRACE_REGIONS: '%s' is not FILE:LINE; ignored", item);
      continue;
    }
    if (spec_count == kMaxSpecs) {
      kite_rec::warn("KITE_TRACE_REGIONS: more than %zu regions; the rest ignored", kMaxSpecs);
      break;
    }
    LineSpec &s = specs[spec_count++];
    snprintf(s.file, sizeof s.file, "%.*s", int(colon - item), item);
    s.line = int(line);
  }
  // An empty or unusable list still filters: it chooses nothing, and the
  // summary says so (rather than silently recording everything).
  regions_on = true;
}

}  // namespace

void filter_from_env() {
  double after = 0, duration = 0;
  bool has_after = parse_seconds("KITE_TRACE_START_AFTER", &after);
  bool has_duration = parse_seconds("KITE_TRACE_DURATION", &duration);
  if (has_duration && duration <= 0) {
    kite_rec::warn("KITE_TRACE_DURATION=0 records nothing; ignored");
    has_duration = false;
  }
  if (has_after || has_duration) {
    window_on = true;
    uint64_t now = kite_rec::stamp();
    window_start = now + kite_rec::stamp_ticks(uint64_t(after * 1e9));
    if (has_duration) window_end = window_start + kite_rec::stamp_ticks(uint64_t(duration * 1e9));
    int n = snprintf(window_text, sizeof window_text, "window_start_after=%.9g\n", after);
    if (has_duration)
      snprintf(window_text + n, sizeof window_text - size_t(n), "window_duration=%.9g\n",
               duration);
  }
  if (const char *r = getenv("KITE_TRACE_REGIONS")) parse_regions(r);
  filtering = window_on || regions_on;
}

void filter_initialize() {
  if (window_on)
    kite_rec::append_meta("window_start=%llu\nwindow_end=%llu\n%s",
                          (unsigned long long)window_start,
                          (unsigned long long)(window_end == UINT64_MAX ? 0 : window_end),
                          window_text);
  if (!regions_on) return;
  long n = spec_count ? resolve_lines(specs, spec_count, ranges, kMaxRanges) : 0;
  if (n == -2) {
    kite_rec::warn("--regions: cannot load libdw.so.1 (elfutils, Debian's libdw1) to read line "
                   "tables; no region is recorded");
    n = 0;
  } else if (n < 0) {
    kite_rec::warn("--regions: cannot read this process's code (/proc/self/maps); no region "
                   "is recorded");
    n = 0;
  }
  range_count = size_t(n);
  char missing[4096] = "";
  size_t used = 0;
  for (size_t i = 0; i < spec_count; ++i)
    if (!specs[i].rows) {
      kite_rec::warn("--regions %s:%d: no code at that line in the program or its libraries "
                     "(built with -g?)", specs[i].file, specs[i].line);
      used += size_t(snprintf(missing + used, used < sizeof missing ? sizeof missing - used : 0,
                              "%s%s:%d", used ? "," : "", specs[i].file, specs[i].line));
      if (used >= sizeof missing) used = sizeof missing - 1;
    }
  kite_rec::append_meta("regions=%s\nregion_code_ranges=%zu\nregions_without_code=%s\n",
                        regions_text, range_count, missing);
}

void filter_finish() {
  if (!filtering) return;
  uint64_t before = 0, after = 0, outside = 0, replayed = 0, too_deep = 0;
  auto add = [&](const FilterThread *t) {
    before += t->before;
    after += t->after;
    outside += t->outside;
    replayed += t->replayed;
    too_deep += t->too_deep;
  };
  for (FilterThread *t = all_threads.load(std::memory_order_acquire); t; t = t->next) add(t);
  add(&fallback);
  kite_rec::append_meta("left_out_before_window=%llu\nleft_out_after_window=%llu\n"
                        "left_out_outside_regions=%llu\nwindow_replayed=%llu\n"
                        "window_too_deep=%llu\n",
                        (unsigned long long)before, (unsigned long long)after,
                        (unsigned long long)outside, (unsigned long long)replayed,
                        (unsigned long long)too_deep);
}

bool chosen_codeptr(uint64_t codeptr) {
  uint64_t call = codeptr - 1;  // the call instruction, as the converter resolves it
  for (size_t i = 0; i < range_count; ++i)
    if (call >= ranges[i].lo && call < ranges[i].hi) return true;
  return false;
}

int &inside() { return me()->inside; }

void filtered(Record &r, bool in_region) {
  FilterThread *t = me();
  if (window_on) {
    uint64_t now = kite_rec::stamp();
    r.time = now;
    if (now < window_start) {
      t->before++;
      shadow(t, r, in_region);
      return;
    }
    if (now >= window_end) {
      t->after++;
      return;
    }
    if (!t->entered) {
      t->entered = true;
      for (unsigned i = 0; i < t->depth; ++i) write_record(t->shadow[i], true);
      t->replayed += t->depth;
      t->depth = 0;
    }
  }
  if (!in_region) {
    t->outside++;
    return;
  }
  write_record(r, window_on);
}

void filter_thread_begin() {
  if (window_on) kite_rec::new_id();  // makes the thread's file: its header comes first
}

}  // namespace kite_trace
