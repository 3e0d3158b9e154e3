// What libkite-profile.so records (raw_format.h records, recorder.h files).
//
// Samples stream (<stem>.thread-<i>.samples.raw), kSample:
//   f16 ompt_state_t, a wait id, b parallel id (0 for the initial task),
//   c explicit task id (0 for an implicit or initial task),
//   d weight in periods (1 + timer overruns: samples a descheduled thread
//   missed), sub kSample* flags (low 4 bits) and the number of extra
//   words (high 4 bits), u32 frame words; payload: user frames, innermost
//   first, a 0 where runtime frames were cut out (the part before the
//   first 0 is what the current task runs itself), then the extra words
//   the meta's sample_extras names (sample_clocks.h: cpu_ns, run_delay_ns,
//   perf_event counters), each a running total of the thread.
// Events stream (<stem>.thread-<i>.raw):
//   kParallelBegin: a parallel id, b the encountering task's parallel id,
//     c codeptr_ra, d requested threads, sub kSampleInitialTask when the
//     encountering task is an initial task (the creating call path is found
//     in the encountering thread's samples, after the program);
//   kParallelEnd (a, c), kImplicitTask (sub endpoint, a parallel, b task,
//     u32 team size, d index), kTaskCreate (a task, u32 flags, c codeptr_ra,
//     d the creator's parallel id), kMutexAcquired / kMutexReleased (f16
//     kind, a wait id, c codeptr_ra), kThreadBegin (sub type), kThreadEnd.
#pragma once

#include <cstdint>

namespace kite_profile {

constexpr unsigned kMaxFrames = 64;
constexpr unsigned kMaxExtras = 15;  // fits the high 4 bits of a sample's sub
constexpr unsigned kMaxCounters = 8;
constexpr uint64_t kNoValue = ~uint64_t(0);  // an extra this thread could not read
inline unsigned sample_extras(unsigned sub) { return sub >> 4; }

enum SampleFlags : unsigned char {
  kSampleFirstIsPc = 1,       // words[0] is the interrupted pc, not a return address
  kSampleLeafInRuntime = 2,   // the thread was inside the runtime (waiting, scheduling)
  kSampleInitialTask = 4,     // the current task is an initial task
};

}  // namespace kite_profile
