/* An ORA collector for the ora_* tests, preloaded (LD_PRELOAD) the way
 * collectors of the time were: it knows nothing of the runtime but the
 * name __omp_collector_api, which it looks up with dlsym from its
 * constructor, then starts a session and registers every event of the
 * header with one batched message.
 *
 * Each event is logged on the thread that delivers it, with what the
 * collector asks at that moment (STATE with its wait id, CURRENT_PRID, and
 * PARENT_PRID at FORK and JOIN). The test program reads the logs through
 * ora_collector_* (found with dlsym too, so the program also proves the
 * collector was preloaded). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "ora_collector.h"

static int (*g_api)(void*);
static int g_start_error = -1;
static int g_register_errors[OMP_EVENT_THR_END_FINISH_TASK + 1];
static int g_message_rc = -2;

static struct ora_thread_log g_logs[ORA_MAX_THREADS];
static int g_nlogs;
static __thread struct ora_thread_log* t_log;

/* An entry of a message: header then data, 8-byte fields unaligned after
 * the 4-byte ones, as the header lays them out. */
static char* put_entry(char* p, int request, int data_size) {
  int size = 16 + data_size, zero = 0;
  memcpy(p, &size, 4);
  memcpy(p + 4, &request, 4);
  memcpy(p + 8, &zero, 4);
  memcpy(p + 12, &zero, 4);
  return p + size;
}

int ora_query(int request, int* error, void* out, int out_size) {
  char msg[64];
  memset(msg, 0, sizeof msg);
  char* end = put_entry(msg, request, out_size);
  (void)end;
  int rc = g_api(msg);
  int ec, rsz;
  memcpy(&ec, msg + 8, 4);
  memcpy(&rsz, msg + 12, 4);
  if (error) *error = ec;
  if (out && ec == OMP_ERRCODE_OK) memcpy(out, msg + 16, rsz < out_size ? rsz : out_size);
  return rc;
}

static struct ora_thread_log* my_log(void) {
  if (!t_log) {
    int i = __atomic_fetch_add(&g_nlogs, 1, __ATOMIC_ACQ_REL);
    if (i >= ORA_MAX_THREADS) return 0;
    t_log = &g_logs[i];
  }
  return t_log;
}

static void on_event(OMP_COLLECTORAPI_EVENT ev) {
  struct ora_thread_log* log = my_log();
  if (!log || log->n >= ORA_MAX_RECORDS) {
    if (log) log->overflow = 1;
    return;
  }
  struct ora_record* r = &log->rec[log->n];
  r->event = ev;
  char st[12];
  ora_query(OMP_REQ_STATE, &r->state_error, st, sizeof st);
  memcpy(&r->state, st, 4);
  r->wait_id = 0;
  if (r->state_error == OMP_ERRCODE_OK && ora_state_has_wait_id(r->state))
    memcpy(&r->wait_id, st + 4, 8);
  ora_query(OMP_REQ_CURRENT_PRID, &r->prid_error, &r->prid, 8);
  r->parent_error = -1;
  r->parent = 0;
  if (ev == OMP_EVENT_FORK || ev == OMP_EVENT_JOIN)
    ora_query(OMP_REQ_PARENT_PRID, &r->parent_error, &r->parent, 8);
  __atomic_store_n(&log->n, log->n + 1, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void collector_start(void) {
  g_api = (int (*)(void*))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  if (!g_api) return;
  /* START, then one REGISTER per event (the white paper's 22 and OpenUH's
   * 13 task events), then the terminating 0, in one message:
   * 16 + 35 * (16 + 12) + 4 bytes. */
  static char msg[16 + OMP_EVENT_THR_END_FINISH_TASK * 28 + 4];
  memset(msg, 0, sizeof msg);
  char* p = put_entry(msg, OMP_REQ_START, 0);
  for (int ev = OMP_EVENT_FORK; ev <= OMP_EVENT_THR_END_FINISH_TASK; ++ev) {
    char* data = p + 16;
    p = put_entry(p, OMP_REQ_REGISTER, 12);
    void (*cb)(OMP_COLLECTORAPI_EVENT) = on_event;
    memcpy(data, &ev, 4);
    memcpy(data + 4, &cb, 8);
  }
  g_message_rc = g_api(msg);
  memcpy(&g_start_error, msg + 8, 4);
  p = msg + 16;
  for (int ev = OMP_EVENT_FORK; ev <= OMP_EVENT_THR_END_FINISH_TASK; ++ev, p += 28)
    memcpy(&g_register_errors[ev], p + 8, 4);
}

int ora_collector_started(void) {
  if (!g_api || g_message_rc != 0 || g_start_error != OMP_ERRCODE_OK) return 0;
  for (int ev = OMP_EVENT_FORK; ev <= OMP_EVENT_THR_END_FINISH_TASK; ++ev)
    if (g_register_errors[ev] != OMP_ERRCODE_OK) return 0;
  return 1;
}

int (*ora_collector_api(void))(void*) { return g_api; }

int ora_collector_thread_count(void) {
  int n = __atomic_load_n(&g_nlogs, __ATOMIC_ACQUIRE);
  return n < ORA_MAX_THREADS ? n : ORA_MAX_THREADS;
}

struct ora_thread_log* ora_collector_log(int i) { return &g_logs[i]; }

struct ora_thread_log* ora_collector_my_log(void) { return my_log(); }
