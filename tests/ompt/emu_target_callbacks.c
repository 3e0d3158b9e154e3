// kite-test-compilers: gcc  -- gcc's offloading ABI on Kite's emulated devices
/* Every host-side target callback of the emulated devices (KITE_DEVICES=2),
 * checked by a tool for pairing, ids and addresses:
 *   - device_initialize once per device at its first use, with a handle
 *     and a lookup function that serves the tracing entry points;
 *   - device_load before the first region (the executable holding gcc's
 *     host-fallback functions), device_unload then device_finalize for
 *     each device at ompt_finalize_tool;
 *   - target_emi begin/end around each construct, with its kind, device
 *     number, the same target_data location at both ends, the return
 *     address into the construct's function;
 *   - target_data_op_emi: alloc, transfer to, transfer from, delete with
 *     the host (device 2) and device numbers, host and device addresses,
 *     sizes; the host_op_id the tool writes at the begin is the one it
 *     finds at the end and the one ompt_get_target_info answers;
 *   - target_map_emi: the construct's items, with device addresses and
 *     flags; target_submit_emi: begin/end with the requested teams;
 *   - nowait constructs carry their target task's data; device memory
 *     routines outside constructs carry no target data.
 * Compiled with EMU_NOEMI (emu_target_callbacks_noemi.c), the tool
 * registers only the non-EMI forms, which carry the construct's target_id.
 * kite-test-threads: 1 3
 * kite-test-env: KITE_DEVICES=2
 */
#include "kite_test.h"

#include <omp-tools.h>
#include <stdint.h>

enum {
  E_DEV_INIT = 1,
  E_DEV_FINI,
  E_DEV_LOAD,
  E_DEV_UNLOAD,
  E_TARGET,
  E_DATA_OP,
  E_MAP,
  E_SUBMIT
};

typedef struct ev {
  int type, endpoint, kind, device, src_dev, dst_dev;
  ompt_data_t* target_data;
  uint64_t target_value;
  ompt_data_t* task_data;
  ompt_data_t* target_task_data;
  uint64_t target_task_value;
  ompt_id_t* op_ptr;
  ompt_id_t op_id;
  ompt_id_t target_id;
  void *src, *dst;
  size_t bytes;
  unsigned nitems, teams;
  void* hosts[4];
  void* devs[4];
  size_t sizes[4];
  unsigned flags[4];
  const void* ra;
  int info_ret;
  uint64_t info_dev;
  ompt_id_t info_target, info_op;
  uint64_t module_id;
  char file[256];
  void* host_addr;
  int handle_ok, lookup_ok;
} ev;

#define MAXEV 4096
static ev evs[MAXEV];
static int nev;
static ompt_get_unique_id_t get_unique_id;
static ompt_get_target_info_t get_target_info;
static ompt_finalize_tool_t finalize_tool;
static int set_results[64];

static ev* push(int type) {
  int i = __atomic_fetch_add(&nev, 1, __ATOMIC_RELAXED);
  if (i >= MAXEV) return NULL;
  ev* e = &evs[i];
  memset(e, 0, sizeof *e);
  e->type = type;
  e->info_ret = get_target_info(&e->info_dev, &e->info_target, &e->info_op);
  return e;
}

static void on_dev_init(int device, const char* type, ompt_device_t* handle,
                        ompt_function_lookup_t lookup, const char* doc) {
  (void)doc;
  ev* e = push(E_DEV_INIT);
  if (!e) return;
  e->device = device;
  snprintf(e->file, sizeof e->file, "%s", type ? type : "");
  e->handle_ok = handle != NULL;
  e->lookup_ok = lookup != NULL && lookup("ompt_start_trace") != NULL &&
                 lookup("ompt_get_device_time") != NULL;
}
static void on_dev_fini(int device) {
  ev* e = push(E_DEV_FINI);
  if (e) e->device = device;
}
static void on_dev_load(int device, const char* file, int64_t off, void* vma, size_t bytes,
                        void* host_addr, void* dev_addr, uint64_t id) {
  /* The whole file, at an unknown address in the file, run where loaded. */
  if (off != 0 || vma != (void*)~(uintptr_t)0 || dev_addr != host_addr) host_addr = NULL;
  ev* e = push(E_DEV_LOAD);
  if (!e) return;
  e->device = device;
  snprintf(e->file, sizeof e->file, "%s", file ? file : "");
  e->bytes = bytes;
  e->host_addr = host_addr;
  e->module_id = id;
}
static void on_dev_unload(int device, uint64_t id) {
  ev* e = push(E_DEV_UNLOAD);
  if (!e) return;
  e->device = device;
  e->module_id = id;
}

#ifndef EMU_NOEMI
static void on_target(ompt_target_t kind, ompt_scope_endpoint_t ep, int device,
                      ompt_data_t* task_data, ompt_data_t* target_task_data,
                      ompt_data_t* target_data, const void* ra) {
  if (ep == ompt_scope_begin) target_data->value = get_unique_id();
  ev* e = push(E_TARGET);
  if (!e) return;
  e->endpoint = ep;
  e->kind = kind;
  e->device = device;
  e->task_data = task_data;
  e->target_task_data = target_task_data;
  e->target_task_value = target_task_data ? target_task_data->value : 0;
  e->target_data = target_data;
  e->target_value = target_data->value;
  e->ra = ra;
}
static void on_data_op(ompt_scope_endpoint_t ep, ompt_data_t* target_task_data,
                       ompt_data_t* target_data, ompt_id_t* host_op_id, ompt_target_data_op_t op,
                       void* src, int src_dev, void* dst, int dst_dev, size_t bytes,
                       const void* ra) {
  if (ep == ompt_scope_begin) *host_op_id = get_unique_id();
  ev* e = push(E_DATA_OP);
  if (!e) return;
  e->endpoint = ep;
  e->kind = op;
  e->target_task_data = target_task_data;
  e->target_data = target_data;
  e->target_value = target_data ? target_data->value : 0;
  e->op_ptr = host_op_id;
  e->op_id = *host_op_id;
  e->src = src;
  e->src_dev = src_dev;
  e->dst = dst;
  e->dst_dev = dst_dev;
  e->bytes = bytes;
  e->ra = ra;
}
static void on_map(ompt_data_t* target_data, unsigned n, void** host, void** dev, size_t* bytes,
                   unsigned* flags, const void* ra) {
  ev* e = push(E_MAP);
  if (!e) return;
  e->target_data = target_data;
  e->target_value = target_data ? target_data->value : 0;
  e->nitems = n;
  for (unsigned i = 0; i < n && i < 4; ++i) {
    e->hosts[i] = host[i];
    e->devs[i] = dev[i];
    e->sizes[i] = bytes[i];
    e->flags[i] = flags[i];
  }
  e->ra = ra;
}
static void on_submit(ompt_scope_endpoint_t ep, ompt_data_t* target_data, ompt_id_t* host_op_id,
                      unsigned teams) {
  if (ep == ompt_scope_begin) *host_op_id = get_unique_id();
  ev* e = push(E_SUBMIT);
  if (!e) return;
  e->endpoint = ep;
  e->target_data = target_data;
  e->target_value = target_data ? target_data->value : 0;
  e->op_ptr = host_op_id;
  e->op_id = *host_op_id;
  e->teams = teams;
}
#else
static void on_target(ompt_target_t kind, ompt_scope_endpoint_t ep, int device,
                      ompt_data_t* task_data, ompt_id_t target_id, const void* ra) {
  ev* e = push(E_TARGET);
  if (!e) return;
  e->endpoint = ep;
  e->kind = kind;
  e->device = device;
  e->task_data = task_data;
  e->target_id = target_id;
  e->ra = ra;
}
static void on_data_op(ompt_id_t target_id, ompt_id_t host_op_id, ompt_target_data_op_t op,
                       void* src, int src_dev, void* dst, int dst_dev, size_t bytes,
                       const void* ra) {
  ev* e = push(E_DATA_OP);
  if (!e) return;
  e->endpoint = ompt_scope_end; /* the non-EMI form comes once, at the end */
  e->kind = op;
  e->target_id = target_id;
  e->op_id = host_op_id;
  e->src = src;
  e->src_dev = src_dev;
  e->dst = dst;
  e->dst_dev = dst_dev;
  e->bytes = bytes;
  e->ra = ra;
}
static void on_map(ompt_id_t target_id, unsigned n, void** host, void** dev, size_t* bytes,
                   unsigned* flags, const void* ra) {
  ev* e = push(E_MAP);
  if (!e) return;
  e->target_id = target_id;
  e->nitems = n;
  for (unsigned i = 0; i < n && i < 4; ++i) {
    e->hosts[i] = host[i];
    e->devs[i] = dev[i];
    e->sizes[i] = bytes[i];
    e->flags[i] = flags[i];
  }
  e->ra = ra;
}
static void on_submit(ompt_id_t target_id, ompt_id_t host_op_id, unsigned teams) {
  ev* e = push(E_SUBMIT);
  if (!e) return;
  e->endpoint = ompt_scope_begin;
  e->target_id = target_id;
  e->op_id = host_op_id;
  e->teams = teams;
}
#endif

static int tool_init(ompt_function_lookup_t lookup, int initial_device, ompt_data_t* data) {
  (void)data;
  (void)initial_device;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  get_unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
  get_target_info = (ompt_get_target_info_t)lookup("ompt_get_target_info");
  finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
#define REG(cb, fn) set_results[cb] = set(cb, (ompt_callback_t)fn)
  REG(ompt_callback_device_initialize, on_dev_init);
  REG(ompt_callback_device_finalize, on_dev_fini);
  REG(ompt_callback_device_load, on_dev_load);
  REG(ompt_callback_device_unload, on_dev_unload);
#ifndef EMU_NOEMI
  REG(ompt_callback_target_emi, on_target);
  REG(ompt_callback_target_data_op_emi, on_data_op);
  REG(ompt_callback_target_map_emi, on_map);
  REG(ompt_callback_target_submit_emi, on_submit);
#else
  REG(ompt_callback_target, on_target);
  REG(ompt_callback_target_data_op, on_data_op);
  REG(ompt_callback_target_map, on_map);
  REG(ompt_callback_target_submit, on_submit);
#endif
  return 1;
}
static void tool_fini(ompt_data_t* data) { (void)data; }

ompt_start_tool_result_t* ompt_start_tool(unsigned int v, const char* rt) {
  (void)v;
  (void)rt;
  static ompt_start_tool_result_t r = {tool_init, tool_fini, {0}};
  return &r;
}

/* --- the program ------------------------------------------------------ */

#define N 32
static int a[N];
static int b = 3;
static int c[N];

void region_a(void) __attribute__((noinline));
void region_a(void) {
#pragma omp target map(tofrom : a) map(to : b)
  a[0] += b;
}

void data_constructs(void) __attribute__((noinline));
void data_constructs(void) {
#pragma omp target enter data map(to : c) device(1)
#pragma omp target update from(c) device(1)
#pragma omp target exit data map(from : c) device(1)
}

void teams_region(void) __attribute__((noinline));
void teams_region(void) {
#pragma omp target teams num_teams(3) map(tofrom : a)
  a[omp_get_team_num()] += 1;
}

void nowait_region(void) __attribute__((noinline));
void nowait_region(void) {
#pragma omp parallel
#pragma omp single
  {
#pragma omp target nowait map(tofrom : c)
    c[1] = 11;
#pragma omp taskwait
#pragma omp target enter data nowait map(to : c) device(1)
#pragma omp taskwait
#pragma omp target exit data nowait map(release : c) device(1)
#pragma omp taskwait
  }
}

void data_region(void) __attribute__((noinline));
void data_region(void) {
#pragma omp target data map(tofrom : c) device(1)
  {
#pragma omp target device(1)
    c[2] = 22;
  }
}

static int returns_into(const void* ra, void* fn) {
  Dl_info info;
  return ra && dladdr(ra, &info) && info.dli_saddr == fn;
}

/* The event index of the next event of `type` at or after i, -1 if none. */
static int next(int i, int type) {
  for (; i < nev; ++i)
    if (evs[i].type == type) return i;
  return -1;
}

/* Checks the events [from, to) of one construct on one thread: every data
 * op, map and submit belongs to the construct that encloses it. Returns
 * the index of the construct's target end. */
static int check_construct(int from, int kind, int device, void* fn) {
  int tb = next(from, E_TARGET);
  CHECK(tb >= 0);
  if (tb < 0) return nev;
  ev* b0 = &evs[tb];
  CHECK_EQ_LONG(b0->endpoint, ompt_scope_begin);
  CHECK_EQ_LONG(b0->kind, kind);
  CHECK_EQ_LONG(b0->device, device);
  CHECK(returns_into(b0->ra, fn));
  int te = -1;
  for (int i = tb + 1; i < nev; ++i) {
    ev* e = &evs[i];
    if (e->type == E_TARGET) {
      te = i;
      break;
    }
    if (e->type == E_DEV_LOAD || e->type == E_DEV_INIT) continue;
#ifndef EMU_NOEMI
    CHECK(e->target_data == b0->target_data);
    CHECK_EQ_LONG(e->target_value, b0->target_value);
#else
    CHECK_EQ_LONG(e->target_id, b0->target_id);
    CHECK(e->target_id != 0);
#endif
    if (e->type == E_DATA_OP) {
      CHECK(returns_into(e->ra, fn));
      CHECK_EQ_LONG(e->info_ret, 1);
      CHECK_EQ_LONG(e->info_dev, device);
      CHECK(e->op_id != 0);
      /* Data ops connect host and device memory. */
      int host = omp_get_initial_device();
      if (e->kind == ompt_target_data_alloc || e->kind == ompt_target_data_transfer_to_device) {
        CHECK_EQ_LONG(e->src_dev, host);
        CHECK_EQ_LONG(e->dst_dev, device);
      } else if (e->kind == ompt_target_data_transfer_from_device ||
                 e->kind == ompt_target_data_delete) {
        CHECK_EQ_LONG(e->src_dev, device);
        CHECK_EQ_LONG(e->dst_dev, host);
      }
    }
    if (e->type == E_MAP) CHECK(returns_into(e->ra, fn));
  }
  CHECK(te > tb);
  if (te < 0) return nev;
  ev* e0 = &evs[te];
  CHECK_EQ_LONG(e0->endpoint, ompt_scope_end);
  CHECK_EQ_LONG(e0->kind, kind);
  CHECK_EQ_LONG(e0->device, device);
  CHECK(e0->ra == b0->ra);
#ifndef EMU_NOEMI
  CHECK(e0->target_data == b0->target_data);
  CHECK_EQ_LONG(e0->target_value, b0->target_value);
  CHECK(b0->target_value != 0);
  /* Begin/end pairs of data ops and submits: same location, same id. */
  for (int i = tb + 1; i < te; ++i) {
    ev* e = &evs[i];
    if ((e->type != E_DATA_OP && e->type != E_SUBMIT) || e->endpoint != ompt_scope_begin) continue;
    ev* f = i + 1 < te ? &evs[i + 1] : NULL;
    CHECK(f && f->type == e->type && f->endpoint == ompt_scope_end);
    if (!f) continue;
    CHECK(f->op_ptr == e->op_ptr);
    CHECK_EQ_LONG(f->op_id, e->op_id);
    CHECK_EQ_LONG(f->kind, e->kind);
    CHECK_EQ_LONG(f->bytes, e->bytes);
    if (e->type == E_DATA_OP) {
      /* ompt_get_target_info names the operation being reported. */
      CHECK_EQ_LONG(e->info_op, e->op_id);
      CHECK_EQ_LONG(f->info_op, e->op_id);
    }
  }
#else
  CHECK(e0->target_id == b0->target_id);
#endif
  return te;
}

/* A target_map of region_a's two items: a and b at device addresses da
 * and db, with their flags. */
static void check_map_of_a_b(const ev* e, void* da, void* db, unsigned a_flags, unsigned b_flags) {
  CHECK_EQ_LONG(e->nitems, 2);
  for (unsigned i = 0; i < e->nitems && i < 2; ++i) {
    int is_a = e->hosts[i] == (void*)a;
    CHECK(is_a || e->hosts[i] == (void*)&b);
    CHECK(e->devs[i] == (is_a ? da : db));
    CHECK_EQ_LONG(e->sizes[i], is_a ? sizeof a : sizeof b);
    CHECK_EQ_LONG(e->flags[i], is_a ? a_flags : b_flags);
  }
}

/* The data op (end) of `kind` on host address h in [from, to). */
static ev* find_op(int from, int to, int kind, void* src, void* dst) {
  for (int i = from; i < to; ++i) {
    ev* e = &evs[i];
    if (e->type == E_DATA_OP && e->endpoint == ompt_scope_end && e->kind == kind &&
        (!src || e->src == src) && (!dst || e->dst == dst))
      return e;
  }
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads(); /* the runtime starts, and the tool with it */
  CHECK_EQ_LONG(omp_get_num_devices(), 2);
  const int host = omp_get_initial_device();
  static const int cbs[] = {ompt_callback_device_initialize, ompt_callback_device_finalize,
                            ompt_callback_device_load, ompt_callback_device_unload,
#ifndef EMU_NOEMI
                            ompt_callback_target_emi, ompt_callback_target_data_op_emi,
                            ompt_callback_target_map_emi, ompt_callback_target_submit_emi
#else
                            ompt_callback_target, ompt_callback_target_data_op,
                            ompt_callback_target_map, ompt_callback_target_submit
#endif
  };
  for (unsigned i = 0; i < sizeof cbs / sizeof cbs[0]; ++i)
    CHECK_EQ_LONG(set_results[cbs[i]], ompt_set_always);
  CHECK_EQ_LONG(next(0, E_DEV_INIT), -1); /* no device used yet */

  /* 1. A target region on device 0: init, then the construct. */
  int from = nev;
  region_a();
  int init0 = next(from, E_DEV_INIT);
  int tb = next(from, E_TARGET);
  CHECK(init0 >= 0 && init0 < tb);
  if (init0 >= 0) {
    CHECK_EQ_LONG(evs[init0].device, 0);
    CHECK(strcmp(evs[init0].file, "kite-emulated") == 0);
    CHECK(evs[init0].handle_ok);
    CHECK(evs[init0].lookup_ok);
  }
  int te = check_construct(from, ompt_target, 0, (void*)region_a);
  ev* alloc_a = find_op(tb, te, ompt_target_data_alloc, a, NULL);
  ev* alloc_b = find_op(tb, te, ompt_target_data_alloc, &b, NULL);
  CHECK(alloc_a && alloc_b);
  if (alloc_a && alloc_b) {
    void* da = alloc_a->dst;
    void* db = alloc_b->dst;
    CHECK(da && da != (void*)a && db && db != (void*)&b);
    CHECK_EQ_LONG(alloc_a->bytes, sizeof a);
    ev* to_a = find_op(tb, te, ompt_target_data_transfer_to_device, a, da);
    ev* to_b = find_op(tb, te, ompt_target_data_transfer_to_device, &b, db);
    ev* from_a = find_op(tb, te, ompt_target_data_transfer_from_device, da, a);
    ev* del_a = find_op(tb, te, ompt_target_data_delete, da, NULL);
    ev* del_b = find_op(tb, te, ompt_target_data_delete, db, NULL);
    CHECK(to_a && to_b && from_a && del_a && del_b);
    CHECK(!find_op(tb, te, ompt_target_data_transfer_from_device, db, NULL)); /* to only */
    if (to_a) CHECK_EQ_LONG(to_a->bytes, sizeof a);
    if (from_a && del_a) CHECK(from_a < del_a);
    /* target_map: both items, with their device addresses and flags. */
    int m = next(tb, E_MAP);
    CHECK(m > tb && m < te);
    if (m > tb && m < te)
      check_map_of_a_b(&evs[m], da, db, ompt_target_map_flag_to | ompt_target_map_flag_from,
                       ompt_target_map_flag_to);
    /* The region's end maps its items back: a second target_map after the
     * region's submission and before the copy back, a mapped from the
     * device (tofrom), b released (to), the same device addresses. */
    int sb1 = next(tb, E_SUBMIT);
    int m2 = m > tb ? next(m + 1, E_MAP) : -1;
    CHECK(m2 > sb1 && m2 < te);
    if (from_a) CHECK(m2 >= 0 && &evs[m2] < from_a);
    int maps = 0;
    for (int i = tb; i < te; ++i) maps += evs[i].type == E_MAP;
    CHECK_EQ_LONG(maps, 2);
    if (m2 > tb && m2 < te)
      check_map_of_a_b(&evs[m2], da, db, ompt_target_map_flag_from, ompt_target_map_flag_release);
  }
  /* device_load: the executable that holds region_a's body, before the
   * kernel is submitted; one submit. */
  int ld = next(tb, E_DEV_LOAD), sb = next(tb, E_SUBMIT);
  CHECK(ld > tb && ld < sb && sb < te);
  if (ld > 0) {
    Dl_info info;
    CHECK(dladdr((void*)region_a, &info) != 0);
    CHECK(evs[ld].host_addr == info.dli_fbase);
    CHECK(strcmp(evs[ld].file, info.dli_fname) == 0);
    CHECK_EQ_LONG(evs[ld].device, 0);
    CHECK(evs[ld].module_id != 0);
  }
  CHECK_EQ_LONG(a[0], 3);

  /* 2. Data constructs on device 1: initialized at first use. */
  from = nev;
  data_constructs();
  int init1 = next(from, E_DEV_INIT);
  CHECK(init1 >= 0 && evs[init1].device == 1);
  int e1 = check_construct(from, ompt_target_enter_data, 1, (void*)data_constructs);
  CHECK(find_op(from, e1, ompt_target_data_alloc, c, NULL) != NULL);
  CHECK(find_op(from, e1, ompt_target_data_transfer_to_device, c, NULL) != NULL);
  int e2 = check_construct(e1 + 1, ompt_target_update, 1, (void*)data_constructs);
  CHECK(find_op(e1 + 1, e2, ompt_target_data_transfer_from_device, NULL, c) != NULL);
  int e3 = check_construct(e2 + 1, ompt_target_exit_data, 1, (void*)data_constructs);
  CHECK(find_op(e2 + 1, e3, ompt_target_data_transfer_from_device, NULL, c) != NULL);
  CHECK(find_op(e2 + 1, e3, ompt_target_data_delete, NULL, NULL) != NULL);
  CHECK_EQ_LONG(next(e3 + 1, E_DEV_LOAD), -1); /* no region: nothing loaded */

  /* 3. Teams: the submit carries the requested league. */
  from = nev;
  teams_region();
  te = check_construct(from, ompt_target, 0, (void*)teams_region);
  sb = next(from, E_SUBMIT);
  CHECK(sb >= 0 && sb < te);
  if (sb >= 0) CHECK_EQ_LONG(evs[sb].teams, 3);
  CHECK_EQ_LONG(next(from, E_DEV_LOAD), -1); /* already loaded on device 0 */

  /* 4. A target task: its data ops carry the target task's data. */
  from = nev;
  nowait_region();
  int n_tb = -1;
  for (int i = from; i < nev; ++i)
    if (evs[i].type == E_TARGET && evs[i].kind == ompt_target_nowait) {
      n_tb = i;
      break;
    }
  CHECK(n_tb >= 0);
#ifndef EMU_NOEMI
  if (n_tb >= 0) {
    ev* t0 = &evs[n_tb];
    CHECK(t0->target_task_data != NULL);
    int ops = 0;
    for (int i = n_tb + 1; i < nev && !(evs[i].type == E_TARGET); ++i)
      if (evs[i].type == E_DATA_OP) {
        ++ops;
        CHECK(evs[i].target_task_data == t0->target_task_data);
      }
    CHECK(ops >= 6); /* alloc, to, from, delete: begin and end */
  }
#endif
  CHECK_EQ_LONG(c[1], 11);
  /* nowait data constructs are target tasks too: their data moves when
   * the task runs, and their events carry its data. */
  static const int nowait_kinds[2] = {ompt_target_enter_data_nowait, ompt_target_exit_data_nowait};
  for (int k = 0; k < 2; ++k) {
    int b = -1;
    for (int i = from; i < nev; ++i)
      if (evs[i].type == E_TARGET && evs[i].kind == nowait_kinds[k] &&
          evs[i].endpoint == ompt_scope_begin) {
        b = i;
        break;
      }
    CHECK(b >= 0);
    if (b < 0) continue;
    CHECK_EQ_LONG(evs[b].device, 1);
#ifndef EMU_NOEMI
    CHECK(evs[b].target_task_data != NULL);
#endif
    int ops = 0;
    for (int i = b + 1; i < nev && evs[i].type != E_TARGET; ++i)
      if (evs[i].type == E_DATA_OP) {
        ++ops;
#ifndef EMU_NOEMI
        CHECK(evs[i].target_task_data == evs[b].target_task_data);
#endif
      }
    CHECK(ops >= 1); /* enter: alloc and copy; exit: delete */
  }
  CHECK(!omp_target_is_present(c, 1));

  /* 5. A structured target data region: its mapping is reported under an
   * enter_data pair at the construct, its unmapping under an exit_data
   * pair at its end, each with a target_map (to, then from). */
  from = nev;
  data_region();
  int db0 = check_construct(from, ompt_target_enter_data, 1, (void*)data_region);
  ev* dalloc = find_op(from, db0, ompt_target_data_alloc, c, NULL);
  CHECK(dalloc != NULL);
  CHECK(find_op(from, db0, ompt_target_data_transfer_to_device, c, NULL) != NULL);
  int dm1 = next(from, E_MAP);
  CHECK(dm1 > from && dm1 < db0);
  if (dm1 > from && dm1 < db0) {
    CHECK_EQ_LONG(evs[dm1].nitems, 1);
    CHECK(evs[dm1].hosts[0] == (void*)c);
    CHECK(dalloc && evs[dm1].devs[0] == dalloc->dst);
    CHECK_EQ_LONG(evs[dm1].flags[0], ompt_target_map_flag_to | ompt_target_map_flag_from);
  }
  /* the target region inside (device 1, c present: no data op for c) */
  int dr = check_construct(db0 + 1, ompt_target, 1, (void*)data_region);
  CHECK(!find_op(db0 + 1, dr, ompt_target_data_alloc, c, NULL));
  CHECK(!find_op(db0 + 1, dr, ompt_target_data_transfer_from_device, NULL, c));
  int db1 = check_construct(dr + 1, ompt_target_exit_data, 1, (void*)data_region);
  int dm2 = next(dr + 1, E_MAP);
  CHECK(dm2 > dr && dm2 < db1);
  ev* dfrom = find_op(dr + 1, db1, ompt_target_data_transfer_from_device, NULL, c);
  CHECK(dfrom != NULL && find_op(dr + 1, db1, ompt_target_data_delete, NULL, NULL) != NULL);
  if (dm2 > dr && dm2 < db1) {
    CHECK(dfrom && &evs[dm2] < dfrom);
    CHECK(evs[dm2].hosts[0] == (void*)c);
    CHECK(dalloc && evs[dm2].devs[0] == dalloc->dst);
    CHECK_EQ_LONG(evs[dm2].flags[0], ompt_target_map_flag_from);
  }
  CHECK_EQ_LONG(c[2], 22);
  CHECK(!omp_target_is_present(c, 1));

  /* 6. Device memory routines outside constructs: no target data. */
  from = nev;
  void* p = omp_target_alloc(64, 1);
  CHECK_EQ_LONG(omp_target_memcpy(p, a, 64, 0, 0, 1, host), 0);
  omp_target_free(p, 1);
  /* associate / disassociate: host (N) -> device, the block's address */
  void* q = omp_target_alloc(sizeof b, 1);
  CHECK_EQ_LONG(omp_target_associate_ptr(&b, q, sizeof b, 0, 1), 0);
  CHECK_EQ_LONG(omp_target_disassociate_ptr(&b, 1), 0);
  omp_target_free(q, 1);
  ev* as = find_op(from, nev, ompt_target_data_associate, &b, q);
  ev* ds = find_op(from, nev, ompt_target_data_disassociate, &b, q);
  CHECK(as && ds && as < ds);
  if (as) {
    CHECK_EQ_LONG(as->src_dev, host);
    CHECK_EQ_LONG(as->dst_dev, 1);
    CHECK_EQ_LONG(as->bytes, sizeof b);
  }
  if (ds) {
    CHECK_EQ_LONG(ds->src_dev, host);
    CHECK_EQ_LONG(ds->dst_dev, 1);
  }
  int ops = 0;
  for (int i = from; i < nev; ++i) {
    ev* e = &evs[i];
    if (e->type != E_DATA_OP) continue;
    ++ops;
#ifndef EMU_NOEMI
    CHECK(e->target_data == NULL);
#else
    CHECK_EQ_LONG(e->target_id, 0);
#endif
    CHECK_EQ_LONG(e->info_ret, 0);
  }
#ifndef EMU_NOEMI
  CHECK_EQ_LONG(ops, 14); /* alloc, copy, free, alloc, associate, disassociate, free */
#else
  CHECK_EQ_LONG(ops, 7);
#endif

  /* Every host_op_id names one operation. */
  for (int i = 0; i < nev; ++i)
    for (int k = i + 1; k < nev; ++k)
      if (evs[i].type == E_DATA_OP && evs[k].type == E_DATA_OP && evs[i].op_id == evs[k].op_id &&
          evs[i].endpoint == evs[k].endpoint)
        CHECK(evs[i].op_id == 0);

  /* 7. Finalization: unload every module, then finalize each device. */
  from = nev;
  finalize_tool();
  int fini[2] = {-1, -1};
  for (int i = from; i < nev; ++i)
    if (evs[i].type == E_DEV_FINI && evs[i].device >= 0 && evs[i].device < 2) {
      CHECK_EQ_LONG(fini[evs[i].device], -1);
      fini[evs[i].device] = i;
    }
  CHECK(fini[0] >= 0 && fini[1] >= 0);
  int loads = 0;
  for (int i = 0; i < from; ++i) {
    if (evs[i].type != E_DEV_LOAD) continue;
    ++loads;
    int found = 0;
    for (int k = from; k < nev; ++k)
      if (evs[k].type == E_DEV_UNLOAD && evs[k].module_id == evs[i].module_id &&
          evs[k].device == evs[i].device && k < fini[evs[i].device])
        found = 1;
    CHECK(found);
  }
  CHECK_EQ_LONG(loads, 2); /* the executable, on device 0 and on device 1 */
  KITE_TEST_END();
}
