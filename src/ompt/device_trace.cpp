// Device tracing for the emulated devices (device_trace.h): handles, clocks
// and the entry points of the device tracing interface.
#include "ompt/device_trace.h"

#include <string.h>
#include <time.h>

#include "core/icv.h"

namespace kite {
namespace ompt {

std::atomic<uint64_t> g_device_tracing{0};

namespace {

// One emulated device as the tracing interface knows it. The handle a tool
// receives is the address of its slot.
struct Device {
  int num;
};

Device g_devices[kMaxTracedDevices];

Device* device_of(ompt_device_t* handle) {
  Device* d = static_cast<Device*>(handle);
  if (d < g_devices || d >= g_devices + kMaxTracedDevices) return nullptr;
  return d;
}

int64_t host_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);  // omp_get_wtime's clock
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Device d's clock reads host time plus (d + 1) * kClockSkew ns, so device
// times of different devices never look alike and none equals host time.
constexpr int64_t kClockSkew = 1000000000000;  // 1000 s

int get_device_num_procs(ompt_device_t* device) {
  return device_of(device) ? g_icv.num_procs : 0;
}

ompt_device_time_t get_device_time(ompt_device_t* device) {
  Device* d = device_of(device);
  return d ? device_time(d->num) : 0;
}

// "The ompt_translate_time ... translates a time value obtained from the
// specified device to a corresponding time value on the host device. The
// returned value for the host time has the same meaning as the value
// returned from omp_get_wtime." (5.2 §19.6.2.3)
double translate_time(ompt_device_t* device, ompt_device_time_t time) {
  Device* d = device_of(device);
  if (!d) return 0.0;
  int64_t ns = int64_t(time) - (d->num + 1) * kClockSkew;
  return double(ns / 1000000000) + double(ns % 1000000000) * 1e-9;
}

ompt_set_result_t set_trace_ompt(ompt_device_t*, unsigned, unsigned) { return ompt_set_error; }
ompt_set_result_t set_trace_native(ompt_device_t*, int, int) { return ompt_set_error; }
int start_trace(ompt_device_t*, ompt_callback_buffer_request_t, ompt_callback_buffer_complete_t) {
  return 0;
}
int pause_trace(ompt_device_t*, int) { return 0; }
int flush_trace(ompt_device_t*) { return 0; }
int stop_trace(ompt_device_t*) { return 0; }
int advance_buffer_cursor(ompt_device_t*, ompt_buffer_t*, size_t, ompt_buffer_cursor_t,
                          ompt_buffer_cursor_t*) {
  return 0;
}
ompt_record_t get_record_type(ompt_buffer_t*, ompt_buffer_cursor_t) { return ompt_record_invalid; }
ompt_record_ompt_t* get_record_ompt(ompt_buffer_t*, ompt_buffer_cursor_t) { return nullptr; }
void* get_record_native(ompt_buffer_t*, ompt_buffer_cursor_t, ompt_id_t*) { return nullptr; }
ompt_record_abstract_t* get_record_abstract(void*) { return nullptr; }

struct Entry {
  const char* name;
  ompt_interface_fn_t fn;
};

#define KITE_ENTRY(fn) {"ompt_" #fn, reinterpret_cast<ompt_interface_fn_t>(&fn)}
const Entry kEntries[] = {
    KITE_ENTRY(get_device_num_procs), KITE_ENTRY(get_device_time),
    KITE_ENTRY(translate_time),       KITE_ENTRY(set_trace_ompt),
    KITE_ENTRY(set_trace_native),     KITE_ENTRY(start_trace),
    KITE_ENTRY(pause_trace),          KITE_ENTRY(flush_trace),
    KITE_ENTRY(stop_trace),           KITE_ENTRY(advance_buffer_cursor),
    KITE_ENTRY(get_record_type),      KITE_ENTRY(get_record_ompt),
    KITE_ENTRY(get_record_native),    KITE_ENTRY(get_record_abstract),
};
#undef KITE_ENTRY

}  // namespace

ompt_device_t* device_handle(int device_num) {
  if (static_cast<unsigned>(device_num) >= kMaxTracedDevices) return nullptr;
  Device* d = &g_devices[device_num];
  d->num = device_num;
  return d;
}

ompt_interface_fn_t device_lookup(const char* name) {
  if (!name) return nullptr;
  for (const Entry& e : kEntries)
    if (strcmp(e.name, name) == 0) return e.fn;
  return nullptr;
}

void device_trace_finalize(int) {}

ompt_device_time_t device_time(int device_num) {
  return ompt_device_time_t(host_ns() + (device_num + 1) * kClockSkew);
}

void trace_span_begin(int device_num, TraceSpan* span) {
  span->device_num = -1;
  (void)device_num;
}
void trace_span_end(TraceSpan*, ompt_record_ompt_t*) {}
void trace_point(int, ompt_record_ompt_t*) {}

}  // namespace ompt
}  // namespace kite
