/* OMP_DISPLAY_ENV=true|verbose prints the ICV block at startup, in the
 * layout libgomp 12 uses; omp_display_env prints it on demand, with the
 * caller's current ICVs.
 * kite-test-threads: 1
 * kite-test-timeout: 60 */
#include "env_child.h"

static const char* const kNames[] = {
    "_OPENMP", "OMP_DYNAMIC", "OMP_NESTED", "OMP_NUM_THREADS", "OMP_SCHEDULE",
    "OMP_PROC_BIND", "OMP_PLACES", "OMP_STACKSIZE", "OMP_WAIT_POLICY", "OMP_THREAD_LIMIT",
    "OMP_MAX_ACTIVE_LEVELS", "OMP_NUM_TEAMS", "OMP_TEAMS_THREAD_LIMIT", "OMP_CANCELLATION",
    "OMP_DEFAULT_DEVICE", "OMP_MAX_TASK_PRIORITY", "OMP_DISPLAY_AFFINITY",
    "OMP_AFFINITY_FORMAT", "OMP_ALLOCATOR", "OMP_TARGET_OFFLOAD"};

/* The block: BEGIN, then only "  NAME = 'value'" lines, then END. Returns
 * how many blocks the text holds. */
static int check_block(const char* err, struct child_result* r) {
  int blocks = count_substr(err, "OPENMP DISPLAY ENVIRONMENT BEGIN\n");
  const char* b = strstr(err, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
  if (!b) return blocks;
  const char* line = b + strlen("\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
  CHECK_CHILD(strncmp(line, "  _OPENMP = '", 13) == 0, r);
  int lines = 0;
  while (*line && strncmp(line, "OPENMP DISPLAY ENVIRONMENT END\n", 31) != 0) {
    const char* nl = strchr(line, '\n');
    if (!nl) break;
    /* "  NAME = 'value'" */
    const char* eq = strstr(line, " = '");
    CHECK_CHILD(line[0] == ' ' && line[1] == ' ' && line[2] != ' ', r);
    CHECK_CHILD(eq && eq < nl && nl[-1] == '\'', r);
    for (const char* p = line + 2; eq && p < eq; ++p)
      CHECK_CHILD((*p >= 'A' && *p <= 'Z') || *p == '_', r);
    ++lines;
    line = nl + 1;
  }
  CHECK_CHILD(strncmp(line, "OPENMP DISPLAY ENVIRONMENT END\n", 31) == 0, r);
  CHECK_CHILD(lines >= (int)(sizeof kNames / sizeof kNames[0]), r);
  for (unsigned i = 0; i < sizeof kNames / sizeof kNames[0]; ++i) {
    char want[64];
    snprintf(want, sizeof want, "\n  %s = '", kNames[i]);
    CHECK_CHILD(count_substr(err, want) == blocks, r);
  }
  return blocks;
}

static int child(const char* mode) {
  if (!strcmp(mode, "api")) {
    omp_set_num_threads(5);
    omp_set_dynamic(1);
    omp_display_env(0);
    omp_display_env(1);
  }
  /* "quiet": no OpenMP call at all; the block comes from library load. */
  return 0;
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  if (is_child(argc, argv)) return child(argv[2]);
  static struct child_result r;

  const char* on[] = {"OMP_DISPLAY_ENV=true", "OMP_NUM_THREADS=3,2", "OMP_SCHEDULE=guided,7",
                      NULL};
  run_child(&r, "quiet", on);
  CHECK_CHILD(r.status == 0, &r);
  CHECK_CHILD(check_block(r.err, &r) == 1, &r);
  CHECK_CHILD(strncmp(r.err, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n  _OPENMP = '202111'\n", 53) == 0, &r);
  CHECK_CHILD(strstr(r.err, "  OMP_NUM_THREADS = '3,2'\n") != NULL, &r);
  CHECK_CHILD(strstr(r.err, "  OMP_SCHEDULE = 'GUIDED,7'\n") != NULL, &r);
  CHECK_CHILD(strstr(r.err, "  OMP_NESTED = 'TRUE'\n") != NULL, &r);
  CHECK_CHILD(strstr(r.err, "KITE_SPIN_US") == NULL, &r);

  const char* verbose[] = {"OMP_DISPLAY_ENV= VERBOSE ", "OMP_WAIT_POLICY=active", NULL};
  run_child(&r, "quiet", verbose);
  CHECK_CHILD(check_block(r.err, &r) == 1, &r);
  CHECK_CHILD(strstr(r.err, "  KITE_SPIN_US = 'INFINITE'\n") != NULL, &r);
  CHECK_CHILD(strstr(r.err, "  OMP_WAIT_POLICY = 'ACTIVE'\n") != NULL, &r);

  const char* spin[] = {"OMP_DISPLAY_ENV=verbose", "KITE_SPIN_US=42", NULL};
  run_child(&r, "quiet", spin);
  CHECK_CHILD(strstr(r.err, "  KITE_SPIN_US = '42'\n") != NULL, &r);
  CHECK_CHILD(strstr(r.err, "  KITE_BARRIER = 'AUTO'\n") != NULL, &r);
  const char* tree[] = {"OMP_DISPLAY_ENV=verbose", "KITE_BARRIER=Tree", NULL};
  run_child(&r, "quiet", tree);
  CHECK_CHILD(strstr(r.err, "  KITE_BARRIER = 'TREE'\n") != NULL, &r);
  CHECK_CHILD(strstr(r.err, "kite: warning") == NULL, &r);

  const char* off[] = {"OMP_DISPLAY_ENV=FALSE", NULL};
  run_child(&r, "quiet", off);
  CHECK_CHILD(r.status == 0 && r.err[0] == '\0', &r);
  const char* unset[] = {NULL};
  run_child(&r, "quiet", unset);
  CHECK_CHILD(r.status == 0 && r.err[0] == '\0', &r);

  /* omp_display_env shows what the calling task sees now. */
  run_child(&r, "api", unset);
  CHECK_CHILD(r.status == 0, &r);
  CHECK_CHILD(check_block(r.err, &r) == 2, &r);
  CHECK_CHILD(count_substr(r.err, "  OMP_NUM_THREADS = '5'\n") == 2, &r);
  CHECK_CHILD(count_substr(r.err, "  OMP_DYNAMIC = 'TRUE'\n") == 2, &r);
  CHECK_CHILD(count_substr(r.err, "  KITE_SPIN_US = '") == 1, &r);
  KITE_TEST_END();
}
