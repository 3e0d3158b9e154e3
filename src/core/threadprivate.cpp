// Runtime-kept threadprivate copies (see threadprivate.h).
//
// Each variable's cache word points to a table indexed by gtid. Lookups
// read it without a lock; creating a copy or growing the table happens
// under one global lock. A grown table replaces the old one, which stays
// allocated because a reader may still be looking at it (tables double,
// so the old ones together cost less than the current one).
//
// Every copy is also on its thread's list (the value of a pthread key, so
// that the key's destructor runs when the thread ends), and every thread's
// list on one global list, for the copies still alive at program exit.
#include "threadprivate.h"

#include <stdlib.h>
#include <string.h>


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

struct Copy {
  void* copy;
  const Registered* reg;       // null: plain bytes, nothing to destroy
  std::atomic<Table*>* word;   // the cache word whose table holds it
  size_t id;                   // its slot
  Copy* next;
};

// One per thread that has copies.
struct ThreadCopies {
  Copy* head;          // under g_tp_lock
  bool ended;          // its copies are gone
  ThreadCopies* next;  // g_threads
};

// A variable reached through threadprivate_uncached: its cache word.
struct Uncached {
  void* original;
  void* cache;
  Uncached* next;
};
constexpr size_t kUncachedBuckets = 64;

// A mutex rather than a LockWord: the thread-end and exit paths run when
// the calling thread may no longer have a runtime record (owner id) and
// must not create one.
pthread_mutex_t g_tp_lock = PTHREAD_MUTEX_INITIALIZER;
Registered* g_registered;          // under g_tp_lock
ThreadCopies* g_threads;           // under g_tp_lock
bool g_key_made;                   // under g_tp_lock
bool g_exit_handler;               // under g_tp_lock: destroy_remaining_copies registered
pthread_key_t g_copies_key;
std::atomic<Uncached*> g_uncached[kUncachedBuckets];

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

bool has_destructor(const Registered* r) {
  return r && (r->init.dtor || r->init.dtor_vec);
}

void destroy(const Copy* c) {
  const Registered* r = c->reg;
  if (r && r->init.dtor_vec)
    r->init.dtor_vec(c->copy, r->init.count);
  else if (r && r->init.dtor)
    r->init.dtor(c->copy);
}

// Under g_tp_lock: takes the thread's copies out of their tables, so that a
// thread that later gets the same gtid builds fresh ones. Returns them.
Copy* unlink_copies(ThreadCopies* tc) {
  Copy* list = tc->head;
  tc->head = nullptr;
  tc->ended = true;
  for (Copy* c = list; c; c = c->next) {
    Table* t = c->word->load(std::memory_order_relaxed);
    if (t && c->id < t->cap) {
      void* expected = c->copy;
      t->slot[c->id].compare_exchange_strong(expected, nullptr, std::memory_order_relaxed);
    }
  }
  return list;
}

// The pthread key's destructor: the thread is ending.
void thread_copies_end(void* arg) {
  auto* tc = static_cast<ThreadCopies*>(arg);
  pthread_mutex_lock(&g_tp_lock);
  Copy* list = unlink_copies(tc);
  pthread_mutex_unlock(&g_tp_lock);
  // Destructors run without the lock: they may use threadprivate variables.
  while (list) {
    Copy* next = list->next;
    destroy(list);
    xfree(list->copy);
    xfree(list);
    list = next;
  }
}

// Program exit: the copies of threads still alive (pool workers, user
// threads that never ended). Runs before the destructors of the variables
// registered before it, as atexit handlers run in reverse order.
void destroy_remaining_copies() {
  pthread_mutex_lock(&g_tp_lock);
  Copy* all = nullptr;
  for (ThreadCopies* tc = g_threads; tc; tc = tc->next) {
    if (tc->ended) continue;
    Copy* list = unlink_copies(tc);
    while (list) {
      Copy* next = list->next;
      list->next = all;
      all = list;
      list = next;
    }
  }
  pthread_mutex_unlock(&g_tp_lock);
  // Storage is left to the exiting process: another exit handler may still
  // hold a pointer to a copy.
  for (Copy* c = all; c; c = c->next) destroy(c);
}

// Under g_tp_lock: the calling thread's list, created on its first copy.
ThreadCopies* my_copies() {
  if (!g_key_made) {
    pthread_key_create(&g_copies_key, thread_copies_end);
    g_key_made = true;
  }
  auto* tc = static_cast<ThreadCopies*>(pthread_getspecific(g_copies_key));
  if (!tc || tc->ended) {
    tc = static_cast<ThreadCopies*>(xmalloc(sizeof(ThreadCopies)));
    *tc = {nullptr, false, g_threads};
    g_threads = tc;
    pthread_setspecific(g_copies_key, tc);
  }
  return tc;
}

// Under g_tp_lock.
void* make_copy(Thread* self, void* original, size_t size, const Table* table,
                std::atomic<Table*>* word) {
  if (self->gtid == 0) return original;
  void* copy = xaligned_alloc(kCacheLine, size ? size : 1);
  const Registered* r = find_registered(original);
  // A constructor builds the copy as the variable's own initializer would;
  // without one, a copy constructor copies the original.
  if (r && r->init.ctor_vec) {
    r->init.ctor_vec(copy, r->init.count);
  } else if (r && r->init.cctor_vec) {
    r->init.cctor_vec(copy, original, r->init.count);
  } else if (r && r->init.ctor) {
    r->init.ctor(copy);
  } else if (r && r->init.cctor) {
    r->init.cctor(copy, original);
  } else {
    memcpy(copy, table->image, size);
  }
  ThreadCopies* tc = my_copies();
  auto* c = static_cast<Copy*>(xmalloc(sizeof(Copy)));
  *c = {copy, has_destructor(r) ? r : nullptr, word, static_cast<size_t>(self->gtid), tc->head};
  tc->head = c;
  return copy;
}

}  // namespace

void threadprivate_register(void* original, const ThreadprivateInit& init) {
  pthread_mutex_lock(&g_tp_lock);
  auto* r = static_cast<Registered*>(xmalloc(sizeof(Registered)));
  *r = {original, init, g_registered};
  const bool first_destructor = has_destructor(r) && !g_exit_handler;
  if (first_destructor) g_exit_handler = true;
  g_registered = r;
  pthread_mutex_unlock(&g_tp_lock);
  if (first_destructor) atexit(destroy_remaining_copies);
}

void* threadprivate_cached(Thread* self, void* original, size_t size, void** cache) {
  auto* word = reinterpret_cast<std::atomic<Table*>*>(cache);
  const size_t id = static_cast<size_t>(self->gtid);
  Table* t = word->load(std::memory_order_acquire);
  if (KITE_LIKELY(t && id < t->cap)) {
    void* copy = t->slot[id].load(std::memory_order_acquire);
    if (KITE_LIKELY(copy != nullptr)) return copy;
  }
  pthread_mutex_lock(&g_tp_lock);
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
    copy = make_copy(self, original, size, t, word);
    t->slot[id].store(copy, std::memory_order_release);
  }
  pthread_mutex_unlock(&g_tp_lock);
  return copy;
}

void* threadprivate_uncached(Thread* self, void* original, size_t size) {
  std::atomic<Uncached*>& bucket =
      g_uncached[(reinterpret_cast<uintptr_t>(original) >> 4) % kUncachedBuckets];
  for (Uncached* u = bucket.load(std::memory_order_acquire); u; u = u->next)
    if (u->original == original) return threadprivate_cached(self, original, size, &u->cache);
  pthread_mutex_lock(&g_tp_lock);
  Uncached* u = bucket.load(std::memory_order_relaxed);
  while (u && u->original != original) u = u->next;
  if (!u) {
    u = static_cast<Uncached*>(xmalloc(sizeof(Uncached)));
    *u = {original, nullptr, bucket.load(std::memory_order_relaxed)};
    bucket.store(u, std::memory_order_release);
  }
  pthread_mutex_unlock(&g_tp_lock);
  return threadprivate_cached(self, original, size, &u->cache);
}

}  // namespace kite
