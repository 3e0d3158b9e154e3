/* OpenMP memory allocators: predefined allocators and memory spaces, every
 * trait, trait validation, alignment, calloc, pool limits with each
 * fallback (abort_fb in a child process), and the allocate clause
 * (GOMP_alloc / GOMP_free).
 * kite-test-threads: 1 4
 */
#include "kite_test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#define ALIGNED(p, a) ((((uintptr_t)(p)) % (a)) == 0)

static omp_allocator_handle_t make(omp_memspace_handle_t space, int n,
                                   const omp_alloctrait_t* t) {
  return omp_init_allocator(space, n, t);
}

static void predefined(void) {
  for (uintptr_t h = omp_default_mem_alloc; h <= omp_thread_mem_alloc; ++h) {
    char* p = (char*)omp_alloc(100, (omp_allocator_handle_t)h);
    CHECK(p != NULL);
    CHECK(ALIGNED(p, 16));
    memset(p, 0x5a, 100);
    omp_free(p, omp_null_allocator);
  }
  CHECK(omp_alloc(0, omp_default_mem_alloc) == NULL);
  CHECK(omp_calloc(0, 8, omp_default_mem_alloc) == NULL);
  omp_free(NULL, omp_default_mem_alloc); /* no-op */

  /* Every memory space yields a working allocator. */
  const omp_memspace_handle_t spaces[] = {omp_default_mem_space, omp_large_cap_mem_space,
                                          omp_const_mem_space, omp_high_bw_mem_space,
                                          omp_low_lat_mem_space};
  for (int i = 0; i < 5; ++i) {
    omp_allocator_handle_t a = make(spaces[i], 0, NULL);
    CHECK(a != omp_null_allocator);
    void* p = omp_alloc(64, a);
    CHECK(p != NULL);
    omp_free(p, a);
    omp_destroy_allocator(a);
  }
}

static void alignment(void) {
  const size_t aligns[] = {32, 64, 256, 4096};
  for (int i = 0; i < 4; ++i) {
    omp_alloctrait_t t[] = {{omp_atk_alignment, aligns[i]}};
    omp_allocator_handle_t a = make(omp_default_mem_space, 1, t);
    CHECK(a != omp_null_allocator);
    for (int k = 0; k < 10; ++k) {
      void* p = omp_alloc(24 + k, a);
      CHECK(p && ALIGNED(p, aligns[i]));
      /* The larger of the trait and the argument wins. */
      void* q = omp_aligned_alloc(aligns[i] * 2, 40, a);
      CHECK(q && ALIGNED(q, aligns[i] * 2));
      void* r = omp_aligned_alloc(8, 40, a);
      CHECK(r && ALIGNED(r, aligns[i]));
      omp_free(p, a);
      omp_free(q, omp_null_allocator);
      omp_free(r, a);
    }
    omp_destroy_allocator(a);
  }
  void* p = omp_aligned_alloc(1024, 1024, omp_default_mem_alloc);
  CHECK(p && ALIGNED(p, 1024));
  omp_free(p, omp_default_mem_alloc);
  char* z = (char*)omp_aligned_calloc(128, 50, 3, omp_default_mem_alloc);
  CHECK(z && ALIGNED(z, 128));
  for (int i = 0; i < 150; ++i) CHECK(z[i] == 0);
  omp_free(z, omp_null_allocator);
}

static void calloc_zeroes(void) {
  for (int round = 0; round < 4; ++round) {
    unsigned char* p = (unsigned char*)omp_alloc(4096, omp_default_mem_alloc);
    memset(p, 0xff, 4096);
    omp_free(p, omp_default_mem_alloc);
    unsigned char* z = (unsigned char*)omp_calloc(512, 8, omp_default_mem_alloc);
    CHECK(z != NULL);
    int nonzero = 0;
    for (int i = 0; i < 4096; ++i) nonzero += z[i] != 0;
    CHECK_EQ_LONG(nonzero, 0);
    omp_free(z, omp_default_mem_alloc);
  }
  /* Overflowing element count: a failure, which null_fb reports as NULL. */
  omp_alloctrait_t t[] = {{omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t a = make(omp_default_mem_space, 1, t);
  CHECK(omp_calloc(SIZE_MAX / 2, 4, a) == NULL);
  omp_destroy_allocator(a);
}

static void every_trait_value(void) {
  const omp_alloctrait_t ok[][1] = {
      {{omp_atk_sync_hint, omp_atv_contended}},   {{omp_atk_sync_hint, omp_atv_uncontended}},
      {{omp_atk_sync_hint, omp_atv_serialized}},  {{omp_atk_sync_hint, omp_atv_private}},
      {{omp_atk_sync_hint, omp_atv_default}},     {{omp_atk_alignment, 1}},
      {{omp_atk_alignment, omp_atv_default}},     {{omp_atk_access, omp_atv_all}},
      {{omp_atk_access, omp_atv_cgroup}},         {{omp_atk_access, omp_atv_pteam}},
      {{omp_atk_access, omp_atv_thread}},         {{omp_atk_access, omp_atv_default}},
      {{omp_atk_pool_size, 1 << 20}},             {{omp_atk_pool_size, omp_atv_default}},
      {{omp_atk_fallback, omp_atv_default_mem_fb}}, {{omp_atk_fallback, omp_atv_null_fb}},
      {{omp_atk_fallback, omp_atv_abort_fb}},     {{omp_atk_fallback, omp_atv_default}},
      {{omp_atk_fb_data, omp_default_mem_alloc}}, {{omp_atk_pinned, omp_atv_true}},
      {{omp_atk_pinned, omp_atv_false}},          {{omp_atk_pinned, omp_atv_default}},
      {{omp_atk_partition, omp_atv_environment}}, {{omp_atk_partition, omp_atv_nearest}},
      {{omp_atk_partition, omp_atv_blocked}},     {{omp_atk_partition, omp_atv_interleaved}},
      {{omp_atk_partition, omp_atv_default}},
  };
  const int nok = sizeof ok / sizeof ok[0];
  for (int i = 0; i < nok; ++i) {
    omp_allocator_handle_t a = make(omp_default_mem_space, 1, ok[i]);
    CHECK(a != omp_null_allocator);
    if (a == omp_null_allocator) fprintf(stderr, "  rejected valid trait #%d\n", i);
    char* p = (char*)omp_alloc(1000, a);
    CHECK(p != NULL);
    if (p) memset(p, 1, 1000);
    omp_free(p, a);
    omp_destroy_allocator(a);
  }

  /* All traits at once, including allocator_fb with fb_data. */
  omp_alloctrait_t all[] = {{omp_atk_sync_hint, omp_atv_uncontended},
                            {omp_atk_alignment, 64},
                            {omp_atk_access, omp_atv_all},
                            {omp_atk_pool_size, 4096},
                            {omp_atk_fallback, omp_atv_allocator_fb},
                            {omp_atk_fb_data, omp_low_lat_mem_alloc},
                            {omp_atk_pinned, omp_atv_false},
                            {omp_atk_partition, omp_atv_blocked}};
  omp_allocator_handle_t a = make(omp_high_bw_mem_space, 8, all);
  CHECK(a != omp_null_allocator);
  void* p = omp_alloc(3000, a);
  CHECK(p && ALIGNED(p, 64));
  void* q = omp_alloc(3000, a); /* over the pool: served by the fb allocator */
  CHECK(q != NULL);
  omp_free(p, a);
  omp_free(q, a);
  omp_destroy_allocator(a);

  /* Invalid traits and arguments give omp_null_allocator. */
  const omp_alloctrait_t bad[][1] = {
      {{(omp_alloctrait_key_t)99, 1}},           {{omp_atk_sync_hint, 77}},
      {{omp_atk_alignment, 3}},                  {{omp_atk_alignment, 0}},
      {{omp_atk_access, omp_atv_blocked}},       {{omp_atk_pool_size, 0}},
      {{omp_atk_fallback, omp_atv_true}},        {{omp_atk_fallback, omp_atv_allocator_fb}},
      {{omp_atk_pinned, 5}},                     {{omp_atk_partition, omp_atv_all}},
  };
  const int nbad = sizeof bad / sizeof bad[0];
  for (int i = 0; i < nbad; ++i) {
    omp_allocator_handle_t b = make(omp_default_mem_space, 1, bad[i]);
    CHECK(b == omp_null_allocator);
    if (b != omp_null_allocator) fprintf(stderr, "  accepted invalid trait #%d\n", i);
  }
  CHECK(make((omp_memspace_handle_t)42, 0, NULL) == omp_null_allocator);
  CHECK(make(omp_default_mem_space, -1, NULL) == omp_null_allocator);
  CHECK(make(omp_default_mem_space, 2, NULL) == omp_null_allocator);
  /* allocator_fb naming a destroyed allocator */
  omp_allocator_handle_t gone = make(omp_default_mem_space, 0, NULL);
  omp_destroy_allocator(gone);
  omp_alloctrait_t fb_gone[] = {{omp_atk_fallback, omp_atv_allocator_fb},
                                {omp_atk_fb_data, gone}};
  CHECK(make(omp_default_mem_space, 2, fb_gone) == omp_null_allocator);
}

static void pools_and_fallbacks(void) {
  /* null_fb: exhaustion returns NULL; freeing gives the space back. */
  omp_alloctrait_t nt[] = {{omp_atk_pool_size, 1024}, {omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t a = make(omp_default_mem_space, 2, nt);
  CHECK(a != omp_null_allocator);
  void* p = omp_alloc(1000, a);
  CHECK(p != NULL);
  CHECK(omp_alloc(100, a) == NULL);
  void* small = omp_alloc(24, a);
  CHECK(small != NULL);
  CHECK(omp_alloc(1, a) == NULL);
  omp_free(p, a);
  omp_free(small, omp_null_allocator);
  p = omp_alloc(1024, a);
  CHECK(p != NULL);
  CHECK(omp_alloc(1, a) == NULL);
  omp_free(p, a);
  CHECK(omp_alloc(1025, a) == NULL);

  /* Many threads allocating from one pool never exceed it, and give all of
   * it back. */
  int over = 0;
#pragma omp parallel reduction(+ : over)
  {
    void* mine[8];
    for (int r = 0; r < 200; ++r) {
      int got = 0;
      for (int k = 0; k < 8; ++k) {
        mine[k] = omp_alloc(64, a);
        got += mine[k] != NULL;
      }
      if (got * 64 > 1024) over++;
      for (int k = 0; k < 8; ++k) omp_free(mine[k], a);
    }
  }
  CHECK_EQ_LONG(over, 0);
  p = omp_alloc(1024, a);
  CHECK(p != NULL);
  omp_free(p, a);

  /* default_mem_fb (also the default): exhaustion falls back to the heap. */
  omp_alloctrait_t dt[] = {{omp_atk_pool_size, 256}};
  omp_allocator_handle_t d = make(omp_default_mem_space, 1, dt);
  void* d1 = omp_alloc(200, d);
  void* d2 = omp_alloc(200, d);
  CHECK(d1 && d2);
  omp_free(d1, d);
  omp_free(d2, d);

  /* allocator_fb: chain to an allocator recognisable by its alignment; a
   * chain ending in null_fb ends in NULL. */
  omp_alloctrait_t big_align[] = {{omp_atk_alignment, 2048}};
  omp_allocator_handle_t fb = make(omp_default_mem_space, 1, big_align);
  omp_alloctrait_t ft[] = {{omp_atk_pool_size, 100},
                           {omp_atk_fallback, omp_atv_allocator_fb},
                           {omp_atk_fb_data, fb}};
  omp_allocator_handle_t f = make(omp_default_mem_space, 3, ft);
  CHECK(f != omp_null_allocator);
  void* f1 = omp_alloc(500, f);
  CHECK(f1 && ALIGNED(f1, 2048));
  omp_free(f1, f);
  omp_alloctrait_t ft2[] = {{omp_atk_pool_size, 100},
                            {omp_atk_fallback, omp_atv_allocator_fb},
                            {omp_atk_fb_data, a}};
  omp_allocator_handle_t f2 = make(omp_default_mem_space, 3, ft2);
  void* x = omp_alloc(512, f2); /* pool of f2 too small; a's pool has room */
  CHECK(x != NULL);
  CHECK(omp_alloc(600, f2) == NULL); /* neither has room; a is null_fb */
  omp_free(x, omp_null_allocator);

  omp_destroy_allocator(f2);
  omp_destroy_allocator(f);
  omp_destroy_allocator(fb);
  omp_destroy_allocator(d);
  omp_destroy_allocator(a);
}

static void abort_fallback(void) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    int devnull[2];
    if (pipe(devnull) == 0) dup2(devnull[1], 2); /* keep the abort message quiet */
    omp_alloctrait_t t[] = {{omp_atk_pool_size, 64}, {omp_atk_fallback, omp_atv_abort_fb}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, t);
    void* p = omp_alloc(32, a);
    if (!p) _exit(10);
    omp_alloc(64, a); /* must not return */
    _exit(11);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

static void realloc_semantics(void) {
  /* NULL pointer: like omp_alloc. */
  char* p = (char*)omp_realloc(NULL, 100, omp_default_mem_alloc, omp_null_allocator);
  CHECK(p != NULL);
  for (int i = 0; i < 100; ++i) p[i] = (char)i;
  /* Grow and shrink keep the common prefix. */
  p = (char*)omp_realloc(p, 100000, omp_null_allocator, omp_null_allocator);
  CHECK(p != NULL);
  for (int i = 0; i < 100; ++i) CHECK(p[i] == (char)i);
  p = (char*)omp_realloc(p, 50, omp_default_mem_alloc, omp_default_mem_alloc);
  for (int i = 0; i < 50; ++i) CHECK(p[i] == (char)i);
  /* Move to an allocator with stricter alignment. */
  omp_alloctrait_t at[] = {{omp_atk_alignment, 512}};
  omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 1, at);
  p = (char*)omp_realloc(p, 3000, al, omp_null_allocator);
  CHECK(p && ALIGNED(p, 512));
  for (int i = 0; i < 50; ++i) CHECK(p[i] == (char)i);
  /* With omp_null_allocator it stays with the block's allocator. */
  p = (char*)omp_realloc(p, 6000, omp_null_allocator, omp_null_allocator);
  CHECK(p && ALIGNED(p, 512));
  for (int i = 0; i < 50; ++i) CHECK(p[i] == (char)i);
  /* Size 0 frees and returns NULL. */
  CHECK(omp_realloc(p, 0, omp_null_allocator, al) == NULL);
  omp_destroy_allocator(al);

  /* Within a pool: growing charges the difference; failing leaves the
   * original block valid. */
  omp_alloctrait_t pt[] = {{omp_atk_pool_size, 1024}, {omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t pa = omp_init_allocator(omp_default_mem_space, 2, pt);
  char* q = (char*)omp_alloc(600, pa);
  memset(q, 7, 600);
  q = (char*)omp_realloc(q, 900, pa, pa);
  CHECK(q != NULL);
  if (q) {
    for (int i = 0; i < 600; ++i) CHECK(q[i] == 7);
    CHECK(omp_realloc(q, 2000, pa, pa) == NULL);
    for (int i = 0; i < 600; ++i) CHECK(q[i] == 7);
    q = (char*)omp_realloc(q, 100, pa, pa); /* shrink returns pool space */
    CHECK(q != NULL);
    void* rest = omp_alloc(900, pa);
    CHECK(rest != NULL);
    omp_free(rest, pa);
    omp_free(q, pa);
  }
  omp_destroy_allocator(pa);
}

static void default_allocator(void) {
  CHECK(omp_get_default_allocator() == omp_default_mem_alloc);
  omp_alloctrait_t at[] = {{omp_atk_alignment, 1024}};
  omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, at);
  omp_set_default_allocator(a);
  CHECK(omp_get_default_allocator() == a);
  void* p = omp_alloc(10, omp_null_allocator);
  CHECK(p && ALIGNED(p, 1024));
  omp_free(p, omp_null_allocator);

  /* def-allocator-var is a data-environment ICV: implicit tasks inherit it,
   * and setting it in one task does not change the others'. */
  int wrong = 0;
#pragma omp parallel reduction(+ : wrong)
  {
    if (omp_get_default_allocator() != a) wrong++;
    void* r = omp_alloc(8, omp_null_allocator);
    if (!ALIGNED(r, 1024)) wrong++;
    omp_free(r, omp_null_allocator);
    if (omp_get_thread_num() == 1) omp_set_default_allocator(omp_large_cap_mem_alloc);
#pragma omp barrier
    if (omp_get_thread_num() != 1 && omp_get_default_allocator() != a) wrong++;
    if (omp_get_thread_num() == 1 && omp_get_default_allocator() != omp_large_cap_mem_alloc)
      wrong++;
  }
  CHECK_EQ_LONG(wrong, 0);
  CHECK(omp_get_default_allocator() == a);
  omp_set_default_allocator(omp_default_mem_alloc);
  omp_destroy_allocator(a);
  CHECK(omp_get_default_allocator() == omp_default_mem_alloc);
}

static void allocate_clause(void) {
  omp_alloctrait_t t[] = {{omp_atk_alignment, 256}};
  omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, t);
  int bad = 0;
  int x[10];
#pragma omp parallel private(x) allocate(a : x) reduction(+ : bad)
  {
    if (!ALIGNED(x, 256)) bad++;
    for (int i = 0; i < 10; ++i) x[i] = i;
  }
  CHECK_EQ_LONG(bad, 0);
  omp_destroy_allocator(a);
}

int main(void) {
  KITE_TEST_BEGIN();
  predefined();
  alignment();
  calloc_zeroes();
  every_trait_value();
  pools_and_fallbacks();
  abort_fallback();
  realloc_semantics();
  default_allocator();
  allocate_clause();
  KITE_TEST_END();
}
