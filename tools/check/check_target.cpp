// The rules of `kite check` for devices and device constructs (OpenMP 5.2
// §19.5.2.19-28, EMI callbacks): a device is initialized once before any
// event names it and named by none after its finalization; code objects
// unload once after they loaded; target constructs, data operations and
// kernel submissions end with the locations their begin passed and nest
// on their thread; submissions and maps belong to an open construct.
#include <cstdio>

#include "check_rules.h"

namespace kite_check {

namespace {

const char *kind_of(int endpoint) {
  return endpoint == ompt_scope_begin ? "begin" : endpoint == ompt_scope_end ? "end" : "beginend";
}

}  // namespace

void Engine::check_device(ThreadState &t, const char *event, int device) {
  // The host needs no initialization, and -1 names no device (an operation
  // with one side only, e.g. a delete's destination).
  if (device == initial_device_ || device < 0) return;
  std::lock_guard<std::mutex> g(devices_lock_);
  auto it = devices_.find(device);
  if (it == devices_.end())
    violation(t, "device.not-initialized", event,
              "names device %d before any device_initialize of it", device);
  else if (it->second == 2)
    violation(t, "device.event-after-finalize", event, "names device %d after its device_finalize",
              device);
}

void Engine::device_initialize(ThreadState &t, int device) {
  std::lock_guard<std::mutex> g(devices_lock_);
  int &state = devices_[device];
  if (state != 0)
    violation(t, "device.initialize-once", "device_initialize",
              "device %d initialized again (state %s)", device,
              state == 1 ? "initialized" : "finalized");
  state = 1;
}

void Engine::device_finalize(ThreadState &t, int device) {
  std::lock_guard<std::mutex> g(devices_lock_);
  auto it = devices_.find(device);
  if (it == devices_.end() || it->second != 1)
    violation(t, "device.finalize-pairing", "device_finalize",
              "device %d finalized %s", device,
              it == devices_.end() ? "without device_initialize" : "twice");
  devices_[device] = 2;
}

void Engine::device_load(ThreadState &t, int device, uint64_t module_id) {
  check_device(t, "device_load", device);
  std::lock_guard<std::mutex> g(devices_lock_);
  if (modules_[{device, module_id}]++ != 0)
    violation(t, "device.load-once", "device_load",
              "module %llu loaded again on device %d without an unload",
              (unsigned long long)module_id, device);
}

void Engine::device_unload(ThreadState &t, int device, uint64_t module_id) {
  check_device(t, "device_unload", device);
  std::lock_guard<std::mutex> g(devices_lock_);
  auto it = modules_.find({device, module_id});
  if (it == modules_.end() || it->second == 0)
    violation(t, "device.unload-pairing", "device_unload",
              "module %llu unloaded from device %d where it is not loaded",
              (unsigned long long)module_id, device);
  else
    --it->second;
}

void Engine::target(ThreadState &t, int kind, ompt_scope_endpoint_t endpoint, int device,
                    ompt_data_t *target_data, const void *codeptr) {
  need_begun(t, "target_emi");
  check_device(t, "target_emi", device);
  if (!target_data) {
    violation(t, "target.pairing", "target_emi", "%s with target_data=NULL", kind_of(endpoint));
    return;
  }
  if (endpoint == ompt_scope_begin) {
    uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
    target_data->value = id;
    t.targets.push_back({target_data, id, kind, device, codeptr});
    std::lock_guard<std::mutex> g(devices_lock_);
    open_targets_.insert(target_data);
    return;
  }
  if (t.targets.empty()) {
    violation(t, "target.pairing", "target_emi",
              "end (kind %d, device %d) with no construct open on the thread", kind, device);
    return;
  }
  TargetRec top = t.targets.back();
  t.targets.pop_back();
  {
    std::lock_guard<std::mutex> g(devices_lock_);
    open_targets_.erase(top.target_data);
  }
  if (top.target_data != target_data || target_data->value != top.id || top.kind != kind ||
      top.device != device || top.codeptr != codeptr)
    violation(t, "target.pairing", "target_emi",
              "end kind=%d device=%d target_data=%p (id %llu) codeptr=%p; the open construct: "
              "kind=%d device=%d target_data=%p (id %llu) codeptr=%p",
              kind, device, (void *)target_data, (unsigned long long)target_data->value, codeptr,
              top.kind, top.device, (void *)top.target_data, (unsigned long long)top.id,
              top.codeptr);
  if (!t.data_ops.empty() || !t.submits.empty())
    violation(t, "target.pairing", "target_emi",
              "construct ends with %zu data operation(s) and %zu submission(s) still open",
              t.data_ops.size(), t.submits.size());
}

void Engine::target_data_op(ThreadState &t, ompt_scope_endpoint_t endpoint,
                            ompt_data_t *target_data, ompt_id_t *host_op_id, int optype,
                            int src_device, int dest_device) {
  need_begun(t, "target_data_op_emi");
  check_device(t, "target_data_op_emi", src_device);
  check_device(t, "target_data_op_emi", dest_device);
  if (target_data) {
    std::lock_guard<std::mutex> g(devices_lock_);
    if (!open_targets_.count(target_data))
      violation(t, "target.data-op-target", "target_data_op_emi",
                "%s optype=%d names target_data=%p, which is no open target construct",
                kind_of(endpoint), optype, (void *)target_data);
  }
  if (!host_op_id) {
    violation(t, "target.data-op-pairing", "target_data_op_emi", "%s with host_op_id=NULL",
              kind_of(endpoint));
    return;
  }
  if (endpoint == ompt_scope_begin) {
    uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
    *host_op_id = id;
    t.data_ops.push_back({host_op_id, id, optype, src_device, dest_device});
    return;
  }
  if (t.data_ops.empty()) {
    violation(t, "target.data-op-pairing", "target_data_op_emi",
              "end optype=%d with no data operation open on the thread", optype);
    return;
  }
  DataOpRec top = t.data_ops.back();
  t.data_ops.pop_back();
  if (top.host_op_id != host_op_id || *host_op_id != top.id || top.optype != optype ||
      top.src_device != src_device || top.dest_device != dest_device)
    violation(t, "target.data-op-pairing", "target_data_op_emi",
              "end optype=%d devices %d->%d host_op_id=%p (%llu); the open one: optype=%d "
              "devices %d->%d host_op_id=%p (%llu)",
              optype, src_device, dest_device, (void *)host_op_id,
              (unsigned long long)*host_op_id, top.optype, top.src_device, top.dest_device,
              (void *)top.host_op_id, (unsigned long long)top.id);
}

void Engine::target_submit(ThreadState &t, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *target_data, ompt_id_t *host_op_id) {
  need_begun(t, "target_submit_emi");
  if (endpoint == ompt_scope_begin) {
    // "A target-submit-begin event occurs prior to initiating creation of an
    // initial task on a target device for a target region" (5.2 §19.5.2.28):
    // inside the target construct, on the thread that encountered it.
    if (t.targets.empty() || t.targets.back().target_data != target_data ||
        (t.targets.back().kind != ompt_target && t.targets.back().kind != ompt_target_nowait))
      violation(t, "target.submit-outside-target", "target_submit_emi",
                "begin target_data=%p, not the target region open on the thread (%p)",
                (void *)target_data,
                t.targets.empty() ? nullptr : (void *)t.targets.back().target_data);
    uint64_t id = next_id_.fetch_add(1, std::memory_order_relaxed);
    if (host_op_id) *host_op_id = id;
    t.submits.push_back({target_data, host_op_id, id});
    return;
  }
  if (t.submits.empty()) {
    violation(t, "target.submit-pairing", "target_submit_emi",
              "end with no submission open on the thread");
    return;
  }
  SubmitRec top = t.submits.back();
  t.submits.pop_back();
  if (top.target_data != target_data || top.host_op_id != host_op_id ||
      (host_op_id && *host_op_id != top.id))
    violation(t, "target.submit-pairing", "target_submit_emi",
              "end target_data=%p host_op_id=%p; the open one: target_data=%p host_op_id=%p",
              (void *)target_data, (void *)host_op_id, (void *)top.target_data,
              (void *)top.host_op_id);
}

void Engine::target_map(ThreadState &t, ompt_data_t *target_data, unsigned nitems) {
  need_begun(t, "target_map_emi");
  std::lock_guard<std::mutex> g(devices_lock_);
  if (!target_data || !open_targets_.count(target_data))
    violation(t, "target.map-outside-target", "target_map_emi",
              "%u item(s) for target_data=%p, which is no open target construct", nitems,
              (void *)target_data);
}

void Engine::finish_targets(ThreadState &t) {
  if (!t.targets.empty())
    violation(t, "finalize.open-target", "finalize",
              "%zu target construct(s) open, innermost kind=%d device=%d", t.targets.size(),
              t.targets.back().kind, t.targets.back().device);
  if (!t.data_ops.empty())
    violation(t, "finalize.open-data-op", "finalize", "%zu data operation(s) open",
              t.data_ops.size());
  if (!t.submits.empty())
    violation(t, "finalize.open-submit", "finalize", "%zu submission(s) open", t.submits.size());
}

}  // namespace kite_check
