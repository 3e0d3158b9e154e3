/* The ORA collector interface ("OpenMP Runtime API for Profiling", Sun
 * Microsystems 2006, as OpenUH implements it): the values a collector and
 * the runtime agree on. Kite serves it from libkite.so through one
 * exported function; docs/legacy-tools.md says how to use it.
 *
 * A message is a sequence of entries, each a 16-byte header
 *   int size;         bytes of the entry, header included, a multiple of 4
 *   int request;      an OMP_COLLECTORAPI_REQUEST
 *   int error;        written by the runtime: an OMP_COLLECTORAPI_EC
 *   int return_size;  written by the runtime: bytes answered in the data,
 *                     or the bytes needed when error is MEM_TOO_SMALL
 * followed by size - 16 bytes of data, and ended by an entry whose size is
 * 0. 8-byte values in the data (callbacks, ids) follow the 4-byte ones
 * with no padding, so they may be unaligned.
 *
 *   REGISTER     data: int event, then the callback (8 bytes)
 *   UNREGISTER   data: int event
 *   STATE        answer: int state, then the wait id (8 bytes) for the
 *                wait and barrier states
 *   CURRENT_PRID answer: the region id (8 bytes), 0 outside a region
 *   PARENT_PRID  answer: the enclosing region's id (8 bytes), 0 for an
 *                outermost region
 */
#ifndef KITE_OMP_COLLECTOR_API_H
#define KITE_OMP_COLLECTOR_API_H

#ifdef __cplusplus
extern "C" {
#endif

#define OMP_COLLECTOR_API "__omp_collector_api"

typedef enum {
  OMP_REQ_START = 0,
  OMP_REQ_REGISTER = 1,
  OMP_REQ_UNREGISTER = 2,
  OMP_REQ_STATE = 3,
  OMP_REQ_CURRENT_PRID = 4,
  OMP_REQ_PARENT_PRID = 5,
  OMP_REQ_STOP = 6,
  OMP_REQ_PAUSE = 7,
  OMP_REQ_RESUME = 8,
  OMP_REQ_LAST
} OMP_COLLECTORAPI_REQUEST;

typedef enum {
  OMP_ERRCODE_OK = 0,
  OMP_ERRCODE_ERROR = 1,         /* malformed entry */
  OMP_ERRCODE_UNKNOWN = 2,       /* unknown request or event */
  OMP_ERRCODE_UNSUPPORTED = 3,   /* known, not served */
  OMP_ERRCODE_SEQUENCE_ERR = 4,  /* out of order (before START, START twice...) */
  OMP_ERRCODE_OBSOLETE = 5,
  OMP_ERRCODE_THREAD_ERR = 6,    /* not answerable from the calling thread */
  OMP_ERRCODE_MEM_TOO_SMALL = 7, /* return_size says how much is needed */
  OMP_ERRCODE_LAST
} OMP_COLLECTORAPI_EC;

typedef enum {
  OMP_EVENT_FORK = 1,
  OMP_EVENT_JOIN = 2,
  OMP_EVENT_THR_BEGIN_IDLE = 3,
  OMP_EVENT_THR_END_IDLE = 4,
  OMP_EVENT_THR_BEGIN_IBAR = 5,
  OMP_EVENT_THR_END_IBAR = 6,
  OMP_EVENT_THR_BEGIN_EBAR = 7,
  OMP_EVENT_THR_END_EBAR = 8,
  OMP_EVENT_THR_BEGIN_LKWT = 9,
  OMP_EVENT_THR_END_LKWT = 10,
  OMP_EVENT_THR_BEGIN_CTWT = 11,
  OMP_EVENT_THR_END_CTWT = 12,
  OMP_EVENT_THR_BEGIN_ODWT = 13,
  OMP_EVENT_THR_END_ODWT = 14,
  OMP_EVENT_THR_BEGIN_MASTER = 15,
  OMP_EVENT_THR_END_MASTER = 16,
  OMP_EVENT_THR_BEGIN_SINGLE = 17,
  OMP_EVENT_THR_END_SINGLE = 18,
  OMP_EVENT_THR_BEGIN_ORDERED = 19,
  OMP_EVENT_THR_END_ORDERED = 20,
  OMP_EVENT_THR_BEGIN_ATWT = 21,
  OMP_EVENT_THR_END_ATWT = 22,
  /* Task events, added by OpenUH after the white paper (docs/legacy-tools.md
   * says what each marks in Kite). */
  OMP_EVENT_THR_BEGIN_CREATE_TASK = 23,
  OMP_EVENT_THR_END_CREATE_TASK_IMM = 24, /* the new task runs at once */
  OMP_EVENT_THR_END_CREATE_TASK_DEL = 25, /* the new task was deferred */
  OMP_EVENT_THR_BEGIN_SCHD_TASK = 26,
  OMP_EVENT_THR_END_SCHD_TASK = 27,
  OMP_EVENT_THR_BEGIN_SUSPEND_TASK = 28,
  OMP_EVENT_THR_END_SUSPEND_TASK = 29,
  OMP_EVENT_THR_BEGIN_STEAL_TASK = 30,
  OMP_EVENT_THR_END_STEAL_TASK = 31,
  OMP_EVENT_THR_FETCHED_TASK = 32,
  OMP_EVENT_THR_BEGIN_EXEC_TASK = 33,
  OMP_EVENT_THR_BEGIN_FINISH_TASK = 34,
  OMP_EVENT_THR_END_FINISH_TASK = 35,
  /* OpenUH's runtime header keeps the white paper's value; a copy shipped
   * with TAU has 256 here. Kite answers UNKNOWN for both. */
  OMP_EVENT_THR_RESERVED_IMPL = 4096,
  OMP_EVENT_LAST
} OMP_COLLECTORAPI_EVENT;

typedef enum {
  THR_OVHD_STATE = 1,
  THR_WORK_STATE = 2,
  THR_IBAR_STATE = 3,
  THR_EBAR_STATE = 4,
  THR_IDLE_STATE = 5,
  THR_SERIAL_STATE = 6,
  THR_REDUC_STATE = 7,
  THR_LKWT_STATE = 8,
  THR_CTWT_STATE = 9,
  THR_ODWT_STATE = 10,
  THR_ATWT_STATE = 11,
  /* OpenUH's task states: the thread is creating a task, looking for one
   * to run, suspending its current task for another, taking one from
   * another thread's queue, or ending one. */
  THR_TASK_CREATE_STATE = 12,
  THR_TASK_SCHEDULE_STATE = 13,
  THR_TASK_SUSPEND_STATE = 14,
  THR_TASK_STEAL_STATE = 15,
  THR_TASK_FINISH_STATE = 16,
  THR_LAST_STATE
} OMP_COLLECTOR_API_THR_STATE;

typedef void (*omp_collector_callback_t)(OMP_COLLECTORAPI_EVENT event);

/* Returns 0 when every entry was processed (each has its own error code),
 * -1 for a NULL message or one with a malformed entry (a size below 16 or
 * not a multiple of 4). Entries are processed in order, each as if sent in
 * a call of its own: those before a malformed entry are answered and take
 * effect; the malformed entry and every one after it are left untouched,
 * byte for byte. */
int __omp_collector_api(void *msg);

#ifdef __cplusplus
}
#endif

#endif /* KITE_OMP_COLLECTOR_API_H */
