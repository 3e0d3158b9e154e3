/* omp_control_tool as the specification's omp.h declares it: the gcc build
 * compiles against Kite's include/omp.h (gcc's omp.h declares neither the
 * routine nor its omp_control_tool_t / omp_control_tool_result_t enums),
 * the clang builds against clang's own. While the tool's control_tool
 * callback runs, the calling task's enter frame is set to the
 * omp_control_tool call's frame (application|cfa), so a tool can unwind
 * from its callback into the program; it is cleared afterwards. In the
 * initial task and in an implicit task.
 * kite-test-threads: 1 2 */
#include "kite_test.h"

#include <omp-tools.h>
#include <stdint.h>

static ompt_get_task_info_t get_task_info;
static int calls;
static __thread int cur_slot; /* the call_tool slot of the call in progress */
static void* seen_enter[64];
static int seen_flags[64];
static uint64_t seen_command[64];

static int on_control_tool(uint64_t command, uint64_t modifier, void* arg,
                           const void* codeptr_ra) {
  (void)modifier, (void)arg, (void)codeptr_ra;
  __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
  int i = cur_slot;
  if (i < 0 || i >= 64) return omp_control_tool_ignored;
  ompt_frame_t* f = NULL;
  if (get_task_info(0, NULL, NULL, &f, NULL, NULL) == 2 && f) {
    seen_enter[i] = f->enter_frame.ptr;
    seen_flags[i] = f->enter_frame_flags;
  }
  seen_command[i] = command;
  return omp_control_tool_success;
}

static void small_tool_register(ompt_function_lookup_t lookup, ompt_set_callback_t set) {
  get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
  set(ompt_callback_control_tool, (ompt_callback_t)on_control_tool);
}
#include "support/small_tool.h"

static void* caller_cfa[64];

/* The frame the enter frame must name: omp_control_tool's CFA, the
 * caller's stack pointer at the call, just below the caller's own CFA. */
__attribute__((noinline)) int call_tool(int slot, omp_control_tool_t command) {
  caller_cfa[slot] = __builtin_dwarf_cfa();
  cur_slot = slot;
  int r = omp_control_tool(command, 0, NULL);
  __asm__ volatile("" ::: "memory"); /* no tail call */
  return r;
}

static int enter_frame_now(void) {
  ompt_frame_t* f = NULL;
  return get_task_info(0, NULL, NULL, &f, NULL, NULL) == 2 && f && f->enter_frame.ptr != NULL;
}

int main(void) {
  KITE_TEST_BEGIN();
  CHECK_EQ_LONG(call_tool(0, omp_control_tool_flush), omp_control_tool_success);
  CHECK_EQ_LONG(calls, 1);
  CHECK(!enter_frame_now());
  int n = 0, cleared = 1;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp atomic
    n++;
    if (t < 32) {
      if (call_tool(1 + t, omp_control_tool_pause) != omp_control_tool_success) cleared = 0;
      if (enter_frame_now()) cleared = 0;
    }
  }
  CHECK(cleared);
  CHECK_EQ_LONG(calls, 1 + n);
  /* Each callback saw an enter frame just below its caller's CFA. */
  for (int i = 0; i < 1 + n && i < 33; ++i) {
    CHECK(seen_enter[i] != NULL);
    CHECK_EQ_LONG(seen_flags[i], ompt_frame_application | ompt_frame_cfa);
    CHECK((char*)seen_enter[i] < (char*)caller_cfa[i] &&
          (char*)seen_enter[i] > (char*)caller_cfa[i] - 512);
  }
  CHECK_EQ_LONG(seen_command[0], omp_control_tool_flush);
  CHECK_EQ_LONG(omp_control_tool_notool, -2);
  CHECK_EQ_LONG(omp_control_tool_nocallback, -1);
  CHECK_EQ_LONG(omp_control_tool_ignored, 1);
  CHECK_EQ_LONG(omp_control_tool_start, 1);
  CHECK_EQ_LONG(omp_control_tool_end, 4);
  KITE_TEST_END();
}
