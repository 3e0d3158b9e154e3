/* A nest lock is owned by a task, not by a thread (5.2 §18.9): a second
 * task on the owner's thread (an undeferred child, a task run at a
 * taskyield, the implicit task of a nested region) does not hold it, so
 * omp_test_nest_lock there answers 0 and leaves the owner's count alone,
 * while the owner re-acquiring gets the incremented count. A second task
 * that sets it would wait for a task that cannot resume: Kite stops with a
 * message (checked in a child process).
 * kite-test-threads: 1 2 4
 */
#include "kite_test.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static omp_nest_lock_t lock;

int main(void) {
  KITE_TEST_BEGIN();
  omp_init_nest_lock(&lock);

  /* Owner: an explicit task; the other: its undeferred child, on the same
   * thread by definition. */
  int owner_first = -1, owner_again = -1, child = -1, owner_after = -1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task shared(owner_first, owner_again, child, owner_after)
    {
      owner_first = omp_test_nest_lock(&lock);
      owner_again = omp_test_nest_lock(&lock);
#pragma omp task if (0) shared(child)
      child = omp_test_nest_lock(&lock);
      owner_after = omp_test_nest_lock(&lock);
      omp_unset_nest_lock(&lock);
      omp_unset_nest_lock(&lock);
      omp_unset_nest_lock(&lock);
    }
  }
  CHECK_EQ_LONG(owner_first, 1);
  CHECK_EQ_LONG(owner_again, 2);
  CHECK_EQ_LONG(child, 0);
  CHECK_EQ_LONG(owner_after, 3);
  /* Released by the owner: anyone may take it now. */
  CHECK_EQ_LONG(omp_test_nest_lock(&lock), 1);
  omp_unset_nest_lock(&lock);

  /* Owner: the initial task, with omp_set_nest_lock; the other: an
   * undeferred task, then a task run at a taskyield (one thread: this
   * one), then the implicit task of a nested region of one thread. */
  int in_task = -1, yielded = -1, nested = -1;
  omp_set_nest_lock(&lock);
#pragma omp task if (0) shared(in_task)
  in_task = omp_test_nest_lock(&lock);
#pragma omp parallel num_threads(1)
  {
#pragma omp task shared(yielded)
    yielded = omp_test_nest_lock(&lock);
#pragma omp taskyield
#pragma omp taskwait
    nested = omp_test_nest_lock(&lock);
  }
  CHECK_EQ_LONG(in_task, 0);
  CHECK_EQ_LONG(yielded, 0);
  CHECK_EQ_LONG(nested, 0);
  omp_set_nest_lock(&lock);
  CHECK_EQ_LONG(omp_test_nest_lock(&lock), 3);
  omp_unset_nest_lock(&lock);
  omp_unset_nest_lock(&lock);
  omp_unset_nest_lock(&lock);

  /* Between threads, as before: a task on another thread gets 0. */
  int other = -1;
  omp_set_nest_lock(&lock);
#pragma omp parallel num_threads(2) shared(other)
  if (omp_get_thread_num() == 1) other = omp_test_nest_lock(&lock);
  if (other != -1) CHECK_EQ_LONG(other, 0);
  omp_unset_nest_lock(&lock);

  /* A second task on the owner's thread setting the lock: a clear stop,
   * not a hang nor a silent second owner. */
  int fds[2];
  CHECK(pipe(fds) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    alarm(5); /* a hang fails the test via SIGALRM */
    omp_set_nest_lock(&lock);
#pragma omp task if (0)
    omp_set_nest_lock(&lock);
    _exit(0);
  }
  close(fds[1]);
  char buf[512] = {0};
  size_t got = 0;
  ssize_t r;
  while (got < sizeof buf - 1 && (r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
    got += (size_t)r;
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 0));
  CHECK(!(WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM));
  CHECK(strstr(buf, "omp_set_nest_lock") != NULL);
  CHECK(strstr(buf, "another task") != NULL);
  omp_destroy_nest_lock(&lock);
  KITE_TEST_END();
}
