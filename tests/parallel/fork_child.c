// kite-test-threads: 1 2 4
/* fork() from the sequential part after parallel regions ran: the child has
 * only the forking thread, and must build fresh full teams; the parent keeps
 * working with its own. */
#include "kite_test.h"

#include <sys/wait.h>
#include <unistd.h>

static int run_regions(int n, int regions) {
  int bad = 0;
  for (int r = 0; r < regions; ++r) {
    int size = 0, count = 0;
#pragma omp parallel num_threads(n)
    {
      if (omp_get_thread_num() == 0) size = omp_get_num_threads();
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
#pragma omp barrier
      __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    }
    if (size != n || count != 2 * n) {
      fprintf(stderr, "pid %d: region %d asked %d, team %d, count %d\n", (int)getpid(), r, n,
              size, count);
      bad++;
      break;
    }
  }
  return bad;
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  CHECK_EQ_LONG(run_regions(4, 200), 0);
  CHECK_EQ_LONG(run_regions(3, 10), 0); /* leave a hot team of a different size */

  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    /* Child: a hang here fails the test through its timeout. */
    int bad = run_regions(4, 200) + run_regions(3, 50) + run_regions(6, 50);
    if (omp_get_level() != 0 || omp_in_parallel()) bad++;
    /* Fork again from the child: grandchild too. */
    pid_t g = fork();
    if (g == 0) _exit(run_regions(4, 50) ? 5 : 0);
    int gst = 0;
    if (g < 0 || waitpid(g, &gst, 0) != g || !WIFEXITED(gst) || WEXITSTATUS(gst) != 0) bad++;
    _exit(bad ? 7 : 0);
  }
  /* Parent, while the child runs. */
  CHECK_EQ_LONG(run_regions(4, 200), 0);
  CHECK_EQ_LONG(run_regions(2, 50), 0);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  if (WIFEXITED(status)) CHECK_EQ_LONG(WEXITSTATUS(status), 0);
  if (WIFSIGNALED(status)) fprintf(stderr, "child killed by signal %d\n", WTERMSIG(status));
  KITE_TEST_END();
}
