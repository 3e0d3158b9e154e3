// kite-test-compilers: gcc  -- gcc's offloading ABI on Kite's emulated devices
/* emu_target_callbacks.c with a tool that registers only the non-EMI
 * forms (target, target_data_op, target_map, target_submit): every event
 * of a construct carries the construct's target_id, host_op_ids are
 * unique, and routines outside constructs carry target_id 0.
 * kite-test-threads: 1 3
 * kite-test-env: KITE_DEVICES=2
 */
#define EMU_NOEMI 1
#include "emu_target_callbacks.c"
