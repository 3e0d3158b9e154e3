/* A deliberately broken event order for proving that the `kite check`
 * ctest over real programs can fail (tests/tools/CMakeLists.txt,
 * tools.check.sweep.broken): preloaded, this library is the tool the
 * runtime finds first; it loads the real checker (KITE_CHECK_LIB) and
 * hands it every event unchanged except one reordering: a thread's
 * mutex_acquired is held back and delivered after that thread's next
 * mutex_released, so the checker sees a mutex released before it was
 * acquired. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>

static ompt_start_tool_result_t* real;
static ompt_function_lookup_t real_lookup;
static ompt_set_callback_t real_set_callback;
static ompt_callback_mutex_t real_acquired;
static ompt_callback_mutex_t real_released;

static __thread int held;
static __thread ompt_mutex_t held_kind;
static __thread ompt_wait_id_t held_wait_id;
static __thread const void* held_ra;

static void late_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* ra) {
  held = 1;
  held_kind = kind;
  held_wait_id = wait_id;
  held_ra = ra;
}

static void early_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* ra) {
  real_released(kind, wait_id, ra);
  if (held) {
    held = 0;
    real_acquired(held_kind, held_wait_id, held_ra);
  }
}

static ompt_set_result_t set_callback(ompt_callbacks_t event, ompt_callback_t cb) {
  if (event == ompt_callback_mutex_acquired && cb) {
    real_acquired = (ompt_callback_mutex_t)cb;
    cb = (ompt_callback_t)late_acquired;
  } else if (event == ompt_callback_mutex_released && cb) {
    real_released = (ompt_callback_mutex_t)cb;
    cb = (ompt_callback_t)early_released;
  }
  return real_set_callback(event, cb);
}

static ompt_interface_fn_t lookup(const char* name) {
  if (name && !__builtin_strcmp(name, "ompt_set_callback")) return (ompt_interface_fn_t)set_callback;
  return real_lookup(name);
}

static int initialize(ompt_function_lookup_t lk, int num, ompt_data_t* data) {
  real_lookup = lk;
  real_set_callback = (ompt_set_callback_t)lk("ompt_set_callback");
  if (!real_set_callback) return 0;
  return real->initialize(lookup, num, data);
}

static void finalize(ompt_data_t* data) { real->finalize(data); }

ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version, const char* runtime_version) {
  const char* path = getenv("KITE_CHECK_LIB");
  void* lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
  ompt_start_tool_result_t* (*start)(unsigned, const char*) =
      lib ? (ompt_start_tool_result_t * (*)(unsigned, const char*)) dlsym(lib, "ompt_start_tool")
          : NULL;
  if (!start) {
    fprintf(stderr, "broken_order_tool: cannot load the checker (KITE_CHECK_LIB=%s)\n",
            path ? path : "unset");
    return NULL;
  }
  real = start(omp_version, runtime_version);
  if (!real) return NULL;
  static ompt_start_tool_result_t mine;
  mine.initialize = initialize;
  mine.finalize = finalize;
  mine.tool_data = real->tool_data;
  return &mine;
}
