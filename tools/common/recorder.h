// The recording layer of Kite's in-process tools (libkite-trace.so,
// libkite-profile.so): per-thread, per-stream files of fixed-size records
// (raw_format.h). A thread stores its records into a ring of windows in a
// small file mapped MAP_SHARED once (<file>.tail); the recorder's writer
// thread copies each full window into the stream's file (recorder.cpp).
// Recording is a few plain stores: no lock, no allocation, no system call.
// Memory per thread and stream stays at one ring. A crash, _exit, abort or
// SIGKILL loses nothing already stored: what the writer had not copied is
// in the ring's file, and readers copy it back (reader.h salvage_tail).
//
// A thread's streams are created by prepare_thread() (or, for the event
// stream, by its first record); a signal handler records only into a
// stream that exists (slots() returns nullptr otherwise) and only into a
// stream no callback of the same thread writes (the samples stream), so a
// record is never interrupted by another into the same window.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <x86intrin.h>

#include "raw_format.h"

namespace kite_rec {

using kite_trace::Record;

enum Stream { kEvents = 0, kSamples = 1, kStreamCount };

// Starts recording into dir, buffer_bytes per stream of each thread: names
// this process's files (rank<R>.pid<P>
// under an MPI launcher, pid<P> otherwise), writes <stem>.meta with the
// process's facts and <stem>.maps. tool: the prefix of warnings.
// Returns false (and says why on stderr) when dir cannot be written.
bool start(const char *tool, const char *dir, size_t buffer_bytes, const char *runtime);

// start() from the environment a `kite` command sets: the directory in
// <prefix>_DIR (a tool started some other way says how to run it, once, and
// records nothing), the window size in <prefix>_BUFFER. command: "trace",
// "profile" (also the warnings' prefix "kite <command>").
bool start_from_env(const char *command, const char *prefix, const char *runtime);

// Adds key=value lines to the meta file (printf format).
void append_meta(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// At the tool's finalizer: the memory map again (libraries loaded since
// the start), end time, thread count, records dropped.
void finish();

// One warning line on stderr, prefixed with the tool's name.
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// The memory each stream of each thread records into (KITE_*_BUFFER): a
// ring of a few windows (recorder.cpp kSlots), a window being what goes
// to the file at a time.
constexpr size_t kDefaultBufferBytes = 1u << 20;

// Buffer size from a KITE_*_BUFFER value (bytes, or a K, M or G suffix: 64K
// to 1G); a bad value gets a warning naming `what` and the default
// (kDefaultBufferBytes).
size_t parse_size(const char *value, const char *what);

// KITE_TEST_CLOCK_SKEW_NS=<signed ns>, for tests only: every time this
// process reads (now_ns(), hence the TSC's mapping in the meta file and the
// ns clock) is shifted by that much, as if its clock were another
// machine's; the meta's clock_domain says so ("<boot id>+skew<ns>"), so a
// multi-process merge must align it from measured offsets (mpi_format.h).
// 0 when unset: the ns clock then costs one add of a word that shares its
// cache line with use_tsc (the TSC path is untouched).
extern int64_t clock_skew_ns;

inline uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec) + uint64_t(clock_skew_ns);
}

// Records' time stamps: the TSC where it is invariant (constant_tsc and
// nonstop_tsc: the same rate on every core, in every state), 8 ns here
// against 17 for clock_gettime; CLOCK_MONOTONIC nanoseconds otherwise or
// with KITE_CLOCK=monotonic. The meta file says which (clock=tsc|ns) and
// how TSC ticks map to CLOCK_MONOTONIC (reader.h TimeMap).
extern bool use_tsc;
inline uint64_t stamp() { return use_tsc ? __rdtsc() : now_ns(); }

// How many stamp() units `ns` nanoseconds are (the TSC's rate measured at
// the start; after start()).
uint64_t stamp_ticks(uint64_t ns);

// Creates the calling thread's files for every stream (not from a signal
// handler). Returns its thread index, or -1 if it could not record.
int prepare_thread();

// The calling thread's index (its files' number), -1 before its first record.
int thread_index();

// Where the calling thread's next record of each stream goes: the free
// part of the window it fills. Initial-exec TLS (a plain %fs-relative load;
// the tool libraries are dlopen'ed by the runtime and glibc keeps static TLS
// room for a few such words), so that the common case of slots() is a few
// instructions inlined into the callback. `__thread`, not `thread_local`:
// a C++ thread_local defined in another file is reached through its
// initialization wrapper (a GOT load and a test on every record).
// Null until the thread's files exist, and always null when the clock is
// not the TSC: every record then takes slots_slow, which reads the clock.
struct Cursor {
  Record *cur = nullptr;
  Record *end = nullptr;
};
extern __thread Cursor *tls_cursors __attribute__((tls_model("initial-exec")));

// slots() when the window is full, the stream not open yet, recording
// stopped, or the clock is not the TSC.
Record *slots_slow(Stream stream, unsigned n);

// The inline part of slots(): n records of the window the thread fills, the
// first's time stamped, or nullptr when slots_slow must decide.
inline Record *slots_fast(Stream stream, unsigned n) {
  Cursor *c = tls_cursors;
  if (__builtin_expect(c != nullptr, 1)) {
    Record *r = c[stream].cur;
    if (__builtin_expect(r && size_t(c[stream].end - r) >= n, 1)) {
      c[stream].cur = r + n;
      r->time = __rdtsc();
      return r;
    }
  }
  return nullptr;
}

// n >= 1 consecutive records of the stream, all zero but the first's time,
// or nullptr (no stream, or the file cannot grow). The caller stores the
// first record's kind last (__atomic_store_n release): a record the reader
// sees with a kind is whole. The event stream is created on demand.
inline Record *slots(Stream stream, unsigned n) {
  Record *r = slots_fast(stream, n);
  return __builtin_expect(r != nullptr, 1) ? r : slots_slow(stream, n);
}
inline Record *slot(Stream stream) { return slots(stream, 1); }

// Every field of rec but its time into r (a slot), the kind stored last.
inline void fill_from(Record *r, const Record &rec) {
  r->sub = rec.sub;
  r->f16 = rec.f16;
  r->u32 = rec.u32;
  r->a = rec.a;
  r->b = rec.b;
  r->c = rec.c;
  r->d = rec.d;
  __atomic_store_n(&r->kind, rec.kind, __ATOMIC_RELEASE);
}

// Records rec on the event stream through slots_slow: its time is taken
// now, its other fields copied, its kind stored last. Out of line, so that
// a callback's inline path (KITE_RECORD_EVENT) needs no stack frame.
void record_slow(const Record &rec);

// Records one event: a record of the event stream, the fields set by the
// statements given (on r_), then the kind, stored last. When the inline
// path cannot take it (FAST false, or slots_fast has no room), the same
// statements fill a record on the stack, rec_, and SLOW (a statement on
// rec_) takes it.
#define KITE_RECORD_EVENT_GATED(FAST, SLOW, KIND, ...)                               \
  do {                                                                             \
    ::kite_rec::Record *r_ =                                                       \
        __builtin_expect(bool(FAST), 1) ? ::kite_rec::slots_fast(::kite_rec::kEvents, 1) \
                                        : nullptr;                                 \
    if (__builtin_expect(r_ != nullptr, 1)) {                                      \
      __VA_ARGS__;                                                                 \
      __atomic_store_n(&r_->kind, uint8_t(KIND), __ATOMIC_RELEASE);                \
    } else {                                                                       \
      ::kite_rec::Record rec_{};                                                   \
      r_ = &rec_;                                                                  \
      __VA_ARGS__;                                                                 \
      rec_.kind = uint8_t(KIND);                                                   \
      SLOW;                                                                        \
    }                                                                              \
  } while (0)
#define KITE_RECORD_EVENT(KIND, ...) \
  KITE_RECORD_EVENT_GATED(true, ::kite_rec::record_slow(rec_), KIND, __VA_ARGS__)

// A process-unique id: the thread index in the high bits, a per-thread
// counter below (raw_format.h kIdThreadShift). 0 if the thread cannot record.
// tls_next_id is the calling thread's next one, 0 until its files exist
// (new_id_slow makes them).
extern __thread uint64_t tls_next_id __attribute__((tls_model("initial-exec")));
uint64_t new_id_slow();
inline uint64_t new_id() {
  uint64_t v = tls_next_id;
  if (__builtin_expect(v != 0, 1)) {
    tls_next_id = v + 1;
    return v;
  }
  return new_id_slow();
}

// Records dropped so far (no stream, or a file that could not grow).
uint64_t dropped();

// Stops recording once the windows mapped for all threads' files would pass
// bytes (0: no limit; call before the first record). The check is in the
// slow path that maps a thread's next window: each thread's first window is
// always mapped, and a thread stops at the end of its current window. The
// records refused are counted; finish() writes max_bytes= and
// over_limit_records= into the meta file.
void set_max_bytes(uint64_t bytes);

}  // namespace kite_rec

// The entry points of the MPI interposition libraries (tools/mpi/,
// mpi_format.h), exported by every tool library that records (default
// visibility): the wrappers find them with dlopen($KITE_MPI_TOOL_LIB,
// RTLD_NOLOAD) + dlsym, since the runtime loads the tool RTLD_LOCAL.
extern "C" {
// Records *r (its time replaced by stamp() now, kind stored last) on the
// calling thread's event stream, which it creates for a thread the tool
// has not seen yet. 1 if recorded, 0 if not (recording stopped, no stream).
int kite_rec_external(const kite_trace::Record *r);
// Appends text (whole key=value lines, each ending in '\n') to the meta file.
void kite_rec_meta(const char *text);
// now_ns() of the recorder (CLOCK_MONOTONIC ns, with the test skew of
// KITE_TEST_CLOCK_SKEW_NS): the clock the wrappers measure offsets with.
uint64_t kite_rec_now_ns(void);
}
