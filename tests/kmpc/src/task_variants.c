// Task entry points beside __kmpc_omp_task: a target task (an ordinary
// task on the host), __kmpc_omp_task_parts, and a proxy task, which is not
// complete (taskwait does not return) until another thread calls
// __kmpc_proxy_task_completed_ooo, even though its body has returned.
#include <omp.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "kite_test.h"

typedef struct ident ident_t;
typedef int (*kmp_routine_entry_t)(int, void*);
typedef struct kmp_task {
  void* shareds;
  kmp_routine_entry_t routine;
  int part_id;
  void* data1;
  void* data2;
} kmp_task_t;

kmp_task_t* __kmpc_omp_task_alloc(ident_t*, int, int, size_t, size_t, kmp_routine_entry_t);
kmp_task_t* __kmpc_omp_target_task_alloc(ident_t*, int, int, size_t, size_t,
                                         kmp_routine_entry_t, int64_t);
int __kmpc_omp_task(ident_t*, int, kmp_task_t*);
int __kmpc_omp_task_parts(ident_t*, int, kmp_task_t*);
int __kmpc_omp_taskwait(ident_t*, int);
void __kmpc_proxy_task_completed_ooo(kmp_task_t*);
void __kmpc_proxy_task_completed(int, kmp_task_t*);
int __kmpc_global_thread_num(ident_t*);

enum { kTied = 1, kProxy = 0x10 };

static int ran_target, ran_parts, ran_proxy, completed;

static int count_run(int gtid, void* task) {
  (void)gtid;
  int* counter = *(int**)((kmp_task_t*)task)->shareds;
  __atomic_add_fetch(counter, 1, __ATOMIC_RELEASE);
  return 0;
}

static kmp_task_t* make(kmp_task_t* (*alloc)(int), int* counter) {
  kmp_task_t* t = alloc(__kmpc_global_thread_num(NULL));
  *(int**)t->shareds = counter;
  return t;
}

static kmp_task_t* alloc_target(int gtid) {
  return __kmpc_omp_target_task_alloc(NULL, gtid, kTied, sizeof(kmp_task_t), sizeof(int*),
                                      count_run, -1);
}
static kmp_task_t* alloc_plain(int gtid) {
  return __kmpc_omp_task_alloc(NULL, gtid, kTied, sizeof(kmp_task_t), sizeof(int*), count_run);
}
static kmp_task_t* alloc_proxy(int gtid) {
  return __kmpc_omp_task_alloc(NULL, gtid, kTied | kProxy, sizeof(kmp_task_t), sizeof(int*),
                               count_run);
}

// The asynchronous part of the proxy task: ends some time after its body.
static void* finisher(void* arg) {
  while (!__atomic_load_n(&ran_proxy, __ATOMIC_ACQUIRE)) usleep(100);
  usleep(20000);
  __atomic_store_n(&completed, 1, __ATOMIC_RELEASE);
  __kmpc_proxy_task_completed_ooo((kmp_task_t*)arg);
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  int bad = 0;
#pragma omp parallel
#pragma omp single
  {
    int gtid = __kmpc_global_thread_num(NULL);
    __kmpc_omp_task(NULL, gtid, make(alloc_target, &ran_target));
    CHECK(__kmpc_omp_task_parts(NULL, gtid, make(alloc_plain, &ran_parts)) == 0);
    __kmpc_omp_taskwait(NULL, gtid);
    CHECK(ran_target == 1);
    CHECK(ran_parts == 1);

    kmp_task_t* proxy = make(alloc_proxy, &ran_proxy);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, finisher, proxy) == 0);
    __kmpc_omp_task(NULL, gtid, proxy);
    __kmpc_omp_taskwait(NULL, gtid);
    if (!__atomic_load_n(&completed, __ATOMIC_ACQUIRE)) bad++;
    CHECK(ran_proxy == 1);
    pthread_join(th, NULL);
  }
  CHECK_EQ_LONG(bad, 0);

  // A task that was not created as a proxy task is left alone (warning).
  int plain_runs = 0;
  kmp_task_t* t = make(alloc_plain, &plain_runs);
  __kmpc_proxy_task_completed(0, t);
  __kmpc_omp_task(NULL, 0, t);
  __kmpc_omp_taskwait(NULL, 0);
  CHECK(plain_runs == 1);
  KITE_TEST_END();
}
