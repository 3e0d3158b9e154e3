// LLVM ABI: parallel and teams regions (__kmpc_fork_call, __kmpc_fork_teams,
// the serialized form, and the clauses clang pushes before a fork).
#include <stdarg.h>

#include "abi/kmpc/kmpc.h"
#include "ompt/callbacks.h"

using namespace kite;

// Calls fn(gtid, btid, argv[0], ..., argv[argc-1]) with the x86-64 System V
// convention: the first four shared-variable pointers go in registers, the
// rest on the stack. argv must hold at least four entries (the caller pads),
// so the register loads never read past it. A tool's exit frame is the
// outlined function's canonical frame address, the stack pointer at the
// call, which only this code knows: it is stored at *exit_frame (if given).
extern "C" KITE_HIDDEN void kite_kmpc_invoke(kmpc_micro fn, kmp_int32* gtid, kmp_int32* btid,
                                             long argc, void** argv, void** exit_frame);
__asm__(
    "  .text\n"
    "  .p2align 4\n"
    "  .globl kite_kmpc_invoke\n"
    "  .hidden kite_kmpc_invoke\n"
    "  .type kite_kmpc_invoke,@function\n"
    "kite_kmpc_invoke:\n"
    "  .cfi_startproc\n"
    "  pushq %rbp\n"
    "  .cfi_def_cfa_offset 16\n"
    "  .cfi_offset %rbp, -16\n"
    "  movq %rsp, %rbp\n"
    "  .cfi_def_cfa_register %rbp\n"
    "  movq %rdi, %r10\n"
    "  movq %r8, %r11\n"
    "  movq %rcx, %rax\n"
    "  subq $4, %rax\n"
    "  jle 2f\n"
    // An odd number of stack arguments needs one pad slot to keep %rsp
    // 16-byte aligned at the call.
    "  testq $1, %rax\n"
    "  jz 1f\n"
    "  subq $8, %rsp\n"
    "1:\n"
    "  pushq 24(%r11,%rax,8)\n"
    "  decq %rax\n"
    "  jnz 1b\n"
    "2:\n"
    "  testq %r9, %r9\n"
    "  jz 3f\n"
    "  movq %rsp, (%r9)\n"
    "3:\n"
    "  movq %rsi, %rdi\n"
    "  movq %rdx, %rsi\n"
    "  movq (%r11), %rdx\n"
    "  movq 8(%r11), %rcx\n"
    "  movq 16(%r11), %r8\n"
    "  movq 24(%r11), %r9\n"
    "  xorl %eax, %eax\n"
    "  callq *%r10\n"
    "  leave\n"
    "  .cfi_def_cfa %rsp, 8\n"
    "  ret\n"
    "  .cfi_endproc\n"
    "  .size kite_kmpc_invoke, .-kite_kmpc_invoke\n");

namespace {

// Clauses clang pushes on the encountering thread right before the region
// they apply to; the next fork (or serialized region, or teams) consumes them.
struct Pushed {
  int num_threads;  // 0: none
  int proc_bind;    // -1: none
  int num_teams;    // 0: none
  int thread_limit;
};
__thread Pushed t_pushed = {0, -1, 0, 0};

ForkSpec take_fork_spec(bool if_clause, const void* ra, void* cfa) {
  ForkSpec s;
  s.num_threads = t_pushed.num_threads;
  s.proc_bind = t_pushed.proc_bind;
  s.if_clause = if_clause;
  s.codeptr_ra = ra;
  s.enter_frame = cfa;
  t_pushed.num_threads = 0;
  t_pushed.proc_bind = -1;
  // num_threads(strict: n): push_threads.cpp checks what the fork can give.
  if (KITE_UNLIKELY(kmpc::strict_pending())) kmpc::strict_check(s);
  return s;
}

// What every thread of the region reads to call the outlined function: one
// cache line, the first four shared-variable pointers included, so that a
// worker takes one miss on the primary's stack, not three.
struct alignas(kCacheLine) Outlined {
  kmpc_micro fn;
  long argc;
  void** argv;  // `args`, or a larger array for more than four
  // num_threads(list): nthreads-var of the region's implicit tasks and of
  // the levels below them (push_threads.cpp); null: none.
  const kmpc::NestedThreads* nested;
  void* args[4];
};
static_assert(sizeof(Outlined) == kCacheLine, "Outlined fills one line");

// Fills o's call: argv[0..argc) (argc > 4: an array of the caller's), padded
// with nulls to four entries, as kite_kmpc_invoke reads them.
inline void set_args(Outlined& o, kmpc_micro fn, long argc, void** big) {
  o.fn = fn;
  o.argc = argc;
  o.argv = argc > 4 ? big : o.args;
  o.args[0] = o.args[1] = o.args[2] = o.args[3] = nullptr;
}

// The implicit task's exit frame, which the core pointed at this file's
// wrapper (run_outlined / run_teams_outlined) and the call into the
// program's outlined function corrects; null without a tool.
void** tool_exit_frame(Thread* me) {
  if (KITE_LIKELY(!ompt::active())) return nullptr;
  return &me->task->ompt.frame.exit_frame.ptr;
}

void run_outlined(void* p) {
  const Outlined* o = static_cast<const Outlined*>(p);
  Thread* me = self();
  kmp_int32 gtid = me->gtid;
  kmp_int32 btid = me->tid;
  if (KITE_UNLIKELY(o->nested != nullptr)) {
    kmpc::NestedThreads saved = kmpc::nested_enter(me, *o->nested);
    kite_kmpc_invoke(o->fn, &gtid, &btid, o->argc, o->argv, tool_exit_frame(me));
    kmpc::nested_leave(saved);
    return;
  }
  kite_kmpc_invoke(o->fn, &gtid, &btid, o->argc, o->argv, tool_exit_frame(me));
}

// The teams body runs on the encountering thread, as thread 0 of each team.
void run_teams_outlined(void* p) {
  const Outlined* o = static_cast<const Outlined*>(p);
  Thread* me = self();
  kmp_int32 gtid = me->gtid;
  kmp_int32 btid = 0;
  kite_kmpc_invoke(o->fn, &gtid, &btid, o->argc, o->argv, tool_exit_frame(me));
}

long checked_argc(kmp_int32 argc, const char* entry) {
  if (argc >= 0) return argc;
  warn("%s: negative argument count %d; passing no shared variables", entry, argc);
  return 0;
}

}  // namespace

// For the OMPD library (src/ompd/layout.h, kmpc_fork): a region started
// here runs one of these wrappers on an Outlined block, and the program's
// outlined function, which a debugger shows as the implicit task's entry,
// is the block's fn.
extern "C" KITE_HIDDEN const uintptr_t kite_ompd_kmpc_fork[3] = {
    reinterpret_cast<uintptr_t>(&run_outlined), reinterpret_cast<uintptr_t>(&run_teams_outlined),
    offsetof(Outlined, fn)};

// Collects the variadic shared-variable pointers into `o` (Outlined): its
// own four slots, or an array on the caller's stack for more (a macro: the
// array must outlive the region).
#define KITE_KMPC_COLLECT_ARGS(argc_in, last_named, entry, fn, o)                            \
  {                                                                                        \
    long n_ = checked_argc(argc_in, entry);                                                \
    set_args(o, fn, n_,                                                                    \
             n_ > 4 ? static_cast<void**>(__builtin_alloca(sizeof(void*) * size_t(n_)))    \
                    : nullptr);                                                            \
    va_list ap;                                                                            \
    va_start(ap, last_named);                                                              \
    for (long i = 0; i < n_; ++i) o.argv[i] = va_arg(ap, void*);                           \
    va_end(ap);                                                                            \
  }

extern "C" {

KITE_EXPORT void __kmpc_begin(ident_t*, kmp_int32) { runtime_init(); }

KITE_EXPORT void __kmpc_end(ident_t*) {}

KITE_EXPORT kmp_int32 __kmpc_global_thread_num(ident_t*) { return self()->gtid; }

KITE_EXPORT kmp_int32 __kmpc_bound_thread_num(ident_t*) { return self()->tid; }

KITE_EXPORT kmp_int32 __kmpc_bound_num_threads(ident_t*) {
  Thread* me = self();
  return me->team ? me->team->nthreads : 1;
}

KITE_EXPORT kmp_int32 __kmpc_in_parallel(ident_t*) {
  Thread* me = self();
  return me->team && me->team->active_level > 0 ? 1 : 0;
}

// Clang asks before forking; Kite can always fork.
KITE_EXPORT kmp_int32 __kmpc_ok_to_fork(ident_t*) { return 1; }

KITE_EXPORT void __kmpc_push_num_threads(ident_t*, kmp_int32, kmp_int32 num_threads) {
  if (num_threads <= 0) {
    warn("num_threads(%d) is not positive; using the default number of threads", num_threads);
    num_threads = 0;
  }
  t_pushed.num_threads = num_threads;
}

// proc_bind values are omp_proc_bind_t's (false 0 ... spread 4).
KITE_EXPORT void __kmpc_push_proc_bind(ident_t*, kmp_int32, int proc_bind) {
  if (proc_bind < 0 || proc_bind > int(ProcBind::kSpread)) {
    warn("proc_bind(%d) is not a binding policy; using bind-var", proc_bind);
    proc_bind = -1;
  }
  t_pushed.proc_bind = proc_bind;
}

KITE_EXPORT void __kmpc_fork_call(ident_t*, kmp_int32 argc, kmpc_micro microtask, ...) {
  Outlined o;
  KITE_KMPC_COLLECT_ARGS(argc, microtask, "__kmpc_fork_call", microtask, o);
  kmpc::NestedThreads nested;
  o.nested = kmpc::nested_for_fork(&nested) ? &nested : nullptr;
  parallel(take_fork_spec(true, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa()), run_outlined, &o);
}

// if(false): clang runs the outlined body itself between these two calls,
// on a team of one.
KITE_EXPORT void __kmpc_serialized_parallel(ident_t*, kmp_int32) {
  parallel_start(take_fork_spec(false, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa()),
                 [](void*) {}, nullptr);
}

KITE_EXPORT void __kmpc_end_serialized_parallel(ident_t*, kmp_int32) { parallel_end(); }

KITE_EXPORT void __kmpc_push_num_teams(ident_t*, kmp_int32, kmp_int32 num_teams,
                                       kmp_int32 num_threads) {
  // The core validates and warns about non-positive values.
  t_pushed.num_teams = num_teams;
  t_pushed.thread_limit = num_threads;
}

// clang 15+: num_teams(lower : upper); Kite makes `upper` teams, which
// satisfies the range.
KITE_EXPORT void __kmpc_push_num_teams_51(ident_t* loc, kmp_int32 gtid, kmp_int32 lower,
                                          kmp_int32 upper, kmp_int32 thread_limit) {
  if (lower > upper)
    warn("num_teams(%d : %d): lower bound above upper bound; using %d teams", lower, upper,
         upper);
  __kmpc_push_num_teams(loc, gtid, upper, thread_limit);
}

KITE_EXPORT void __kmpc_fork_teams(ident_t*, kmp_int32 argc, kmpc_micro microtask, ...) {
  Outlined o;
  KITE_KMPC_COLLECT_ARGS(argc, microtask, "__kmpc_fork_teams", microtask, o);
  o.nested = nullptr;
  int num_teams = t_pushed.num_teams, limit = t_pushed.thread_limit;
  t_pushed.num_teams = 0;
  t_pushed.thread_limit = 0;
  teams(run_teams_outlined, &o, num_teams, limit, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"

namespace kite::kmpc {

void push_num_threads_value(int num_threads) { t_pushed.num_threads = num_threads; }

void fork_outlined(kmpc_micro fn, long argc, void** argv, bool if_clause, const void* codeptr_ra,
                   void* enter_frame) {
  Outlined o;
  set_args(o, fn, argc, argv);
  if (argc <= 4)
    for (long i = 0; i < argc; ++i) o.args[i] = argv[i];
  NestedThreads nested;
  o.nested = nested_for_fork(&nested) ? &nested : nullptr;
  // if(false): a team of one (the core reads spec.if_clause), the body
  // called by the runtime as in any region, exit frame included.
  parallel(take_fork_spec(if_clause, codeptr_ra, enter_frame), run_outlined, &o);
}

}  // namespace kite::kmpc
