// kite-test-compilers: gcc  -- the error directive, which LLVM 14 lacks (LLVM 15+ emits __kmpc_error, which tests/kmpc/src/error.c calls)
/* The error directive with severity(fatal) ends the program with status 1
 * (EXIT_FAILURE, as libgomp) after printing its message. Each case runs in
 * a child process whose stderr is captured.
 * kite-test-threads: 1 2
 */
#include "kite_test.h"

#include <sys/wait.h>
#include <unistd.h>

typedef void (*child_fn)(void);

static void fatal_with_message(void) {
#pragma omp error at(execution) severity(fatal) message("cannot go on")
}

static void fatal_without_message(void) {
#pragma omp error at(execution) severity(fatal)
}

static void fatal_in_team(void) {
#pragma omp parallel
  {
    if (omp_get_thread_num() == omp_get_num_threads() - 1) {
#pragma omp error at(execution) severity(fatal) message("team member gives up")
    }
  }
}

/* Runs fn in a child; returns its exit status (-1 if it did not exit) and
 * its stderr in buf. */
static int run_child(child_fn fn, char* buf, size_t cap) {
  int fds[2];
  if (pipe(fds) != 0) return -2;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    fn();
    _exit(0); /* not reached if the directive terminates */
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t r;
  while ((r = read(fds[0], buf + len, cap - 1 - len)) > 0) len += (size_t)r;
  buf[len] = 0;
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(void) {
  KITE_TEST_BEGIN();
  char buf[4096];
  CHECK_EQ_LONG(run_child(fatal_with_message, buf, sizeof buf), 1);
  CHECK(strstr(buf, "fatal error: error directive encountered: cannot go on\n") != NULL);

  CHECK_EQ_LONG(run_child(fatal_without_message, buf, sizeof buf), 1);
  CHECK(strstr(buf, "fatal error: error directive encountered\n") != NULL);

  CHECK_EQ_LONG(run_child(fatal_in_team, buf, sizeof buf), 1);
  CHECK(strstr(buf, "error directive encountered: team member gives up") != NULL);
  KITE_TEST_END();
}
