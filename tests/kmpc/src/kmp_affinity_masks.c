// libomp's affinity-mask routines on Kite: masks hold OS processor ids the
// process may use; kmp_set_affinity binds the calling thread (checked with
// sched_getaffinity); invalid ids give -1 (out of range) or -2 (not the
// process's), invalid masks a nonzero return and no change.
#include <omp.h>
#include <sched.h>
#include <string.h>

#include "kite_test.h"

// Not in omp.h.
extern int kmp_get_affinity_max_proc_(void);
extern int kmp_set_thread_affinity_mask_initial(void);
extern int kmpc_set_affinity_mask_proc(int, void**);
extern int kmpc_unset_affinity_mask_proc(int, void**);
extern int kmpc_get_affinity_mask_proc(int, void**);
extern int kmp_get_affinity_mask_proc_(int*, void**);
extern int kmp_unset_affinity_mask_proc_(int*, void**);
extern int kmp_set_affinity_mask_proc_(int*, void**);

static cpu_set_t g_process;

static int first_allowed(void) {
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &g_process)) return c;
  return -1;
}

static int bound_to_exactly(int cpu) {
  cpu_set_t now;
  CPU_ZERO(&now);
  if (sched_getaffinity(0, sizeof now, &now) != 0) return 0;
  return CPU_COUNT(&now) == 1 && CPU_ISSET(cpu, &now);
}

int main(void) {
  KITE_TEST_BEGIN();
  CPU_ZERO(&g_process);
  CHECK(sched_getaffinity(0, sizeof g_process, &g_process) == 0);
  const int cpu = first_allowed();
  CHECK(cpu >= 0);
  const int max = kmp_get_affinity_max_proc();
  CHECK(max > cpu);
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &g_process)) CHECK(c < max);
  CHECK(kmp_get_affinity_max_proc_() == max);

  kmp_affinity_mask_t mask;
  kmp_create_affinity_mask(&mask);
  CHECK(mask != NULL);
  // A new mask is empty.
  for (int c = 0; c < max; ++c) CHECK(kmp_get_affinity_mask_proc(c, &mask) == 0);
  CHECK(kmp_set_affinity_mask_proc(-1, &mask) == -1);
  CHECK(kmp_set_affinity_mask_proc(max, &mask) == -1);
  CHECK(kmp_unset_affinity_mask_proc(max, &mask) == -1);
  CHECK(kmp_get_affinity_mask_proc(-5, &mask) == -1);
  for (int c = 0; c < max && c < CPU_SETSIZE; ++c)
    if (!CPU_ISSET(c, &g_process)) {
      CHECK(kmp_set_affinity_mask_proc(c, &mask) == -2);
      CHECK(kmp_get_affinity_mask_proc(c, &mask) == 0);
    }
  // An empty mask cannot be bound to; the thread keeps its affinity.
  CHECK(kmp_set_affinity(&mask) != 0);
  {
    cpu_set_t now;
    CPU_ZERO(&now);
    CHECK(sched_getaffinity(0, sizeof now, &now) == 0);
    CHECK(CPU_EQUAL(&now, &g_process));
  }
  CHECK(kmp_set_affinity_mask_proc(cpu, &mask) == 0);
  CHECK(kmp_get_affinity_mask_proc(cpu, &mask) == 1);
  CHECK(kmp_set_affinity(&mask) == 0);
  CHECK(bound_to_exactly(cpu));

  kmp_affinity_mask_t got;
  kmp_create_affinity_mask(&got);
  CHECK(kmp_get_affinity(&got) == 0);
  for (int c = 0; c < max; ++c) CHECK(kmp_get_affinity_mask_proc(c, &got) == (c == cpu));
  kmp_destroy_affinity_mask(&got);
  CHECK(got == NULL);

  // Back to the process's mask.
  CHECK(kmp_set_thread_affinity_mask_initial() == 0);
  {
    cpu_set_t now;
    CPU_ZERO(&now);
    CHECK(sched_getaffinity(0, sizeof now, &now) == 0);
    CHECK(CPU_EQUAL(&now, &g_process));
  }

  // The kmpc_* by-value forms and the Fortran by-reference forms.
  CHECK(kmpc_unset_affinity_mask_proc(cpu, &mask) == 0);
  CHECK(kmpc_get_affinity_mask_proc(cpu, &mask) == 0);
  CHECK(kmpc_set_affinity_mask_proc(cpu, &mask) == 0);
  CHECK(kmpc_set_affinity_mask_proc(-1, &mask) == -1);
  int p = cpu;
  CHECK(kmp_get_affinity_mask_proc_(&p, &mask) == 1);
  CHECK(kmp_unset_affinity_mask_proc_(&p, &mask) == 0);
  CHECK(kmp_get_affinity_mask_proc_(&p, &mask) == 0);
  CHECK(kmp_set_affinity_mask_proc_(&p, &mask) == 0);

  // Each thread of a region binds itself; only the caller is affected.
  int bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    kmp_affinity_mask_t mine;
    kmp_create_affinity_mask(&mine);
    if (kmp_set_affinity_mask_proc(cpu, &mine) != 0) bad++;
    if (kmp_set_affinity(&mine) != 0) bad++;
    if (!bound_to_exactly(cpu)) bad++;
    kmp_destroy_affinity_mask(&mine);
#pragma omp barrier
    if (kmp_set_thread_affinity_mask_initial() != 0) bad++;
  }
  CHECK(bad == 0);
  kmp_destroy_affinity_mask(&mask);
  CHECK(mask == NULL);
  KITE_TEST_END();
}
