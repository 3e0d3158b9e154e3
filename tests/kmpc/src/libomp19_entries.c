// libomp 19 entry points by direct call: __kmpc_fork_call_if (one argument
// block, if-clause value), __kmpc_sections_init/next/end (each section
// once; zero from init in a team of one), __kmpc_copyprivate_light,
// __kmpc_push_num_threads_list (nested levels) and _strict (exact count;
// warning severity continues, fatal ends the program with status 1),
// __kmpc_omp_has_task_team.
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kite_test.h"

typedef struct ident ident_t;
typedef void (*kmpc_micro)(int32_t*, int32_t*, ...);
extern int32_t __kmpc_global_thread_num(ident_t*);
extern void __kmpc_fork_call(ident_t*, int32_t, kmpc_micro, ...);
extern void __kmpc_fork_call_if(ident_t*, int32_t, kmpc_micro, int32_t, void*);
extern int32_t __kmpc_sections_init(ident_t*, int32_t);
extern int32_t __kmpc_next_section(ident_t*, int32_t, int32_t);
extern void __kmpc_end_sections(ident_t*, int32_t);
extern void __kmpc_barrier(ident_t*, int32_t);
extern void* __kmpc_copyprivate_light(ident_t*, int32_t, void*);
extern void __kmpc_push_num_threads_list(ident_t*, int32_t, uint32_t, int32_t*);
extern void __kmpc_push_num_threads_strict(ident_t*, int32_t, int32_t, int, const char*);
extern void __kmpc_push_num_threads_list_strict(ident_t*, int32_t, uint32_t, int32_t*, int,
                                                const char*);
extern bool __kmpc_omp_has_task_team(int32_t);

enum { kSections = 7 };

typedef struct {
  int team;
  int calls;
  int tids[8];
} Block;

static void body_block(int32_t* gtid, int32_t* btid, Block* b) {
  (void)gtid;
#pragma omp atomic
  b->calls++;
  if (*btid == 0) b->team = omp_get_num_threads();
}

static void body_none(int32_t* gtid, int32_t* btid) {
  (void)gtid;
  (void)btid;
}

static int g_count[kSections];
static int g_bad;

static void body_sections(int32_t* gtid, int32_t* btid, int* active_out) {
  (void)btid;
  int active = __kmpc_sections_init(NULL, *gtid);
  if (omp_get_thread_num() == 0) *active_out = active;
  for (int s = __kmpc_next_section(NULL, *gtid, kSections); s < kSections;
       s = __kmpc_next_section(NULL, *gtid, kSections)) {
    if (s < 0) {
#pragma omp atomic
      g_bad++;
      break;
    }
#pragma omp atomic
    g_count[s]++;
  }
  __kmpc_end_sections(NULL, *gtid);
  __kmpc_barrier(NULL, *gtid);
  // Twice in a row: the second construct is a new one.
  __kmpc_sections_init(NULL, *gtid);
  for (int s = __kmpc_next_section(NULL, *gtid, kSections); s < kSections;
       s = __kmpc_next_section(NULL, *gtid, kSections)) {
#pragma omp atomic
    g_count[s] += 100;
  }
  __kmpc_end_sections(NULL, *gtid);
  __kmpc_barrier(NULL, *gtid);
}

static void body_copyprivate(int32_t* gtid, int32_t* btid, int* bad) {
  int mine = -1;
  int value = 1234;
  void* got = __kmpc_copyprivate_light(NULL, *gtid, *btid == 0 ? &value : NULL);
  if (got) mine = *(int*)got;
  __kmpc_barrier(NULL, *gtid);
  if (mine != 1234) {
#pragma omp atomic
    (*bad)++;
  }
}

static void body_nested(int32_t* gtid, int32_t* btid, int* out) {
  (void)gtid;
  // The list's second value is this level's nthreads-var.
  if (*btid == 0) {
    out[0] = omp_get_num_threads();
    out[1] = omp_get_max_threads();
  }
#pragma omp parallel
  {
#pragma omp single
    if (*btid == 0) out[2] = omp_get_max_threads();
  }
}

static void body_team(int32_t* gtid, int32_t* btid, int* out) {
  (void)gtid;
  if (*btid == 0) *out = omp_get_num_threads();
}

int main(void) {
  KITE_TEST_BEGIN();
  const int32_t gtid = __kmpc_global_thread_num(NULL);
  omp_set_dynamic(0);

  Block b = {0, 0, {0}};
  __kmpc_fork_call_if(NULL, 1, (kmpc_micro)body_block, 1, &b);
  CHECK(b.team == omp_get_max_threads());
  CHECK(b.calls == b.team);
  Block s = {0, 0, {0}};
  __kmpc_fork_call_if(NULL, 1, (kmpc_micro)body_block, 0, &s);
  CHECK(s.team == 1 && s.calls == 1);
  __kmpc_fork_call_if(NULL, 0, (kmpc_micro)body_none, 1, NULL);
  __kmpc_fork_call_if(NULL, 0, (kmpc_micro)body_none, 0, NULL);

  int active = -1;
  __kmpc_fork_call(NULL, 1, (kmpc_micro)body_sections, &active);
  CHECK(g_bad == 0);
  for (int i = 0; i < kSections; ++i) CHECK(g_count[i] == 101);
  CHECK(active == (omp_get_max_threads() > 1));
  // Outside a region: a team of one, which may run every section itself.
  CHECK(__kmpc_sections_init(NULL, gtid) == 0);
  __kmpc_end_sections(NULL, gtid);

  int bad = 0;
  __kmpc_fork_call(NULL, 1, (kmpc_micro)body_copyprivate, &bad);
  CHECK(bad == 0);

  omp_set_max_active_levels(2);
  int32_t list[3] = {2, 3, 1};
  int out[3] = {0, 0, 0};
  __kmpc_push_num_threads_list(NULL, gtid, 3, list);
  __kmpc_fork_call(NULL, 1, (kmpc_micro)body_nested, out);
  CHECK(out[0] == 2);
  CHECK(out[1] == 3);
  CHECK(out[2] == 1);
  // The list applied to that region only.
  int team = 0;
  __kmpc_fork_call(NULL, 1, (kmpc_micro)body_team, &team);
  CHECK(team == omp_get_max_threads());

  __kmpc_push_num_threads_strict(NULL, gtid, 3, 2, "must not fail");
  __kmpc_fork_call(NULL, 1, (kmpc_micro)body_team, &team);
  CHECK(team == 3);
  int32_t two[1] = {2};
  __kmpc_push_num_threads_list_strict(NULL, gtid, 1, two, 2, "must not fail");
  __kmpc_fork_call(NULL, 1, (kmpc_micro)body_team, &team);
  CHECK(team == 2);

  // Strict, warning severity, more threads than thread-limit-var allows:
  // the region runs with what there is.
  omp_set_max_active_levels(1);
  int inner = 0;
#pragma omp parallel num_threads(2)
  if (omp_get_thread_num() == 0) {
    __kmpc_push_num_threads_strict(NULL, __kmpc_global_thread_num(NULL), 4, 1, "expected");
    __kmpc_fork_call(NULL, 1, (kmpc_micro)body_team, &inner);
  }
  CHECK(inner == 1);

  // Strict, fatal severity: the program ends with status 1.
  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  if (child == 0) {
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 0) {
      __kmpc_push_num_threads_strict(NULL, __kmpc_global_thread_num(NULL), 4, 2, "expected");
      __kmpc_fork_call(NULL, 1, (kmpc_micro)body_team, &inner);
    }
    _exit(0);
  }
  int status = 0;
  CHECK(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);

  CHECK(__kmpc_omp_has_task_team(gtid));
  CHECK(!__kmpc_omp_has_task_team(-1));
  KITE_TEST_END();
}
