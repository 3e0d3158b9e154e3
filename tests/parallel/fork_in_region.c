// kite-test-threads: 1 2 4
/* fork() from inside a parallel region: the child has only the forking
 * thread, which starts over as an initial thread outside any region with a
 * new pool (as LLVM's libomp gives a child a fresh runtime). In the child:
 * omp_get_level() 0, one thread; a parallel region there gets the team it
 * asks for at level 1. Forked by the primary (the child then leaves the
 * region and goes on after it), by a worker (the child ends when it leaves
 * the region), and in a nested region. */
#include "kite_test.h"

#include <sys/wait.h>
#include <unistd.h>

/* What the child checks; returns a bit mask of failures. */
static int child_checks(void) {
  int bad = 0;
  if (omp_get_level() != 0 || omp_get_active_level() != 0 || omp_in_parallel()) bad |= 1;
  if (omp_get_num_threads() != 1 || omp_get_thread_num() != 0) bad |= 2;
  for (int n = 3; n <= 5; n += 2) {
    int size = 0, level = 0, count = 0;
#pragma omp parallel num_threads(n)
    {
      if (omp_get_thread_num() == 0) {
        size = omp_get_num_threads();
        level = omp_get_level();
      }
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp barrier
    }
    if (size != n || level != 1 || count != n) {
      fprintf(stderr, "child %d: num_threads(%d): team %d, level %d, count %d\n", (int)getpid(),
              n, size, level, count);
      bad |= 4;
    }
  }
  /* A lock made in the child works. */
  omp_lock_t l;
  omp_init_lock(&l);
  long sum = 0;
#pragma omp parallel num_threads(4)
  for (int i = 0; i < 100; ++i) {
    omp_set_lock(&l);
    sum += 1;
    omp_unset_lock(&l);
  }
  omp_destroy_lock(&l);
  if (sum != 400) bad |= 8;
  return bad;
}

static int wait_status(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  if (WIFSIGNALED(status)) fprintf(stderr, "child killed by signal %d\n", WTERMSIG(status));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  fflush(stdout);
  fflush(stderr);

  /* 1. The primary forks; the child checks, then _exits inside the region. */
  pid_t pid = -1;
#pragma omp parallel num_threads(2)
  {
#pragma omp barrier
    if (omp_get_thread_num() == 0) {
      pid = fork();
      if (pid == 0) {
        alarm(20);
        _exit(child_checks());
      }
    }
#pragma omp barrier
  }
  CHECK(pid > 0);
  if (pid > 0) CHECK_EQ_LONG(wait_status(pid), 0);

  /* 2. A worker forks; the child checks, then _exits. */
  pid = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) {
      pid_t p = fork();
      if (p == 0) {
        alarm(20);
        _exit(child_checks());
      }
      pid = p;
    }
  }
  CHECK(pid > 0);
  if (pid > 0) CHECK_EQ_LONG(wait_status(pid), 0);

  /* 3. The primary forks and the child leaves the region: it goes on after
   * the region as a sequential program. */
  pid_t forked = -1;
  int in_region = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
      forked = fork();
      if (forked == 0) alarm(20);
      /* In the child the region is gone: level 0. */
      in_region = omp_get_level();
    }
#pragma omp barrier
  }
  if (forked == 0) _exit(in_region == 0 ? child_checks() : 16);
  CHECK(forked > 0);
  CHECK_EQ_LONG(in_region, 1);
  if (forked > 0) CHECK_EQ_LONG(wait_status(forked), 0);

  /* 4. A worker forks and its child leaves the region: the child ends
   * (status 0) with no program left to run. */
  pid = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1) {
      pid_t p = fork();
      if (p == 0) alarm(20);
      else pid = p;
    }
  }
  CHECK(pid > 0);
  if (pid > 0) CHECK_EQ_LONG(wait_status(pid), 0);

  /* 5. Forked in a nested region: the child is at level 0 too. */
  omp_set_max_active_levels(2);
  pid = -1;
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp parallel num_threads(2)
      {
        if (omp_get_thread_num() == 1) {
          pid_t p = fork();
          if (p == 0) {
            alarm(20);
            _exit(child_checks());
          }
          pid = p;
        }
      }
    }
  }
  CHECK(pid > 0);
  if (pid > 0) CHECK_EQ_LONG(wait_status(pid), 0);

  /* The parent goes on with full teams. */
  int size = 0;
#pragma omp parallel num_threads(3)
  if (omp_get_thread_num() == 0) size = omp_get_num_threads();
  CHECK_EQ_LONG(size, 3);
  KITE_TEST_END();
}
