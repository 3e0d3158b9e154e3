/* Setting a simple lock the calling thread already holds can only hang;
 * Kite stops the program with a message naming the routine instead. Run in
 * a child process so the test itself survives.
 * kite-test-threads: 1
 */
#include "kite_test.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  KITE_TEST_BEGIN();
  int fds[2];
  CHECK(pipe(fds) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    omp_lock_t l;
    omp_init_lock(&l);
    omp_set_lock(&l);
    alarm(5); /* a hang fails the test via SIGALRM */
    omp_set_lock(&l);
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
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
  CHECK(strstr(buf, "omp_set_lock") != NULL);
  CHECK(strstr(buf, "deadlock") != NULL);
  KITE_TEST_END();
}
