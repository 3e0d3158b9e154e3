// kite-test-threads: 2
// kite-test-libs: pthread
/* Short-lived user threads, one after another, each running parallel
 * regions (a thread-per-request server calling an OpenMP library). When a
 * user thread exits, the runtime must give back what it held for it: the
 * workers of its team (the process's thread count stays small) and its
 * per-thread memory (resident memory stays flat over thousands of threads). */
#include "kite_test.h"

#include <pthread.h>

static int process_threads(void) {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  int n = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Threads: %d", &n) == 1) break;
  fclose(f);
  return n;
}

static long resident_kb(void) {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "VmRSS: %ld kB", &kb) == 1) break;
  fclose(f);
  return kb;
}

static int bad;

static void* request(void* arg) {
  int want = 2 + (int)(long)arg % 3;
  for (int k = 0; k < 2; ++k) {
    int count = 0;
#pragma omp parallel num_threads(want)
    __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
    if (count != want) __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

static void churn(int from, int to) {
  for (int i = from; i < to; ++i) {
    pthread_t t;
    if (pthread_create(&t, NULL, request, (void*)(long)i) != 0) {
      CHECK(!"pthread_create failed");
      return;
    }
    pthread_join(t, NULL);
  }
}

int main(void) {
  KITE_TEST_BEGIN();
  omp_set_dynamic(0);
  churn(0, 500); /* warm up: pools, spare teams, allocator arenas */
  long rss0 = resident_kb();
  int threads0 = process_threads();
  churn(500, 8500);
  long rss1 = resident_kb();
  int threads1 = process_threads();
  CHECK_EQ_LONG(bad, 0);
  /* 4 workers at most are needed at once (one user thread at a time). */
  if (threads1 > 16) fprintf(stderr, "%d threads after the churn (%d before)\n", threads1, threads0);
  CHECK(threads1 <= 16);
  /* 8000 exited threads: a few hundred bytes each kept forever would show
   * as megabytes; allow 2 MB of noise. */
  if (rss1 - rss0 > 2048)
    fprintf(stderr, "resident memory grew by %ld kB over 8000 short-lived user threads\n",
            rss1 - rss0);
  CHECK(rss1 - rss0 <= 2048);
  printf("threads %d -> %d, rss %ld -> %ld kB\n", threads0, threads1, rss0, rss1);
  KITE_TEST_END();
}
