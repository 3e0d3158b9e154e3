// The ORA collector interface, request by request: the program is its own
// collector, finding __omp_collector_api with dlsym. Every request and
// every error path (NULL, malformed entries: those before answered, the
// rest of the message untouched and not acted on; requests
// before START, START twice, unknown requests and events, too little room,
// PARENT_PRID from a worker, outside a region and from a thread the runtime
// never saw), region ids at FORK and JOIN and across nested regions (active
// and serialized),
// PAUSE/RESUME, UNREGISTER, STOP and a second session; and an OMPT tool
// active in the same process sees its events beside ORA's.
// kite-test-threads: 2
#include "kite_test.h"

#include <omp-tools.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

// Kite's header, by path: the clang lanes search no Kite include folder.
#include "../../include/omp_collector_api.h"

static int (*api)(void*);
static volatile int sink;

// --- message building ------------------------------------------------------
// Entries are written at any 4-byte offset of `buf`; 8-byte fields land
// wherever the layout puts them.
struct msg {
  char buf[512];
  int at[16];  // offset of each entry
  int n;
  int start, len;
};

static void msg_init(struct msg* m, int offset) {
  memset(m->buf, 0, sizeof m->buf);
  m->n = 0;
  m->start = m->len = offset;
}

static char* msg_add(struct msg* m, int request, int data_size) {
  int size = 16 + data_size, marker = -7;
  char* e = m->buf + m->len;
  memcpy(e, &size, 4);
  memcpy(e + 4, &request, 4);
  memcpy(e + 8, &marker, 4);  // the runtime must overwrite both
  memcpy(e + 12, &marker, 4);
  m->at[m->n++] = m->len;
  m->len += size;
  return e + 16;
}

static int msg_send(struct msg* m) { return api(m->buf + m->start); }
static int ec(struct msg* m, int i) {
  int v;
  memcpy(&v, m->buf + m->at[i] + 8, 4);
  return v;
}
static int rsz(struct msg* m, int i) {
  int v;
  memcpy(&v, m->buf + m->at[i] + 12, 4);
  return v;
}
static char* data(struct msg* m, int i) { return m->buf + m->at[i] + 16; }

// One request with `size` bytes of data; returns its error code.
static int one(int request, void* io, int size, int* return_size) {
  struct msg m;
  msg_init(&m, 4);  // 4-aligned, not 8-aligned
  char* d = msg_add(&m, request, size);
  if (io) memcpy(d, io, size);
  CHECK_EQ_LONG(msg_send(&m), 0);
  if (io) memcpy(io, d, size);
  if (return_size) *return_size = rsz(&m, 0);
  return ec(&m, 0);
}

static int reg(int event, void (*cb)(OMP_COLLECTORAPI_EVENT)) {
  char d[12];
  memcpy(d, &event, 4);
  memcpy(d + 4, &cb, 8);
  return one(OMP_REQ_REGISTER, d, 12, NULL);
}
static int unreg(int event) { return one(OMP_REQ_UNREGISTER, &event, 4, NULL); }

static uint64_t prid(int request, int* error) {
  uint64_t v = 0;
  *error = one(request, &v, 8, NULL);
  return v;
}
static int ora_wait(int s) {
  return s == THR_IBAR_STATE || s == THR_EBAR_STATE || (s >= THR_LKWT_STATE && s <= THR_ATWT_STATE);
}
static int state(uint64_t* wait_id) {
  char d[12] = {0};
  int s, size;
  CHECK_EQ_LONG(one(OMP_REQ_STATE, d, 12, &size), OMP_ERRCODE_OK);
  memcpy(&s, d, 4);
  if (wait_id) memcpy(wait_id, d + 4, 8);
  CHECK_EQ_LONG(size, ora_wait(s) ? 12 : 4);
  return s;
}

// --- events ------------------------------------------------------------------
static int forks, joins;
static uint64_t fork_prid[8], fork_parent[8], join_prid[8], join_parent[8];
static int fork_parent_error[8];

static void on_fork(OMP_COLLECTORAPI_EVENT ev) {
  int i = __atomic_fetch_add(&forks, 1, __ATOMIC_ACQ_REL), e;
  CHECK_EQ_LONG(ev, OMP_EVENT_FORK);
  if (i >= 8) return;
  fork_prid[i] = prid(OMP_REQ_CURRENT_PRID, &e);
  CHECK_EQ_LONG(e, OMP_ERRCODE_OK);
  fork_parent[i] = prid(OMP_REQ_PARENT_PRID, &fork_parent_error[i]);
}
static void on_join(OMP_COLLECTORAPI_EVENT ev) {
  int i = __atomic_fetch_add(&joins, 1, __ATOMIC_ACQ_REL), e;
  CHECK_EQ_LONG(ev, OMP_EVENT_JOIN);
  if (i >= 8) return;
  join_prid[i] = prid(OMP_REQ_CURRENT_PRID, &e);
  join_parent[i] = prid(OMP_REQ_PARENT_PRID, &e);
  CHECK_EQ_LONG(e, OMP_ERRCODE_OK);
}
static void reset_counts(void) {
  forks = joins = 0;
  memset(fork_prid, 0, sizeof fork_prid);
}

// --- an OMPT tool in the same process -------------------------------------------
static int ompt_begins;
static void on_parallel_begin(ompt_data_t* t, const ompt_frame_t* f, ompt_data_t* p, unsigned n,
                              int flags, const void* ra) {
  __atomic_fetch_add(&ompt_begins, 1, __ATOMIC_RELAXED);
}
static int tool_init(ompt_function_lookup_t lookup, int dev, ompt_data_t* d) {
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
  return 1;
}
static void tool_fini(ompt_data_t* d) {}
ompt_start_tool_result_t* ompt_start_tool(unsigned v, const char* rt) {
  static ompt_start_tool_result_t r = {tool_init, tool_fini, {0}};
  return &r;
}

// --- a thread the runtime never saw ------------------------------------------------
static void* foreign_thread(void* arg) {
  int e, size;
  char d[12] = {0};
  CHECK_EQ_LONG(one(OMP_REQ_STATE, d, 12, &size), OMP_ERRCODE_OK);
  int s;
  memcpy(&s, d, 4);
  CHECK_EQ_LONG(s, THR_SERIAL_STATE);
  CHECK_EQ_LONG(size, 4);
  CHECK_EQ_LONG(prid(OMP_REQ_CURRENT_PRID, &e), 0);
  CHECK_EQ_LONG(e, OMP_ERRCODE_OK);
  prid(OMP_REQ_PARENT_PRID, &e);
  CHECK_EQ_LONG(e, OMP_ERRCODE_THREAD_ERR);
  return arg;
}

// Writes a malformed entry header (size `size`, a CURRENT_PRID request, the
// marker in both answer fields) at the end of `m`, taking 12 bytes; returns
// its offset.
static int msg_add_bad(struct msg* m, int size) {
  int req = OMP_REQ_CURRENT_PRID, marker = -7, at = m->len;
  char* e = m->buf + at;
  memcpy(e, &size, 4);
  memcpy(e + 4, &req, 4);
  memcpy(e + 8, &marker, 4);
  m->len += 12;
  return at;
}

static void malformed(void) {
  CHECK_EQ_LONG(api(NULL), -1);
  // A size not a multiple of 4, or below the header. The header: requests
  // "will be processed sequentially, and will behave identically to the
  // same requests made in independent calls"; at a bad size "the remainder
  // of the request is ignored, and -1 is returned". So the well-formed
  // entry before the bad one is answered (before START: SEQUENCE_ERR, no
  // data), and nothing from the bad entry on changes: not even a
  // well-formed entry placed right after its 12 bytes, which a runtime
  // skipping bad entries by their size would answer.
  static const int bad_sizes[] = {18, 12, 0x7fffffff, -16, 4};
  for (unsigned k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; ++k) {
    struct msg m;
    msg_init(&m, 0);
    char* d = msg_add(&m, OMP_REQ_STATE, 12);
    memset(d, 0x5a, 12);
    int bad_at = msg_add_bad(&m, bad_sizes[k]);
    msg_add(&m, OMP_REQ_CURRENT_PRID, 8);
    char before[sizeof m.buf];
    memcpy(before, m.buf, sizeof before);
    CHECK_EQ_LONG(msg_send(&m), -1);
    CHECK_EQ_LONG(ec(&m, 0), OMP_ERRCODE_SEQUENCE_ERR);
    CHECK_EQ_LONG(rsz(&m, 0), 0);
    CHECK(memcmp(before + 16, m.buf + 16, 12) == 0);  // no data answered
    CHECK(memcmp(before + bad_at, m.buf + bad_at, sizeof before - bad_at) == 0);
  }
  // A malformed first entry: nothing of the message changes.
  {
    struct msg m;
    msg_init(&m, 0);
    msg_add_bad(&m, 20 + 2);
    msg_add(&m, OMP_REQ_STATE, 12);
    char before[sizeof m.buf];
    memcpy(before, m.buf, sizeof before);
    CHECK_EQ_LONG(msg_send(&m), -1);
    CHECK(memcmp(before, m.buf, sizeof before) == 0);
  }
  // An empty message is well formed.
  int zero = 0;
  CHECK_EQ_LONG(api(&zero), 0);
}

int main(void) {
  KITE_TEST_BEGIN();
  api = (int (*)(void*))dlsym(RTLD_DEFAULT, OMP_COLLECTOR_API);
  CHECK(api != NULL);
  if (!api) KITE_TEST_END();
  Dl_info a, b;
  CHECK(dladdr((void*)api, &a) && dladdr((void*)&omp_get_thread_num, &b) &&
        a.dli_fbase == b.dli_fbase);

  malformed();

  // Before START: every request but START is out of sequence; unknown
  // requests are unknown. One message, answered entry by entry.
  {
    struct msg m;
    msg_init(&m, 4);
    static const int reqs[] = {OMP_REQ_REGISTER, OMP_REQ_UNREGISTER, OMP_REQ_STATE,
                               OMP_REQ_CURRENT_PRID, OMP_REQ_PARENT_PRID, OMP_REQ_STOP,
                               OMP_REQ_PAUSE, OMP_REQ_RESUME, 9, 4242, -1};
    const int n = sizeof reqs / sizeof reqs[0];
    for (int i = 0; i < n; ++i) msg_add(&m, reqs[i], 12);
    CHECK_EQ_LONG(msg_send(&m), 0);
    for (int i = 0; i < n; ++i) {
      CHECK_EQ_LONG(ec(&m, i), reqs[i] >= 0 && reqs[i] < OMP_REQ_LAST ? OMP_ERRCODE_SEQUENCE_ERR
                                                                       : OMP_ERRCODE_UNKNOWN);
      CHECK_EQ_LONG(rsz(&m, i), 0);
    }
  }

  // START initializes the runtime (no OpenMP call was made yet); a second
  // START is out of sequence.
  CHECK_EQ_LONG(one(OMP_REQ_START, NULL, 0, NULL), OMP_ERRCODE_OK);
  CHECK_EQ_LONG(one(OMP_REQ_START, NULL, 0, NULL), OMP_ERRCODE_SEQUENCE_ERR);

  // REGISTER: every event of the header; unknown events; no room for the
  // callback.
  // The white paper's 22 and OpenUH's task events (23..35) after them.
  CHECK_EQ_LONG(OMP_EVENT_THR_BEGIN_CREATE_TASK, 23);
  CHECK_EQ_LONG(OMP_EVENT_THR_END_FINISH_TASK, 35);
  for (int ev = OMP_EVENT_FORK; ev <= OMP_EVENT_THR_END_FINISH_TASK; ++ev)
    CHECK_EQ_LONG(reg(ev, NULL), OMP_ERRCODE_OK);
  CHECK_EQ_LONG(reg(0, on_fork), OMP_ERRCODE_UNKNOWN);
  CHECK_EQ_LONG(reg(OMP_EVENT_THR_END_FINISH_TASK + 1, on_fork), OMP_ERRCODE_UNKNOWN);
  CHECK_EQ_LONG(reg(OMP_EVENT_THR_RESERVED_IMPL, on_fork), OMP_ERRCODE_UNKNOWN);
  CHECK_EQ_LONG(reg(256, on_fork), OMP_ERRCODE_UNKNOWN);  // TAU's copy's RESERVED_IMPL
  {
    int ev = OMP_EVENT_FORK;
    CHECK_EQ_LONG(one(OMP_REQ_REGISTER, &ev, 4, NULL), OMP_ERRCODE_ERROR);
    CHECK_EQ_LONG(one(OMP_REQ_UNREGISTER, NULL, 0, NULL), OMP_ERRCODE_ERROR);
    CHECK_EQ_LONG(unreg(99), OMP_ERRCODE_UNKNOWN);
  }
  CHECK_EQ_LONG(reg(OMP_EVENT_FORK, on_fork), OMP_ERRCODE_OK);
  CHECK_EQ_LONG(reg(OMP_EVENT_JOIN, on_join), OMP_ERRCODE_OK);

  // STATE, CURRENT_PRID, PARENT_PRID outside any region, and with too
  // little room (return size: what is needed).
  {
    int size, e;
    CHECK_EQ_LONG(state(NULL), THR_SERIAL_STATE);
    CHECK_EQ_LONG(one(OMP_REQ_STATE, NULL, 0, &size), OMP_ERRCODE_MEM_TOO_SMALL);
    CHECK_EQ_LONG(size, 4);
    uint64_t v = 0;
    CHECK_EQ_LONG(one(OMP_REQ_CURRENT_PRID, &v, 4, &size), OMP_ERRCODE_MEM_TOO_SMALL);
    CHECK_EQ_LONG(size, 8);
    CHECK_EQ_LONG(one(OMP_REQ_PARENT_PRID, &v, 4, &size), OMP_ERRCODE_THREAD_ERR);
    CHECK_EQ_LONG(prid(OMP_REQ_CURRENT_PRID, &e), 0);
    CHECK_EQ_LONG(e, OMP_ERRCODE_OK);
    prid(OMP_REQ_PARENT_PRID, &e);
    CHECK_EQ_LONG(e, OMP_ERRCODE_THREAD_ERR);
  }
  pthread_t th;
  pthread_create(&th, NULL, foreign_thread, NULL);
  pthread_join(th, NULL);

  // Region ids: outer region of 2, each thread forks an inner one of 2.
  omp_set_max_active_levels(2);
  uint64_t outer = 0, inner[2] = {0, 0}, inner_seen_by_worker[2] = {0, 0};
  int inner_parent_ok[2] = {0, 0};
  reset_counts();
#pragma omp parallel num_threads(2)
  {
    int e, t = omp_get_thread_num();
    uint64_t me = prid(OMP_REQ_CURRENT_PRID, &e);
    CHECK(me != 0);
    CHECK_EQ_LONG(state(NULL), THR_WORK_STATE);
    if (t == 0) {
      outer = me;
      CHECK_EQ_LONG(prid(OMP_REQ_PARENT_PRID, &e), 0);
      CHECK_EQ_LONG(e, OMP_ERRCODE_OK);
    } else {
      prid(OMP_REQ_PARENT_PRID, &e);
      CHECK_EQ_LONG(e, OMP_ERRCODE_THREAD_ERR);  // a worker
    }
#pragma omp barrier
    CHECK_EQ_LONG(me, outer);
#pragma omp parallel num_threads(2)
    {
      int e2;
      uint64_t in = prid(OMP_REQ_CURRENT_PRID, &e2);
      if (omp_get_thread_num() == 0) {
        inner[t] = in;
        uint64_t parent = prid(OMP_REQ_PARENT_PRID, &e2);
        inner_parent_ok[t] = e2 == OMP_ERRCODE_OK && parent == outer;
      }
#pragma omp barrier
      if (omp_get_thread_num() == 1) inner_seen_by_worker[t] = in;
    }
    CHECK_EQ_LONG(prid(OMP_REQ_CURRENT_PRID, &e), outer);
  }
  CHECK(outer != 0);
  for (int t = 0; t < 2; ++t) {
    CHECK(inner[t] != 0 && inner[t] != outer);
    CHECK_EQ_LONG(inner_seen_by_worker[t], inner[t]);
    CHECK(inner_parent_ok[t]);
  }
  CHECK(inner[0] != inner[1]);
  // Three FORKs and three JOINs: at FORK, CURRENT_PRID is the new region
  // and PARENT_PRID the one it is nested in; at JOIN, the region joined.
  CHECK_EQ_LONG(forks, 3);
  CHECK_EQ_LONG(joins, 3);
  int seen_outer = 0, seen_inner = 0;
  for (int i = 0; i < 3; ++i) {
    CHECK_EQ_LONG(fork_parent_error[i], OMP_ERRCODE_OK);
    if (fork_prid[i] == outer) {
      ++seen_outer;
      CHECK_EQ_LONG(fork_parent[i], 0);
    } else if (fork_prid[i] == inner[0] || fork_prid[i] == inner[1]) {
      ++seen_inner;
      CHECK_EQ_LONG(fork_parent[i], outer);
    }
  }
  CHECK_EQ_LONG(seen_outer, 1);
  CHECK_EQ_LONG(seen_inner, 2);
  CHECK_EQ_LONG(join_prid[2], outer);  // the outer region joins last
  CHECK_EQ_LONG(join_parent[2], 0);
  CHECK((join_prid[0] == inner[0] || join_prid[0] == inner[1]) && join_parent[0] == outer);
  // The OMPT tool saw the same three regions.
  CHECK_EQ_LONG(ompt_begins, 3);

  // Serialized nested regions (max-active-levels 1) are regions too, each
  // with its id; the outer region's worker is the primary of its own.
  omp_set_max_active_levels(1);
  reset_counts();
  uint64_t serial_inner[2] = {0, 0}, serial_parent[2] = {0, 0};
  int serial_parent_error[2] = {-1, -1};
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num(), e;
    uint64_t mine = prid(OMP_REQ_CURRENT_PRID, &e);
    if (t == 0) outer = mine;
#pragma omp parallel num_threads(2)
    {
      CHECK_EQ_LONG(omp_get_num_threads(), 1);
      serial_inner[t] = prid(OMP_REQ_CURRENT_PRID, &e);
      serial_parent[t] = prid(OMP_REQ_PARENT_PRID, &serial_parent_error[t]);
    }
  }
  CHECK_EQ_LONG(forks, 3);
  CHECK_EQ_LONG(joins, 3);
  for (int t = 0; t < 2; ++t) {
    CHECK(serial_inner[t] != 0 && serial_inner[t] != outer);
    CHECK_EQ_LONG(serial_parent_error[t], OMP_ERRCODE_OK);
    CHECK_EQ_LONG(serial_parent[t], outer);
  }
  CHECK(serial_inner[0] != serial_inner[1]);

  // PAUSE: no events, repeated PAUSE ignored; RESUME brings them back.
  // The first PAUSE comes in a batch that goes on with a STATE, a
  // malformed entry and a RESUME: the PAUSE takes effect and the STATE is
  // answered as if each were sent alone; the RESUME after the bad entry is
  // ignored (untouched, and the session stays paused).
  {
    struct msg m;
    msg_init(&m, 4);
    msg_add(&m, OMP_REQ_PAUSE, 0);
    msg_add(&m, OMP_REQ_STATE, 12);
    int bad_at = msg_add_bad(&m, 12);
    msg_add(&m, OMP_REQ_RESUME, 0);
    char before[sizeof m.buf];
    memcpy(before, m.buf, sizeof before);
    CHECK_EQ_LONG(msg_send(&m), -1);
    CHECK_EQ_LONG(ec(&m, 0), OMP_ERRCODE_OK);
    CHECK_EQ_LONG(rsz(&m, 0), 0);
    CHECK_EQ_LONG(ec(&m, 1), OMP_ERRCODE_OK);
    CHECK_EQ_LONG(rsz(&m, 1), 4);
    int s;
    memcpy(&s, data(&m, 1), 4);
    CHECK_EQ_LONG(s, THR_SERIAL_STATE);
    CHECK(memcmp(before + bad_at, m.buf + bad_at, sizeof before - bad_at) == 0);
  }
  reset_counts();
#pragma omp parallel num_threads(2)
  { sink = omp_get_thread_num(); }
  CHECK_EQ_LONG(forks, 0);
  CHECK_EQ_LONG(one(OMP_REQ_PAUSE, NULL, 0, NULL), OMP_ERRCODE_OK);
  reset_counts();
#pragma omp parallel num_threads(2)
  { sink = omp_get_thread_num(); }
  CHECK_EQ_LONG(forks, 0);
  CHECK_EQ_LONG(one(OMP_REQ_RESUME, NULL, 0, NULL), OMP_ERRCODE_OK);
  CHECK_EQ_LONG(one(OMP_REQ_RESUME, NULL, 0, NULL), OMP_ERRCODE_OK);
#pragma omp parallel num_threads(2)
  { sink = omp_get_thread_num(); }
  CHECK_EQ_LONG(forks, 1);
  CHECK_EQ_LONG(joins, 1);

  // UNREGISTER: that event only.
  CHECK_EQ_LONG(unreg(OMP_EVENT_FORK), OMP_ERRCODE_OK);
  reset_counts();
#pragma omp parallel num_threads(2)
  { sink = omp_get_thread_num(); }
  CHECK_EQ_LONG(forks, 0);
  CHECK_EQ_LONG(joins, 1);
  CHECK_EQ_LONG(reg(OMP_EVENT_FORK, on_fork), OMP_ERRCODE_OK);

  // STOP ends the session: every request but START is out of sequence, no
  // callback is called. START again opens a new session with nothing
  // registered.
  CHECK_EQ_LONG(one(OMP_REQ_STOP, NULL, 0, NULL), OMP_ERRCODE_OK);
  CHECK_EQ_LONG(one(OMP_REQ_STOP, NULL, 0, NULL), OMP_ERRCODE_SEQUENCE_ERR);
  {
    char d[12] = {0};
    CHECK_EQ_LONG(one(OMP_REQ_STATE, d, 12, NULL), OMP_ERRCODE_SEQUENCE_ERR);
    CHECK_EQ_LONG(reg(OMP_EVENT_FORK, on_fork), OMP_ERRCODE_SEQUENCE_ERR);
    CHECK_EQ_LONG(one(OMP_REQ_RESUME, NULL, 0, NULL), OMP_ERRCODE_SEQUENCE_ERR);
  }
  reset_counts();
  ompt_begins = 0;
#pragma omp parallel num_threads(2)
  { sink = omp_get_thread_num(); }
  CHECK_EQ_LONG(forks, 0);
  CHECK_EQ_LONG(ompt_begins, 1);  // OMPT goes on without ORA
  CHECK_EQ_LONG(one(OMP_REQ_START, NULL, 0, NULL), OMP_ERRCODE_OK);
#pragma omp parallel num_threads(2)
  { sink = omp_get_thread_num(); }
  CHECK_EQ_LONG(forks, 0);
  CHECK_EQ_LONG(reg(OMP_EVENT_FORK, on_fork), OMP_ERRCODE_OK);
#pragma omp parallel num_threads(2)
  {
    int e;
    if (omp_get_thread_num() == 0) {
      CHECK_EQ_LONG(prid(OMP_REQ_CURRENT_PRID, &e), fork_prid[0]);
    }
  }
  CHECK_EQ_LONG(forks, 1);
  CHECK(fork_prid[0] != 0);
  CHECK_EQ_LONG(one(OMP_REQ_STOP, NULL, 0, NULL), OMP_ERRCODE_OK);
  KITE_TEST_END();
}
