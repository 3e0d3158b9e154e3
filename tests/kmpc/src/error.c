// __kmpc_error (the error directive, clang 16+; called directly here):
// severity 1 prints a warning with the message and the program goes on;
// severity 2 prints it and ends the program with exit status 1. Each case
// runs in a child process whose stderr comes back through a pipe.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kite_test.h"

typedef struct ident {
  int reserved_1, flags, reserved_2, reserved_3;
  const char* psource;
} ident_t;
void __kmpc_error(ident_t*, int, const char*);

// Runs __kmpc_error(loc, severity, msg) in a child; returns its exit
// status (or -1) and what it wrote to stderr.
static int run_child(ident_t* loc, int severity, const char* msg, char* err, size_t cap) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    __kmpc_error(loc, severity, msg);
    fputs("after-directive\n", stderr);
    fflush(stderr);
    _exit(0);
  }
  close(fds[1]);
  size_t n = 0;
  ssize_t r;
  while (n + 1 < cap && (r = read(fds[0], err + n, cap - 1 - n)) > 0) n += (size_t)r;
  err[n] = '\0';
  close(fds[0]);
  int status;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

int main(void) {
  KITE_TEST_BEGIN();
  char err[1024];
  ident_t loc = {0, 2, 0, 0, ";error.c;main;42;9;;"};

  int st = run_child(&loc, 1, "disk almost full", err, sizeof err);
  CHECK(st == 0);
  CHECK(strstr(err, "warning") != NULL);
  CHECK(strstr(err, "disk almost full") != NULL);
  CHECK(strstr(err, "error.c:42") != NULL);
  CHECK(strstr(err, "after-directive") != NULL);  // a warning does not stop the program

  st = run_child(&loc, 2, "cannot go on", err, sizeof err);
  CHECK(st == 1);
  CHECK(strstr(err, "fatal") != NULL);
  CHECK(strstr(err, "cannot go on") != NULL);
  CHECK(strstr(err, "after-directive") == NULL);

  // No message clause, no source location.
  st = run_child(NULL, 1, NULL, err, sizeof err);
  CHECK(st == 0);
  CHECK(strstr(err, "error directive") != NULL);
  CHECK(strstr(err, "after-directive") != NULL);
  KITE_TEST_END();
}
