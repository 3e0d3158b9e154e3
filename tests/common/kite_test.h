/* Test support for OpenMP test programs (C and C++).
 *
 * Every test calls KITE_TEST_BEGIN() first: it proves the program runs on
 * Kite (the symbol kite_runtime_version exists, and omp_get_thread_num comes
 * from the same shared object) before anything else is checked. CHECK()
 * failures print the location and make the program exit non-zero. */
#ifndef KITE_TEST_H
#define KITE_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

static int kite_test_failures = 0;

static inline void kite_test_require_kite(void) {
  void* ver = dlsym(RTLD_DEFAULT, "kite_runtime_version");
  if (!ver) {
    fprintf(stderr, "FAIL: not running on Kite (kite_runtime_version not found)\n");
    exit(3);
  }
  Dl_info a, b;
  if (!dladdr(ver, &a) || !dladdr((void*)&omp_get_thread_num, &b) ||
      a.dli_fbase != b.dli_fbase) {
    fprintf(stderr, "FAIL: omp_get_thread_num is not Kite's (%s vs %s)\n",
            a.dli_fname ? a.dli_fname : "?", b.dli_fname ? b.dli_fname : "?");
    exit(3);
  }
  const char* (*fn)(void) = (const char* (*)(void))ver;
  if (strncmp(fn(), "kite ", 5) != 0) {
    fprintf(stderr, "FAIL: unexpected runtime identity '%s'\n", fn());
    exit(3);
  }
}

/* A test that would hang on a runtime defect fails instead: after `seconds`
 * the process writes "FAIL: hang: <what>" and exits 2. */
static const char* kite_test_hang_what = "";
static inline void kite_test_on_alarm(int sig) {
  (void)sig;
  static const char head[] = "FAIL: hang: ";
  (void)!write(2, head, sizeof head - 1);
  (void)!write(2, kite_test_hang_what, strlen(kite_test_hang_what));
  (void)!write(2, "\n", 1);
  _exit(2);
}
static inline void kite_test_watchdog(unsigned seconds, const char* what) {
  kite_test_hang_what = what;
  signal(SIGALRM, kite_test_on_alarm);
  alarm(seconds);
}

#define KITE_TEST_BEGIN() kite_test_require_kite()

#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      __atomic_add_fetch(&kite_test_failures, 1, __ATOMIC_RELAXED);        \
    }                                                                      \
  } while (0)

#define CHECK_EQ_LONG(a, b)                                                        \
  do {                                                                             \
    long _va = (long)(a), _vb = (long)(b);                                         \
    if (_va != _vb) {                                                              \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s (%ld) != %s (%ld)\n", __FILE__, \
              __LINE__, #a, _va, #b, _vb);                                         \
      __atomic_add_fetch(&kite_test_failures, 1, __ATOMIC_RELAXED);                \
    }                                                                              \
  } while (0)

#define KITE_TEST_END()                                               \
  do {                                                                \
    if (kite_test_failures) {                                         \
      fprintf(stderr, "%d check(s) failed\n", kite_test_failures);    \
      return 1;                                                       \
    }                                                                 \
    printf("PASS\n");                                                 \
    return 0;                                                         \
  } while (0)

#ifdef __cplusplus
}
#endif
#endif
