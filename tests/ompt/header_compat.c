/* Kite's omp-tools.h against LLVM's: every enumerator value, every type's
 * size and alignment, every member's offset and size must be the same, so
 * a tool built against either header works on Kite. The two headers define
 * the same names, so each is compiled in its own translation unit
 * (support/llvm_table.c) and the tables are compared here.
 * kite-test-threads: 1
 * The clang build checks Kite's header under clang; the table of LLVM's
 * header is linked into the gcc build only (tests/ompt/CMakeLists.txt).
 * kite-test-clang-flags: -DKITE_NO_LLVM_HEADER=1 */
#include "kite_test.h"

#include <omp-tools.h>
#define KITE_WORK_TYPE_MEMBER work_type
#include "support/compat_table.h"

KITE_COMPAT_TABLE(kite_rows, kite_row_count)

#ifndef KITE_NO_LLVM_HEADER
extern const struct kite_compat_row kite_llvm_rows[];
extern const int kite_llvm_row_count;
#endif

/* OpenMP 5.2 names newer than LLVM 14's header: checked by value. */
_Static_assert(ompt_dispatch_ws_loop_chunk == 3, "5.2 dispatch kinds");
_Static_assert(ompt_dispatch_taskloop_chunk == 4, "5.2 dispatch kinds");
_Static_assert(ompt_dispatch_distribute_chunk == 5, "5.2 dispatch kinds");
_Static_assert(ompt_work_loop_static == 10 && ompt_work_loop_dynamic == 11 &&
                   ompt_work_loop_guided == 12 && ompt_work_loop_other == 13,
               "5.2 loop work types");
_Static_assert(sizeof(ompt_dispatch_chunk_t) == 16 &&
                   offsetof(ompt_dispatch_chunk_t, iterations) == 8,
               "5.2 dispatch chunk");
_Static_assert(sizeof(ompt_frame_t) == 24 && offsetof(ompt_frame_t, enter_frame) == 8 &&
                   offsetof(ompt_frame_t, exit_frame_flags) == 16,
               "frame layout");
_Static_assert(sizeof(ompt_start_tool_result_t) == 24, "start tool result layout");

/* Function types a tool calls through: the runtime's and the tool's view
 * of each must agree, which assignments between the exact types check. */
static ompt_start_tool_result_t* start_probe(unsigned int v, const char* s) { return 0; }
static ompt_start_tool_result_t* (*const probe)(unsigned int, const char*) = start_probe;

int main(void) {
  KITE_TEST_BEGIN();
  (void)probe;
  CHECK(kite_row_count > 300);
#ifndef KITE_NO_LLVM_HEADER
  CHECK_EQ_LONG(kite_row_count, kite_llvm_row_count);
  int n = kite_row_count < kite_llvm_row_count ? kite_row_count : kite_llvm_row_count;
  for (int i = 0; i < n; ++i) {
    const struct kite_compat_row* a = &kite_rows[i];
    const struct kite_compat_row* b = &kite_llvm_rows[i];
    CHECK(strcmp(a->name, b->name) == 0);
    if (a->value != b->value || a->extra != b->extra) {
      fprintf(stderr, "%s: kite %lld/%lld, llvm %lld/%lld\n", a->name, a->value, a->extra,
              b->value, b->extra);
      CHECK(!"layout or value differs from LLVM's omp-tools.h");
    }
  }
#endif
  KITE_TEST_END();
}
