/* OMP_TARGET_OFFLOAD=mandatory with no offload device: a device construct
 * that does not name the host ends the program with status 1, as libgomp;
 * constructs that name the host (device clause, OMP_DEFAULT_DEVICE,
 * omp_set_default_device, if(false)) run there. Children run each case
 * with the environment set.
 * kite-test-threads: 1
 */
#include "kite_test.h"

#include <sys/wait.h>
#include <unistd.h>

static int run_case(const char* which, const char* default_device, char* buf, size_t cap) {
  int fds[2];
  if (pipe(fds) != 0) return -2;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    setenv("OMP_TARGET_OFFLOAD", "mandatory", 1);
    if (default_device) setenv("OMP_DEFAULT_DEVICE", default_device, 1);
    execl("/proc/self/exe", "child", which, (char*)NULL);
    _exit(99);
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

static int child(const char* which) {
  int x = 0;
  if (!strcmp(which, "default")) {
#pragma omp target map(tofrom : x)
    x = 1;
  } else if (!strcmp(which, "host")) {
#pragma omp target device(omp_get_initial_device()) map(tofrom : x)
    x = 1;
#pragma omp target if (0) map(tofrom : x)
    x++;
    omp_set_default_device(omp_get_initial_device());
#pragma omp target map(tofrom : x)
    x++;
    return x == 3 ? 0 : 5;
  } else if (!strcmp(which, "missing")) {
#pragma omp target device(3) map(tofrom : x)
    x = 1;
  } else if (!strcmp(which, "data")) {
#pragma omp target data map(tofrom : x) device(2)
    x = 1;
  } else if (!strcmp(which, "alloc")) {
    (void)omp_target_alloc(8, 4);
  }
  return x == 1 ? 0 : 5;
}

int main(int argc, char** argv) {
  if (argc > 1) return child(argv[1]);
  KITE_TEST_BEGIN();
  char buf[4096];
  /* clang without offload targets compiles target and target data
   * constructs as plain host code that never calls the runtime: only the
   * device routines reach it. */
#ifndef __clang__
  CHECK_EQ_LONG(run_case("default", NULL, buf, sizeof buf), 1);
  CHECK(strstr(buf, "OMP_TARGET_OFFLOAD is set to MANDATORY") != NULL);
#endif
  CHECK_EQ_LONG(run_case("default", "0", buf, sizeof buf), 0);
  CHECK_EQ_LONG(run_case("host", NULL, buf, sizeof buf), 0);
#ifndef __clang__
  CHECK_EQ_LONG(run_case("missing", "0", buf, sizeof buf), 1);
  CHECK(strstr(buf, "device not found") != NULL);
  CHECK_EQ_LONG(run_case("data", "0", buf, sizeof buf), 1);
#endif
  CHECK_EQ_LONG(run_case("alloc", "0", buf, sizeof buf), 1);
  KITE_TEST_END();
}
