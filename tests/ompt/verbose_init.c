/* OMP_TOOL_VERBOSE_INIT: the activation steps are logged to stdout, or to
 * a file named by the variable; with OMP_TOOL=disabled the log says the
 * tool was not looked for. The program runs itself with the variables set.
 * kite-test-threads: 1 */
#include "kite_test.h"

#include <unistd.h>

#include "support/recorder.h"

static int expect_in_order(const char* text, const char* const* steps, int n) {
  const char* at = text;
  int ok = 1;
  for (int i = 0; i < n; ++i) {
    const char* hit = strstr(at, steps[i]);
    if (!hit) {
      fprintf(stderr, "missing (in order): %s\n", steps[i]);
      ok = 0;
      continue;
    }
    at = hit + strlen(steps[i]);
  }
  return ok;
}

static size_t run_child(const char* env, const char* self, char* out, size_t cap) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "KITE_OMPT_CHILD=1 %s '%s'", env, self);
  FILE* p = popen(cmd, "r");
  if (!p) return 0;
  size_t len = fread(out, 1, cap - 1, p);
  out[len] = '\0';
  CHECK_EQ_LONG(pclose(p), 0);
  return len;
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  if (getenv("KITE_OMPT_CHILD")) {
    omp_get_thread_num();
    printf("child started=%d initialized=%d\n", rec_start_calls, rec_init_calls);
    return 0;
  }
  static char out[16384];
  run_child("OMP_TOOL=disabled OMP_TOOL_VERBOSE_INIT=stdout", argv[0], out, sizeof out);
  static const char* const disabled[] = {
      "OMPT tool init: begin (runtime \"kite ",
      "OMPT tool init: OMP_TOOL=disabled: not looking for a tool",
      "child started=0 initialized=0"};
  CHECK(expect_in_order(out, disabled, 3));
  CHECK(strstr(out, "looking for ompt_start_tool") == NULL);

  char log[256];
  snprintf(log, sizeof log, "kite_ompt_verbose_%d.log", (int)getpid());
  char env[512];
  snprintf(env, sizeof env, "OMP_TOOL_VERBOSE_INIT=%s", log);
  run_child(env, argv[0], out, sizeof out);
  CHECK(strstr(out, "child started=1 initialized=1") != NULL);
  CHECK(strstr(out, "OMPT tool init") == NULL); /* all of it went to the file */
  FILE* f = fopen(log, "r");
  CHECK(f != NULL);
  if (f) {
    size_t len = fread(out, 1, sizeof out - 1, f);
    out[len] = '\0';
    fclose(f);
    unlink(log);
    static const char* const found[] = {
        "OMPT tool init: looking for ompt_start_tool in the process",
        "OMPT tool init: found in ",
        "OMPT tool init: calling ompt_start_tool(202111, \"kite ",
        "OMPT tool init: ompt_start_tool returned a tool",
        "OMPT tool init: calling the tool's initializer (initial device ",
        "OMPT tool init: the initializer returned 1: the OMPT interface is active"};
    CHECK(expect_in_order(out, found, 6));
    CHECK(strstr(out, "OMP_TOOL_LIBRARIES") == NULL); /* never got that far */
  }
  KITE_TEST_END();
}
