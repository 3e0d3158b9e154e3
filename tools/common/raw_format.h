// The raw files Kite's tools write inside the program (recorder.h: the
// events of libkite-trace.so, the samples of libkite-profile.so) and their
// converters read after it exits. Per OpenMP thread and stream, one file
// (<stem>.thread-<index>.raw for events, <stem>.thread-<index>.samples.raw
// for samples): fixed-size records in the order the thread produced them,
// written in windows of the meta's window_bytes (a window ends with the
// bytes that do not make a whole record); a record whose kind is 0 ends the
// file early (the rest of a window never filled, e.g. after a crash), kPad
// records fill the end of a window a multi-record entry did not fit in.
// <stem>.meta (text, key=value) and <stem>.maps (a copy of /proc/self/maps)
// describe the process. The layout is this build's own: the tools of the
// same build read it, nothing else does.
#pragma once

#include <cstdint>

namespace kite_trace {

constexpr uint32_t kMagic = 0x4b545231;  // "KTR1"
constexpr uint32_t kVersion = 1;

enum Kind : uint8_t {
  kEnd = 0,           // no more records in this file
  kHeader,            // a: thread index, b: OS tid, sub: ompt_thread_t, u32: magic, c: version
  kThreadBegin,       // sub: ompt_thread_t
  kThreadEnd,
  kParallelBegin,     // a: parallel id, b: encountering task id, u32: requested, f16: flags>>16 .. see flags
  kParallelEnd,       // a: parallel id, b: encountering task id
  kImplicitTask,      // sub: endpoint, a: parallel id, b: task id, u32: parallelism, d: index
  kWork,              // sub: endpoint, f16: ompt_work_t, a: parallel id, b: task id, d: count
  kDispatch,          // sub: ompt_dispatch_t, b: task id, a: start/instance, d: iterations
  kSyncRegion,        // sub: endpoint, f16: ompt_sync_region_t, a: parallel id, b: task id
  kSyncWait,          // as kSyncRegion
  kTaskCreate,        // a: new task id, b: parent task id, u32: flags, sub: has_dependences
  kTaskSchedule,      // a: prior task id, sub: prior status, b: next task id
  kTaskDependence,    // a: source task id, b: sink task id
  kMutexAcquire,      // f16: ompt_mutex_t, a: wait id, u32: hint
  kMutexAcquired,     // f16: ompt_mutex_t, a: wait id
  kMutexReleased,     // f16: ompt_mutex_t, a: wait id
  kNestLock,          // sub: endpoint, a: wait id
  kCancel,            // u32: flags, b: task id
  kMasked,            // sub: endpoint, a: parallel id, b: task id
  kReduction,         // as kSyncRegion
  kTarget,            // sub: endpoint, f16: ompt_target_t, u32: device, a: target id, b: task id,
                      // d: CLOCK_MONOTONIC ns read next to the stamp (a clock pair, kDeviceOp)
  kTargetDataOp,      // sub: endpoint, f16: optype, u32: device (dest), a: target id, d: bytes
  kPad,               // nothing: the rest of the window is unused
  kSample,            // a profile sample; see kite_profile's format
  kDeviceOp,          // a device trace record (written when its buffer arrives, on the
                      // thread that took it): sub: ompt_callbacks_t of the record
                      // (target_data_op, target_submit), f16: optype, u32: device,
                      // a, b: its start and end translated to host CLOCK_MONOTONIC ns,
                      // c: codeptr_ra, d: bytes (data op) or requested teams (kernel);
                      // sub 0: a clock pair before a buffer's records, a: CLOCK_MONOTONIC
                      // ns read next to the record's own stamp
  // MPI events (mpi_format.h says what each field holds).
  kMpiEnter,
  kMpiLeave,
  kMpiSend,
  kMpiSendComplete,
  kMpiRecvRequest,
  kMpiRecv,
  kMpiCollective,
  kMpiCollectiveRequest,   // appended after the first MPI kinds (mpi_format.h)
  kMpiCollectiveComplete,
  kMpiRequestCancelled,
  kKindCount
};

// 48 bytes. `c` is the construct's codeptr_ra wherever the callback has one.
// A record may carry a payload: the next payload_records(n) records hold n
// 8-byte words (frames), six per record.
struct Record {
  uint64_t time;  // ns, CLOCK_MONOTONIC
  uint8_t kind;
  uint8_t sub;
  uint16_t f16;
  uint32_t u32;
  uint64_t a;
  uint64_t b;
  uint64_t c;
  uint64_t d;
};
static_assert(sizeof(Record) == 48, "raw record layout");
constexpr unsigned kWordsPerRecord = sizeof(Record) / sizeof(uint64_t);
inline unsigned payload_records(unsigned words) {
  return (words + kWordsPerRecord - 1) / kWordsPerRecord;
}

// Ids the tool stores in ompt_data_t: the thread index in the high bits,
// a per-thread counter below, so no two threads ever share a counter.
constexpr int kIdThreadShift = 40;
inline uint32_t id_thread(uint64_t id) { return uint32_t(id >> kIdThreadShift); }
inline uint64_t id_serial(uint64_t id) { return id & ((uint64_t(1) << kIdThreadShift) - 1); }

// Event groups (KITE_TRACE_EVENTS / kite trace --events).
enum Group : unsigned {
  kGroupParallel = 1u << 0,  // parallel regions, implicit tasks, threads
  kGroupWork = 1u << 1,      // worksharing regions, masked
  kGroupDispatch = 1u << 2,  // each chunk / section / iteration (opt-in)
  kGroupTasks = 1u << 3,     // explicit tasks, dependences
  kGroupSync = 1u << 4,      // barriers, taskwait, taskgroup, reductions, cancel
  kGroupMutex = 1u << 5,     // locks, critical, ordered, atomic
  kGroupTarget = 1u << 6,    // device constructs and data operations
  kGroupDefault = kGroupParallel | kGroupWork | kGroupTasks | kGroupSync | kGroupMutex | kGroupTarget,
};

}  // namespace kite_trace
