/* target enter data, target exit data, target update (OpenMP 5.2 §13.6,
 * 13.7, 13.9), with and without nowait and depend: one target_emi
 * begin/end pair each, of the construct's kind (the _nowait kinds with
 * nowait), on the encountering thread, with its task, the host's device
 * number and the return address of the GOMP_* call; no target task data
 * (nothing is deferred on the host) and no data operation.
 * clang 14 makes no runtime call for target constructs: gcc only.
 * kite-test-threads: 1 2 4
 * kite-test-compilers: gcc */
#include "kite_test.h"
#include "support/target_recorder.h"

#define MAXT 64
static int arr[MAXT][16];

void enter_fn(int* p) __attribute__((noinline));
void enter_fn(int* p) {
#pragma omp target enter data map(to : p[0 : 16])
}
void exit_fn(int* p) __attribute__((noinline));
void exit_fn(int* p) {
#pragma omp target exit data map(from : p[0 : 16])
}
void update_fn(int* p) __attribute__((noinline));
void update_fn(int* p) {
#pragma omp target update to(p[0 : 16]) depend(inout : p[0])
}
void enter_nowait_fn(int* p) __attribute__((noinline));
void enter_nowait_fn(int* p) {
#pragma omp target enter data map(to : p[0 : 16]) nowait
}
void exit_nowait_fn(int* p) __attribute__((noinline));
void exit_nowait_fn(int* p) {
#pragma omp target exit data map(release : p[0 : 16]) nowait depend(in : p[0])
}
void update_nowait_fn(int* p) __attribute__((noinline));
void update_nowait_fn(int* p) {
#pragma omp target update from(p[0 : 16]) nowait
}

typedef void (*construct_fn)(int*);
static const construct_fn fns[] = {enter_fn, exit_fn, update_fn,
                                   enter_nowait_fn, exit_nowait_fn, update_nowait_fn};
static const int kinds[] = {ompt_target_enter_data,        ompt_target_exit_data,
                            ompt_target_update,            ompt_target_enter_data_nowait,
                            ompt_target_exit_data_nowait, ompt_target_update_nowait};
#define NF 6

/* Runs every construct on this thread and checks what it recorded. */
static void run_and_check(int slot) {
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) return;
  ompt_data_t* td = NULL;
  rec_get_task_info(0, NULL, &td, NULL, NULL, NULL);
  uint64_t task = td ? td->value : 0;
  const int host = omp_get_initial_device();
  uint64_t seen_targets[NF];
  for (int f = 0; f < NF; ++f) {
    int from = me->count;
    fns[f](arr[slot]);
    /* The wait for an included construct's dependences comes first (the
     * task engine reports it as for taskwait depend); the construct begins
     * once they are met, so its pair ends the sequence. */
    int n = me->count - from;
    CHECK(n == 2 || (f == 2 && n > 2));
    if (n < 2) continue;
    for (int k = from; k < me->count - 2; ++k)
      CHECK(me->ev[k].ev == EV_TGT_TASK_CREATE || me->ev[k].ev == EV_TGT_TASK_SCHEDULE);
    rec_event* e = &me->ev[me->count - 2];
    CHECK_EQ_LONG(e[0].ev, EV_TARGET_BEGIN);
    CHECK_EQ_LONG(e[1].ev, EV_TARGET_END);
    const tgt_detail* b = tgt_of(&e[0]);
    const tgt_detail* en = tgt_of(&e[1]);
    if (!b || !en) continue;
    for (int k = 0; k < 2; ++k) {
      const tgt_detail* d = k ? en : b;
      CHECK_EQ_LONG(d->kind, kinds[f]);
      CHECK_EQ_LONG(d->device, host);
      CHECK_EQ_LONG(d->task_id, task);
      CHECK(!d->have_target_task);
      CHECK(tgt_returns_into(d->ra, (void*)fns[f]));
      CHECK_EQ_LONG(d->info_ret, 1);
      CHECK_EQ_LONG(d->info_dev, host);
      CHECK_EQ_LONG(d->info_op, 0);
    }
    CHECK(b->target_data == en->target_data && b->target_value == en->target_value);
    CHECK(b->target_value != 0);
    CHECK_EQ_LONG(b->info_target, en->info_target);
    seen_targets[f] = b->info_target;
    for (int g = 0; g < f; ++g) CHECK(seen_targets[g] != seen_targets[f]);
    uint64_t dev;
    ompt_id_t tid, op;
    CHECK_EQ_LONG(tgt_get_target_info(&dev, &tid, &op), 0);
  }
#pragma omp taskwait
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads();
  run_and_check(0);
#pragma omp parallel
  {
    int i = omp_get_thread_num();
    if (i < MAXT) run_and_check(i);
  }
  KITE_TEST_END();
}
