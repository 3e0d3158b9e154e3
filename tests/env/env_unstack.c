/* Un-stacking (docs/internals.md, Waiting): a waiting thread that keeps
 * finding a teammate it waits for on its own processor moves itself to
 * another one. The child stacks a team on one processor (each thread
 * narrows its affinity to that processor, then restores the process mask:
 * restoring does not migrate), with a busy process competing for the
 * processors, and runs barriers; KITE_UNSTACK=verbose reports each move.
 * Checked: the move is reported, from the processor the team was stacked
 * on, and the team is then seen on two processors; no move is made or
 * reported when the team is bound or larger than the processors, and
 * KITE_UNSTACK=true moves silently. (Off is the default; nothing here can
 * tell a move the kernel made from one Kite made, so "off" is not checked
 * beyond env_bad_values' parsing.) Nothing here depends on how fast anything is.
 * kite-test-threads: 2
 * kite-test-serial
 * kite-test-timeout: 120 */
#include "env_child.h"

#include <signal.h>
#include <sys/prctl.h>
#include <time.h>

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A busy process that dies with its parent, bound to processor `cpu`
 * (when it is not -1) so that the kernel has no reason to move the team
 * apart itself: two team threads on one processor and the busy process on
 * the other are as balanced as the load balancer can make them. */
static pid_t start_hog(int cpu) {
  pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (cpu >= 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      sched_setaffinity(0, sizeof one, &one);
    }
    for (;;) __asm__ volatile("" ::: "memory");
  }
  struct timespec settle = {0, 20000000};
  nanosleep(&settle, NULL);
  return pid;
}

/* Team of `n` threads stacked on processor `cpu`, barriers for at most
 * `seconds`, stopping once two threads were seen on different processors
 * (checked every 256 barriers). */
static int child_stacked(int n, int cpu, int hog_cpu, double seconds) {
  pid_t hog = start_hog(hog_cpu);
  cpu_set_t full;
  if (sched_getaffinity(0, sizeof full, &full) != 0) return 2;
  volatile int where[64];
  volatile int stop = 0, spread = 0;
  double t0 = now_s();
#pragma omp parallel num_threads(n)
  {
    int me = omp_get_thread_num();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
    sched_setaffinity(0, sizeof full, &full);
#pragma omp barrier
    for (long i = 0; !stop; ++i) {
#pragma omp barrier
      if ((i & 255) == 0) {
        where[me] = sched_getcpu();
#pragma omp barrier
#pragma omp single
        {
          for (int k = 1; k < omp_get_num_threads(); ++k)
            if (where[k] != where[0]) spread = 1;
          if (spread || now_s() - t0 > seconds) stop = 1;
        }
      }
    }
  }
  kill(hog, SIGKILL);
  waitpid(hog, NULL, 0);
  printf("team=%d spread=%d\n", n, spread);
  return 0;
}

static void run_case(struct child_result* r, const char* mode, const char* const* env) {
  run_child(r, mode, env);
  CHECK_CHILD(r->status == 0, r);
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  int cpus[CPU_SETSIZE];
  int ncpu = allowed_cpus(cpus, CPU_SETSIZE);
  if (is_child(argc, argv)) {
    int other = ncpu >= 2 ? cpus[1] : -1;
    if (!strcmp(argv[2], "pair")) return child_stacked(2, cpus[0], other, 10.0);
    if (!strcmp(argv[2], "pair-short")) return child_stacked(2, cpus[0], other, 1.0);
    if (!strcmp(argv[2], "over")) return child_stacked(ncpu + 2, cpus[0], other, 1.0);
    return 2;
  }
  static struct child_result r;
  char want[128];
  if (ncpu >= 2) {
    /* On: the move is reported, from the stacked processor, and the team
     * ends up spread. */
    const char* verbose[] = {"KITE_UNSTACK=verbose", NULL};
    run_case(&r, "pair", verbose);
    snprintf(want, sizeof want, "kite: unstack: thread 1 (team thread 1) moved from processor %d to ",
             cpus[0]);
    CHECK_CHILD(strstr(r.err, want) != NULL, &r);
    CHECK_CHILD(strstr(r.out, "team=2 spread=1\n") != NULL, &r);
    /* The second number is another processor of the mask. */
    const char* p = strstr(r.err, want);
    if (p) {
      int to = atoi(p + strlen(want));
      CHECK_CHILD(to != cpus[0], &r);
    }
  } else {
    /* One processor: nowhere to move. */
    const char* verbose[] = {"KITE_UNSTACK=verbose", NULL};
    run_case(&r, "pair-short", verbose);
    CHECK_CHILD(strstr(r.err, "unstack") == NULL, &r);
  }
  /* On without verbose: moves without a word. */
  {
    const char* env[] = {"KITE_UNSTACK=true", NULL};
    run_case(&r, "pair-short", env);
    CHECK_CHILD(r.err[0] == '\0', &r);
  }
  /* Bound teams stay where the binding put them. */
  {
    const char* env[] = {"KITE_UNSTACK=verbose", "OMP_PROC_BIND=spread", "OMP_PLACES=threads", NULL};
    run_case(&r, "pair-short", env);
    CHECK_CHILD(strstr(r.err, "unstack") == NULL, &r);
  }
  /* More threads than processors: stacking cannot be avoided. */
  {
    const char* env[] = {"KITE_UNSTACK=verbose", NULL};
    run_case(&r, "over", env);
    CHECK_CHILD(strstr(r.err, "unstack") == NULL, &r);
    snprintf(want, sizeof want, "team=%d ", ncpu + 2);
    CHECK_CHILD(strstr(r.out, want) != NULL, &r);
  }
  KITE_TEST_END();
}
