/* OMP_TOOL_LIBRARIES: the runtime tries each library in order and uses the
 * first whose ompt_start_tool returns a tool; OMP_TOOL_VERBOSE_INIT=stdout
 * logs each step. This program defines no ompt_start_tool itself. It runs
 * itself again with the variables set (the runtime reads them at load) and
 * checks both the child's findings and its log.
 * kite-test-threads: 1 */
#include "kite_test.h"

#include <unistd.h>

#ifndef KITE_TEST_TOOL_LIB
#error "KITE_TEST_TOOL_LIB names the tool library (tests/ompt/CMakeLists.txt)"
#endif

static int child(void) {
  int sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
  sum += 1;
  CHECK_EQ_LONG(sum, 2);
  /* The tool library is loaded, locally: reach it through its handle. */
  void* h = dlopen(KITE_TEST_TOOL_LIB, RTLD_LAZY | RTLD_NOLOAD);
  CHECK(h != NULL);
  if (!h) return 1;
  void (*counts)(int*) = (void (*)(int*))dlsym(h, "kite_test_tool_counts");
  CHECK(counts != NULL);
  if (!counts) return 1;
  int c[4];
  counts(c);
  CHECK_EQ_LONG(c[0], 1); /* ompt_start_tool */
  CHECK_EQ_LONG(c[1], 1); /* initializer */
  CHECK_EQ_LONG(c[2], 2); /* thread_begin: the initial thread, one worker */
  CHECK_EQ_LONG(c[3], 1); /* parallel_begin */
  CHECK(dlsym(RTLD_DEFAULT, "ompt_start_tool") == NULL);
  return kite_test_failures != 0;
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  if (getenv("KITE_OMPT_CHILD")) {
    int rc = child();
    printf("child %s\n", rc ? "FAILED" : "ok");
    return rc;
  }
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "KITE_OMPT_CHILD=1 OMP_TOOL_VERBOSE_INIT=stdout "
           "OMP_TOOL_LIBRARIES=/nonexistent/libkite-no-such-tool.so::%s '%s'",
           KITE_TEST_TOOL_LIB, argv[0]);
  FILE* p = popen(cmd, "r");
  CHECK(p != NULL);
  if (!p) KITE_TEST_END();
  static char out[65536];
  size_t len = fread(out, 1, sizeof out - 1, p);
  out[len] = '\0';
  int status = pclose(p);
  fputs(out, stdout);
  CHECK_EQ_LONG(status, 0);
  /* The steps, in order. */
  static const char* const steps[] = {
      "OMPT tool init: begin (runtime \"kite ",
      "OMPT tool init: looking for ompt_start_tool in the process",
      "OMPT tool init: not found",
      "OMPT tool init: trying the libraries of OMP_TOOL_LIBRARIES=",
      "OMPT tool init: opening /nonexistent/libkite-no-such-tool.so",
      "OMPT tool init: cannot open /nonexistent/libkite-no-such-tool.so: ",
      "OMPT tool init: found ompt_start_tool in " KITE_TEST_TOOL_LIB,
      "OMPT tool init: calling ompt_start_tool(202111, \"kite ",
      "OMPT tool init: ompt_start_tool returned a tool",
      "OMPT tool init: calling the tool's initializer",
      "OMPT tool init: the initializer returned 1: the OMPT interface is active",
      "child ok",
  };
  const char* at = out;
  for (unsigned i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
    const char* hit = strstr(at, steps[i]);
    if (!hit) fprintf(stderr, "missing (in order): %s\n", steps[i]);
    CHECK(hit != NULL);
    if (hit) at = hit + strlen(steps[i]);
  }
  KITE_TEST_END();
}
