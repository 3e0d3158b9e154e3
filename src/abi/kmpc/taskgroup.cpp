// LLVM ABI: taskgroups and task reductions (__kmpc_taskgroup,
// __kmpc_end_taskgroup, __kmpc_taskred_init, __kmpc_task_reduction_*,
// __kmpc_taskred_modifier_init).
//
// A reduction belongs to the taskgroup that was innermost when it was
// registered: the taskgroup's end combines it. The encountering thread
// keeps its registered reductions on a stack (tied tasks nest on a
// thread), keyed by that taskgroup.
//
// reduction(task, ...) on parallel or worksharing constructs: every thread
// registers its own private variables as the items (clang passes them) in
// an implicit taskgroup; tasks name the reduction they contribute to, so
// each thread's reduction collects what its tasks computed, and the
// construct's ordinary reduction then combines the threads' variables.
#include "abi/kmpc/kmpc.h"
#include "core/taskred.h"

using namespace kite;

extern "C" {

typedef void (*kmp_init1_t)(void*);
typedef void (*kmp_init2_t)(void*, void*);
typedef void (*kmp_fini_t)(void*);
typedef void (*kmp_comb_t)(void*, void*);

// clang 9+ (taskred_init): the initializer also gets the original item.
struct kmp_taskred_input_t {
  void* reduce_shar;
  void* reduce_orig;
  size_t reduce_size;
  void* reduce_init;
  void* reduce_fini;
  void* reduce_comb;
  kmp_uint32 flags;  // lazy_priv: copies made on first use (always so in Kite)
};

// Older form (task_reduction_init): one-argument initializer.
struct kmp_task_red_input_t {
  void* reduce_shar;
  size_t reduce_size;
  void* reduce_init;
  void* reduce_fini;
  void* reduce_comb;
  kmp_uint32 flags;
};

}  // extern "C"

namespace {

__thread Taskred* t_reductions;  // innermost first, linked by Taskred::link

const void* current_taskgroup(Thread* me) { return me->task ? me->task->rt.taskgroup : nullptr; }

Taskred* push(Thread* me, int num, const TaskredItem* items) {
  Taskred* r = taskred_create(me, num, items);
  r->key = current_taskgroup(me);
  r->link = t_reductions;
  t_reductions = r;
  return r;
}

// Ends the innermost taskgroup, then the reductions registered in it.
void end_taskgroup(Thread* me, const void* codeptr_ra, void* enter_frame) {
  const void* tg = current_taskgroup(me);
  taskgroup_end(me, codeptr_ra, enter_frame);
  while (t_reductions && t_reductions->key == tg) {
    Taskred* r = t_reductions;
    t_reductions = r->link;
    taskred_finish(r);
  }
}

template <typename Input>
TaskredItem* convert(int num, const Input* data, TaskredItem* out);

template <>
TaskredItem* convert(int num, const kmp_taskred_input_t* data, TaskredItem* out) {
  for (int i = 0; i < num; ++i)
    out[i] = {data[i].reduce_shar, data[i].reduce_orig, data[i].reduce_size, nullptr,
              reinterpret_cast<kmp_init2_t>(data[i].reduce_init),
              reinterpret_cast<kmp_fini_t>(data[i].reduce_fini),
              reinterpret_cast<kmp_comb_t>(data[i].reduce_comb)};
  return out;
}

template <>
TaskredItem* convert(int num, const kmp_task_red_input_t* data, TaskredItem* out) {
  for (int i = 0; i < num; ++i)
    out[i] = {data[i].reduce_shar, nullptr, data[i].reduce_size,
              reinterpret_cast<kmp_init1_t>(data[i].reduce_init), nullptr,
              reinterpret_cast<kmp_fini_t>(data[i].reduce_fini),
              reinterpret_cast<kmp_comb_t>(data[i].reduce_comb)};
  return out;
}

template <typename Input>
void* register_items(Thread* me, int num, const Input* data) {
  if (num < 0) num = 0;
  auto* items = static_cast<TaskredItem*>(xmalloc(sizeof(TaskredItem) * size_t(num ? num : 1)));
  Taskred* r = push(me, num, convert(num, data, items));
  xfree(items);
  return r;
}

}  // namespace

extern "C" {

KITE_EXPORT void __kmpc_taskgroup(ident_t*, kmp_int32) {
  taskgroup_start(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void __kmpc_end_taskgroup(ident_t*, kmp_int32) {
  end_taskgroup(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

KITE_EXPORT void* __kmpc_taskred_init(kmp_int32, kmp_int32 num, void* data) {
  return register_items(self(), num, static_cast<kmp_taskred_input_t*>(data));
}

KITE_EXPORT void* __kmpc_task_reduction_init(kmp_int32, kmp_int32 num, void* data) {
  return register_items(self(), num, static_cast<kmp_task_red_input_t*>(data));
}

KITE_EXPORT void* __kmpc_task_reduction_get_th_data(kmp_int32, void* tg, void* data) {
  Thread* me = self();
  Taskred* r = static_cast<Taskred*>(tg);
  if (!r) {
    // No descriptor: the innermost reduction this thread registered.
    r = t_reductions;
  }
  void* p = r ? taskred_private(me, r, data) : nullptr;
  if (!p) {
    warn("in_reduction: %p is not an item of the task reduction; using it directly", data);
    return data;
  }
  return p;
}

KITE_EXPORT void* __kmpc_taskred_modifier_init(ident_t*, kmp_int32, int, int num, void* data) {
  Thread* me = self();
  taskgroup_start(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  return register_items(me, num, static_cast<kmp_taskred_input_t*>(data));
}

KITE_EXPORT void* __kmpc_task_reduction_modifier_init(ident_t*, kmp_int32, int, int num,
                                                      void* data) {
  Thread* me = self();
  taskgroup_start(me, KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
  return register_items(me, num, static_cast<kmp_task_red_input_t*>(data));
}

KITE_EXPORT void __kmpc_task_reduction_modifier_fini(ident_t*, kmp_int32, int) {
  end_taskgroup(self(), KITE_RETURN_ADDRESS(), __builtin_dwarf_cfa());
}

}  // extern "C"
