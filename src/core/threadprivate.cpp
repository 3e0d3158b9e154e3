// Runtime-kept threadprivate copies (see threadprivate.h).
//
// Each variable's cache word points to a table indexed by gtid. Lookups
// read it without a lock; creating a copy or growing the table happens
// under one global lock. A grown table replaces the old one, which stays
// allocated because a reader may still be looking at it (tables double,
// so the old ones together cost less than the current one).
#include "threadprivate.h"

#include <string.h>

#include "lock.h"

namespace kite {

namespace {

struct Table {
  size_t cap;
  const void* image;  // the original's bytes when the first table was made
  std::atomic<void*> slot[1];  // cap entries
};

struct Registered {
  void* original;
  ThreadprivateInit init;
  Registered* next;
};

LockWord g_tp_lock{0};
Registered* g_registered;  // under g_tp_lock

Table* new_table(size_t cap, const Table* old, const void* image) {
  size_t bytes = sizeof(Table) + (cap - 1) * sizeof(std::atomic<void*>);
  Table* t = static_cast<Table*>(xcalloc(1, bytes));
  t->cap = cap;
  t->image = image;
  if (old)
    for (size_t i = 0; i < old->cap; ++i)
      t->slot[i].store(old->slot[i].load(std::memory_order_relaxed), std::memory_order_relaxed);
  return t;
}

const Registered* find_registered(void* original) {
  for (Registered* r = g_registered; r; r = r->next)
    if (r->original == original) return r;
  return nullptr;
}

void* make_copy(Thread* self, void* original, size_t size, const Table* table) {
  if (self->gtid == 0) return original;
  void* copy = xaligned_alloc(kCacheLine, size ? size : 1);
  const Registered* r = find_registered(original);
  // A constructor builds the copy as the variable's own initializer would;
  // without one, a copy constructor copies the original.
  if (r && r->init.ctor) {
    r->init.ctor(copy);
  } else if (r && r->init.cctor) {
    r->init.cctor(copy, original);
  } else {
    memcpy(copy, table->image, size);
  }
  return copy;
}

}  // namespace

void threadprivate_register(void* original, const ThreadprivateInit& init) {
  uint32_t me = lock_owner_id();
  lock_acquire(&g_tp_lock, me, "threadprivate");
  auto* r = static_cast<Registered*>(xmalloc(sizeof(Registered)));
  *r = {original, init, g_registered};
  g_registered = r;
  lock_release(&g_tp_lock, me, "threadprivate");
}

void* threadprivate_cached(Thread* self, void* original, size_t size, void** cache) {
  auto* word = reinterpret_cast<std::atomic<Table*>*>(cache);
  const size_t id = static_cast<size_t>(self->gtid);
  Table* t = word->load(std::memory_order_acquire);
  if (KITE_LIKELY(t && id < t->cap)) {
    void* copy = t->slot[id].load(std::memory_order_acquire);
    if (KITE_LIKELY(copy != nullptr)) return copy;
  }
  uint32_t me = lock_owner_id();
  lock_acquire(&g_tp_lock, me, "threadprivate");
  t = word->load(std::memory_order_acquire);
  if (!t || id >= t->cap) {
    size_t cap = t ? 2 * t->cap : 16;
    if (cap <= id) cap = id + 1;
    const void* image = t ? t->image : nullptr;
    if (!image) {
      void* snap = xmalloc(size ? size : 1);
      memcpy(snap, original, size);
      image = snap;
    }
    t = new_table(cap, t, image);
    word->store(t, std::memory_order_release);
  }
  void* copy = t->slot[id].load(std::memory_order_relaxed);
  if (!copy) {
    copy = make_copy(self, original, size, t);
    t->slot[id].store(copy, std::memory_order_release);
  }
  lock_release(&g_tp_lock, me, "threadprivate");
  return copy;
}

}  // namespace kite
