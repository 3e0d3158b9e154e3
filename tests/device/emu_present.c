// kite-test-compilers: gcc  -- calls gcc's offloading ABI directly (GOMP_MAP_FORCE_PRESENT)
/* Fatal mapping errors on an emulated device end the program with status 1
 * and a message naming the data's address and size: a `present` map of
 * absent data (gcc 12 has no present modifier; the kind reaches the
 * runtime as GOMP_MAP_FORCE_PRESENT, built here as gcc would), and a map
 * that overlaps existing mapped data without lying inside it. Present data
 * passes the present check. Each case runs in a child whose stderr is
 * captured.
 * kite-test-threads: 1 2
 * kite-test-env: KITE_DEVICES=1
 */
#include "kite_test.h"

#include <sys/wait.h>
#include <unistd.h>

void GOMP_target_enter_exit_data(int, size_t, void**, size_t*, unsigned short*, unsigned, void**);
void GOMP_target_ext(int, void (*)(void*), size_t, void**, size_t*, unsigned short*, unsigned,
                     void**, void**);
void GOMP_target_update_ext(int, size_t, void**, size_t*, unsigned short*, unsigned, void**);

enum { kForcePresent = 6, kAlign4 = 2 << 8 };

static double block[5];
static int arr[16];
static int ran;

static void body(void* data) {
  (void)data;
  ran = 1;
}

static void enter_present(void* p, size_t size) {
  void* h[1] = {p};
  size_t s[1] = {size};
  unsigned short k[1] = {kForcePresent | kAlign4};
  GOMP_target_enter_exit_data(0, 1, h, s, k, 0, NULL);
}

static void present_on_enter(void) { enter_present(block, sizeof block); }

static void present_on_target(void) {
  void* h[1] = {block};
  size_t s[1] = {sizeof block};
  unsigned short k[1] = {kForcePresent | kAlign4};
  GOMP_target_ext(0, body, 1, h, s, k, 0, NULL, NULL);
}

/* target update with a present motion (gcc 13's `to(present: x)`, kind
 * GOMP_MAP_FORCE_PRESENT here): fatal when absent. */
static void present_on_update(void) {
  void* h[1] = {block};
  size_t s[1] = {sizeof block};
  unsigned short k[1] = {kForcePresent | kAlign4};
  GOMP_target_update_ext(0, 1, h, s, k, 0, NULL);
}

static void overlap(void) {
#pragma omp target enter data map(to : arr[0:8])
#pragma omp target map(tofrom : arr[4:8])
  arr[4] = 1;
}

typedef void (*child_fn)(void);

static int run_child(child_fn fn, char* buf, size_t cap) {
  int fds[2];
  if (pipe(fds) != 0) return -2;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    fn();
    _exit(0);
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
  CHECK_EQ_LONG(omp_get_num_devices(), 1);
  char buf[4096], want[128];

  snprintf(want, sizeof want, "present: the data at %p (%zu bytes) is not present on device 0",
           (void*)block, sizeof block);
  CHECK_EQ_LONG(run_child(present_on_enter, buf, sizeof buf), 1);
  CHECK(strstr(buf, want) != NULL);
  CHECK_EQ_LONG(run_child(present_on_target, buf, sizeof buf), 1);
  CHECK(strstr(buf, want) != NULL);

  CHECK_EQ_LONG(run_child(present_on_update, buf, sizeof buf), 1);
  CHECK(strstr(buf, "present: the data at") != NULL);
  snprintf(want, sizeof want, "%p (%zu bytes)", (void*)block, sizeof block);
  CHECK(strstr(buf, want) != NULL);
  /* Without present, updating absent data does nothing (5.2 §13.9: only
   * list items that are present are updated). */
  block[0] = 5.0;
#pragma omp target update from(block) device(0)
  CHECK(block[0] == 5.0);
  CHECK(!omp_target_is_present(block, 0));

  snprintf(want, sizeof want, "the data at %p (%zu bytes) to map on device 0 overlaps the data "
           "mapped at %p (%zu bytes)", (void*)&arr[4], 8 * sizeof(int), (void*)arr, 8 * sizeof(int));
  CHECK_EQ_LONG(run_child(overlap, buf, sizeof buf), 1);
  CHECK(strstr(buf, want) != NULL);

  /* Present data passes, in this process. */
#pragma omp target enter data map(to : block)
  present_on_target();
  CHECK_EQ_LONG(ran, 1);
  enter_present(block, sizeof block); /* one more reference */
  CHECK(omp_target_is_present(block, 0));
#pragma omp target exit data map(release : block)
  CHECK(omp_target_is_present(block, 0));
#pragma omp target exit data map(release : block)
  CHECK(!omp_target_is_present(block, 0));
  KITE_TEST_END();
}
