// What libkite-trace.so records when `kite trace` was given a time window
// (--start-after, --duration) or a set of parallel regions (--regions).
// Without either, nothing here runs: the callbacks record as before, after
// one predictable branch on `filtering`.
//
// Time window. Every event is stamped (the recorder's clock, the TSC where
// it is invariant) and compared with the window's two stamps, computed once
// at the start. Before the window a thread records nothing but keeps, in a
// small stack of its own, the begin records of the intervals still open on
// it (a parallel region, an implicit task, a loop, a barrier, a held lock,
// its thread); its first event inside the window writes those records first,
// with their own stamps. The converter shows them from the window's start
// (and closes what is still open at the window's end there), so a window
// always converts to well-formed, nested slices. An explicit task already
// running at the window's start is not among them (its creation was not
// recorded): the time it runs on shows in its enclosing slice.
//
// Regions. The FILE:LINE list is resolved once, at the start, to the
// address ranges of the code of those lines (region_lines.cpp). A parallel
// region whose codeptr_ra (less one: the call) falls in one is chosen; so is
// any region, explicit task or implicit task that begins on a thread while it
// is inside a chosen one. The tool marks chosen regions and tasks in the
// ompt_data_t values it owns (a high bit, never recorded), and each thread
// counts how deep it is inside chosen ones: its primary from parallel begin
// to end, every thread of the team from its implicit task's begin to end, any
// thread while it runs a chosen explicit task. A thread records while that
// count is above zero: the region's worksharing, barriers, tasks, locks and
// nested regions, on every thread of its team. Thread begin and end are
// always recorded (they name the tracks).
#pragma once

#include <cstdint>

#include "raw_format.h"

namespace kite_trace {

extern bool filtering;  // a window or regions were asked for
extern bool regions_on;

// The high bits of the ids the tool stores in ompt_data_t: a chosen region or
// implicit task (kChosen), an explicit task created inside one (kChosenTask).
// Ids use the bits below (thread index << 40 | serial).
constexpr uint64_t kChosen = uint64_t(1) << 63;
constexpr uint64_t kChosenTask = uint64_t(1) << 62;
constexpr uint64_t kIdMask = ~(kChosen | kChosenTask);

// Reads KITE_TRACE_START_AFTER, KITE_TRACE_DURATION (seconds) and
// KITE_TRACE_REGIONS (FILE:LINE,...), after the recorder started; a bad
// value gets a warning and is ignored. Sets `filtering`.
void filter_from_env();

// At initialize: resolves the regions (the program and its libraries are
// loaded by then) and writes what was asked into the meta file.
void filter_initialize();

// At finalize: what was left out, into the meta file.
void filter_finish();

// Whether a parallel region with this codeptr_ra is one of --regions.
bool chosen_codeptr(uint64_t codeptr);

// The calling thread's depth inside chosen regions and tasks.
int &inside();

// Records `r` (its kind set, its time not) if it falls in the window and,
// with --regions, `in_region`; counts it as left out otherwise.
void filtered(Record &r, bool in_region);

// Makes the calling thread's event file now (window mode), so that its
// header is stamped before the records a window replays.
void filter_thread_begin();

}  // namespace kite_trace
