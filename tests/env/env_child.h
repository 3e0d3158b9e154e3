/* Environment tests run this same program again as a child process with a
 * chosen environment (every OMP_*, GOMP_* and KITE_* variable of the parent
 * removed first), capture the child's stdout and stderr, and check them.
 * The child is told what to do by argv[1] == "child" and argv[2] == mode. */
#ifndef KITE_ENV_CHILD_H
#define KITE_ENV_CHILD_H

#include "kite_test.h"

#include <sched.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

struct child_result {
  int status; /* exit code, or 128 + signal */
  char out[16384];
  char err[16384];
};

extern char** environ;

static void env_child_clear(void) {
  for (;;) {
    int removed = 0;
    for (char** e = environ; e && *e; ++e) {
      if (!strncmp(*e, "OMP_", 4) || !strncmp(*e, "GOMP_", 5) || !strncmp(*e, "KITE_", 5)) {
        char name[256];
        size_t n = strcspn(*e, "=");
        if (n >= sizeof name) n = sizeof name - 1;
        memcpy(name, *e, n);
        name[n] = '\0';
        unsetenv(name);
        removed = 1;
        break;
      }
    }
    if (!removed) return;
  }
}

static void env_child_drain(int fd, char* buf, size_t cap, size_t* len) {
  ssize_t r = read(fd, buf + *len, cap - 1 - *len);
  if (r > 0) *len += (size_t)r;
  buf[*len] = '\0';
}

/* env: "NAME=VALUE" strings, NULL-terminated. */
static void run_child(struct child_result* res, const char* mode, const char* const* env) {
  int po[2], pe[2];
  if (pipe(po) != 0 || pipe(pe) != 0) {
    perror("pipe");
    exit(2);
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(po[1], 1);
    dup2(pe[1], 2);
    close(po[0]);
    close(pe[0]);
    env_child_clear();
    for (const char* const* e = env; e && *e; ++e) {
      const char* eq = strchr(*e, '=');
      char name[256];
      size_t n = (size_t)(eq - *e);
      memcpy(name, *e, n);
      name[n] = '\0';
      setenv(name, eq + 1, 1);
    }
    char* argv[] = {(char*)"env-child", (char*)"child", (char*)mode, NULL};
    execv("/proc/self/exe", argv);
    _exit(127);
  }
  close(po[1]);
  close(pe[1]);
  size_t lo = 0, le = 0;
  res->out[0] = res->err[0] = '\0';
  /* Both pipes are small; read them alternately until both close. */
  int open_o = 1, open_e = 1;
  while (open_o || open_e) {
    fd_set set;
    FD_ZERO(&set);
    if (open_o) FD_SET(po[0], &set);
    if (open_e) FD_SET(pe[0], &set);
    if (select((po[0] > pe[0] ? po[0] : pe[0]) + 1, &set, NULL, NULL, NULL) < 0) break;
    if (open_o && FD_ISSET(po[0], &set)) {
      size_t before = lo;
      env_child_drain(po[0], res->out, sizeof res->out, &lo);
      if (lo == before) open_o = 0;
    }
    if (open_e && FD_ISSET(pe[0], &set)) {
      size_t before = le;
      env_child_drain(pe[0], res->err, sizeof res->err, &le);
      if (le == before) open_e = 0;
    }
  }
  close(po[0]);
  close(pe[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  res->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int count_substr(const char* hay, const char* needle) {
  int n = 0;
  size_t len = strlen(needle);
  for (const char* p = strstr(hay, needle); p; p = strstr(p + len, needle)) ++n;
  return n;
}

/* Prints the child's output when a check about it failed. */
#define CHECK_CHILD(cond, res)                                                       \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      CHECK(cond);                                                                   \
      fprintf(stderr, "  child stdout:\n%s\n  child stderr:\n%s\n", (res)->out,      \
              (res)->err);                                                           \
    }                                                                                \
  } while (0)

static int is_child(int argc, char** argv) { return argc >= 3 && !strcmp(argv[1], "child"); }

/* The processors this process may use, ascending. */
static int allowed_cpus(int* cpus, int cap) {
  cpu_set_t set;
  int n = 0;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  for (int c = 0; c < CPU_SETSIZE && n < cap; ++c)
    if (CPU_ISSET(c, &set)) cpus[n++] = c;
  return n;
}

#endif
