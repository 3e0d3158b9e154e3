// Doacross loops: ordered(n) with depend(sink: ...) / depend(source).
//
// Iterations of the workshared (outermost) loop are grouped into entries:
// the chunks of its schedule. One thread executes an entry, and in
// lexicographic order of the full iteration vector, so an entry only needs
// "the last vector posted here". A wait for vector v looks at the entry that
// owns v[0] and blocks until that entry has posted v or something later.
//
// The last posted vector is one 64-bit word (1 + the vector flattened
// row-major) when the iteration space fits in 63 bits; otherwise the whole
// vector, written under a per-entry sequence lock. The state is allocated
// once per loop, sized by it, and kept with the slot for reuse.
#include <string.h>

#include "loop.h"
#include "ompt/events_ws.h"

namespace kite {

namespace {

using ull = unsigned long long;

enum EntryMap : int {
  kMapBlock,   // unchunked static: one contiguous block per thread
  kMapChunk,   // fixed-size chunks (static chunked, dynamic)
  kMapBounds,  // guided: chunk starts precomputed (the sequence is fixed)
};

}  // namespace

struct DoacrossState {
  std::size_t bytes;  // size of this allocation
  unsigned ncounts;
  bool flat;          // progress kept as one word per entry
  int map;
  ull block_q, block_r;
  ull chunk;
  ull nentries;
  ull* counts;        // [ncounts]
  ull* mult;          // [ncounts] row-major weights (flat mode)
  ull* bounds;        // [nentries] chunk starts (kMapBounds)
  std::atomic<ull>* progress;      // [nentries] (flat mode)
  std::atomic<uint32_t>* seq;      // [nentries] (vector mode)
  std::atomic<ull>* vec;           // [nentries * ncounts] (vector mode)
  // Waiters sleep here; posters bump it only when somebody sleeps.
  Futex posted;
};

namespace {

struct DoacrossInit {
  unsigned ncounts;
  const ull* counts;
};

inline std::size_t align_up(std::size_t n) { return (n + kCacheLine - 1) & ~(kCacheLine - 1); }

// Number of guided chunks of a loop of `total` iterations, and (if out is
// non-null) their starts: the hand-out of loop.cpp (guided_size).
ull guided_chunks(ull total, int nthreads, ull chunk, ull* out) {
  ull k = 0;
  for (ull lo = 0; lo < total; ++k) {
    if (out) out[k] = lo;
    lo += guided_size(total - lo, nthreads, chunk);
  }
  return k;
}

void doacross_init(WorkShare* ws, const void* arg) {
  const DoacrossInit& a = *static_cast<const DoacrossInit*>(arg);
  const unsigned nc = a.ncounts;
  const ull outer = ws->total;
  int map;
  ull nentries;
  if (ws->sched == int(Sched::kStatic) && ws->chunk == 0) {
    map = kMapBlock;
    nentries = static_cast<ull>(ws->nthreads);
  } else if (ws->sched == int(Sched::kGuided)) {
    map = kMapBounds;
    nentries = guided_chunks(outer, ws->nthreads, ws->chunk, nullptr);
  } else {
    map = kMapChunk;
    nentries = outer / ws->chunk + (outer % ws->chunk != 0 ? 1 : 0);
  }
  if (nentries == 0) nentries = 1;

  // Does the whole iteration space flatten into 63 bits?
  bool flat = true;
  ull space = 1;
  for (unsigned d = 0; d < nc; ++d) {
    if (a.counts[d] == 0) {
      space = 0;
      break;
    }
    if (__builtin_mul_overflow(space, a.counts[d], &space) || space >= (1ull << 63)) flat = false;
  }
  if (space == 0) flat = true;

  std::size_t need = align_up(sizeof(DoacrossState));
  const std::size_t off_counts = need;
  need += align_up(2 * nc * sizeof(ull));
  const std::size_t off_bounds = need;
  if (map == kMapBounds) need += align_up(nentries * sizeof(ull));
  const std::size_t off_progress = need;
  if (flat)
    need += align_up(nentries * sizeof(ull));
  else
    need += align_up(nentries * sizeof(uint32_t)) + align_up(nentries * nc * sizeof(ull));

  DoacrossState* st = ws->doacross;
  if (!st || st->bytes < need) {
    if (st) xfree(st);
    st = static_cast<DoacrossState*>(xaligned_alloc(kCacheLine, need));
    memset(static_cast<void*>(st), 0, sizeof(DoacrossState));
    st->bytes = need;
    ws->doacross = st;
  }
  char* base = reinterpret_cast<char*>(st);
  st->ncounts = nc;
  st->flat = flat;
  st->map = map;
  st->chunk = ws->chunk;
  st->nentries = nentries;
  st->block_q = outer / static_cast<ull>(ws->nthreads);
  st->block_r = outer % static_cast<ull>(ws->nthreads);
  st->counts = reinterpret_cast<ull*>(base + off_counts);
  st->mult = st->counts + nc;
  for (unsigned d = 0; d < nc; ++d) st->counts[d] = a.counts[d];
  ull m = 1;
  for (unsigned d = nc; d-- > 0;) {
    st->mult[d] = m;
    if (flat) m *= st->counts[d];
  }
  st->bounds = reinterpret_cast<ull*>(base + off_bounds);
  if (map == kMapBounds) guided_chunks(outer, ws->nthreads, ws->chunk, st->bounds);
  char* p = base + off_progress;
  if (flat) {
    st->progress = reinterpret_cast<std::atomic<ull>*>(p);
    memset(p, 0, nentries * sizeof(ull));
  } else {
    st->seq = reinterpret_cast<std::atomic<uint32_t>*>(p);
    memset(p, 0, nentries * sizeof(uint32_t));
    p += align_up(nentries * sizeof(uint32_t));
    st->vec = reinterpret_cast<std::atomic<ull>*>(p);
    memset(p, 0, nentries * nc * sizeof(ull));
  }
  st->posted.value.store(0, std::memory_order_relaxed);
  st->posted.sleepers.store(0, std::memory_order_relaxed);
  ws->doacross_on = true;
}

ull entry_of(const DoacrossState* st, ull i) {
  switch (st->map) {
    case kMapBlock: {
      const ull big = st->block_q + 1, split = st->block_r * big;
      return i < split ? i / big : st->block_r + (i - split) / st->block_q;
    }
    case kMapChunk:
      return i / st->chunk;
    default: {
      ull lo = 0, hi = st->nentries;  // last start <= i
      while (hi - lo > 1) {
        ull mid = lo + (hi - lo) / 2;
        if (st->bounds[mid] <= i) lo = mid;
        else hi = mid;
      }
      return lo;
    }
  }
}

ull flatten(const DoacrossState* st, const ull* v) {
  ull f = 0;
  for (unsigned d = 0; d < st->ncounts; ++d) f += v[d] * st->mult[d];
  return f + 1;
}

// Reads an entry's last posted vector; false if nothing was posted yet.
bool read_vector(const DoacrossState* st, ull e, ull* out) {
  const unsigned nc = st->ncounts;
  for (;;) {
    uint32_t s1 = st->seq[e].load(std::memory_order_acquire);
    if (s1 == 0) return false;
    if (s1 & 1) {
      cpu_relax();
      continue;
    }
    for (unsigned d = 0; d < nc; ++d) out[d] = st->vec[e * nc + d].load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (st->seq[e].load(std::memory_order_relaxed) == s1) return true;
  }
}

// -1, 0, 1 as a is lexicographically before, equal to, after b.
int compare(const ull* a, const ull* b, unsigned n) {
  for (unsigned d = 0; d < n; ++d)
    if (a[d] != b[d]) return a[d] < b[d] ? -1 : 1;
  return 0;
}

bool reached(const DoacrossState* st, ull e, ull want_flat, const ull* want) {
  if (st->flat) return st->progress[e].load(std::memory_order_acquire) >= want_flat;
  ull have[64];
  ull* h = st->ncounts <= 64 ? have : static_cast<ull*>(xmalloc(st->ncounts * sizeof(ull)));
  bool ok = read_vector(st, e, h) && compare(h, want, st->ncounts) >= 0;
  if (h != have) xfree(h);
  return ok;
}

DoacrossState* current(Thread* self) {
  WorkShare* ws = self->ws_cur;
  return ws && ws->doacross_on ? ws->doacross : nullptr;
}

}  // namespace

bool loop_doacross_start(Thread* self, unsigned ncounts, const ull* counts, int sched, ull chunk,
                         uintptr_t* reductions, void** mem, LoopChunk* out,
                         const void* codeptr_ra) {
  int kind;
  ull ch;
  loop_resolve_schedule(self, sched, chunk, &kind, &ch);
  LoopSpec spec{};
  spec.bounds = loop_bounds_ull(true, 0, ncounts ? counts[0] : 0, 1);
  spec.sched = kind;
  spec.chunk = ch;
  spec.reductions = reductions;
  spec.mem = mem;
  DoacrossInit init{ncounts, counts};
  // A team of one runs the iterations in lexicographic order, so every
  // sink names an iteration already complete: no state, and the posts and
  // waits return at once (doacross_dims is 0); and, as for any loop, one
  // chunk when no tool watches.
  // (A tool is told of every post and wait: the state is kept for it.)
  const bool solo = construct_nthreads(self) == 1;
  const bool state = ncounts && (!solo || ompt::active());
  WorkShare* ws = loop_enter(self, spec, kind, ch, state ? doacross_init : nullptr, &init, solo);
  if (codeptr_ra) ompt::on_work_begin(self, ompt::loop_work_type(kind), ws->total, codeptr_ra);
  if (!out) return true;
  return loop_next(self, out);
}

unsigned doacross_dims(Thread* self) {
  DoacrossState* st = current(self);
  return st ? st->ncounts : 0;
}

void doacross_post(Thread* self, const ull* v) {
  DoacrossState* st = current(self);
  if (!st) return;
  const unsigned nc = st->ncounts;
  for (unsigned d = 0; d < nc; ++d)
    if (v[d] >= st->counts[d]) return;
  // Before the iteration is published: a tool orders what follows its
  // report after what preceded the post.
  if (KITE_UNLIKELY(ompt::active())) ompt::doacross_slow(self, v, nc, ompt_dependence_type_source);
  const ull e = entry_of(st, v[0]);
  if (st->flat) {
    // Only the entry's thread writes it; keep the latest (largest) vector.
    ull f = flatten(st, v);
    if (f > st->progress[e].load(std::memory_order_relaxed))
      st->progress[e].store(f, std::memory_order_release);
  } else {
    uint32_t s = st->seq[e].load(std::memory_order_relaxed);
    if (s != 0) {
      bool later = false;
      for (unsigned d = 0; d < nc; ++d) {
        ull h = st->vec[e * nc + d].load(std::memory_order_relaxed);
        if (h != v[d]) {
          later = v[d] > h;
          break;
        }
      }
      if (!later) return;
    }
    st->seq[e].store(s + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    for (unsigned d = 0; d < nc; ++d) st->vec[e * nc + d].store(v[d], std::memory_order_relaxed);
    st->seq[e].store(s + 2, std::memory_order_release);
  }
  // Pairs with the fence in wait_posted: either the waiter sees our
  // progress, or we see it sleeping and wake it.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (st->posted.sleepers.load(std::memory_order_relaxed) != 0) st->posted.add_and_wake(1);
}

namespace {

// Blocks until the iteration `v` (in range) was posted, or the team was
// cancelled.
void wait_posted(Thread* self, DoacrossState* st, const ull* v) {
  const ull e = entry_of(st, v[0]);
  const ull want = st->flat ? flatten(st, v) : 0;
  if (reached(st, e, want, v)) return;
  const uint64_t spins = spin_budget();
  for (uint64_t i = 0; i < spins; ++i) {
    spin_step(i);
    if ((i & 15) == 15 && reached(st, e, want, v)) return;
  }
  for (;;) {
    st->posted.sleepers.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    uint32_t seen = st->posted.value.load(std::memory_order_acquire);
    bool done = reached(st, e, want, v) ||
                (self->team && self->team->cancelled.load(std::memory_order_acquire));
    if (!done) futex_wait(&st->posted.value, seen);
    st->posted.sleepers.fetch_sub(1, std::memory_order_relaxed);
    if (done || reached(st, e, want, v)) return;
  }
}

}  // namespace

void doacross_wait(Thread* self, const ull* v, bool is_signed) {
  DoacrossState* st = current(self);
  if (!st) return;
  const unsigned nc = st->ncounts;
  // A sink outside the iteration space names no iteration: no dependence.
  for (unsigned d = 0; d < nc; ++d) {
    if (is_signed && static_cast<long long>(v[d]) < 0) return;
    if (v[d] >= st->counts[d]) return;
  }
  wait_posted(self, st, v);
  // Once the wait is over: what the tool does next is ordered after the
  // sink iteration.
  if (KITE_UNLIKELY(ompt::active())) ompt::doacross_slow(self, v, nc, ompt_dependence_type_sink);
}

}  // namespace kite
