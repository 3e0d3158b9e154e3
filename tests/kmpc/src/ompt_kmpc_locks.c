// kite-test-threads: 1 2
// kite-test-cflags: -rdynamic -Wno-unused-function
// The __kmpc_* lock entry points report the same OMPT events as the omp_*
// lock routines, with codeptr_ra the call site of the entry point. Kite's
// omp-tools.h comes first (see ompt_mutex_lock.c).
#include "../../../include/omp-tools.h"
#include "kite_test.h"
#include <stdint.h>
#include "../../ompt/support/mutex_recorder.h"

typedef struct ident ident_t;
void __kmpc_init_lock_with_hint(ident_t*, int, void**, uintptr_t);
void __kmpc_destroy_lock(ident_t*, int, void**);
void __kmpc_set_lock(ident_t*, int, void**);
void __kmpc_unset_lock(ident_t*, int, void**);
int __kmpc_test_lock(ident_t*, int, void**);
void __kmpc_init_nest_lock(ident_t*, int, void**);
void __kmpc_destroy_nest_lock(ident_t*, int, void**);
void __kmpc_set_nest_lock(ident_t*, int, void**);
void __kmpc_unset_nest_lock(ident_t*, int, void**);

#define KEEP_FRAME() __asm__ volatile("" ::: "memory")
__attribute__((noinline)) void k_init_hint(void* l, uintptr_t h) {
  __kmpc_init_lock_with_hint(NULL, 0, (void**)l, h);
  KEEP_FRAME();
}
__attribute__((noinline)) void k_destroy(void* l) {
  __kmpc_destroy_lock(NULL, 0, (void**)l);
  KEEP_FRAME();
}
__attribute__((noinline)) void k_set(void* l) { __kmpc_set_lock(NULL, 0, (void**)l); KEEP_FRAME(); }
__attribute__((noinline)) void k_unset(void* l) {
  __kmpc_unset_lock(NULL, 0, (void**)l);
  KEEP_FRAME();
}
__attribute__((noinline)) int k_test(void* l) {
  int r = __kmpc_test_lock(NULL, 0, (void**)l);
  KEEP_FRAME();
  return r;
}
__attribute__((noinline)) void k_init_nest(void* l) {
  __kmpc_init_nest_lock(NULL, 0, (void**)l);
  KEEP_FRAME();
}
__attribute__((noinline)) void k_destroy_nest(void* l) {
  __kmpc_destroy_nest_lock(NULL, 0, (void**)l);
  KEEP_FRAME();
}
__attribute__((noinline)) void k_set_nest(void* l) {
  __kmpc_set_nest_lock(NULL, 0, (void**)l);
  KEEP_FRAME();
}
__attribute__((noinline)) void k_unset_nest(void* l) {
  __kmpc_unset_nest_lock(NULL, 0, (void**)l);
  KEEP_FRAME();
}

static omp_lock_t lock;
static omp_nest_lock_t nest;

int main(void) {
  KITE_TEST_BEGIN();
  omp_get_max_threads(); /* the first OpenMP call activates the tool */
  CHECK(rec_init_calls == 1);
  rec_thread* me = rec_me();
  CHECK(me != NULL);
  if (!me) KITE_TEST_END();
  int from = me->count;
  k_init_hint(&lock, omp_sync_hint_contended);
  k_set(&lock);
  k_unset(&lock);
  CHECK(k_test(&lock) == 1);
  k_unset(&lock);
  k_destroy(&lock);
  k_init_nest(&nest);
  k_set_nest(&nest);
  k_set_nest(&nest);
  k_unset_nest(&nest);
  k_unset_nest(&nest);
  k_destroy_nest(&nest);

  rec_event ev[32];
  int n = mx_events(me, from, ev, 32);
  CHECK_EQ_LONG(n, 16);
  if (n == 16) {
    MX_EXPECT(&ev[0], MX_LOCK_INIT, ompt_mutex_lock, &lock, k_init_hint);
    CHECK(ev[0].n == omp_sync_hint_contended);
    MX_EXPECT(&ev[1], MX_ACQUIRE, ompt_mutex_lock, &lock, k_set);
    CHECK(ev[1].n == omp_sync_hint_contended);
    CHECK(ev[1].state == ompt_state_wait_lock);
    MX_EXPECT(&ev[2], MX_ACQUIRED, ompt_mutex_lock, &lock, k_set);
    MX_EXPECT(&ev[3], MX_RELEASED, ompt_mutex_lock, &lock, k_unset);
    MX_EXPECT(&ev[4], MX_ACQUIRE, ompt_mutex_test_lock, &lock, k_test);
    MX_EXPECT(&ev[5], MX_ACQUIRED, ompt_mutex_test_lock, &lock, k_test);
    MX_EXPECT(&ev[6], MX_RELEASED, ompt_mutex_lock, &lock, k_unset);
    MX_EXPECT(&ev[7], MX_LOCK_DESTROY, ompt_mutex_lock, &lock, k_destroy);
    MX_EXPECT(&ev[8], MX_LOCK_INIT, ompt_mutex_nest_lock, &nest, k_init_nest);
    MX_EXPECT(&ev[9], MX_ACQUIRE, ompt_mutex_nest_lock, &nest, k_set_nest);
    MX_EXPECT(&ev[10], MX_ACQUIRED, ompt_mutex_nest_lock, &nest, k_set_nest);
    MX_EXPECT(&ev[11], MX_ACQUIRE, ompt_mutex_nest_lock, &nest, k_set_nest);
    MX_EXPECT(&ev[12], MX_NEST_BEGIN, 0, &nest, k_set_nest);
    MX_EXPECT(&ev[13], MX_NEST_END, 0, &nest, k_unset_nest);
    MX_EXPECT(&ev[14], MX_RELEASED, ompt_mutex_nest_lock, &nest, k_unset_nest);
    MX_EXPECT(&ev[15], MX_LOCK_DESTROY, ompt_mutex_nest_lock, &nest, k_destroy_nest);
  }
  KITE_TEST_END();
}
