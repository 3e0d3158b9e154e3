// What libkite-profile.so reads next to each sample besides the stack: the
// thread's CPU clock, the time it spent runnable but not running (the
// scheduler's run delay), and the perf_event counters asked for with
// KITE_PROFILE_COUNTERS. They follow the sample's frames in its payload
// (profile_format.h); the meta's sample_extras names them in order.
#pragma once

#include <cstdint>

namespace kite_profile {

// Once, before the first sample: parses `counters` (comma-separated event
// names, may be null), keeps the events this machine can count (one
// warning line and a meta line for each that it cannot) and writes the
// meta's sample_extras line.
void clocks_init(const char *counters);
// On each sampled thread, before its timer starts / after it stops.
void clocks_thread_start();
void clocks_thread_stop();
// The values, in sample_extras order, into out (at most kMaxExtras);
// async-signal-safe. Returns how many.
unsigned clocks_read(uint64_t *out);

}  // namespace kite_profile
