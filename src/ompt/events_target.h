// Emitters for device constructs and device memory routines (OpenMP 5.2
// §13.6-13.10, §18.8; callbacks §19.5.2.25-28).
//
// Without emulated devices Kite's only device is the host, so what a tool
// sees is what host fallback really does:
//   target          target begin, target_submit begin/end around the
//                   creation of the region's initial task, the region
//                   (implicit_task of that initial task), target end
//   target data     target begin/end of kind enter_data at the construct,
//                   then exit_data at its end (GOMP_target_end_data)
//   enter/exit data, update
//                   target begin/end of their kind (the _nowait kinds with
//                   nowait), after the construct's dependences are met
//   omp_target_alloc, _free, _memcpy, _memcpy_rect
//                   target_data_op begin/end (alloc, delete, transfer)
// A map clause names data the host already holds: the corresponding list
// item on the host device is the original one, so no mapping, allocation
// or transfer happens and neither target_map nor target_data_op is
// dispatched for it.
//
// With emulated devices (KITE_DEVICES=N, core/device.h) a construct on
// device d (0..N-1) also reports, in this order on the encountering thread
// (the target task's thread for nowait):
//   target begin                       (device_num d)
//   target_data_op alloc / transfer_to_device   one per allocation / copy
//   target_map                          the construct's list items
//   target_submit begin/end, the region (target only)
//   target_map                          at the end of a target or target
//                                       data region: its items mapped from
//                                       the device (from) or released
//   target_data_op transfer_from_device / delete at the end
//   target end
// Data ops carry host = N as the host side's device number (src of a
// transfer to the device, dest of one from it, src of an alloc: the host
// address being mapped). device_initialize comes before a device's first
// construct or routine, device_load before its first region from a code
// object (the executable or shared object holding gcc's host-fallback
// function), device_unload and device_finalize at shutdown.
//
// For device tracing (device_trace.h): a record belongs in
//   target_begin_slow / target_end_slow   target record (rec->device_num)
//   data_op_slow begin..end               target_data_op record (span)
//   target_map_slow                       target_map record
//   target_submit_slow begin..end         target_kernel record (span)
// each of which has the tool-written host_op_id / target_data value.
//
// Where a tool registered both forms of an event, only the EMI form is
// dispatched (the non-EMI form carries nothing the EMI form lacks).
#pragma once

#include "ompt/callbacks.h"
#include "ompt/device_trace.h"

namespace kite {
namespace ompt {

// A device construct in progress, on the encountering thread's stack.
struct TargetRecord {
  ompt_data_t target_data;        // the tool's (EMI), ompt_data_none at begin
  ompt_id_t target_id;            // the runtime's id of the construct
  ompt_id_t host_op_id;           // operation being initiated, 0 when none
  int device_num;
  int kind;                       // ompt_target_t
  ompt_data_t* task_data;         // the encountering (generating) task
  ompt_data_t* target_task_data;  // the deferred target task, or null
  const void* codeptr_ra;
  TargetRecord* saved;            // the thread's previous record
  KernelTrace kernel;             // device tracing: the region's kernel record
};

// target (_emi) begin for a construct of `kind` on `device`; from here to
// target_end_slow, ompt_get_target_info on `me` answers the construct.
// `target_task`: the deferred target task running it (nowait), or null.
void target_begin_slow(Thread* me, TargetRecord* rec, ompt_target_t kind, int device,
                       Task* target_task, const void* codeptr_ra);
void target_end_slow(Thread* me, TargetRecord* rec);

// target_submit (_emi) around the creation of a target region's initial
// task; the non-EMI form is dispatched at the begin, as 5.2 says.
void target_submit_slow(TargetRecord* rec, ompt_scope_endpoint_t ep, unsigned requested_num_teams);

// The initial task of a target region (me->task) belongs to `rec`: every
// thread of the region answers ompt_get_target_info with it.
inline void mark_target_initial_task(Thread* me, TargetRecord* rec) {
  me->task->ompt.target = rec;
}

// One data operation of a device memory routine: begin before it is
// initiated, end after (dest_addr then known for an allocation).
struct DataOp {
  ompt_target_data_op_t optype;
  void* src_addr;
  int src_device_num;
  void* dest_addr;
  int dest_device_num;
  size_t bytes;
  const void* codeptr_ra;
  ompt_id_t host_op_id;  // set by the tool (EMI) or the runtime
  TraceSpan trace;       // device tracing: the operation on the device's timeline
};
void data_op_slow(Thread* me, DataOp* op, ompt_scope_endpoint_t ep);

// Device life cycle (emulated devices only).
void device_initialize_slow(int device);
void device_finalize_slow(int device);
void device_load_slow(int device, const char* file, int64_t offset, void* vma, size_t bytes,
                      void* host_addr, void* device_addr, uint64_t module_id);
void device_unload_slow(int device, uint64_t module_id);

// target_map (_emi) for the list items a construct mapped (flags:
// ompt_target_map_flag_*), on the thread that owns `rec`.
void target_map_slow(Thread* me, unsigned n, void** host, void** dev, size_t* bytes,
                     unsigned* flags, const void* codeptr_ra);

// The construct `me` is in, for ompt_get_target_info (async-signal-safe:
// plain loads only); null outside any.
TargetRecord* current_target(Thread* me);

}  // namespace ompt
}  // namespace kite
