// LLVM ABI: explicit tasks (__kmpc_omp_task_alloc and the calls that hand
// the task back), taskwait, taskyield. See task_block.h for the task's
// memory; taskgroup.cpp for taskgroups and task reductions.
#include "abi/kmpc/task_block.h"
#include "ompt/callbacks.h"

using namespace kite;
using namespace kite::kmpc;

// Calls entry(gtid, task). A tool's exit frame of the task is the entry's
// canonical frame address, the stack pointer at the call, which only this
// code knows: it is stored at *exit_frame (if given) first.
extern "C" KITE_HIDDEN kmp_int32 kite_kmpc_call_task(kmp_routine_entry_t entry, kmp_int32 gtid,
                                                     void* task, void** exit_frame);
__asm__(
    "  .text\n"
    "  .p2align 4\n"
    "  .globl kite_kmpc_call_task\n"
    "  .hidden kite_kmpc_call_task\n"
    "  .type kite_kmpc_call_task,@function\n"
    "kite_kmpc_call_task:\n"
    "  .cfi_startproc\n"
    "  pushq %rbp\n"
    "  .cfi_def_cfa_offset 16\n"
    "  .cfi_offset %rbp, -16\n"
    "  movq %rsp, %rbp\n"
    "  .cfi_def_cfa_register %rbp\n"
    "  movq %rdi, %rax\n"
    "  movl %esi, %edi\n"
    "  movq %rdx, %rsi\n"
    "  testq %rcx, %rcx\n"
    "  jz 1f\n"
    "  movq %rsp, (%rcx)\n"
    "1:\n"
    "  callq *%rax\n"
    "  popq %rbp\n"
    "  .cfi_def_cfa %rsp, 8\n"
    "  ret\n"
    "  .cfi_endproc\n"
    "  .size kite_kmpc_call_task, .-kite_kmpc_call_task\n");

extern "C" {

// Dependence item as clang lays it out (24 bytes).
struct kmp_depend_info {
  intptr_t base_addr;
  size_t len;
  uint8_t flags;  // in 1, out 2 (inout = 3), mutexinoutset 4, inoutset 8, omp_all_memory 0x80
};

}  // extern "C"

namespace kite::kmpc {

void run_task_parts(Header* h) {
  kmp_task_t* task = task_of(h);
  Thread* me = self();
  kmp_int32 gtid = me->gtid;
  // The core pointed the exit frame at its call of task_body; the entry's
  // own frame is the one a tool unwinds to.
  void** exit_frame = KITE_UNLIKELY(ompt::active()) && me->task == h->task
                          ? &h->task->ompt.frame.exit_frame.ptr
                          : nullptr;
  h->running = true;
  do {
    h->resumed = false;
    kite_kmpc_call_task(task->routine, gtid, task, exit_frame);
  } while (h->resumed);
  h->running = false;
  if (h->flags & kFlagDestructors) task->data1.destructors(gtid, task);
}

namespace {

void task_body(void* block) { run_task_parts(static_cast<Header*>(block)); }

}  // namespace

// For the OMPD library (src/ompd/layout.h, kmpc_task): a clang task runs
// task_body on its block, and the program's task entry, which a debugger
// shows as the task's function, is the routine of the kmp_task_t that
// follows the block's header.
extern "C" KITE_HIDDEN const uintptr_t kite_ompd_kmpc_task[2] = {
    reinterpret_cast<uintptr_t>(&task_body), sizeof(Header) + offsetof(kmp_task_t, routine)};

__thread Header* t_unclaimed_task = nullptr;

Header* new_task_block(Thread* me, kmp_int32 flags, size_t task_size, size_t shareds_size,
                       kmp_routine_entry_t entry) {
  task_size = (task_size + sizeof(void*) - 1) & ~(sizeof(void*) - 1);
  TaskSpec spec{};
  spec.fn = task_body;
  spec.arg_size = static_cast<long>(sizeof(Header) + task_size + shareds_size);
  spec.arg_align = alignof(Header);
  spec.if_clause = true;
  spec.final = (flags & kFlagFinal) != 0;
  spec.untied = (flags & kFlagTied) == 0;
  void* block;
  Task* t = task_create_unfilled(me, spec, &block);
  Header* h = static_cast<Header*>(block);
  h->task = t;
  h->block_size = static_cast<size_t>(spec.arg_size);
  h->flags = flags;
  h->running = false;
  h->resumed = false;
  kmp_task_t* task = task_of(h);
  task->shareds = shareds_size ? reinterpret_cast<char*>(task) + task_size : nullptr;
  task->routine = entry;
  task->part_id = 0;
  task->data1.destructors = nullptr;
  task->data2.priority = 0;
  // A proxy task completes when its body has returned and someone has
  // called __kmpc_proxy_task_completed(_ooo) (task_variants.cpp): the same
  // two conditions as a detached task's.
  if (flags & kFlagProxy) task_allow_completion_event(t);
  t_unclaimed_task = h;
  return h;
}

}  // namespace kite::kmpc

namespace {

// Up to this many items are converted on the stack; more go to the heap.
constexpr int kStackDeps = 128;

int convert_deps(kmp_int32 ndeps, const kmp_depend_info* list, kmp_int32 nnoalias,
                 const kmp_depend_info* noalias, DependItem* out) {
  int k = 0;
  auto add = [&](const kmp_depend_info& d) {
    DependType type;
    // omp_all_memory: clang 15 and later set flag 0x80 alone, for out and
    // inout alike (so tools are told out, as libomp tells them); the
    // address -1 with the in/out flags means it too (libomp accepts that
    // form, which its own tests emulate).
    if ((d.flags & 0x80) || d.base_addr == -1) {
      type = (d.flags & 0x3) == 0x3 ? DependType::kAllMemoryInout : DependType::kAllMemoryOut;
      out[k++] = {nullptr, type};
      return;
    }
    if (d.flags & 0x2) type = DependType::kInout;
    else if (d.flags & 0x4) type = DependType::kMutexinoutset;
    else if (d.flags & 0x8) type = DependType::kInoutset;
    else if (d.flags & 0x1) type = DependType::kIn;
    else {
      warn("depend clause: unknown dependence type 0x%x; treated as inout", d.flags);
      type = DependType::kInout;
    }
    out[k++] = {reinterpret_cast<void*>(d.base_addr), type};
  };
  for (kmp_int32 i = 0; i < ndeps; ++i) add(list[i]);
  for (kmp_int32 i = 0; i < nnoalias; ++i) add(noalias[i]);
  return k;
}

// The items of both lists, converted; `stack` holds kStackDeps items.
struct DepList {
  DependItem* items;
  int n;
  bool heap;
};

DepList collect_deps(kmp_int32 ndeps, const kmp_depend_info* list, kmp_int32 nnoalias,
                     const kmp_depend_info* noalias, DependItem* stack) {
  if (ndeps < 0) ndeps = 0;
  if (nnoalias < 0) nnoalias = 0;
  int total = ndeps + nnoalias;
  DepList d{stack, 0, total > kStackDeps};
  if (d.heap) d.items = static_cast<DependItem*>(xmalloc(sizeof(DependItem) * size_t(total)));
  d.n = convert_deps(ndeps, list, nnoalias, noalias, d.items);
  return d;
}

}  // namespace

extern "C" {

KITE_EXPORT void* __kmpc_omp_task_alloc(ident_t*, kmp_int32, kmp_int32 flags,
                                        size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                        kmp_routine_entry_t task_entry) {
  return task_of(new_task_block(self(), flags, sizeof_kmp_task_t, sizeof_shareds, task_entry));
}

// The affinity clause is a hint; Kite schedules without it.
KITE_EXPORT kmp_int32 __kmpc_omp_reg_task_with_affinity(ident_t*, kmp_int32, void*, kmp_int32,
                                                        void*) {
  return 0;
}

}  // extern "C"

namespace {

// A claimed block's task to the core, with its dependences converted.
void hand_over_block(Header* h, const DependItem* items, int n, const void* codeptr_ra,
                     void* enter_frame) {
  int priority = (h->flags & kFlagPriority) ? task_of(h)->data2.priority : 0;
  HandOverTrace trace;
  trace.codeptr_ra = codeptr_ra;
  trace.enter_frame = enter_frame;
  task_hand_over(self(), h->task, items, n, priority, true, trace);
}

// Both hand-back calls; codeptr_ra / enter_frame: the program's call's.
kmp_int32 hand_back(void* new_task, kmp_int32 ndeps, kmp_depend_info* dep_list,
                    kmp_int32 ndeps_noalias, kmp_depend_info* noalias_dep_list,
                    const void* codeptr_ra, void* enter_frame) {
  Header* h = header_of(new_task);
  if (t_unclaimed_task == h) t_unclaimed_task = nullptr;
  if (h->running) {  // an untied task handing its next part back
    h->resumed = true;
    return 0;
  }
  // __kmpc_omp_task: no lists to convert.
  if (ndeps <= 0 && ndeps_noalias <= 0) {
    hand_over_block(h, nullptr, 0, codeptr_ra, enter_frame);
    return 0;
  }
  DependItem stack[kStackDeps];
  DepList d = collect_deps(ndeps, dep_list, ndeps_noalias, noalias_dep_list, stack);
  hand_over_block(h, d.items, d.n, codeptr_ra, enter_frame);
  if (d.heap) xfree(d.items);
  return 0;
}

}  // namespace

namespace kite::kmpc {

kmp_int32 task_hand_back_at(void* new_task, const void* codeptr_ra, void* enter_frame) {
  return hand_back(new_task, 0, nullptr, 0, nullptr, codeptr_ra, enter_frame);
}

}  // namespace kite::kmpc

extern "C" {

KITE_EXPORT kmp_int32 __kmpc_omp_task_with_deps(ident_t*, kmp_int32, void* new_task,
                                                kmp_int32 ndeps, kmp_depend_info* dep_list,
                                                kmp_int32 ndeps_noalias,
                                                kmp_depend_info* noalias_dep_list) {
  return hand_back(new_task, ndeps, dep_list, ndeps_noalias, noalias_dep_list,
                   KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT kmp_int32 __kmpc_omp_task(ident_t*, kmp_int32, void* new_task) {
  return hand_back(new_task, 0, nullptr, 0, nullptr, KITE_RETURN_ADDRESS(),
                   __builtin_dwarf_cfa());
}

// if(0) tasks: clang waits for the dependences (__kmpc_omp_wait_deps), then
// calls the entry itself between these two.
KITE_EXPORT void __kmpc_omp_task_begin_if0(ident_t*, kmp_int32, void* task) {
  Header* h = header_of(task);
  if (t_unclaimed_task == h) t_unclaimed_task = nullptr;
  h->running = true;
  h->resumed = false;
  task_undeferred_begin(self(), h->task, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void __kmpc_omp_task_complete_if0(ident_t*, kmp_int32, void* task) {
  Header* h = header_of(task);
  kmp_task_t* t = task_of(h);
  kmp_int32 gtid = self()->gtid;
  while (h->resumed) {  // untied: the parts after the first
    h->resumed = false;
    t->routine(gtid, t);
  }
  h->running = false;
  if (h->flags & kFlagDestructors) t->data1.destructors(gtid, t);
  task_undeferred_end(self(), h->task);
}

}  // extern "C"

namespace {

// A dependence wait between an if(0) task's allocation and its begin is
// that task's (clang makes no other runtime call there); null: a taskwait
// with depend clauses.
Header* unclaimed_if0_task() {
  Header* h = t_unclaimed_task;
  return h && h->task->parent == self()->task ? h : nullptr;
}

// if0_task: the if(0) task whose dependences these are (null: a taskwait
// with depend clauses).
void wait_deps(kmp_int32 ndeps, kmp_depend_info* dep_list, kmp_int32 ndeps_noalias,
               kmp_depend_info* noalias_dep_list, const void* codeptr_ra, void* enter_frame,
               Header* if0_task = nullptr) {
  DependItem stack[kStackDeps];
  DepList d = collect_deps(ndeps, dep_list, ndeps_noalias, noalias_dep_list, stack);
  if (if0_task)
    task_undeferred_wait_depend(self(), if0_task->task, d.items, d.n, codeptr_ra, enter_frame);
  else
    task_wait_depend(self(), d.items, d.n, codeptr_ra, enter_frame);
  if (d.heap) xfree(d.items);
}

}  // namespace

extern "C" {

KITE_EXPORT void __kmpc_omp_wait_deps(ident_t*, kmp_int32, kmp_int32 ndeps,
                                      kmp_depend_info* dep_list, kmp_int32 ndeps_noalias,
                                      kmp_depend_info* noalias_dep_list) {
  wait_deps(ndeps, dep_list, ndeps_noalias, noalias_dep_list, KITE_RETURN_ADDRESS(),
            __builtin_dwarf_cfa(), unclaimed_if0_task());
}

// clang 15+: taskwait with depend clauses; with nowait it is a task with
// no body that later tasks may depend on.
KITE_EXPORT void __kmpc_omp_taskwait_deps_51(ident_t*, kmp_int32, kmp_int32 ndeps,
                                             kmp_depend_info* dep_list,
                                             kmp_int32 ndeps_noalias,
                                             kmp_depend_info* noalias_dep_list,
                                             kmp_int32 has_no_wait) {
  if (!has_no_wait) {
    // clang 19+ waits for an if(0) task's dependences with this call too.
    wait_deps(ndeps, dep_list, ndeps_noalias, noalias_dep_list, KITE_RETURN_ADDRESS(),
              __builtin_dwarf_cfa(), unclaimed_if0_task());
    return;
  }
  auto empty = [](kmp_int32, void*) -> kmp_int32 { return 0; };
  Header* h = new_task_block(self(), kFlagTied, sizeof(kmp_task_t), 0, empty);
  hand_back(task_of(h), ndeps, dep_list, ndeps_noalias, noalias_dep_list, KITE_RETURN_ADDRESS(),
            __builtin_dwarf_cfa());
}

// detach(event): the handle omp_fulfill_event takes.
KITE_EXPORT void* __kmpc_task_allow_completion_event(ident_t*, kmp_int32, void* task) {
  return task_allow_completion_event(header_of(task)->task);
}

KITE_EXPORT kmp_int32 __kmpc_omp_taskwait(ident_t*, kmp_int32) {
  taskwait(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  return 0;
}

KITE_EXPORT kmp_int32 __kmpc_omp_taskyield(ident_t*, kmp_int32, int) {
  taskyield(self());
  return 0;
}

}  // extern "C"
