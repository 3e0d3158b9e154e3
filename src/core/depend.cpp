// Task dependences: decoding gcc's depend arrays, the per-parent address
// table, edges, and their release at completion (see depend.h).
#include "depend.h"

#include <string.h>

#include "ompt/events_task.h"
#include "team.h"

namespace kite {

// gcc's depend array (libgomp ABI):
//   depend[0] != 0: depend[0] items, the first depend[1] of them out/inout,
//                   the rest in; addresses from depend[2].
//   depend[0] == 0: depend[1] items: depend[2] out/inout, depend[3]
//                   mutexinoutset, depend[4] in, then omp_depend_t objects
//                   ({address, kind}); addresses from depend[5].
namespace {

enum : uintptr_t {  // kinds stored in an omp_depend_t object
  kObjIn = 1,
  kObjOut = 2,
  kObjInout = 3,
  kObjMutexinoutset = 4,
  kObjInoutset = 5,
};

struct DepSlot {
  void* addr;        // null: empty
  DepRecord* tail;   // newest live item on addr (null: chain empty)
};

constexpr size_t kInlineSlots = 16;

}  // namespace

struct DepTable {
  DepSlot* slots;
  size_t cap;        // power of two
  size_t used;       // slots with an address
  DepRecord* all_memory;  // newest live omp_all_memory item
  DepSlot inline_slots[kInlineSlots];
};

size_t depend_count(void** depend) {
  uintptr_t n = reinterpret_cast<uintptr_t>(depend[0]);
  return n ? n : reinterpret_cast<uintptr_t>(depend[1]);
}

void depend_decode(void** depend, DepRecord* out, size_t n) {
  auto set = [&](size_t i, void* addr, uint8_t kind) {
    out[i].addr = addr;
    out[i].kind = kind;
  };
  if (depend[0]) {
    size_t nout = reinterpret_cast<uintptr_t>(depend[1]);
    for (size_t i = 0; i < n; ++i) set(i, depend[2 + i], i < nout ? kDepOut : kDepIn);
    return;
  }
  size_t nout = reinterpret_cast<uintptr_t>(depend[2]);
  size_t nmtx = reinterpret_cast<uintptr_t>(depend[3]);
  size_t nin = reinterpret_cast<uintptr_t>(depend[4]);
  size_t normal = nout + nmtx + nin;
  if (normal > n) {
    warn("depend clause: malformed item counts (%zu > %zu); using the first %zu only", normal, n,
         n);
    normal = n;
  }
  // Out-like items first, so that a duplicate address keeps its strongest kind.
  size_t k = 0;
  for (size_t i = 0; i < nout + nmtx && i < normal; ++i) set(k++, depend[5 + i], kDepOut);
  for (size_t i = normal; i < n; ++i) {
    void** obj = static_cast<void**>(depend[5 + i]);
    uintptr_t kind = reinterpret_cast<uintptr_t>(obj[1]);
    if (kind == kObjOut || kind == kObjInout || kind == kObjMutexinoutset) {
      set(k++, obj[0], kDepOut);
    } else if (kind != kObjIn && kind != kObjInoutset) {
      warn("depend(depobj): unknown dependence type %lu; treated as inout",
           static_cast<unsigned long>(kind));
      set(k++, obj[0], kDepOut);
    }
  }
  for (size_t i = nout + nmtx; i < normal; ++i) set(k++, depend[5 + i], kDepIn);
  for (size_t i = normal; i < n; ++i) {
    void** obj = static_cast<void**>(depend[5 + i]);
    uintptr_t kind = reinterpret_cast<uintptr_t>(obj[1]);
    if (kind == kObjIn) set(k++, obj[0], kDepIn);
    else if (kind == kObjInoutset) set(k++, obj[0], kDepInoutset);
  }
}

namespace {

inline void lock_deps(Task* parent) {
  std::atomic<int>& w = parent->rt.deps_lock;
  while (w.exchange(1, std::memory_order_acquire) != 0)
    while (w.load(std::memory_order_relaxed) != 0) cpu_relax();
}
inline void unlock_deps(Task* parent) { parent->rt.deps_lock.store(0, std::memory_order_release); }

inline size_t slot_hash(void* addr, size_t cap) {
  uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  return static_cast<size_t>(((a >> 3) * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

DepTable* table_new(Thread* me) {
  DepTable* t = static_cast<DepTable*>(task_pool_alloc(me, sizeof(DepTable)));
  memset(static_cast<void*>(t), 0, sizeof(DepTable));
  t->slots = t->inline_slots;
  t->cap = kInlineSlots;
  return t;
}

// Rebuilds the table with only the addresses that still have live items.
void table_grow(DepTable* t) {
  size_t live = 0;
  for (size_t i = 0; i < t->cap; ++i)
    if (t->slots[i].addr && t->slots[i].tail) ++live;
  size_t cap = kInlineSlots;
  while (cap < live * 4) cap *= 2;
  DepSlot tmp[kInlineSlots];
  DepSlot* old = t->slots;
  const size_t old_cap = t->cap;
  if (old == t->inline_slots) {
    memcpy(tmp, old, sizeof tmp);
    old = tmp;
  }
  DepSlot* slots;
  if (cap == kInlineSlots) {
    slots = t->inline_slots;
    memset(static_cast<void*>(slots), 0, sizeof t->inline_slots);
  } else {
    slots = static_cast<DepSlot*>(xcalloc(cap, sizeof(DepSlot)));
  }
  for (size_t i = 0; i < old_cap; ++i) {
    if (!old[i].addr || !old[i].tail) continue;
    size_t h = slot_hash(old[i].addr, cap);
    while (slots[h].addr) h = (h + 1) & (cap - 1);
    slots[h] = old[i];
  }
  if (old != tmp) xfree(old);
  t->slots = slots;
  t->cap = cap;
  t->used = live;
}

DepSlot* slot_find(DepTable* t, void* addr, bool insert) {
  if (insert && (t->used + 1) * 2 > t->cap) table_grow(t);
  size_t h = slot_hash(addr, t->cap);
  for (;;) {
    DepSlot* s = &t->slots[h];
    if (s->addr == addr) return s;
    if (!s->addr) {
      if (!insert) return nullptr;
      s->addr = addr;
      s->tail = nullptr;
      ++t->used;
      return s;
    }
    h = (h + 1) & (t->cap - 1);
  }
}

inline void add_edge(Thread* me, Task* pred, Task* succ) {
  if (pred == succ) return;
  DepEdge* head = pred->rt.successors;
  if (head && head->succ == succ) return;  // already waits for pred
  DepEdge* e = static_cast<DepEdge*>(task_pool_alloc(me, sizeof(DepEdge)));
  e->succ = succ;
  e->next = head;
  pred->rt.successors = e;
  succ->rt.npred.fetch_add(1, std::memory_order_relaxed);
  ompt::on_task_dependence(pred, succ);
}

// Edges from the newest group on `tail`'s chain that conflicts with an item
// of kind `kind`.
void edges_from_chain(Thread* me, DepRecord* p, uint8_t kind, Task* succ) {
  if (kind != kDepOut)
    while (p && p->kind == kind) p = p->prev;
  if (!p) return;
  if (p->kind == kDepOut) {
    add_edge(me, p->task, succ);
    return;
  }
  uint8_t group = p->kind;
  for (; p && p->kind == group; p = p->prev) add_edge(me, p->task, succ);
}

}  // namespace

void depend_register(Thread* me, Task* parent, Task* t) {
  DepRecord* recs = t->rt.records;
  const int n = t->rt.nrecords;
  lock_deps(parent);
  DepTable* table = parent->rt.deps;
  if (!table) parent->rt.deps = table = table_new(me);
  if (table->all_memory) add_edge(me, table->all_memory->task, t);
  for (int i = 0; i < n; ++i) {
    DepRecord& r = recs[i];
    r.task = t;
    r.prev = r.next = nullptr;
    r.linked = false;
    bool dup = false;
    if (n <= 8) {
      for (int j = 0; j < i && !dup; ++j) dup = recs[j].addr == r.addr;
      if (dup) continue;
    }
    if (!r.addr && r.kind == kDepOut) {
      // omp_all_memory: after every live sibling item, before every later one.
      for (size_t s = 0; s < table->cap; ++s)
        for (DepRecord* p = table->slots[s].addr ? table->slots[s].tail : nullptr; p; p = p->prev)
          add_edge(me, p->task, t);
      r.prev = table->all_memory;
      if (r.prev) r.prev->next = &r;
      table->all_memory = &r;
      r.linked = true;
      continue;
    }
    DepSlot* s = slot_find(table, r.addr, true);
    edges_from_chain(me, s->tail, r.kind, t);
    r.prev = s->tail;
    if (r.prev) r.prev->next = &r;
    s->tail = &r;
    r.linked = true;
  }
  unlock_deps(parent);
}

void depend_release(Thread* me, Task* t) {
  Task* parent = t->parent;
  lock_deps(parent);
  DepTable* table = parent->rt.deps;
  for (int i = 0; i < t->rt.nrecords; ++i) {
    DepRecord& r = t->rt.records[i];
    if (!r.linked) continue;
    r.linked = false;
    if (r.next) {
      r.next->prev = r.prev;
    } else if (!r.addr && r.kind == kDepOut) {
      table->all_memory = r.prev;
    } else {
      DepSlot* s = slot_find(table, r.addr, false);
      if (s) s->tail = r.prev;
    }
    if (r.prev) r.prev->next = r.next;
  }
  DepEdge* e = t->rt.successors;
  t->rt.successors = nullptr;
  unlock_deps(parent);
  while (e) {
    DepEdge* next = e->next;
    Task* s = e->succ;
    task_pool_free(me, e);
    // An undeferred successor's creator waits for npred to reach 0 (acquire)
    // and then runs, completes and frees it, and may reuse its block at once:
    // once our decrement can be the last one, `s` must not be touched. What
    // making it ready needs is read before the decrement (release), so those
    // reads happen before anything its creator does after the wait. The
    // flags and team were set before depend_register, under the lock we
    // found the edge with. The team outlives the notification: `t` is
    // still pending in it (deferred) or runs on its creator inside it.
    const bool undeferred = (s->rt.flags & kTaskUndeferred) != 0;
    Team* team = s->team;
    if (s->rt.npred.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      if (undeferred)
        task_notify(team);  // its creator waits for it inline
      else
        task_make_ready(me, s);  // nobody else holds a deferred one: it is ours
    }
    e = next;
  }
}

void depend_table_free(Thread* me, DepTable* table) {
  if (table->slots != table->inline_slots) xfree(table->slots);
  task_pool_free(me, table);
}

}  // namespace kite
