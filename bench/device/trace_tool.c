/* An OMPT tool that registers the same host-side target callbacks as
 * target_tool.c and also traces every device (OMPT device tracing: all
 * record types, 1 MiB buffers, each delivered buffer walked record by
 * record): what device tracing adds to a tool watching the emulated device
 * (bench/device, variant kite-dev1-trace). */
#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long count, records, buffers;
static ompt_get_unique_id_t unique_id;
static ompt_advance_buffer_cursor_t advance;
static ompt_get_record_ompt_t get_record;

static void on_target(ompt_target_t k, ompt_scope_endpoint_t ep, int dev, ompt_data_t* task,
                      ompt_data_t* target_task, ompt_data_t* target_data, const void* ra) {
  (void)k; (void)dev; (void)task; (void)target_task; (void)ra;
  if (ep == ompt_scope_begin) target_data->value = unique_id();
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
}
static void on_op(ompt_scope_endpoint_t ep, ompt_data_t* tt, ompt_data_t* td, ompt_id_t* id,
                  ompt_target_data_op_t op, void* s, int sd, void* d, int dd, size_t b,
                  const void* ra) {
  (void)tt; (void)td; (void)op; (void)s; (void)sd; (void)d; (void)dd; (void)b; (void)ra;
  if (ep == ompt_scope_begin) *id = unique_id();
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
}
static void on_map(ompt_data_t* td, unsigned n, void** h, void** d, size_t* b, unsigned* f,
                   const void* ra) {
  (void)td; (void)n; (void)h; (void)d; (void)b; (void)f; (void)ra;
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
}
static void on_submit(ompt_scope_endpoint_t ep, ompt_data_t* td, ompt_id_t* id, unsigned t) {
  (void)td; (void)t;
  if (ep == ompt_scope_begin) *id = unique_id();
  __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
}

#define BUFFER_BYTES (1 << 20)
static void request(int dev, ompt_buffer_t** buffer, size_t* bytes) {
  (void)dev;
  *buffer = malloc(BUFFER_BYTES);
  *bytes = *buffer ? BUFFER_BYTES : 0;
}
static void complete(int dev, ompt_buffer_t* buffer, size_t bytes, ompt_buffer_cursor_t begin,
                     int owned) {
  (void)dev;
  ompt_buffer_cursor_t cur = begin;
  if (bytes > 0) do {
      ompt_record_ompt_t* r = get_record(buffer, cur);
      if (r) records++;
    } while (advance(NULL, buffer, bytes, cur, &cur));
  buffers++;
  if (owned) free(buffer);
}
static void on_device_initialize(int dev, const char* type, ompt_device_t* device,
                                 ompt_function_lookup_t lookup, const char* doc) {
  (void)dev; (void)type; (void)doc;
  ompt_set_trace_ompt_t set_trace = (ompt_set_trace_ompt_t)lookup("ompt_set_trace_ompt");
  ompt_start_trace_t start = (ompt_start_trace_t)lookup("ompt_start_trace");
  advance = (ompt_advance_buffer_cursor_t)lookup("ompt_advance_buffer_cursor");
  get_record = (ompt_get_record_ompt_t)lookup("ompt_get_record_ompt");
  if (!set_trace || !start || !advance || !get_record) return;
  set_trace(device, 1, 0);
  start(device, request, complete);
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t* data) {
  (void)dev; (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
  set(ompt_callback_target_emi, (ompt_callback_t)on_target);
  set(ompt_callback_target_data_op_emi, (ompt_callback_t)on_op);
  set(ompt_callback_target_map_emi, (ompt_callback_t)on_map);
  set(ompt_callback_target_submit_emi, (ompt_callback_t)on_submit);
  set(ompt_callback_device_initialize, (ompt_callback_t)on_device_initialize);
  return 1;
}
static void fini(ompt_data_t* data) {
  (void)data;
  if (getenv("DEVBENCH_TOOL_REPORT"))
    fprintf(stderr, "devbench trace tool: %lu callbacks, %lu records in %lu buffers\n", count,
            records, buffers);
}

ompt_start_tool_result_t* ompt_start_tool(unsigned v, const char* rt) {
  (void)v; (void)rt;
  static ompt_start_tool_result_t r = {init, fini, {0}};
  return &r;
}
