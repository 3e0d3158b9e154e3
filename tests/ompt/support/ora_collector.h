/* What the preloaded ORA test collector (ora_collector.c) keeps, and how a
 * test program reaches it: with dlsym, like the collector reaches the
 * runtime. */
#ifndef KITE_TEST_ORA_COLLECTOR_H
#define KITE_TEST_ORA_COLLECTOR_H

#include <stdint.h>

#include "../../../include/omp_collector_api.h"

#define ORA_MAX_THREADS 64
#define ORA_MAX_RECORDS 4096

/* One event, with the answers the collector got inside its callback. */
struct ora_record {
  int event;
  int state, state_error;
  uint64_t wait_id;  /* 0 unless the state has one */
  uint64_t prid;
  int prid_error;
  uint64_t parent;   /* FORK and JOIN only */
  int parent_error;  /* -1: not asked */
};

struct ora_thread_log {
  int n;
  int overflow;
  struct ora_record rec[ORA_MAX_RECORDS];
};

static inline int ora_state_has_wait_id(int s) {
  return s == THR_IBAR_STATE || s == THR_EBAR_STATE || s == THR_LKWT_STATE ||
         s == THR_CTWT_STATE || s == THR_ODWT_STATE || s == THR_ATWT_STATE;
}

/* Exported by the collector. */
int ora_collector_started(void);
int (*ora_collector_api(void))(void*);
int ora_collector_thread_count(void);
struct ora_thread_log* ora_collector_log(int i);
struct ora_thread_log* ora_collector_my_log(void);
int ora_query(int request, int* error, void* out, int out_size);

#endif
