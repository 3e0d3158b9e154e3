// ORA's task events (OpenUH's 23..35) and task states (12..16), as the
// preloaded collector (support/ora_collector.c: START and all 35 REGISTERs
// from its constructor) sees them, for deferred tasks waited for by a
// taskwait, undeferred if(0) tasks, a taskgroup's tasks, and tasks other
// threads take from the creator's queue at a barrier.
//
// Per thread: creation intervals do not nest and end IMM or DEL; a
// schedule interval holds at most one steal interval and ends after the
// task is fetched (or the thread stops looking); a body begins (exec) only
// after a fetch or an IMM creation end, and its finish begins and ends
// after it, inside the suspend interval of the wait that ran it, if any.
// The state STATE answers inside each callback is the interval's. Across
// threads: every task created is executed once, every deferred one
// fetched once, and some were stolen.
// kite-test-threads: 2 4
// kite-test-env: LD_PRELOAD=ompt/libkite_ora_collector.so ASAN_OPTIONS=verify_asan_link_order=0
#include "kite_test.h"

#include <stdint.h>
#include <time.h>

#include "support/ora_collector.h"

enum { kDeferredWaited = 8, kUndeferred = 4, kGrouped = 8, kAtBarrier = 16 };
enum { kDeferred = kDeferredWaited + kGrouped + kAtBarrier };
enum { kTasks = kDeferred + kUndeferred };

static int (*started)(void);
static int (*thread_count)(void);
static struct ora_thread_log* (*log_of)(int);
static int (*(*api_of)(void))(void*);

struct totals {
  int create_begin, end_imm, end_del, fetched, exec, finish_begin, finish_end;
  int steal_success;  // an END_STEAL right before a FETCHED
  int suspends;
};

// One nesting level of a thread's task intervals: a suspend around a task
// run at a scheduling point, or a body (exec, then finish).
enum { kSuspend = 1, kBody = 2, kFinish = 3 };

static void check_thread(struct ora_thread_log* log, struct totals* tot) {
  CHECK(!log->overflow);
  int creating = 0, searching = 0, stealing = 0, ready = 0;
  int stack[64], depth = 0;
  for (int i = 0; i < log->n; ++i) {
    struct ora_record* r = &log->rec[i];
    const int ev = r->event;
    if (ev < OMP_EVENT_THR_BEGIN_CREATE_TASK) continue;  // ora_events checks those
    CHECK_EQ_LONG(r->state_error, OMP_ERRCODE_OK);
    const int top = depth > 0 ? stack[depth - 1] : 0;
    switch (ev) {
      case OMP_EVENT_THR_BEGIN_CREATE_TASK:
        CHECK(!creating && !searching);
        creating = 1;
        CHECK_EQ_LONG(r->state, THR_TASK_CREATE_STATE);
        ++tot->create_begin;
        break;
      case OMP_EVENT_THR_END_CREATE_TASK_IMM:
      case OMP_EVENT_THR_END_CREATE_TASK_DEL:
        CHECK(creating);
        creating = 0;
        // Back to the creator's work (the tasks are created in a single).
        CHECK_EQ_LONG(r->state, THR_WORK_STATE);
        if (ev == OMP_EVENT_THR_END_CREATE_TASK_IMM) {
          ++tot->end_imm;
          ++ready;
        } else {
          ++tot->end_del;
        }
        break;
      case OMP_EVENT_THR_BEGIN_SCHD_TASK:
        CHECK(!searching && !creating);
        searching = 1;
        CHECK_EQ_LONG(r->state, THR_TASK_SCHEDULE_STATE);
        break;
      case OMP_EVENT_THR_BEGIN_STEAL_TASK:
        CHECK(searching && !stealing);
        stealing = 1;
        CHECK_EQ_LONG(r->state, THR_TASK_STEAL_STATE);
        break;
      case OMP_EVENT_THR_END_STEAL_TASK:
        CHECK(searching && stealing);
        stealing = 0;
        CHECK_EQ_LONG(r->state, THR_TASK_SCHEDULE_STATE);
        if (i + 1 < log->n && log->rec[i + 1].event == OMP_EVENT_THR_FETCHED_TASK)
          ++tot->steal_success;
        break;
      case OMP_EVENT_THR_FETCHED_TASK:
        CHECK(searching && !stealing);
        CHECK_EQ_LONG(r->state, THR_TASK_SCHEDULE_STATE);
        // The schedule interval ends right after.
        CHECK(i + 1 < log->n && log->rec[i + 1].event == OMP_EVENT_THR_END_SCHD_TASK);
        ++tot->fetched;
        ++ready;
        break;
      case OMP_EVENT_THR_END_SCHD_TASK:
        CHECK(searching && !stealing);
        searching = 0;
        CHECK(r->state != THR_TASK_SCHEDULE_STATE && r->state != THR_TASK_STEAL_STATE);
        break;
      case OMP_EVENT_THR_BEGIN_SUSPEND_TASK:
        CHECK(!searching && !creating);
        // Only a task just fetched is run at a scheduling point.
        CHECK(i > 0 && log->rec[i - 1].event == OMP_EVENT_THR_END_SCHD_TASK);
        CHECK_EQ_LONG(r->state, THR_TASK_SUSPEND_STATE);
        CHECK(depth < 64);
        if (depth < 64) stack[depth++] = kSuspend;
        ++tot->suspends;
        break;
      case OMP_EVENT_THR_END_SUSPEND_TASK:
        CHECK_EQ_LONG(top, kSuspend);
        if (top == kSuspend) --depth;
        CHECK(r->state != THR_TASK_SUSPEND_STATE);
        break;
      case OMP_EVENT_THR_BEGIN_EXEC_TASK:
        CHECK(!searching && !creating);
        CHECK(ready > 0);  // fetched, or created to run at once
        --ready;
        CHECK_EQ_LONG(r->state, THR_WORK_STATE);
        CHECK(depth < 64);
        if (depth < 64) stack[depth++] = kBody;
        ++tot->exec;
        break;
      case OMP_EVENT_THR_BEGIN_FINISH_TASK:
        CHECK_EQ_LONG(top, kBody);
        if (top == kBody) stack[depth - 1] = kFinish;
        CHECK_EQ_LONG(r->state, THR_TASK_FINISH_STATE);
        ++tot->finish_begin;
        break;
      case OMP_EVENT_THR_END_FINISH_TASK:
        CHECK_EQ_LONG(top, kFinish);
        if (top == kFinish) --depth;
        // Back to the suspend interval the task ran in, or the creator's
        // work for a task it ran at once.
        CHECK_EQ_LONG(r->state, depth > 0 && stack[depth - 1] == kSuspend
                                    ? THR_TASK_SUSPEND_STATE
                                    : THR_WORK_STATE);
        ++tot->finish_end;
        break;
      default:
        fprintf(stderr, "unknown event %d\n", ev);
        CHECK(0);
    }
  }
  CHECK(!creating && !searching && !stealing);
  CHECK_EQ_LONG(depth, 0);
  CHECK_EQ_LONG(ready, 0);
}

// REGISTER of an event number: the error the runtime answers.
static int register_error(int ev) {
  char msg[16 + 12 + 4];
  memset(msg, 0, sizeof msg);
  int size = 28, req = OMP_REQ_REGISTER;
  void (*cb)(OMP_COLLECTORAPI_EVENT) = NULL;
  memcpy(msg, &size, 4);
  memcpy(msg + 4, &req, 4);
  memcpy(msg + 16, &ev, 4);
  memcpy(msg + 20, &cb, 8);
  CHECK_EQ_LONG(api_of()(msg), 0);
  int e;
  memcpy(&e, msg + 8, 4);
  return e;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile int sink;

static void some_work(void) {
  for (int i = 0; i < 2000; ++i) sink = sink + i;
}

int main(void) {
  KITE_TEST_BEGIN();
  started = (int (*)(void))dlsym(RTLD_DEFAULT, "ora_collector_started");
  thread_count = (int (*)(void))dlsym(RTLD_DEFAULT, "ora_collector_thread_count");
  log_of = (struct ora_thread_log * (*)(int)) dlsym(RTLD_DEFAULT, "ora_collector_log");
  api_of = (int (*(*)(void))(void*))dlsym(RTLD_DEFAULT, "ora_collector_api");
  if (!started || !thread_count || !log_of || !api_of) {
    fprintf(stderr, "FAIL: the ORA collector is not preloaded\n");
    return 1;
  }
  // START and the REGISTERs of all 35 events (22 + OpenUH's 13) answered OK.
  CHECK(started());
  CHECK_EQ_LONG(register_error(OMP_EVENT_THR_END_FINISH_TASK + 1), OMP_ERRCODE_UNKNOWN);

  int ran = 0, stolen = 0, creator = -1, nthreads = 0;
#pragma omp parallel shared(ran, stolen, creator, nthreads)
  {
#pragma omp single
    {
      creator = omp_get_thread_num();
      nthreads = omp_get_num_threads();
      for (int i = 0; i < kDeferredWaited; ++i) {
#pragma omp task shared(ran)
        {
          some_work();
#pragma omp atomic
          ran++;
        }
      }
#pragma omp taskwait
      CHECK_EQ_LONG(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), kDeferredWaited);
      for (int i = 0; i < kUndeferred; ++i) {
#pragma omp task if(0) shared(ran)
        {
#pragma omp atomic
          ran++;
        }
      }
#pragma omp taskgroup
      {
        for (int i = 0; i < kGrouped; ++i) {
#pragma omp task shared(ran)
          {
            some_work();
#pragma omp atomic
            ran++;
          }
        }
      }
      CHECK_EQ_LONG(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), kDeferredWaited + kUndeferred + kGrouped);
      // Left in this thread's queue while it spins here (no scheduling
      // point): the others, at the single's barrier, take them.
      for (int i = 0; i < kAtBarrier; ++i) {
#pragma omp task shared(ran, stolen, creator)
        {
          if (omp_get_thread_num() != creator) __atomic_store_n(&stolen, 1, __ATOMIC_RELEASE);
          some_work();
#pragma omp atomic
          ran++;
        }
      }
      const double t0 = now_s();
      while (!__atomic_load_n(&stolen, __ATOMIC_ACQUIRE) && now_s() - t0 < 30) {
      }
      CHECK(__atomic_load_n(&stolen, __ATOMIC_ACQUIRE));
    }
  }
  CHECK_EQ_LONG(ran, kTasks);
  CHECK(nthreads >= 2);

  struct totals tot;
  memset(&tot, 0, sizeof tot);
  int threads = thread_count();
  int creator_logs = 0;
  for (int t = 0; t < threads; ++t) {
    struct ora_thread_log* log = log_of(t);
    struct totals mine;
    memset(&mine, 0, sizeof mine);
    check_thread(log, &mine);
    creator_logs += mine.create_begin > 0;
    tot.create_begin += mine.create_begin;
    tot.end_imm += mine.end_imm;
    tot.end_del += mine.end_del;
    tot.fetched += mine.fetched;
    tot.exec += mine.exec;
    tot.finish_begin += mine.finish_begin;
    tot.finish_end += mine.finish_end;
    tot.steal_success += mine.steal_success;
    tot.suspends += mine.suspends;
  }
  // One thread created every task, deferred ones once each fetched, every
  // body run once (the program's count says so too).
  CHECK_EQ_LONG(creator_logs, 1);
  CHECK_EQ_LONG(tot.create_begin, kTasks);
  CHECK_EQ_LONG(tot.end_imm, kUndeferred);
  CHECK_EQ_LONG(tot.end_del, kDeferred);
  CHECK_EQ_LONG(tot.fetched, kDeferred);
  CHECK_EQ_LONG(tot.exec, kTasks);
  CHECK_EQ_LONG(tot.finish_begin, kTasks);
  CHECK_EQ_LONG(tot.finish_end, kTasks);
  CHECK_EQ_LONG(tot.suspends, kDeferred);
  CHECK(tot.steal_success >= 1);
  KITE_TEST_END();
}
