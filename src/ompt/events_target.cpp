// The slow halves of the device-construct emitters (events_target.h): they
// run only with a tool attached.
#include "ompt/events_target.h"

#include "ompt/device_trace.h"

namespace kite {
namespace ompt {

namespace {

// Target region ids and host operation ids: one sequence, so that neither
// kind of id is ever handed out twice in a process.
std::atomic<uint64_t> g_next_target_id{0};

ompt_id_t next_target_id() { return g_next_target_id.fetch_add(1, std::memory_order_relaxed) + 1; }

}  // namespace

void target_begin_slow(Thread* me, TargetRecord* rec, ompt_target_t kind, int device,
                       Task* target_task, const void* codeptr_ra) {
  rec->target_data.value = 0;
  rec->target_id = next_target_id();
  rec->host_op_id = 0;
  rec->device_num = device;
  rec->kind = kind;
  // A deferred target task runs after its generating task handed it over;
  // that task stays allocated until its children are freed, so its data
  // is still the generating task's.
  if (target_task) {
    rec->target_task_data = &target_task->ompt.task_data;
    rec->task_data = target_task->parent ? &target_task->parent->ompt.task_data
                                         : &target_task->ompt.task_data;
  } else {
    rec->target_task_data = nullptr;
    rec->task_data = &me->task->ompt.task_data;
  }
  rec->codeptr_ra = codeptr_ra;
  rec->saved = me->ompt.target;
  me->ompt.target = rec;
  if (auto emi = callback<ompt_callback_target_emi_t>(ompt_callback_target_emi))
    emi(kind, ompt_scope_begin, device, rec->task_data, rec->target_task_data, &rec->target_data,
        codeptr_ra);
  else if (auto cb = callback<ompt_callback_target_t>(ompt_callback_target))
    cb(kind, ompt_scope_begin, device, rec->task_data, rec->target_id, codeptr_ra);
  // device tracing (device_trace.h)
  rec->kernel.span.device_num = -1;
  if (device_tracing(device)) trace_target_endpoint(rec, ompt_scope_begin);
}

void target_end_slow(Thread* me, TargetRecord* rec) {
  ompt_target_t kind = static_cast<ompt_target_t>(rec->kind);
  // device tracing (device_trace.h)
  trace_kernel_end(rec, &rec->kernel);
  if (device_tracing(rec->device_num)) trace_target_endpoint(rec, ompt_scope_end);
  if (auto emi = callback<ompt_callback_target_emi_t>(ompt_callback_target_emi))
    emi(kind, ompt_scope_end, rec->device_num, rec->task_data, rec->target_task_data,
        &rec->target_data, rec->codeptr_ra);
  else if (auto cb = callback<ompt_callback_target_t>(ompt_callback_target))
    cb(kind, ompt_scope_end, rec->device_num, rec->task_data, rec->target_id, rec->codeptr_ra);
  me->ompt.target = rec->saved;
}

void target_submit_slow(TargetRecord* rec, ompt_scope_endpoint_t ep, unsigned requested_num_teams) {
  if (auto emi = callback<ompt_callback_target_submit_emi_t>(ompt_callback_target_submit_emi)) {
    if (ep == ompt_scope_begin) rec->host_op_id = 0;
    emi(ep, &rec->target_data, &rec->host_op_id, requested_num_teams);
  } else if (auto cb = callback<ompt_callback_target_submit_t>(ompt_callback_target_submit)) {
    if (ep == ompt_scope_begin) {
      rec->host_op_id = next_target_id();
      cb(rec->target_id, rec->host_op_id, requested_num_teams);
    }
  }
  // device tracing (device_trace.h): the kernel runs from here until the
  // construct's next operation
  if (ep == ompt_scope_begin && device_tracing(rec->device_num))
    trace_kernel_begin(rec, &rec->kernel, requested_num_teams);
  if (ep == ompt_scope_end) rec->host_op_id = 0;
}

void data_op_slow(Thread* me, DataOp* op, ompt_scope_endpoint_t ep) {
  // Inside a device construct the operation belongs to it. On the thread
  // that owns the construct's record, the operation's id lives in the
  // record while it runs, so that ompt_get_target_info answers it, from
  // inside the callbacks too (an EMI tool writes it during the begin).
  TargetRecord* rec = current_target(me);
  bool owner = rec && rec == me->ompt.target;
  ompt_id_t* id = owner ? &rec->host_op_id : &op->host_op_id;
  auto emi = callback<ompt_callback_target_data_op_emi_t>(ompt_callback_target_data_op_emi);
  auto cb = emi ? nullptr : callback<ompt_callback_target_data_op_t>(ompt_callback_target_data_op);
  *id = ep == ompt_scope_begin ? (emi ? 0 : next_target_id()) : op->host_op_id;
  // device tracing (device_trace.h): a region's kernel ends where the
  // construct's next operation begins; this one's record ends here
  if (owner && ep == ompt_scope_begin) trace_kernel_end(rec, &rec->kernel);
  if (ep == ompt_scope_end) trace_data_op_end(rec, op, *id, &op->trace);
  if (emi) {
    emi(ep, rec ? rec->target_task_data : nullptr, rec ? &rec->target_data : nullptr, id,
        op->optype, op->src_addr, op->src_device_num, op->dest_addr, op->dest_device_num,
        op->bytes, op->codeptr_ra);
  } else if (cb && ep == ompt_scope_end) {
    cb(rec ? rec->target_id : ompt_id_none, *id, op->optype, op->src_addr, op->src_device_num,
       op->dest_addr, op->dest_device_num, op->bytes, op->codeptr_ra);
  }
  op->host_op_id = *id;
  // device tracing: the operation's span opens once the tool has seen it
  if (ep == ompt_scope_begin && data_op_trace_device(op) >= 0) trace_data_op_begin(op, &op->trace);
  if (owner && ep == ompt_scope_end) rec->host_op_id = 0;
}

void device_initialize_slow(int device) {
  if (auto cb = callback<ompt_callback_device_initialize_t>(ompt_callback_device_initialize))
    cb(device, "kite-emulated", device_handle(device), device_lookup,
       "Kite emulated device: host threads, separate device memory (docs/user-guide.md)");
}

void device_finalize_slow(int device) {
  if (auto cb = callback<ompt_callback_device_finalize_t>(ompt_callback_device_finalize))
    cb(device);
  device_trace_finalize(device);
}

void device_load_slow(int device, const char* file, int64_t offset, void* vma, size_t bytes,
                      void* host_addr, void* device_addr, uint64_t module_id) {
  if (auto cb = callback<ompt_callback_device_load_t>(ompt_callback_device_load))
    cb(device, file, offset, vma, bytes, host_addr, device_addr, module_id);
}

void device_unload_slow(int device, uint64_t module_id) {
  if (auto cb = callback<ompt_callback_device_unload_t>(ompt_callback_device_unload))
    cb(device, module_id);
}

void target_map_slow(Thread* me, unsigned n, void** host, void** dev, size_t* bytes,
                     unsigned* flags, const void* codeptr_ra) {
  TargetRecord* rec = current_target(me);
  // device tracing: a map after the region (its end's) closes the kernel
  if (rec) trace_kernel_end(rec, &rec->kernel);
  if (auto emi = callback<ompt_callback_target_map_emi_t>(ompt_callback_target_map_emi))
    emi(rec ? &rec->target_data : nullptr, n, host, dev, bytes, flags, codeptr_ra);
  else if (auto cb = callback<ompt_callback_target_map_t>(ompt_callback_target_map))
    cb(rec ? rec->target_id : ompt_id_none, n, host, dev, bytes, flags, codeptr_ra);
  // device tracing (device_trace.h)
  if (rec && device_tracing(rec->device_num))
    trace_target_map(rec, n, host, dev, bytes, flags, codeptr_ra);
}

TargetRecord* current_target(Thread* me) {
  if (me->ompt.target) return me->ompt.target;
  // Another thread of a target region: climb to the region's initial task
  // through the tasks and teams that enclose this thread's task. The depth
  // bound keeps a torn read in a signal handler from looping.
  Task* t = me->task;
  for (int depth = 0; t && depth < 256; ++depth) {
    switch (t->kind) {
      case kTaskInitial:
        return t->ompt.target;
      case kTaskImplicit:
        t = t->team ? t->team->parent_task : nullptr;
        break;
      default:
        t = t->parent;
        break;
    }
  }
  return nullptr;
}

}  // namespace ompt
}  // namespace kite
