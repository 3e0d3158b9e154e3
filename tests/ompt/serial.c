/* A serial program under a recording tool: activation on the first OpenMP
 * call, the initial thread and its initial task, the inquiry entry points
 * outside any parallel region, ompt_set_callback's answers, and threads the
 * runtime has no record of.
 * kite-test-threads: 1
 * kite-test-libs: pthread */
#include "kite_test.h"

#include <pthread.h>
#include "support/recorder.h"

static void* no_openmp_thread(void* arg) {
  int* out = (int*)arg;
  out[0] = rec_get_state(NULL);
  out[1] = rec_get_thread_data() == NULL;
  out[2] = rec_get_task_info(0, NULL, NULL, NULL, NULL, NULL);
  out[3] = rec_get_parallel_info(0, NULL, NULL);
  return NULL;
}

static void* user_thread(void* arg) {
  *(int*)arg = omp_get_thread_num(); /* its first OpenMP call */
  return NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  /* The proof above makes no OpenMP call: nothing is activated yet. */
  CHECK_EQ_LONG(rec_start_calls, 0);
  CHECK_EQ_LONG(omp_get_thread_num(), 0);
  CHECK_EQ_LONG(rec_start_calls, 1);
  CHECK_EQ_LONG(rec_init_calls, 1);
  CHECK_EQ_LONG(rec_omp_version, 202111);
  CHECK(strncmp(rec_runtime_version, "kite ", 5) == 0);

  /* Exactly: thread_begin(initial), initial task begin. */
  CHECK_EQ_LONG(rec_nthreads, 1);
  rec_thread* t = rec_me();
  CHECK(t == &rec_threads[0]);
  CHECK_EQ_LONG(t->type, ompt_thread_initial);
  CHECK_EQ_LONG(t->count, 2);
  CHECK_EQ_LONG(t->ev[0].ev, EV_THREAD_BEGIN);
  CHECK_EQ_LONG(t->ev[0].kind, ompt_thread_initial);
  CHECK_EQ_LONG(t->ev[1].ev, EV_INITIAL_BEGIN);
  CHECK_EQ_LONG(t->ev[1].n, 1);
  CHECK_EQ_LONG(t->ev[1].index, 1);
  CHECK_EQ_LONG(t->ev[1].flags, ompt_task_initial);
  CHECK(t->ev[1].have_pd);
  CHECK(t->ev[1].parallel_id != 0 && t->ev[1].task_id != 0);
  CHECK_EQ_LONG(t->ev[1].state, ompt_state_work_serial);

  /* Inquiries outside any region. */
  ompt_wait_id_t wait = 77;
  CHECK_EQ_LONG(rec_get_state(&wait), ompt_state_work_serial);
  int flags = 0, thread_num = -1, size = 0;
  static ompt_data_t unset;
  ompt_data_t *td = NULL, *pd = &unset;
  ompt_frame_t* frame = NULL;
  CHECK_EQ_LONG(rec_get_task_info(0, &flags, &td, &frame, &pd, &thread_num), 2);
  CHECK_EQ_LONG(flags, ompt_task_initial);
  CHECK(td && td->value == t->ev[1].task_id);
  /* An initial task's parallel_data is NULL (6.0 §36.15); the implicit
   * region around it is still ompt_get_parallel_info's answer below. */
  CHECK(pd == NULL);
  CHECK(frame && frame->enter_frame.ptr == NULL && frame->exit_frame.ptr == NULL);
  CHECK_EQ_LONG(thread_num, 0);
  CHECK_EQ_LONG(rec_get_task_info(1, &flags, &td, &frame, &pd, &thread_num), 0);
  pd = NULL;
  CHECK_EQ_LONG(rec_get_parallel_info(0, &pd, &size), 2);
  CHECK(pd && pd->value == t->ev[1].parallel_id);
  CHECK_EQ_LONG(size, 1);
  CHECK_EQ_LONG(rec_get_parallel_info(1, &pd, &size), 0);
  CHECK(rec_get_thread_data() && rec_get_thread_data()->ptr == t);

  /* ompt_set_callback's promises. */
  CHECK_EQ_LONG(rec_set_result[ompt_callback_thread_begin], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_thread_end], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_parallel_begin], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_parallel_end], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_implicit_task], ompt_set_always);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_sync_region], ompt_set_sometimes);
  CHECK_EQ_LONG(rec_set_result[ompt_callback_sync_region_wait], ompt_set_sometimes);
  for (int e = ompt_callback_task_create; e <= ompt_callback_error; ++e) {
    if (e == ompt_callback_implicit_task || e == ompt_callback_sync_region ||
        e == ompt_callback_sync_region_wait)
      continue;
    /* Task, worksharing and cancel events: tests/ompt/ompt_task_*.c,
     * ompt_ws_*.c. */
    if (e == ompt_callback_task_create || e == ompt_callback_task_schedule ||
        e == ompt_callback_dependences || e == ompt_callback_task_dependence ||
        e == ompt_callback_work || e == ompt_callback_dispatch || e == ompt_callback_cancel)
      continue;
    /* masked, flush, reduction: only clang programs make the runtime calls
     * they are reported from (tests/kmpc/src/ompt_ws_clang.c). */
    if (e == ompt_callback_masked || e == ompt_callback_flush || e == ompt_callback_reduction) {
      CHECK_EQ_LONG(rec_set_callback((ompt_callbacks_t)e, (ompt_callback_t)rec_thread_end),
                    ompt_set_sometimes);
      continue;
    }
    /* Mutex, error and control_tool events: tests/ompt/ompt_mutex_*.c. */
    if (e == ompt_callback_mutex_acquire || e == ompt_callback_mutex_acquired ||
        e == ompt_callback_mutex_released || e == ompt_callback_nest_lock ||
        e == ompt_callback_lock_init || e == ompt_callback_lock_destroy ||
        e == ompt_callback_error || e == ompt_callback_control_tool)
      continue;
    /* Device constructs and device memory routines: tests/ompt/target_*.c. */
    if (e == ompt_callback_target || e == ompt_callback_target_emi ||
        e == ompt_callback_target_submit || e == ompt_callback_target_submit_emi ||
        e == ompt_callback_target_data_op || e == ompt_callback_target_data_op_emi)
      continue;
    CHECK_EQ_LONG(rec_set_callback((ompt_callbacks_t)e, (ompt_callback_t)rec_thread_end),
                  ompt_set_never);
    ompt_callback_t got = NULL;
    CHECK_EQ_LONG(rec_get_callback((ompt_callbacks_t)e, &got), 0);
  }
  CHECK_EQ_LONG(rec_set_callback((ompt_callbacks_t)0, (ompt_callback_t)rec_thread_end),
                ompt_set_error);
  CHECK_EQ_LONG(rec_set_callback((ompt_callbacks_t)38, (ompt_callback_t)rec_thread_end),
                ompt_set_error);
  ompt_callback_t got = NULL;
  CHECK_EQ_LONG(rec_get_callback(ompt_callback_thread_begin, &got), 1);
  CHECK(got == (ompt_callback_t)rec_thread_begin);

  /* The lookup function knows every 5.2 entry point, and nothing else. */
  static const char* const names[] = {
      "ompt_enumerate_states", "ompt_enumerate_mutex_impls", "ompt_set_callback",
      "ompt_get_callback", "ompt_get_thread_data", "ompt_get_num_procs",
      "ompt_get_num_places", "ompt_get_place_proc_ids", "ompt_get_place_num",
      "ompt_get_partition_place_nums", "ompt_get_proc_id", "ompt_get_state",
      "ompt_get_parallel_info", "ompt_get_task_info", "ompt_get_task_memory",
      "ompt_get_num_devices", "ompt_get_target_info", "ompt_get_unique_id",
      "ompt_finalize_tool"};
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; ++i) CHECK(rec_lookup(names[i]) != NULL);
  CHECK(rec_lookup("ompt_no_such_entry") == NULL);
  CHECK(((ompt_get_num_procs_t)rec_lookup("ompt_get_num_procs"))() == omp_get_num_procs());
  CHECK(((ompt_get_num_places_t)rec_lookup("ompt_get_num_places"))() == omp_get_num_places());
  CHECK(((ompt_get_proc_id_t)rec_lookup("ompt_get_proc_id"))() >= 0);
  /* The host counts: it is the device target callbacks name. */
  CHECK_EQ_LONG(((ompt_get_num_devices_t)rec_lookup("ompt_get_num_devices"))(),
                omp_get_num_devices() + 1);
  uint64_t dev = 9;
  ompt_id_t tid = 9, hid = 9;
  CHECK_EQ_LONG(((ompt_get_target_info_t)rec_lookup("ompt_get_target_info"))(&dev, &tid, &hid), 0);
  uint64_t a = rec_get_unique_id(), b = rec_get_unique_id();
  CHECK(a != 0 && b > a);

  /* States: every one is enumerated once, starting from undefined. */
  int state = ompt_state_undefined, seen = 0, saw_serial = 0, saw_idle = 0;
  const char* name = NULL;
  while (rec_enumerate_states(state, &state, &name) && seen < 100) {
    ++seen;
    CHECK(name && strncmp(name, "ompt_state_", 11) == 0);
    CHECK(state != ompt_state_undefined);
    saw_serial += state == ompt_state_work_serial;
    saw_idle += state == ompt_state_idle && strcmp(name, "ompt_state_idle") == 0;
  }
  CHECK_EQ_LONG(seen, 20);
  CHECK(saw_serial == 1 && saw_idle == 1);
  ompt_enumerate_mutex_impls_t mi =
      (ompt_enumerate_mutex_impls_t)rec_lookup("ompt_enumerate_mutex_impls");
  int impl = ompt_mutex_impl_none;
  CHECK_EQ_LONG(mi(impl, &impl, &name), 1);
  CHECK(impl != ompt_mutex_impl_none);
  CHECK_EQ_LONG(mi(impl, &impl, &name), 0);

  /* A thread the runtime has no record of. */
  int out[4] = {0, 0, 9, 9};
  pthread_t th;
  pthread_create(&th, NULL, no_openmp_thread, out);
  pthread_join(th, NULL);
  CHECK_EQ_LONG(out[0], ompt_state_undefined);
  CHECK(out[1]);
  CHECK_EQ_LONG(out[2], 0);
  CHECK_EQ_LONG(out[3], 0);

  /* A user thread: an initial thread of its own, begun and ended. */
  int r = -1;
  pthread_create(&th, NULL, user_thread, &r);
  pthread_join(th, NULL);
  CHECK_EQ_LONG(r, 0);
  CHECK_EQ_LONG(rec_nthreads, 2);
  rec_thread* u = &rec_threads[1];
  CHECK_EQ_LONG(u->type, ompt_thread_initial);
  CHECK_EQ_LONG(u->count, 4);
  CHECK_EQ_LONG(u->ev[0].ev, EV_THREAD_BEGIN);
  CHECK_EQ_LONG(u->ev[1].ev, EV_INITIAL_BEGIN);
  CHECK_EQ_LONG(u->ev[2].ev, EV_INITIAL_END);
  CHECK_EQ_LONG(u->ev[2].task_id, u->ev[1].task_id);
  CHECK(!u->ev[2].have_pd);
  CHECK_EQ_LONG(u->ev[2].n, 0);
  CHECK_EQ_LONG(u->ev[3].ev, EV_THREAD_END);
  CHECK(u->ev[1].task_id != t->ev[1].task_id);
  CHECK_EQ_LONG(t->count, 2); /* nothing more on the main thread */
  KITE_TEST_END();
}
