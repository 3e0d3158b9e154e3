/* The affinity format: fields, long names, width and alignment
 * (omp_capture_affinity), the format ICV (omp_set/get_affinity_format),
 * omp_display_affinity, and OMP_DISPLAY_AFFINITY=true printing a thread's
 * line when a region starts and what the format shows has changed.
 * kite-test-threads: 1
 * kite-test-timeout: 60 */
#include <sys/syscall.h>

#include "env_child.h"

static void expect_capture(const char* format, const char* want) {
  char buf[512];
  size_t n = omp_capture_affinity(buf, sizeof buf, format);
  if (strcmp(buf, want) != 0 || n != strlen(want)) {
    fprintf(stderr, "format '%s': got '%s' (%zu), want '%s'\n", format, buf, n, want);
    CHECK(0);
  }
}

static void api_checks(void) {
  char buf[512], want[512];
  /* The default format, and get with a short buffer. */
  size_t n = omp_get_affinity_format(buf, sizeof buf);
  CHECK(strcmp(buf, "level %L thread %i affinity %A") == 0);
  CHECK_EQ_LONG(n, strlen("level %L thread %i affinity %A"));
  char small[6];
  CHECK_EQ_LONG(omp_get_affinity_format(small, sizeof small), n);
  CHECK(strcmp(small, "level") == 0);

  /* Fields outside any region. */
  expect_capture("%n %N %L %a %t %T", "0 1 0 -1 0 1");
  expect_capture("%{thread_num} %{num_threads} %{nesting_level} %{ancestor_tnum}", "0 1 0 -1");
  expect_capture("%{team_num}/%{num_teams}", "0/1");
  expect_capture("[%5n][%.5n][%0.5n][%.3{num_threads}]", "[0    ][    0][00000][  1]");
  expect_capture("100%%", "100%");
  expect_capture("%z and %{bogus}", "%z and %{bogus}");
  snprintf(want, sizeof want, "%d", (int)getpid());
  expect_capture("%P", want);
  expect_capture("%{process_id}", want);
  snprintf(want, sizeof want, "%ld", (long)syscall(SYS_gettid));
  expect_capture("%i", want);
  char host[256];
  gethostname(host, sizeof host);
  host[255] = '\0';
  expect_capture("%H", host);
  expect_capture("%{host}", host);
  /* %A: the thread's affinity mask as ranges. */
  int cpus[1024], nc = allowed_cpus(cpus, 1024);
  size_t len = 0;
  for (int i = 0; i < nc; ++i) {
    int j = i;
    while (j + 1 < nc && cpus[j + 1] == cpus[j] + 1) ++j;
    len += snprintf(want + len, sizeof want - len, "%s%d", len ? "," : "", cpus[i]);
    if (j > i) len += snprintf(want + len, sizeof want - len, "-%d", cpus[j]);
    i = j;
  }
  expect_capture("%A", want);
  expect_capture("%{thread_affinity}", want);

  /* Truncation: the return value is the full length. */
  char tiny[4];
  CHECK_EQ_LONG(omp_capture_affinity(tiny, sizeof tiny, "abcdefgh"), 8);
  CHECK(strcmp(tiny, "abc") == 0);
  CHECK_EQ_LONG(omp_capture_affinity(NULL, 0, "abcdefgh"), 8);

  /* A null or empty format means affinity-format-var. */
  omp_set_affinity_format("T%n of %N");
  n = omp_get_affinity_format(buf, sizeof buf);
  CHECK(strcmp(buf, "T%n of %N") == 0);
  CHECK_EQ_LONG(n, 9);
  expect_capture(NULL, "T0 of 1");
  expect_capture("", "T0 of 1");

  /* Inside a region, each thread sees its own values. */
  int bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad)
  {
    char b[64], w[64];
    omp_capture_affinity(b, sizeof b, "%n %N %L %a");
    snprintf(w, sizeof w, "%d 2 1 0", omp_get_thread_num());
    if (strcmp(b, w) != 0) bad++;
#pragma omp parallel num_threads(1) reduction(+ : bad)
    {
      omp_capture_affinity(b, sizeof b, "%L %a %n");
      snprintf(w, sizeof w, "2 %d 0", omp_get_ancestor_thread_num(1));
      if (strcmp(b, w) != 0) bad++;
    }
  }
  CHECK_EQ_LONG(bad, 0);
}

static int child(const char* mode) {
  if (!strcmp(mode, "display")) {
    omp_display_affinity("explicit %n/%N");
    omp_display_affinity(NULL);
    return 0;
  }
  /* "regions": two identical regions, then a larger one. */
  int ran = 0;
  for (int r = 0; r < 2; ++r) {
#pragma omp parallel num_threads(2) reduction(+ : ran)
    ran++;
  }
#pragma omp parallel num_threads(3) reduction(+ : ran)
  ran++;
  return ran == 7 ? 0 : 1;
}

int main(int argc, char** argv) {
  KITE_TEST_BEGIN();
  if (is_child(argc, argv)) return child(argv[2]);
  api_checks();

  static struct child_result r;
  const char* fmt[] = {"OMP_DISPLAY_AFFINITY=true", "OMP_AFFINITY_FORMAT=AFF %n/%N L%L a%a",
                       NULL};
  run_child(&r, "regions", fmt);
  CHECK_CHILD(r.status == 0, &r);
  CHECK_CHILD(count_substr(r.err, "AFF 0/2 L1 a0\n") == 1, &r);
  CHECK_CHILD(count_substr(r.err, "AFF 1/2 L1 a0\n") == 1, &r);
  CHECK_CHILD(count_substr(r.err, "AFF 0/3 L1 a0\n") == 1, &r);
  CHECK_CHILD(count_substr(r.err, "AFF 1/3 L1 a0\n") == 1, &r);
  CHECK_CHILD(count_substr(r.err, "AFF 2/3 L1 a0\n") == 1, &r);
  CHECK_CHILD(count_substr(r.err, "AFF ") == 5, &r);
  CHECK_CHILD(strstr(r.err, "warning") == NULL, &r);

  /* The default format. */
  const char* dflt[] = {"OMP_DISPLAY_AFFINITY=TRUE", NULL};
  run_child(&r, "regions", dflt);
  CHECK_CHILD(count_substr(r.err, "level 1 thread ") == 5, &r);
  CHECK_CHILD(count_substr(r.err, " affinity ") == 5, &r);

  /* Off: nothing. */
  const char* off[] = {"OMP_AFFINITY_FORMAT=AFF %n", NULL};
  run_child(&r, "regions", off);
  CHECK_CHILD(r.status == 0 && r.err[0] == '\0', &r);

  /* omp_display_affinity prints one line per call. */
  const char* disp[] = {"OMP_AFFINITY_FORMAT=fmt %L", NULL};
  run_child(&r, "display", disp);
  CHECK_CHILD(strcmp(r.err, "explicit 0/1\nfmt 0\n") == 0, &r);
  KITE_TEST_END();
}
