// The call from the runtime into an outlined parallel-region body, for
// tools: exit_frame of the implicit task must be the canonical frame
// address (CFA) of the outlined function, which is the stack pointer at the
// call instruction. Only the caller's code knows that value, so the call is
// made from a few instructions of assembly that store it first.
//
//   kite_ompt_call_outlined(fn = rdi, data = rsi, frame = rdx)
//
// CFI directives keep the trampoline unwindable: tools and debuggers walk
// through it from user code back into the runtime.
#include "ompt/callbacks.h"

#if !defined(__x86_64__)
#error "kite_ompt_call_outlined is written for x86-64"
#endif

static_assert(offsetof(ompt_frame_t, exit_frame) == 0, "the trampoline stores at offset 0");

asm(R"(
  .text
  .p2align 4
  .globl kite_ompt_call_outlined
  .hidden kite_ompt_call_outlined
  .type kite_ompt_call_outlined, @function
kite_ompt_call_outlined:
  .cfi_startproc
  pushq %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  movq %rsp, %rbp
  .cfi_def_cfa_register %rbp
  movq %rsp, (%rdx)
  movq %rdi, %rax
  movq %rsi, %rdi
  call *%rax
  popq %rbp
  .cfi_def_cfa %rsp, 8
  ret
  .cfi_endproc
  .size kite_ompt_call_outlined, .-kite_ompt_call_outlined
)");
