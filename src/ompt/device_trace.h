// OMPT device tracing for the emulated devices (OpenMP 5.2 §19.2.5, §19.6.2):
// each device's lookup function, its handle, its clock, and the trace
// buffers a tool asks for with ompt_start_trace.
//
// Who calls what:
//   - the device layer (events_target.cpp) passes device_lookup and
//     device_handle(n) to device_initialize, and calls
//     device_trace_finalize(n) right after device_finalize is dispatched;
//   - the emitters of target constructs, data operations, maps and kernel
//     submissions test device_tracing(n) (one load and a branch when no
//     device traces) and, when it is true, open a TraceSpan before the
//     device does the work and close it with the record after, or append a
//     point record (target begin/end, target_map);
//   - the tool drives the rest through the entry points device_lookup
//     answers.
//
// Device numbers are those of the callbacks: 0..N-1 for the N emulated
// devices (KITE_DEVICES=N); the host (N) is not traced.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/base.h"
#include "omp-tools.h"

namespace kite {
namespace ompt {

// Devices that can trace: numbers 0..kMaxTracedDevices-1. One bit per device
// in g_device_tracing keeps the fast check to a single load.
constexpr int kMaxTracedDevices = 64;

// Bit d: device d has a started, unpaused trace with at least one record
// type enabled. Written only by the tracing entry points.
extern std::atomic<uint64_t> g_device_tracing;

inline bool device_tracing(int device_num) {
  uint64_t on = g_device_tracing.load(std::memory_order_relaxed);
  if (KITE_LIKELY(on == 0)) return false;
  return static_cast<unsigned>(device_num) < kMaxTracedDevices && ((on >> device_num) & 1u);
}

// The opaque ompt_device_t* a tool receives for device `device_num` (stable
// for the process's lifetime); null for a number outside 0..kMax-1.
ompt_device_t* device_handle(int device_num);

// The lookup function handed to device_initialize: the 14 entry points of
// the device tracing interface by name, null for any other name.
ompt_interface_fn_t device_lookup(const char* name);

// Called right after device_finalize was dispatched for `device_num`: every
// record still held is delivered (buffer_complete) and the trace stops.
void device_trace_finalize(int device_num);

// The device's own clock (what ompt_get_device_time answers): nanosecond
// ticks counted from a device-specific origin, not the host's, so that a
// tool needs ompt_translate_time to place device times on the host's
// omp_get_wtime time base.
ompt_device_time_t device_time(int device_num);

// --- records -----------------------------------------------------------------
//
// An operation with a duration on a device's timeline (a data transfer, a
// kernel, an allocation). Lives on the caller's stack from begin to end.
// While it is open, records that would sort after its start time are held
// back, so every buffer a tool receives is in time order per device even
// when several host threads drive the same device at once (nowait).
struct TraceSpan {
  ompt_device_time_t start;  // device time at begin
  TraceSpan* prev;           // open spans of the device, oldest first
  TraceSpan* next;
  int device_num = -1;       // -1: not open
};

// Opens `span` on `device_num`'s timeline (start = device time now). Call
// only when device_tracing(device_num) said yes; a span opened while tracing
// is on must be closed with trace_span_end even if tracing stops meanwhile.
void trace_span_begin(int device_num, TraceSpan* span);

// Closes `span` and appends `rec` (type, target_id and the union member
// filled by the caller): time is set to the span's start, and the member's
// end_time (target_data_op, target_kernel) to device time now; thread_id
// is the calling host thread's. The record is dropped when its type is not
// enabled for the device or the trace stopped.
void trace_span_end(TraceSpan* span, ompt_record_ompt_t* rec);

// Appends a point record (target begin/end, target_map): time = now.
void trace_point(int device_num, ompt_record_ompt_t* rec);

// Whether a span is open (so the end half knows).
inline bool trace_span_open(const TraceSpan* span) { return span->device_num >= 0; }

// --- hooks for the target emitters (events_target.cpp) -----------------------
//
// Each builds the record of one host-side event from the emitter's own
// structures. The ids a record carries are those the tool saw: with
// target_emi registered, target_id is the value the tool wrote into
// target_data, else the runtime's target id; host_op_id is the value in
// the callbacks' host_op_id location at the end (the tool's, for EMI).

struct TargetRecord;
struct DataOp;

// The kernel of a target region (target_submit): opened when the submit
// begin callback returned, closed when the construct's next operation on
// the device begins (a data transfer back, or the target end), which is
// where the region's execution ended to within the runtime's bookkeeping.
struct KernelTrace {
  TraceSpan span;
  ompt_id_t host_op_id;
  unsigned requested_num_teams;
};

// target begin (after the callback) and end (before it): point records.
void trace_target_endpoint(TargetRecord* rec, ompt_scope_endpoint_t ep);
// After the target_submit begin callback.
void trace_kernel_begin(TargetRecord* rec, KernelTrace* k, unsigned requested_num_teams);
// Closes the kernel's span if open (no-op otherwise).
void trace_kernel_end(TargetRecord* rec, KernelTrace* k);
// A data operation: span from after the begin callback to before the end
// callback. The record goes to the emulated device among source and
// destination (the destination when both are).
void trace_data_op_begin(DataOp* op, TraceSpan* span);
void trace_data_op_end(TargetRecord* rec, DataOp* op, ompt_id_t host_op_id, TraceSpan* span);
// target_map: a point record; the arrays are copied, and the copies stay
// valid until the buffer_complete callback that delivers the record
// returns.
void trace_target_map(TargetRecord* rec, unsigned n, void** host, void** dev, size_t* bytes,
                      unsigned* flags, const void* codeptr_ra);
// The emulated device a data operation's record belongs to, or -1.
int data_op_trace_device(const DataOp* op);

}  // namespace ompt
}  // namespace kite
