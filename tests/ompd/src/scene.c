// An OpenMP program that stops in a known place for a debugger (tests/ompd).
//
// When it calls stop_here():
//   - the initial thread runs task C, an included task of final task B,
//     itself an undeferred untied task A of implicit task 0 of the inner
//     region (level 2, 3 threads) of implicit task 0 of the outer region
//     (level 1, 6 threads);
//   - the inner region's threads 1 and 2 wait at its explicit barrier;
//   - the outer region's (6 threads, proc_bind(spread): with a place list,
//     each thread's place partition is a part of it) thread 1 waits for a
//     lock the initial thread holds, thread 2 for a critical section it is
//     in, thread 4 in a taskwait for a task that one of threads 3 and 5
//     runs (it spins until the end) at the outer region's closing barrier,
//     where the other waits;
//   - the worker of an earlier 9-thread region not used since is idle;
//   - a native pthread that never called OpenMP sleeps, and another that
//     called one OpenMP routine (an initial thread, working serially).
// Before that it writes what it knows about itself through the OpenMP API
// (and its thread ids) to the file named by argv[1], one "key value" a line.
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kite_test.h"

static FILE* facts;
static omp_lock_t lock;
static int arrived;
static int in_critical;
static int spin_started, spin_release;
static volatile int native_ready, serial_ready;

static long lwp(void) { return syscall(SYS_gettid); }

__attribute__((noinline)) void stop_here(void) { __asm__ volatile("" ::: "memory"); }

static void* native_thread(void* arg) {
  fprintf(facts, "native_lwp %ld\n", lwp());
  native_ready = 1;
  for (;;) pause();
  return arg;
}

// The calling thread's place partition, written the way OMP_PLACES writes
// places: "{0,1},{4:3}" (a run of consecutive processors as start:count).
static void write_partition(char* out, size_t cap) {
  int n = omp_get_partition_num_places();
  int nums[256], ids[1024];
  size_t len = 0;
  out[0] = '\0';
  if (n > 256) n = 256;
  omp_get_partition_place_nums(nums);
  for (int i = 0; i < n; ++i) {
    int k = omp_get_place_num_procs(nums[i]);
    if (k > 1024) k = 1024;
    omp_get_place_proc_ids(nums[i], ids);
    len += snprintf(out + len, cap - len, i ? ",{" : "{");
    for (int j = 0; j < k && len < cap;) {
      int run = 1;
      while (j + run < k && ids[j + run] == ids[j] + run) ++run;
      len += snprintf(out + len, cap - len, run > 1 ? "%s%d:%d" : "%s%d", j ? "," : "", ids[j], run);
      j += run;
    }
    if (len < cap) len += snprintf(out + len, cap - len, "}");
    if (len >= cap) break;
  }
}

static void in_task_c(void) {
  while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < 5) usleep(1000);
  usleep(200000);  // the others are inside their waits by now
  fprintf(facts, "main_lwp %ld\n", lwp());
  fprintf(facts, "level %d\n", omp_get_level());
  fprintf(facts, "active_level %d\n", omp_get_active_level());
  fprintf(facts, "team_size %d\n", omp_get_team_size(2));
  fprintf(facts, "outer_team_size %d\n", omp_get_team_size(1));
  fprintf(facts, "thread_num %d\n", omp_get_thread_num());
  fprintf(facts, "in_final %d\n", omp_in_final());
  fprintf(facts, "max_threads %d\n", omp_get_max_threads());
  fprintf(facts, "max_active_levels %d\n", omp_get_max_active_levels());
  fprintf(facts, "dynamic %d\n", omp_get_dynamic());
  omp_sched_t kind;
  int chunk;
  omp_get_schedule(&kind, &chunk);
  fprintf(facts, "schedule %d,%d\n", (int)kind, chunk);
  fprintf(facts, "thread_limit %d\n", omp_get_thread_limit());
  fprintf(facts, "num_procs %d\n", omp_get_num_procs());
  fprintf(facts, "partition_num_places %d\n", omp_get_partition_num_places());
  char places[4096];
  write_partition(places, sizeof places);
  fprintf(facts, "partition %s\n", places);
  fprintf(facts, "lock_addr %lu\n", (unsigned long)(unsigned long)&lock);
  fprintf(facts, "end 1\n");
  fflush(facts);
  stop_here();
}

static void* serial_thread(void* arg) {
  fprintf(facts, "serial_lwp %ld\n", lwp());
  fprintf(facts, "serial_level %d\n", omp_get_level());
  serial_ready = 1;
  for (;;) pause();
  return arg;
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  if (argc < 2) return 2;
  facts = fopen(argv[1], "w");
  if (!facts) return 2;
  setvbuf(facts, NULL, _IOLBF, 0);
  pthread_t native;
  pthread_create(&native, NULL, native_thread, NULL);
  while (!native_ready) usleep(1000);
  pthread_t serial;
  pthread_create(&serial, NULL, serial_thread, NULL);
  while (!serial_ready) usleep(1000);

  omp_set_dynamic(0);
  omp_set_max_active_levels(3);
  omp_set_schedule(omp_sched_dynamic, 3);
  // Nine threads once: the worker the later regions do not take stays idle.
#pragma omp parallel num_threads(9)
  {
#pragma omp critical
    fprintf(facts, "pool_lwp %ld\n", lwp());
  }
  omp_init_lock(&lock);
  omp_set_lock(&lock);
  // Spread: each thread of this region gets its own place partition, a
  // part of the place list (tests/ompd/run_gdb.py sets OMP_PLACES).
#pragma omp parallel num_threads(6) proc_bind(spread)
  {
    int me = omp_get_thread_num();
    if (me == 1) {
      fprintf(facts, "locked_lwp %ld\n", lwp());
      __atomic_fetch_add(&arrived, 1, __ATOMIC_ACQ_REL);
      omp_set_lock(&lock);  // held by the initial thread: waits
      omp_unset_lock(&lock);
    } else if (me == 2) {
      while (!__atomic_load_n(&in_critical, __ATOMIC_ACQUIRE)) usleep(1000);
      fprintf(facts, "critical_lwp %ld\n", lwp());
      __atomic_fetch_add(&arrived, 1, __ATOMIC_ACQ_REL);
#pragma omp critical(scene)
      ;  // the initial thread is inside: waits
    } else if (me == 3 || me == 5) {
      // To the closing barrier, where one of the two takes up the task.
      fprintf(facts, "closing_barrier_lwp %ld\n", lwp());
    } else if (me == 4) {
      fprintf(facts, "taskwait_lwp %ld\n", lwp());
#pragma omp task
      {
        __atomic_store_n(&spin_started, 1, __ATOMIC_RELEASE);
        while (!__atomic_load_n(&spin_release, __ATOMIC_ACQUIRE)) usleep(1000);
      }
      // Not a scheduling point: the task starts on another thread.
      while (!__atomic_load_n(&spin_started, __ATOMIC_ACQUIRE)) usleep(1000);
      __atomic_fetch_add(&arrived, 1, __ATOMIC_ACQ_REL);
#pragma omp taskwait
    } else {
#pragma omp critical(scene)
      {
        __atomic_store_n(&in_critical, 1, __ATOMIC_RELEASE);
#pragma omp parallel num_threads(3)
        {
          if (omp_get_thread_num() == 0) {
#pragma omp task if(0) untied
            {
#pragma omp task if(0) final(1)
              {
#pragma omp task
                in_task_c();
              }
            }
            omp_unset_lock(&lock);
          } else {
#pragma omp critical
            fprintf(facts, "barrier_lwp %ld\n", lwp());
            __atomic_fetch_add(&arrived, 1, __ATOMIC_ACQ_REL);
          }
#pragma omp barrier
        }
      }
      __atomic_store_n(&spin_release, 1, __ATOMIC_RELEASE);
    }
  }
  omp_destroy_lock(&lock);
  printf("scene done\n");
  return 0;
}
