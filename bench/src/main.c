/* ompbench: construct-overhead microbenchmarks for any runtime that speaks
 * the libgomp ABI. Built once against the system libgomp; the runtime under
 * test is chosen at load time (LD_LIBRARY_PATH, LD_PRELOAD). Prints one JSON
 * line per construct on stdout. See bench/README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "constructs.h"

static const bench_construct fixed[] = {
    {"parallel", "sync", k_parallel, ref_serial, 0, "one parallel region"},
    {"barrier", "sync", k_barrier, ref_in_team, 0, "one barrier, per thread"},
    {"single", "sync", k_single, ref_in_team, 0, "one single (with its barrier)"},
    {"critical", "sync", k_critical, ref_serial, 0, "one critical section entry"},
    {"lock", "sync", k_lock, ref_serial, 0, "one omp_set_lock/omp_unset_lock pair"},
    {"atomic", "sync", k_atomic, ref_in_team, 0,
     "one inline atomic update, per thread (no runtime call: a noise control)"},
    {"atomic_runtime", "sync", k_atomic_runtime, ref_in_team, 0,
     "one long double atomic update via GOMP_atomic_start/end, per thread"},
    {"reduction", "sync", k_reduction, ref_serial, 0, "one parallel region with a reduction"},
    {"for_static", "loop", k_for_static, ref_in_team, 0, "one schedule(static) loop"},
    {"for_static_chunk", "loop", k_for_static_chunk, ref_in_team, 0,
     "one schedule(static,1) loop"},
    {"for_dynamic", "loop", k_for_dynamic, ref_in_team, 0, "one schedule(dynamic,1) loop"},
    {"for_guided", "loop", k_for_guided, ref_in_team, 0, "one schedule(guided,1) loop"},
    {"parallel_for", "loop", k_parallel_for, ref_serial, 0, "one combined parallel for"},
    {"ordered", "loop", k_ordered, ref_serial, 0, "one ordered region"},
    {"task_one_producer", "task", k_task_one_producer, ref_in_team, 0,
     "T tasks spawned by one thread and run (T = threads)"},
    {"task_all_producers", "task", k_task_all_producers, ref_in_team, 0,
     "one task spawned and run, per thread"},
    {"taskwait", "task", k_taskwait, ref_in_team, 0, "one task plus taskwait, per thread"},
    {"taskgroup", "task", k_taskgroup, ref_in_team, 0, "one taskgroup with one task, per thread"},
    {"taskloop", "task", k_taskloop, ref_in_team, 0, "one taskloop of T iterations"},
    {"task_dep_chain", "task", k_task_dep_chain, ref_serial, 0,
     "one task of a depend(inout) chain"},
};

static const struct {
  const char* kind;
  bench_kernel kernel;
} sched_kinds[] = {
    {"static", k_sched_static}, {"dynamic", k_sched_dynamic}, {"guided", k_sched_guided}};

enum { max_constructs = 256 };
static bench_construct all[max_constructs];
static int all_count;

static void build_registry(const long* chunks, int nchunks) {
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; ++i) all[all_count++] = fixed[i];
  for (size_t k = 0; k < sizeof sched_kinds / sizeof sched_kinds[0]; ++k)
    for (int c = 0; c < nchunks && all_count < max_constructs; ++c) {
      char* name = malloc(48);
      snprintf(name, 48, "sched_%s_%ld", sched_kinds[k].kind, chunks[c]);
      bench_construct b = {name, "sched", sched_kinds[k].kernel, ref_sched, chunks[c],
                           "one loop of iters_per_thread*T iterations"};
      all[all_count++] = b;
    }
}

static void usage(FILE* f) {
  fprintf(f,
          "usage: ompbench [options]\n"
          "  --constructs LIST   comma-separated names or groups (sync, loop, task,\n"
          "                      sched, all); default all, in registry order\n"
          "  --threads N         team size (default 2)\n"
          "  --outer N           outer repetitions (default 20; quick 3)\n"
          "  --target-us US      duration of one timed kernel run (default 1000; quick 200)\n"
          "  --delay-us US       length of one delay (default 0.1)\n"
          "  --chunks LIST       chunk sizes of the schedule sweep\n"
          "                      (default 1,2,4,8,16,32,64,128; quick 1,16,128)\n"
          "  --iters-per-thread N  schedule sweep iterations per thread (default 128)\n"
          "  --quick             small, fast settings (for smoke tests)\n"
          "  --once INNER        run each chosen test kernel once with INNER instances\n"
          "                      (no calibration, no reference, no timing; for\n"
          "                      counting the events a tool records per instance)\n"
          "  --list              print the constructs (JSON lines) and exit\n"
          "  --identity          print the runtime identity (JSON) and exit\n");
}

static int parse_chunks(const char* s, long* out, int cap) {
  int n = 0;
  char* copy = strdup(s);
  for (char* tok = strtok(copy, ","); tok && n < cap; tok = strtok(NULL, ",")) {
    long v = strtol(tok, NULL, 10);
    if (v < 1) {
      fprintf(stderr, "ompbench: chunk size '%s' is not a positive integer\n", tok);
      exit(2);
    }
    out[n++] = v;
  }
  free(copy);
  return n;
}

static int group_or_name_matches(const bench_construct* c, const char* tok) {
  return !strcmp(tok, "all") || !strcmp(tok, c->name) || !strcmp(tok, c->group);
}

static void print_identity(void) {
  /* One region first: runtimes start (and load OMPT tools) lazily. */
  int team = bench_team_size(2);
  bench_identity id;
  bench_identify(&id);
  printf("{\"runtime\":");
  bench_json_string(id.runtime);
  printf(",\"library\":");
  bench_json_string(id.library);
  printf(",\"mapped\":");
  bench_json_string(id.mapped);
  printf(",\"foreign_entry_points\":");
  bench_json_string(id.foreign);
  printf(",\"team_of_2\":%d", team);
  printf("}\n");
  fflush(stdout);
}

int main(int argc, char** argv) {
  bench_params p = {.threads = 2, .outer = 20, .target_us = 1000, .delay_us = 0.1,
                    .max_inner = 1L << 22, .iters_per_thread = 128};
  const char* list = "all";
  const char* chunk_text = NULL;
  int quick = 0, outer_set = 0, target_set = 0, do_list = 0, do_identity = 0;
  long once = 0;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE                                                   \
  if (!v) {                                                          \
    fprintf(stderr, "ompbench: %s needs a value\n", a);              \
    return 2;                                                        \
  }                                                                  \
  ++i
    if (!strcmp(a, "--constructs")) { NEED_VALUE; list = v; }
    else if (!strcmp(a, "--threads")) { NEED_VALUE; p.threads = atoi(v); }
    else if (!strcmp(a, "--outer")) { NEED_VALUE; p.outer = atoi(v); outer_set = 1; }
    else if (!strcmp(a, "--target-us")) { NEED_VALUE; p.target_us = atof(v); target_set = 1; }
    else if (!strcmp(a, "--delay-us")) { NEED_VALUE; p.delay_us = atof(v); }
    else if (!strcmp(a, "--chunks")) { NEED_VALUE; chunk_text = v; }
    else if (!strcmp(a, "--iters-per-thread")) { NEED_VALUE; p.iters_per_thread = atoi(v); }
    else if (!strcmp(a, "--once")) { NEED_VALUE; once = atol(v); if (once < 1) once = -1; }
    else if (!strcmp(a, "--quick")) quick = 1;
    else if (!strcmp(a, "--list")) do_list = 1;
    else if (!strcmp(a, "--identity")) do_identity = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    else { fprintf(stderr, "ompbench: unknown option '%s'\n", a); usage(stderr); return 2; }
  }
  if (quick) {
    if (!outer_set) p.outer = 3;
    if (!target_set) p.target_us = 200;
    if (!chunk_text) chunk_text = "1,16,128";
  }
  if (!chunk_text) chunk_text = "1,2,4,8,16,32,64,128";
  if (p.threads < 1 || p.outer < 1 || p.target_us <= 0 || p.delay_us < 0 ||
      p.iters_per_thread < 1 || once < 0) {
    fprintf(stderr,
            "ompbench: threads, outer, target-us, iters-per-thread and once must be positive\n");
    return 2;
  }
  long chunks[32];
  int nchunks = parse_chunks(chunk_text, chunks, 32);
  build_registry(chunks, nchunks);

  if (do_identity) {
    print_identity();
    return 0;
  }
  /* Select in the order the list names them, each construct once. */
  static int chosen[max_constructs];
  int nchosen = 0;
  char* copy = strdup(list);
  for (char* tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
    int hit = 0;
    for (int c = 0; c < all_count; ++c) {
      if (!group_or_name_matches(&all[c], tok)) continue;
      hit = 1;
      int dup = 0;
      for (int k = 0; k < nchosen; ++k) dup |= chosen[k] == c;
      if (!dup) chosen[nchosen++] = c;
    }
    if (!hit) {
      fprintf(stderr, "ompbench: unknown construct or group '%s' (see --list)\n", tok);
      return 2;
    }
  }
  free(copy);
  if (do_list) {
    for (int k = 0; k < nchosen; ++k) {
      const bench_construct* c = &all[chosen[k]];
      printf("{\"construct\":");
      bench_json_string(c->name);
      printf(",\"group\":");
      bench_json_string(c->group);
      printf(",\"what\":");
      bench_json_string(c->what);
      printf("}\n");
    }
    return 0;
  }
  bench_calibrate_delay(p.delay_us);
  if (once) {
    /* Whatever a tool records in this process beyond what the same run with
     * another INNER records is what `once` instances cost it. */
    for (int k = 0; k < nchosen; ++k) all[chosen[k]].test(&p, once, all[chosen[k]].arg);
    return 0;
  }
  for (int k = 0; k < nchosen; ++k) bench_run(&all[chosen[k]], &p);
  return 0;
}
