// Task reductions with runtime-called initializers and combiners (see
// taskred.h). A thread only ever creates its own copies, so they need no
// lock; the combination runs after the tasks completed (their completion
// counters order it after every use).
#include "taskred.h"

#include <string.h>

namespace kite {

Taskred* taskred_create(Thread* me, int nitems, const TaskredItem* items) {
  if (nitems < 0) nitems = 0;
  int nthreads = me->team ? me->team->nthreads : 1;
  auto* r = static_cast<Taskred*>(xcalloc(1, sizeof(Taskred)));
  r->nitems = nitems;
  r->nthreads = nthreads;
  r->items = static_cast<TaskredItem*>(xmalloc(sizeof(TaskredItem) * size_t(nitems ? nitems : 1)));
  memcpy(r->items, items, sizeof(TaskredItem) * size_t(nitems));
  r->copies = static_cast<void**>(
      xcalloc(size_t(nitems ? nitems : 1) * size_t(nthreads), sizeof(void*)));
  return r;
}

void* taskred_private(Thread* me, Taskred* r, void* addr) {
  const char* a = static_cast<const char*>(addr);
  int found = -1;
  for (int i = 0; i < r->nitems && found < 0; ++i) {
    if (r->items[i].shared == addr) {
      found = i;
      break;
    }
    for (int t = 0; t < r->nthreads; ++t) {
      const char* c = static_cast<const char*>(r->copies[i * r->nthreads + t]);
      if (c && a >= c && a < c + r->items[i].size) {
        found = i;
        break;
      }
    }
  }
  if (found < 0) return nullptr;
  int tid = me->team ? me->tid : 0;
  if (tid >= r->nthreads) tid = 0;
  void*& slot = r->copies[found * r->nthreads + tid];
  if (!slot) {
    const TaskredItem& it = r->items[found];
    void* p = xaligned_alloc(kCacheLine, it.size ? (it.size + kCacheLine - 1) & ~(kCacheLine - 1)
                                                 : kCacheLine);
    if (it.init2)
      it.init2(p, it.orig ? it.orig : it.shared);
    else if (it.init1)
      it.init1(p);
    else
      memset(p, 0, it.size);
    slot = p;
  }
  return slot;
}

void taskred_finish(Taskred* r) {
  for (int i = 0; i < r->nitems; ++i) {
    const TaskredItem& it = r->items[i];
    for (int t = 0; t < r->nthreads; ++t) {
      void* p = r->copies[i * r->nthreads + t];
      if (!p) continue;
      if (it.comb) it.comb(it.shared, p);
      if (it.fini) it.fini(p);
      xfree(p);
    }
  }
  xfree(r->copies);
  xfree(r->items);
  xfree(r);
}

}  // namespace kite
