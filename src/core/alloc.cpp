// Allocators, their traits and fallbacks; see alloc.h for the handle and
// header scheme.
#include "alloc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <new>

#include "lock.h"

namespace kite {

namespace {

// Trait keys and values (omp_alloctrait_key_t / omp_alloctrait_value_t).
enum : int {
  kAtkSyncHint = 1,
  kAtkAlignment = 2,
  kAtkAccess = 3,
  kAtkPoolSize = 4,
  kAtkFallback = 5,
  kAtkFbData = 6,
  kAtkPinned = 7,
  kAtkPartition = 8,
};
enum : uintptr_t {
  kAtvFalse = 0,
  kAtvTrue = 1,
  kAtvContended = 3,
  kAtvUncontended = 4,
  kAtvSerialized = 5,
  kAtvPrivate = 6,
  kAtvAll = 7,
  kAtvThread = 8,
  kAtvPteam = 9,
  kAtvCgroup = 10,
  kAtvDefaultMemFb = 11,
  kAtvNullFb = 12,
  kAtvAbortFb = 13,
  kAtvAllocatorFb = 14,
  kAtvEnvironment = 15,
  kAtvNearest = 16,
  kAtvBlocked = 17,
  kAtvInterleaved = 18,
  // LLVM 22's omp.h follows OpenMP 6.0 here: 19 is omp_atv_all ("every
  // thread of every device") and 7 became omp_atv_device ("every thread of
  // the device", what 5.2's all meant). With the host as the only device
  // both mean kAtvAll; gcc's numbering stops at 18, so 19 is unambiguous.
  kAtvAllOmp60 = 19,
  kAtvDefault = ~uintptr_t(0),
};

// LLVM 22's omp.h numbers omp_default_mem_space 99 (0 is its
// omp_null_mem_space); gcc's and older LLVM omp.h files number it 0 and the
// other predefined spaces 1..4 in both. 99 names no other space anywhere,
// so it is read as the default space.
constexpr uintptr_t kDefaultMemSpaceLlvm22 = 99;

constexpr size_t kUnlimited = ~size_t(0);
constexpr size_t kMinAlign = 16;  // what malloc guarantees; every block gets it

struct Allocator {
  uintptr_t memspace = 0;
  size_t alignment = 1;          // trait alignment, >= 1
  size_t pool_size = kUnlimited; // kUnlimited: no pool accounting at all
  uintptr_t fallback = kAtvDefaultMemFb;
  AllocatorHandle fb_data = kNullAllocator;
  uintptr_t sync_hint = kAtvContended;
  uintptr_t access = kAtvAll;
  uintptr_t partition = kAtvEnvironment;
  bool pinned = false;
  // Bytes handed out against pool_size; its own line, apart from the traits
  // every allocation reads.
  alignas(kCacheLine) std::atomic<size_t> used{0};
  // Bumped when destroyed, so frees of blocks that outlived their allocator
  // never touch the accounting of whoever reuses the table entry.
  std::atomic<uint32_t> generation{0};
  std::atomic<bool> live{false};
  int next_free = -1;  // free-list link, under g_table_lock

  constexpr Allocator() = default;
  constexpr Allocator(uintptr_t space, uintptr_t acc) : memspace(space), access(acc), live(true) {}
};

struct alignas(kMinAlign) Header {
  void* base;          // start of the malloc'd or mapped region
  size_t size;         // bytes the caller asked for
  size_t mapped;       // length of a pinned mapping, 0 for heap blocks
  Allocator* from;     // allocator whose pool was charged
  uint32_t generation; // from->generation at allocation
  uint32_t charged;    // 1 if `size` was counted in from->used
};
static_assert(sizeof(Header) % kMinAlign == 0, "header must keep blocks aligned");

// --- the allocator table -----------------------------------------------------

// The predefined allocators (OpenMP 5.2 table 6.3), each served from its
// memory space; the host heap backs them all. Constant-initialized, so they
// work before any constructor has run.
Allocator g_predefined[kLastPredefinedAllocator + 1] = {
    Allocator(),                  // omp_null_allocator: never used directly
    Allocator(0, kAtvAll),        // omp_default_mem_alloc
    Allocator(1, kAtvAll),        // omp_large_cap_mem_alloc
    Allocator(2, kAtvAll),        // omp_const_mem_alloc
    Allocator(3, kAtvAll),        // omp_high_bw_mem_alloc
    Allocator(4, kAtvAll),        // omp_low_lat_mem_alloc
    Allocator(0, kAtvCgroup),     // omp_cgroup_mem_alloc
    Allocator(0, kAtvPteam),      // omp_pteam_mem_alloc
    Allocator(0, kAtvThread),     // omp_thread_mem_alloc
};

constexpr int kChunkSize = 64;
constexpr int kChunks = 64;
std::atomic<Allocator*> g_chunks[kChunks];
LockWord g_table_lock{0};
int g_free_head = -1;
int g_used_slots = 0;

Allocator* table_entry(AllocatorHandle h) {
  if (h < kUserAllocatorBase) return nullptr;
  const uintptr_t i = h - kUserAllocatorBase;
  if (i >= uintptr_t(kChunks) * kChunkSize) return nullptr;
  Allocator* chunk = g_chunks[i / kChunkSize].load(std::memory_order_acquire);
  if (!chunk) return nullptr;
  Allocator* a = &chunk[i % kChunkSize];
  return a->live.load(std::memory_order_acquire) ? a : nullptr;
}

// The allocator a valid handle names; null for anything else. Handle 0 is
// not resolved here (callers pick the ICV or the block's own allocator).
Allocator* lookup(AllocatorHandle h) {
  if (h >= 1 && h <= kLastPredefinedAllocator) return &g_predefined[h];
  return table_entry(h);
}

Allocator* resolve(AllocatorHandle h, const char* routine) {
  if (h == kNullAllocator) {
    h = default_allocator();
    if (h == kNullAllocator) return &g_predefined[kDefaultMemAlloc];
  }
  Allocator* a = lookup(h);
  if (KITE_UNLIKELY(!a)) {
    warn("%s: invalid allocator handle 0x%lx; using omp_default_mem_alloc", routine,
         static_cast<unsigned long>(h));
    a = &g_predefined[kDefaultMemAlloc];
  }
  return a;
}

inline Header* header_of(void* p) { return static_cast<Header*>(p) - 1; }

inline bool is_pow2(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

// --- pool accounting ---------------------------------------------------------

bool pool_reserve(Allocator* a, size_t size) {
  if (a->pool_size == kUnlimited) return true;
  size_t used = a->used.load(std::memory_order_relaxed);
  do {
    if (size > a->pool_size - used) return false;
  } while (!a->used.compare_exchange_weak(used, used + size, std::memory_order_relaxed));
  return true;
}

void pool_release(Allocator* a, size_t size) {
  if (a->pool_size != kUnlimited) a->used.fetch_sub(size, std::memory_order_relaxed);
}

void release_charge(const Header* h) {
  if (h->charged && h->from->generation.load(std::memory_order_relaxed) == h->generation)
    pool_release(h->from, h->size);
}

// --- serving one request from one allocator, no fallback ----------------------

void* serve(Allocator* a, size_t align, size_t size, bool zero) {
  if (align < a->alignment) align = a->alignment;
  if (align < kMinAlign) align = kMinAlign;
  // Header, worst-case alignment slack, payload; refuse sizes that overflow.
  const size_t overhead = sizeof(Header) + (align - kMinAlign);
  if (size > kUnlimited - overhead - align) return nullptr;
  size_t total = overhead + size;
  if (!pool_reserve(a, size)) return nullptr;

  void* base;
  size_t mapped = 0;
  if (a->pinned) {
    // Pinned blocks get whole pages of their own: munlock on free must not
    // unpin a neighbour's memory.
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    mapped = (total + page - 1) & ~(page - 1);
    base = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) base = nullptr;
    if (base && mlock(base, mapped) != 0) {
      munmap(base, mapped);
      base = nullptr;
    }
  } else {
    base = zero ? calloc(1, total) : malloc(total);
  }
  if (!base) {
    pool_release(a, size);
    return nullptr;
  }
  uintptr_t user = (reinterpret_cast<uintptr_t>(base) + sizeof(Header) + align - 1) & ~(align - 1);
  Header* h = reinterpret_cast<Header*>(user) - 1;
  h->base = base;
  h->size = size;
  h->mapped = mapped;
  h->from = a;
  h->generation = a->generation.load(std::memory_order_relaxed);
  h->charged = a->pool_size != kUnlimited;
  return reinterpret_cast<void*>(user);
}

void give_back(Header* h) {
  release_charge(h);
  if (h->mapped)
    munmap(h->base, h->mapped);  // also unlocks the pages
  else
    free(h->base);
}

// Tries `a`, then follows its fallback trait. Allocator fallback chains are
// bounded so a cycle (a -> b -> a) ends in failure, not a hang.
void* allocate(Allocator* a, size_t align, size_t size, bool zero, const char* routine) {
  for (int hop = 0; hop < 16; ++hop) {
    if (void* p = serve(a, align, size, zero)) return p;
    switch (a->fallback) {
      case kAtvNullFb:
        return nullptr;
      case kAtvAbortFb:
        fatal("%s: cannot allocate %zu bytes and the allocator's fallback is abort_fb", routine,
              size);
      case kAtvAllocatorFb: {
        Allocator* next = lookup(a->fb_data);
        if (!next) return nullptr;  // fb_data allocator was destroyed meanwhile
        a = next;
        break;
      }
      default:  // default_mem_fb
        if (a == &g_predefined[kDefaultMemAlloc]) return nullptr;
        a = &g_predefined[kDefaultMemAlloc];
        break;
    }
  }
  return nullptr;
}

// --- trait validation --------------------------------------------------------

const char* trait_name(int key) {
  static const char* const names[] = {"sync_hint", "alignment", "access", "pool_size",
                                      "fallback",  "fb_data",   "pinned", "partition"};
  return names[key - kAtkSyncHint];
}

bool apply_trait(Allocator* a, int key, uintptr_t v) {
  const bool dflt = v == kAtvDefault;
  switch (key) {
    case kAtkSyncHint:
      if (dflt) v = kAtvContended;
      if (v != kAtvContended && v != kAtvUncontended && v != kAtvSerialized && v != kAtvPrivate)
        return false;
      a->sync_hint = v;
      return true;
    case kAtkAlignment:
      if (dflt) v = 1;
      if (!is_pow2(v) || v > (size_t(1) << 30)) return false;
      a->alignment = v;
      return true;
    case kAtkAccess:
      if (dflt || v == kAtvAllOmp60) v = kAtvAll;
      if (v != kAtvAll && v != kAtvCgroup && v != kAtvPteam && v != kAtvThread) return false;
      a->access = v;
      return true;
    case kAtkPoolSize:
      if (v == 0) return false;
      a->pool_size = dflt ? kUnlimited : v;
      return true;
    case kAtkFallback:
      if (dflt) v = kAtvDefaultMemFb;
      if (v < kAtvDefaultMemFb || v > kAtvAllocatorFb) return false;
      a->fallback = v;
      return true;
    case kAtkFbData:
      a->fb_data = v;  // checked once the fallback is known
      return true;
    case kAtkPinned:
      if (dflt) v = kAtvFalse;
      if (v != kAtvFalse && v != kAtvTrue) return false;
      a->pinned = v == kAtvTrue;
      return true;
    case kAtkPartition:
      if (dflt) v = kAtvEnvironment;
      if (v < kAtvEnvironment || v > kAtvInterleaved) return false;
      a->partition = v;
      return true;
    default:
      return false;
  }
}

}  // namespace

// --- public core API ---------------------------------------------------------

AllocatorHandle allocator_create(uintptr_t memspace, long ntraits, const AllocTrait* traits) {
  if (memspace == kDefaultMemSpaceLlvm22) memspace = 0;
  if (memspace > kLastMemSpace) {
    warn("omp_init_allocator: unknown memory space %lu; returning omp_null_allocator",
         static_cast<unsigned long>(memspace));
    return kNullAllocator;
  }
  if (ntraits < 0 || (ntraits > 0 && !traits)) {
    warn("omp_init_allocator: invalid trait list (%ld traits at %p); returning "
         "omp_null_allocator",
         ntraits, static_cast<const void*>(traits));
    return kNullAllocator;
  }
  Allocator cfg;
  cfg.memspace = memspace;
  for (long i = 0; i < ntraits; ++i) {
    if (traits[i].key < kAtkSyncHint || traits[i].key > kAtkPartition) {
      warn("omp_init_allocator: unknown trait key %d; returning omp_null_allocator",
           traits[i].key);
      return kNullAllocator;
    }
    if (!apply_trait(&cfg, traits[i].key, traits[i].value)) {
      warn("omp_init_allocator: invalid %s trait (key %d, value %ld); returning "
           "omp_null_allocator",
           trait_name(traits[i].key), traits[i].key, static_cast<long>(traits[i].value));
      return kNullAllocator;
    }
  }
  if (cfg.fallback == kAtvAllocatorFb && !lookup(cfg.fb_data)) {
    warn("omp_init_allocator: fallback allocator_fb needs a valid fb_data allocator (got "
         "0x%lx); returning omp_null_allocator",
         static_cast<unsigned long>(cfg.fb_data));
    return kNullAllocator;
  }

  const uint32_t me = lock_owner_id();
  lock_acquire(&g_table_lock, me, "omp_init_allocator");
  int slot = g_free_head;
  if (slot >= 0) {
    Allocator* chunk = g_chunks[slot / kChunkSize].load(std::memory_order_relaxed);
    g_free_head = chunk[slot % kChunkSize].next_free;
  } else if (g_used_slots < kChunks * kChunkSize) {
    slot = g_used_slots++;
    if (slot % kChunkSize == 0) {
      auto* chunk =
          static_cast<Allocator*>(xaligned_alloc(kCacheLine, kChunkSize * sizeof(Allocator)));
      for (int i = 0; i < kChunkSize; ++i) new (&chunk[i]) Allocator();
      g_chunks[slot / kChunkSize].store(chunk, std::memory_order_release);
    }
  }
  if (slot < 0) {
    lock_release(&g_table_lock, me, "omp_init_allocator");
    warn("omp_init_allocator: more than %d allocators exist; returning omp_null_allocator",
         kChunks * kChunkSize);
    return kNullAllocator;
  }
  Allocator* a = &g_chunks[slot / kChunkSize].load(std::memory_order_relaxed)[slot % kChunkSize];
  a->memspace = cfg.memspace;
  a->alignment = cfg.alignment;
  a->pool_size = cfg.pool_size;
  a->fallback = cfg.fallback;
  a->fb_data = cfg.fb_data;
  a->sync_hint = cfg.sync_hint;
  a->access = cfg.access;
  a->partition = cfg.partition;
  a->pinned = cfg.pinned;
  a->used.store(0, std::memory_order_relaxed);
  a->live.store(true, std::memory_order_release);
  lock_release(&g_table_lock, me, "omp_init_allocator");
  return kUserAllocatorBase + static_cast<AllocatorHandle>(slot);
}

void allocator_destroy(AllocatorHandle h) {
  if (h == kNullAllocator) return;
  if (h <= kLastPredefinedAllocator) {
    warn("omp_destroy_allocator: predefined allocator %lu cannot be destroyed; ignored",
         static_cast<unsigned long>(h));
    return;
  }
  const uint32_t me = lock_owner_id();
  lock_acquire(&g_table_lock, me, "omp_destroy_allocator");
  Allocator* a = table_entry(h);
  if (!a) {
    lock_release(&g_table_lock, me, "omp_destroy_allocator");
    warn("omp_destroy_allocator: invalid allocator handle 0x%lx; ignored",
         static_cast<unsigned long>(h));
    return;
  }
  a->live.store(false, std::memory_order_release);
  a->generation.fetch_add(1, std::memory_order_relaxed);
  a->next_free = g_free_head;
  g_free_head = static_cast<int>(h - kUserAllocatorBase);
  lock_release(&g_table_lock, me, "omp_destroy_allocator");
}

AllocatorHandle default_allocator() { return self()->task->icv.def_allocator; }

void set_default_allocator(AllocatorHandle h) {
  if (!lookup(h)) {
    warn("omp_set_default_allocator: invalid allocator handle 0x%lx; using "
         "omp_default_mem_alloc",
         static_cast<unsigned long>(h));
    h = kDefaultMemAlloc;
  }
  self()->task->icv.def_allocator = h;
}

void* mem_alloc(size_t alignment, size_t size, AllocatorHandle a, const char* routine) {
  if (alignment > 1 && !is_pow2(alignment)) {
    warn("%s: alignment %zu is not a power of two; returning NULL", routine, alignment);
    return nullptr;
  }
  if (size == 0) return nullptr;
  return allocate(resolve(a, routine), alignment, size, false, routine);
}

void* mem_calloc(size_t alignment, size_t n, size_t size, AllocatorHandle a,
                 const char* routine) {
  if (alignment > 1 && !is_pow2(alignment)) {
    warn("%s: alignment %zu is not a power of two; returning NULL", routine, alignment);
    return nullptr;
  }
  if (n == 0 || size == 0) return nullptr;
  size_t bytes;
  // An overflowing product is a request no allocator can serve: it takes the
  // fallback path like any other failure.
  if (__builtin_mul_overflow(n, size, &bytes)) bytes = kUnlimited;
  return allocate(resolve(a, routine), alignment, bytes, true, routine);
}

void* mem_realloc(void* p, size_t size, AllocatorHandle a, AllocatorHandle free_a) {
  const char* routine = "omp_realloc";
  if (!p) return mem_alloc(0, size, a, routine);
  if (size == 0) {
    mem_free(p, free_a);
    return nullptr;
  }
  Header* h = header_of(p);
  Allocator* to;
  if (a == kNullAllocator) {
    // Same allocator as the block's, if it still exists.
    const bool same_live = h->from->live.load(std::memory_order_acquire) &&
                           h->from->generation.load(std::memory_order_relaxed) == h->generation;
    to = same_live ? h->from : resolve(kNullAllocator, routine);
  } else {
    to = resolve(a, routine);
  }

  // Growing or shrinking in place keeps the header where it is when the block
  // needs no more than malloc's own alignment; the pool is charged the
  // difference only.
  if (to == h->from && !h->mapped && to->alignment <= kMinAlign &&
      reinterpret_cast<uintptr_t>(h) == reinterpret_cast<uintptr_t>(h->base) &&
      to->generation.load(std::memory_order_relaxed) == h->generation &&
      size <= kUnlimited - sizeof(Header)) {
    const size_t old = h->size;
    const bool grow = size > old;
    if (!h->charged || !grow || pool_reserve(to, size - old)) {
      void* nb = realloc(h->base, sizeof(Header) + size);
      if (nb) {
        Header* nh = static_cast<Header*>(nb);
        nh->base = nb;
        nh->size = size;
        if (nh->charged && !grow) pool_release(to, old - size);
        return nh + 1;
      }
      if (h->charged && grow) pool_release(to, size - old);
    }
  }

  void* q = allocate(to, 0, size, false, routine);
  if (!q) return nullptr;  // the original block stays valid
  memcpy(q, p, h->size < size ? h->size : size);
  give_back(h);
  return q;
}

void mem_free(void* p, AllocatorHandle a) {
  if (!p) return;
  give_back(header_of(p));
}

}  // namespace kite
