// kite-test-compilers: gcc  -- gcc's offloading ABI (GOMP_target_ext with nowait, depend, num_teams)
/* Target tasks and teams on emulated devices: nowait target regions are
 * deferred tasks ordered by their dependences, each mapping its data when
 * it runs; enter/exit data and update with nowait and depend keep the
 * order too; independent target tasks on two devices run concurrently
 * against their own mappings; teams in a target region get the requested
 * league and thread limit, and every thread of a parallel region in a
 * target region is on the device.
 * kite-test-threads: 1 4
 * kite-test-env: KITE_DEVICES=2
 */
#include "kite_test.h"

#define N 64
#define TASKS 8

static int chain[N];
static int work[TASKS][N];

int main(void) {
  KITE_TEST_BEGIN();

  int ok_after = 0, device_seen = -1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp target nowait depend(out : chain) map(from : chain) map(from : device_seen)
    {
      for (int i = 0; i < N; ++i) chain[i] = i;
      device_seen = omp_is_initial_device() ? -2 : omp_get_device_num();
    }
#pragma omp target nowait depend(inout : chain) map(tofrom : chain) device(1)
    for (int i = 0; i < N; ++i) chain[i] *= 3;
#pragma omp task depend(in : chain) shared(ok_after)
    {
      int ok = 1;
      for (int i = 0; i < N; ++i) ok &= chain[i] == 3 * i;
      ok_after = ok;
    }
#pragma omp taskwait
  }
  CHECK_EQ_LONG(ok_after, 1);
  CHECK_EQ_LONG(device_seen, 0);

  /* Data constructs with nowait and depend, in order. */
  int v[N];
  for (int i = 0; i < N; ++i) v[i] = 1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp target enter data map(to : v) nowait depend(out : v)
#pragma omp target nowait depend(inout : v) map(alloc : v)
    for (int i = 0; i < N; ++i) v[i] += 5;
#pragma omp target update from(v) nowait depend(inout : v)
#pragma omp task depend(in : v)
    v[0] += 100; /* host copy only */
#pragma omp target exit data map(release : v) nowait depend(inout : v)
#pragma omp taskwait
  }
  CHECK_EQ_LONG(v[0], 106);
  CHECK_EQ_LONG(v[N - 1], 6);
  CHECK(!omp_target_is_present(v, 0));

  /* Independent target tasks on both devices at once. */
#pragma omp parallel
#pragma omp single
  for (int t = 0; t < TASKS; ++t) {
#pragma omp target nowait device(t % 2) map(tofrom : work[t][0:N]) firstprivate(t)
    for (int i = 0; i < N; ++i) work[t][i] = t * 1000 + i + (omp_is_initial_device() ? 1000000 : 0);
  }
  for (int t = 0; t < TASKS; ++t)
    for (int i = 0; i < N; i += 7) CHECK_EQ_LONG(work[t][i], t * 1000 + i);

  /* Teams in a target region: the league and the thread limit. */
  int team_of[8] = {0}, nteams = 0, limit = 0, on_dev = 0;
#pragma omp target teams num_teams(4) thread_limit(3) map(tofrom : team_of, nteams, limit, on_dev)
  {
    int t = omp_get_team_num();
    if (t < 8) team_of[t] = t + 1;
    if (t == 0) {
      nteams = omp_get_num_teams();
#pragma omp parallel num_threads(1)
      {
        limit = omp_get_thread_limit();
        on_dev = !omp_is_initial_device();
      }
    }
  }
  CHECK_EQ_LONG(nteams, 4);
  CHECK_EQ_LONG(limit, 3);
  CHECK_EQ_LONG(on_dev, 1);
  for (int t = 0; t < 4; ++t) CHECK_EQ_LONG(team_of[t], t + 1);
  CHECK_EQ_LONG(team_of[4], 0);

  /* A distributed, parallel loop over device data; every thread is on
   * the device. */
  int sq[N], host_threads = 0;
  for (int i = 0; i < N; ++i) sq[i] = i;
#pragma omp target teams distribute parallel for num_teams(2) map(tofrom : sq) \
    reduction(+ : host_threads)
  for (int i = 0; i < N; ++i) {
    sq[i] = sq[i] * sq[i];
    host_threads += omp_is_initial_device();
  }
  CHECK_EQ_LONG(host_threads, 0);
  CHECK_EQ_LONG(sq[7], 49);
  CHECK_EQ_LONG(sq[N - 1], (N - 1) * (N - 1));

  int threads = 0, devs = 0;
#pragma omp target map(tofrom : threads, devs)
#pragma omp parallel num_threads(3) reduction(+ : threads, devs)
  {
    threads += 1;
    devs += omp_get_device_num() == 0;
  }
  CHECK(threads >= 1 && threads <= 3);
  CHECK_EQ_LONG(devs, threads);
  KITE_TEST_END();
}
