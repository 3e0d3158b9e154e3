// Emulated devices: their memory, their mapping tables and the map
// semantics of OpenMP 5.2 §5.8 (map clause) and §13 (device constructs).
//
// Each device keeps a table of mappings (host range -> device block, with a
// reference count), sorted by host address. One lock per device covers a
// whole construct's mapping step, as a device's data environment changes
// atomically from the point of view of other constructs.
#include "device.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "declare_target.h"
#include "env_parse.h"
#include "icv.h"
#include "target.h"
#include "ompt/events_target.h"
#include "team.h"

namespace kite {

namespace {

// --- KITE_DEVICES -----------------------------------------------------------

std::atomic<int> g_count{-1};

int read_device_count() {
  const char* v = env_get("KITE_DEVICES");
  if (!v) return 0;
  // OMP_TARGET_OFFLOAD=disabled: "the behavior is as if the only device is
  // the host device" (OpenMP 5.2 §21.2.8).
  if (g_icv.target_offload == kOffloadDisabled) return 0;
  long n;
  const char* why;
  if (!env_parse_long(v, 0, kMaxEmulatedDevices, &n, &why)) {
    warn("KITE_DEVICES='%s' is invalid (%s; 0 to %d devices); using 0 (no device: target "
         "regions run on the host)",
         v, why, kMaxEmulatedDevices);
    return 0;
  }
  return int(n);
}

// --- device state -----------------------------------------------------------

struct Entry {
  uintptr_t hs, he;  // host range [hs, he)
  char* dev;         // device address of hs
  // OpenMP keeps one reference count per mapped item, whichever construct
  // maps it: a target or target data region and enter data add one, the
  // region's end and exit data (from, release) take one away, and exit
  // data with `delete` sets it to zero (OpenMP 5.2 §5.8.3; OpenACC's split
  // into a structured and a dynamic count is not OpenMP's). The mapping
  // ends when it is zero.
  long refs;
  // Records of open structured mappings (MapScope) that point at this
  // entry. An entry that exit data removes while a region still holds it
  // stays allocated, marked `removed`, until the last of them lets go.
  long pins;
  bool infinite;     // omp_target_associate_ptr: never unmapped by maps
  bool global;       // a declare target global: mapped onto itself
  bool owns;         // dev is a block of the arena, freed with the mapping
  bool fresh;        // created by the construct being mapped
  bool removed;
};

struct Module {
  uintptr_t base;
  uint64_t id;
};

constexpr uint32_t kBlockMagic = 0x6b446576;  // "kDev"
struct BlockHeader {
  void* raw;
  size_t size;      // asked for
  size_t capacity;  // usable bytes of the underlying allocation
  uint32_t magic;
  int16_t device;
  uint16_t pad;
  uint32_t align;
  uint32_t pad2;
};
static_assert(sizeof(BlockHeader) <= 64, "header fits below a 64-byte aligned block");

struct DeviceState {
  pthread_mutex_t lock;
  std::atomic<int> init;  // 0: not yet, 1: in progress, 2: done
  Entry** table;
  size_t n, cap;
  Module mods[32];
  int nmods;
  const void* last_fn;  // the last region body found loaded
  std::atomic<size_t> bytes_live;
  BlockHeader* cached[8];
  int ncached;
  size_t cached_bytes;
};

DeviceState g_dev[kMaxEmulatedDevices];
std::atomic<uint64_t> g_next_module{0};

class Locked {
 public:
  explicit Locked(int device) : d_(&g_dev[device]) { pthread_mutex_lock(&d_->lock); }
  ~Locked() { pthread_mutex_unlock(&d_->lock); }
  DeviceState* operator->() { return d_; }

 private:
  DeviceState* d_;
};

[[noreturn]] void device_fatal(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void device_fatal(const char* fmt, ...) {
  fflush(stdout);
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kite: error: %s\n", buf);
  exit(EXIT_FAILURE);
}

// --- table --------------------------------------------------------------------

// Index of the first entry whose hs > p.
size_t upper(DeviceState* d, uintptr_t p) {
  size_t lo = 0, hi = d->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (d->table[mid]->hs <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The entry holding all of [p, p+size); for size 0, the entry holding p,
// else one ending exactly at p.
Entry* find_containing(DeviceState* d, uintptr_t p, size_t size) {
  size_t i = upper(d, p);
  if (i == 0) return nullptr;
  Entry* e = d->table[i - 1];
  if (size == 0) return p <= e->he ? e : nullptr;
  return p + size <= e->he ? e : nullptr;
}

// Any entry overlapping [p, p+size) (size > 0).
Entry* find_overlapping(DeviceState* d, uintptr_t p, size_t size) {
  size_t i = upper(d, p);
  if (i > 0 && d->table[i - 1]->he > p) return d->table[i - 1];
  if (i < d->n && d->table[i]->hs < p + size) return d->table[i];
  return nullptr;
}

void insert(DeviceState* d, Entry* e) {
  if (d->n == d->cap) {
    size_t cap = d->cap ? d->cap * 2 : 64;
    auto** t = static_cast<Entry**>(xmalloc(cap * sizeof(Entry*)));
    if (d->n) memcpy(t, d->table, d->n * sizeof(Entry*));
    xfree(d->table);
    d->table = t;
    d->cap = cap;
  }
  size_t i = upper(d, e->hs);
  memmove(d->table + i + 1, d->table + i, (d->n - i) * sizeof(Entry*));
  d->table[i] = e;
  ++d->n;
}

void erase(DeviceState* d, Entry* e) {
  for (size_t i = 0; i < d->n; ++i)
    if (d->table[i] == e) {
      memmove(d->table + i, d->table + i + 1, (d->n - i - 1) * sizeof(Entry*));
      --d->n;
      return;
    }
}

inline char* translate(const Entry* e, uintptr_t p) { return e->dev + (p - e->hs); }

// Its reference count is zero: the mapping ends.
inline bool unmapped(const Entry* e) { return !e->infinite && e->refs == 0; }

// --- tool reports -------------------------------------------------------------

// One data operation reported to a tool around the work (OpenMP 5.2 §13:
// target-data-op-begin / -end).
struct OpReport {
  ompt::DataOp op;
  Thread* me;
  OpReport(ompt_target_data_op_t type, const void* src, int src_dev, void* dst, int dst_dev,
           size_t bytes, const void* ra)
      // self() first: a device routine may be the program's first OpenMP
      // call, which is when a tool is looked for.
      : op{}, me(self() && ompt::active() ? self() : nullptr) {
    op.optype = type;
    op.src_addr = const_cast<void*>(src);
    op.src_device_num = src_dev;
    op.dest_addr = dst;
    op.dest_device_num = dst_dev;
    op.bytes = bytes;
    op.codeptr_ra = ra;
    if (KITE_UNLIKELY(me)) ompt::data_op_slow(me, &op, ompt_scope_begin);
  }
  void end(void* dst) {
    op.dest_addr = dst;
    if (KITE_UNLIKELY(me)) ompt::data_op_slow(me, &op, ompt_scope_end);
  }
};

int host_num() { return emulated_device_count(); }

void* alloc_reported(int device, uintptr_t host, size_t size, size_t align, const void* ra) {
  OpReport r(ompt_target_data_alloc, reinterpret_cast<void*>(host), host_num(), nullptr, device,
             size, ra);
  void* p = device_mem_alloc(device, size, align);
  if (!p)
    device_fatal("out of memory on device %d mapping %zu bytes at %p", device, size,
                 reinterpret_cast<void*>(host));
  r.end(p);
  return p;
}

// Copies between a host address and itself (a declare target global's
// device address is its host address) are no copies: neither done nor
// reported.
void to_device(int device, char* dev, uintptr_t host, size_t size, const void* ra) {
  if (!size || reinterpret_cast<uintptr_t>(dev) == host) return;
  OpReport r(ompt_target_data_transfer_to_device, reinterpret_cast<void*>(host), host_num(), dev,
             device, size, ra);
  memcpy(dev, reinterpret_cast<void*>(host), size);
  r.end(dev);
}

void from_device(int device, char* dev, uintptr_t host, size_t size, const void* ra) {
  if (!size || reinterpret_cast<uintptr_t>(dev) == host) return;
  OpReport r(ompt_target_data_transfer_from_device, dev, device, reinterpret_cast<void*>(host),
             host_num(), size, ra);
  memcpy(reinterpret_cast<void*>(host), dev, size);
  r.end(reinterpret_cast<void*>(host));
}

// Unmaps an entry whose count reached zero. Its record lives on while an
// open structured mapping still points at it (pins).
void remove_entry(DeviceState* d, int device, Entry* e, const void* ra) {
  if (e->removed) return;
  e->removed = true;
  erase(d, e);
  if (e->owns) {
    OpReport r(ompt_target_data_delete, e->dev, device, reinterpret_cast<void*>(e->hs), host_num(),
               e->he - e->hs, ra);
    device_mem_free(device, e->dev);
    r.end(reinterpret_cast<void*>(e->hs));
  }
  if (e->pins == 0) xfree(e);
}

void unpin(Entry* e) {
  if (--e->pins == 0 && e->removed) xfree(e);
}

// --- one construct's mapping step -------------------------------------------

struct Step {
  DeviceState* d;
  const MapContext& ctx;
  MapScope* scope;  // null for enter data (nothing to undo)
  Entry* fresh[32];
  size_t nfresh;
  bool fresh_overflow;
};

void note_fresh(Step& s, Entry* e) {
  e->fresh = true;
  if (s.nfresh < 32)
    s.fresh[s.nfresh++] = e;
  else
    s.fresh_overflow = true;
}

void clear_fresh(Step& s) {
  if (s.fresh_overflow) {
    for (size_t i = 0; i < s.d->n; ++i) s.d->table[i]->fresh = false;
  } else {
    for (size_t i = 0; i < s.nfresh; ++i) s.fresh[i]->fresh = false;
  }
}

template <class T>
void grow(T** arr, size_t n, size_t* cap, T* inline_buf) {
  if (n < *cap) return;
  size_t c = *cap * 2;
  T* a = static_cast<T*>(xmalloc(c * sizeof(T)));
  memcpy(a, *arr, n * sizeof(T));
  if (*arr != inline_buf) xfree(*arr);
  *arr = a;
  *cap = c;
}

void hold(MapScope* s, Entry* e, void* host, size_t size, uint8_t copy_from, uint8_t flags) {
  grow(&s->held, s->nheld, &s->cap_held, s->held_inline);
  s->held[s->nheld++] = MapScope::Held{e, host, size, copy_from, flags};
  ++e->pins;
}

Entry* new_entry(Step& s, uintptr_t p, size_t size, size_t align) {
  auto* e = static_cast<Entry*>(xcalloc(1, sizeof(Entry)));
  e->hs = p;
  e->he = p + size;
  e->dev = static_cast<char*>(alloc_reported(s.ctx.device, p, size, align, s.ctx.codeptr_ra));
  e->owns = true;
  insert(s.d, e);
  note_fresh(s, e);
  return e;
}

bool op_copies_to(MapOp op) { return op == kMapTo || op == kMapToFrom; }
bool op_copies_from(MapOp op) { return op == kMapFrom || op == kMapToFrom; }

// Maps one item with data (alloc, to, from, tofrom, present); returns the
// device address the region sees.
void* map_data(Step& s, const MapItem& it) {
  uintptr_t p = reinterpret_cast<uintptr_t>(it.host);
  if (!it.host) return nullptr;
  Entry* e = find_containing(s.d, p, it.size);
  if (it.size == 0) {
    // Nothing to map: the address translates when it lies in a mapping.
    if (!e && it.op == kMapPresent)
      device_fatal("present: the data at %p (0 bytes) is not present on device %d", it.host,
                   s.ctx.device);
    return e ? translate(e, p) : it.host;
  }
  if (!e) {
    Entry* ov = find_overlapping(s.d, p, it.size);
    if (ov && (it.flags & kMapFlagImplicit)) {
      // An implicitly mapped object partly present uses the mapping that
      // exists (OpenMP 5.2 §5.8.3: only the present part is accessible).
      e = ov;
    } else if (ov) {
      device_fatal("the data at %p (%zu bytes) to map on device %d overlaps the data mapped at %p "
                   "(%zu bytes) without being inside it",
                   it.host, it.size, s.ctx.device, reinterpret_cast<void*>(ov->hs),
                   size_t(ov->he - ov->hs));
    } else if (it.op == kMapPresent) {
      device_fatal("present: the data at %p (%zu bytes) is not present on device %d (map clause "
                   "with the present modifier)",
                   it.host, it.size, s.ctx.device);
    } else {
      e = new_entry(s, p, it.size, size_t(1) << it.align_log2);
    }
  }
  if (!e->infinite) ++e->refs;
  // Copies cover the part of the item the mapping holds (all of it, but
  // for an implicit map of a partly present object).
  uintptr_t lo = p > e->hs ? p : e->hs;
  uintptr_t hi = p + it.size < e->he ? p + it.size : e->he;
  size_t part = hi > lo ? hi - lo : 0;
  if (op_copies_to(it.op) && (e->fresh || (it.flags & kMapFlagAlways)))
    to_device(s.ctx.device, translate(e, lo), lo, part, s.ctx.codeptr_ra);
  if (s.scope) {
    uint8_t from = op_copies_from(it.op) ? ((it.flags & kMapFlagAlways) ? 2 : 1) : 0;
    hold(s.scope, e, reinterpret_cast<void*>(lo), part, from, it.flags);
  }
  return translate(e, p);
}

// The host address of a structure's members' range, mapped as one block
// when none of it is mapped yet, so that members share one allocation.
void* map_struct(Step& s, const MapItem* items, size_t i, size_t n) {
  size_t count = items[i].size;
  if (count == 0 || i + count >= n) return items[i].host;
  uintptr_t lo = reinterpret_cast<uintptr_t>(items[i + 1].host), hi = lo;
  for (size_t k = 1; k <= count; ++k) {
    uintptr_t a = reinterpret_cast<uintptr_t>(items[i + k].host);
    if (a < lo) lo = a;
    if (a + items[i + k].size > hi) hi = a + items[i + k].size;
  }
  Entry* e = find_containing(s.d, lo, hi - lo);
  if (!e && hi > lo && !find_overlapping(s.d, lo, hi - lo))
    e = new_entry(s, lo, hi - lo, size_t(1) << items[i].align_log2);
  if (!e) return items[i].host;
  return translate(e, reinterpret_cast<uintptr_t>(items[i].host));
}

// Points the device copy of the pointer at host address `loc` at the device
// copy of its pointee (OpenMP 5.2 §5.8.3, pointer attachment). Nothing
// happens when the pointer or its pointee is not mapped.
void attach(Step& s, void* loc, size_t bias, bool record) {
  uintptr_t l = reinterpret_cast<uintptr_t>(loc);
  Entry* pe = find_containing(s.d, l, sizeof(void*));
  if (!pe) return;
  uintptr_t target = *static_cast<uintptr_t*>(loc) + bias;
  Entry* te = find_containing(s.d, target, 0);
  if (!te) return;
  void** dev_loc = reinterpret_cast<void**>(translate(pe, l));
  void* value = translate(te, target) - bias;
  if (*dev_loc == value) return;
  if (record && s.scope) {
    MapScope* sc = s.scope;
    grow(&sc->attached, sc->nattached, &sc->cap_attached, sc->attached_inline);
    sc->attached[sc->nattached++] = MapScope::Attached{pe, dev_loc, *dev_loc};
    ++pe->pins;
  }
  // The attachment is a transfer of the pointer's new value to the device.
  OpReport r(ompt_target_data_transfer_to_device, &value, host_num(), dev_loc, s.ctx.device,
             sizeof(void*), s.ctx.codeptr_ra);
  *dev_loc = value;
  r.end(dev_loc);
}

void detach(Step& s, void* loc) {
  uintptr_t l = reinterpret_cast<uintptr_t>(loc);
  Entry* pe = find_containing(s.d, l, sizeof(void*));
  if (!pe) return;
  void** dev_loc = reinterpret_cast<void**>(translate(pe, l));
  void* host_value = *static_cast<void**>(loc);
  OpReport r(ompt_target_data_transfer_to_device, loc, host_num(), dev_loc, s.ctx.device,
             sizeof(void*), s.ctx.codeptr_ra);
  *dev_loc = host_value;
  r.end(dev_loc);
}

// Items that map or translate, shared by structured and enter-data steps.
void map_items(Step& s, const MapItem* items, size_t n, void** devaddrs) {
  for (size_t i = 0; i < n; ++i) {
    const MapItem& it = items[i];
    void* out = it.host;
    uintptr_t p = reinterpret_cast<uintptr_t>(it.host);
    switch (it.op) {
      case kMapAlloc:
      case kMapTo:
      case kMapFrom:
      case kMapToFrom:
      case kMapPresent:
        out = map_data(s, it);
        break;
      case kMapStruct:
        out = map_struct(s, items, i, n);
        break;
      case kMapUseDevicePtr:
      case kMapIfPresent: {
        Entry* e = it.host ? find_containing(s.d, p, 0) : nullptr;
        if (e) out = translate(e, p);
        break;
      }
      case kMapZeroLen: {
        // A zero-length section, and how gcc passes a pointer variable the
        // region uses without mapping it: translated when it points into
        // mapped data; otherwise the pointer keeps its original value
        // (OpenMP 5.1 changed this from null), so host pointers to
        // functions or unmapped data pass through unchanged.
        Entry* e = it.host ? find_containing(s.d, p, 0) : nullptr;
        if (e) out = translate(e, p);
        break;
      }
      case kMapAttach:
        attach(s, it.host, it.size, true);
        break;
      case kMapPointer: {
        MapItem var{it.host, sizeof(void*), kMapAlloc, 0, 3};
        out = map_data(s, var);
        attach(s, it.host, it.size, true);
        break;
      }
      case kMapFirstprivate:
        continue;  // the launcher's private copy stays in the slot
      default:
        break;
    }
    if (devaddrs) devaddrs[i] = out;
  }
  clear_fresh(s);
}

}  // namespace

// --- public -----------------------------------------------------------------------

// KITE_DEVICES is read at library load, after the OpenMP variables (whose
// OMP_TARGET_OFFLOAD it depends on), so that a bad value is reported even
// by a program that never asks for a device.
__attribute__((constructor(102))) static void kite_devices_at_load() {
  runtime_init();
  (void)emulated_device_count();
}

int emulated_device_count() {
  int n = g_count.load(std::memory_order_relaxed);
  if (KITE_LIKELY(n >= 0)) return n;
  int expected = -1;
  n = read_device_count();
  if (!g_count.compare_exchange_strong(expected, n)) n = expected;
  return n;
}

void device_ensure_initialized(int device) {
  DeviceState& d = g_dev[device];
  if (KITE_LIKELY(d.init.load(std::memory_order_acquire) == 2)) return;
  // The thread's record first: a device routine may be the program's
  // first OpenMP call, which is when a tool is looked for.
  (void)self();
  int expected = 0;
  if (d.init.compare_exchange_strong(expected, 1)) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    // A tool's callback may call a device memory routine for the device
    // whose construct it is told about.
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&d.lock, &a);
    pthread_mutexattr_destroy(&a);
    // OpenMP 5.2 §13.4: "The device-initialize event occurs in a thread
    // that begins initialization of OpenMP on the device, after the
    // device's OpenMP initialization ... completes." Kite initializes a
    // device when a construct or routine first names it (OpenMP 5.0 said
    // so in as many words), so the tool hears of it then.
    if (ompt::active()) ompt::device_initialize_slow(device);
    declare_target_attach_device(device);
    d.init.store(2, std::memory_order_release);
    return;
  }
  while (d.init.load(std::memory_order_acquire) != 2) sched_yield_portable();
}

void devices_finalize() {
  int n = g_count.load(std::memory_order_relaxed);
  for (int i = 0; i < n; ++i) {
    DeviceState& d = g_dev[i];
    if (d.init.load(std::memory_order_acquire) != 2) continue;
    int mods;
    {
      Locked l(i);
      mods = d.nmods;
      d.nmods = 0;
    }
    for (int m = 0; m < mods; ++m) ompt::device_unload_slow(i, d.mods[m].id);
    ompt::device_finalize_slow(i);
  }
}

void device_note_code(int device, const void* fn) {
  if (!ompt::active()) return;
  if (__atomic_load_n(&g_dev[device].last_fn, __ATOMIC_RELAXED) == fn) return;
  Dl_info info;
  if (!dladdr(fn, &info) || !info.dli_fbase) return;
  uintptr_t base = reinterpret_cast<uintptr_t>(info.dli_fbase);
  uint64_t id;
  {
    Locked l(device);
    l->last_fn = fn;
    for (int m = 0; m < l->nmods; ++m)
      if (l->mods[m].base == base) return;
    if (l->nmods == int(sizeof l->mods / sizeof l->mods[0])) return;
    id = g_next_module.fetch_add(1, std::memory_order_relaxed) + 1;
    l->mods[l->nmods++] = Module{base, id};
  }
  // The code object is the executable or shared object holding the
  // region bodies; the device runs them where they are loaded.
  struct stat st;
  size_t bytes = (info.dli_fname && stat(info.dli_fname, &st) == 0) ? size_t(st.st_size) : 0;
  // The whole file is the code object (offset 0); where it sits in the
  // file's own address space is not looked up (ompt_addr_none); host and
  // "device" see it at the address it is loaded at.
  void* none = reinterpret_cast<void*>(~uintptr_t(0));
  ompt::device_load_slow(device, info.dli_fname, 0, none, bytes, info.dli_fbase, info.dli_fbase,
                         id);
}

// Freed blocks a device keeps for reuse, as a device allocator keeps its
// pool: a program mapping the same arrays region after region then pays
// for the copies, not for fresh pages each time.
constexpr int kCachedBlocks = 8;
constexpr size_t kCacheMaxBytes = size_t(256) << 20;

void* device_mem_alloc(int device, size_t size, size_t align) {
  size_t a = align > 64 ? align : 64;
  if (a & (a - 1)) a = 64;
  size_t total;
  if (__builtin_add_overflow(size, a, &total)) return nullptr;
  DeviceState& d = g_dev[device];
  void* raw = nullptr;
  size_t cap = 0;
  if (a == 64) {
    // A cached block that fits without wasting more than half of it.
    Locked l(device);
    for (int i = 0; i < d.ncached; ++i) {
      BlockHeader* h = d.cached[i];
      if (h->capacity >= size && h->capacity / 2 <= size) {
        raw = h->raw;
        cap = h->capacity;
        d.cached_bytes -= cap;
        d.cached[i] = d.cached[--d.ncached];
        break;
      }
    }
  }
  if (!raw) {
    if (posix_memalign(&raw, a, total) != 0) return nullptr;
    cap = size;
  }
  char* user = static_cast<char*>(raw) + a;
  auto* h = reinterpret_cast<BlockHeader*>(user - sizeof(BlockHeader));
  h->raw = raw;
  h->size = size;
  h->capacity = cap;
  h->magic = kBlockMagic;
  h->device = device;
  h->align = uint32_t(a);
  d.bytes_live.fetch_add(size, std::memory_order_relaxed);
  return user;
}

bool device_mem_free(int device, void* p) {
  if (!p || (reinterpret_cast<uintptr_t>(p) & 63) != 0) return false;
  auto* h = reinterpret_cast<BlockHeader*>(static_cast<char*>(p) - sizeof(BlockHeader));
  if (h->magic != kBlockMagic || h->device != device) return false;
  h->magic = 0;
  DeviceState& d = g_dev[device];
  d.bytes_live.fetch_sub(h->size, std::memory_order_relaxed);
  if (h->align == 64 && h->capacity <= kCacheMaxBytes) {
    Locked l(device);
    if (d.ncached == kCachedBlocks || d.cached_bytes + h->capacity > kCacheMaxBytes) {
      // The oldest goes to make room.
      if (d.ncached) {
        BlockHeader* old = d.cached[0];
        d.cached_bytes -= old->capacity;
        d.cached[0] = d.cached[--d.ncached];
        free(old->raw);
      }
    }
    if (d.cached_bytes + h->capacity <= kCacheMaxBytes) {
      d.cached[d.ncached++] = h;
      d.cached_bytes += h->capacity;
      return true;
    }
  }
  free(h->raw);
  return true;
}

void device_map_enter(MapScope* scope, const MapContext& ctx, const MapItem* items, size_t n,
                      void** devaddrs) {
  scope->ctx = ctx;
  scope->held = scope->held_inline;
  scope->nheld = 0;
  scope->cap_held = sizeof scope->held_inline / sizeof scope->held_inline[0];
  scope->attached = scope->attached_inline;
  scope->nattached = 0;
  scope->cap_attached = sizeof scope->attached_inline / sizeof scope->attached_inline[0];
  scope->outer = nullptr;
  Locked l(ctx.device);
  Step s{&g_dev[ctx.device], ctx, scope, {}, 0, false};
  map_items(s, items, n, devaddrs);
}

void device_map_exit(MapScope* scope) {
  const MapContext& ctx = scope->ctx;
  {
    Locked l(ctx.device);
    DeviceState* d = &g_dev[ctx.device];
    // Pointers get their device values back before any copy to the host,
    // which would otherwise carry device addresses into host memory. A
    // pointer whose mapping exit data removed during the region has no
    // device copy left to restore.
    for (size_t i = scope->nattached; i-- > 0;) {
      MapScope::Attached& a = scope->attached[i];
      if (!static_cast<Entry*>(a.entry)->removed) *a.dev_loc = a.restore;
    }
    // The mapping each record ends: the one the region made or found, or,
    // where exit data removed that one during the region (its count set to
    // zero by `delete`, or dropped to zero by `release` / `from`), whatever
    // maps the data now: usually nothing, and then the region's end does
    // nothing for it (no count, no copy back, no free).
    Entry* inline_live[16];
    auto** live = scope->nheld <= 16 ? inline_live
                                     : static_cast<Entry**>(xmalloc(scope->nheld * sizeof(Entry*)));
    for (size_t i = 0; i < scope->nheld; ++i) {
      MapScope::Held& h = scope->held[i];
      auto* e = static_cast<Entry*>(h.entry);
      if (e->removed)
        e = h.size ? find_containing(d, reinterpret_cast<uintptr_t>(h.host), h.size) : nullptr;
      live[i] = e;
    }
    for (size_t i = 0; i < scope->nheld; ++i) {
      Entry* e = live[i];
      if (e && !e->infinite && e->refs > 0) --e->refs;
    }
    for (size_t i = 0; i < scope->nheld; ++i) {
      MapScope::Held& h = scope->held[i];
      Entry* e = live[i];
      if (e && (h.copy_from == 2 || (h.copy_from == 1 && unmapped(e))))
        from_device(ctx.device, translate(e, reinterpret_cast<uintptr_t>(h.host)),
                    reinterpret_cast<uintptr_t>(h.host), h.size, ctx.codeptr_ra);
    }
    for (size_t i = 0; i < scope->nheld; ++i) {
      Entry* e = live[i];
      if (!e) continue;
      // An entry seen twice is removed at its first sighting (pointers
      // compared only: a removed entry no record pins is freed at once).
      bool dup = false;
      for (size_t k = 0; k < i && !dup; ++k) dup = live[k] == e;
      if (!dup && unmapped(e)) remove_entry(d, ctx.device, e, ctx.codeptr_ra);
    }
    for (size_t i = 0; i < scope->nheld; ++i) unpin(static_cast<Entry*>(scope->held[i].entry));
    for (size_t i = 0; i < scope->nattached; ++i)
      unpin(static_cast<Entry*>(scope->attached[i].entry));
    if (live != inline_live) xfree(live);
  }
  if (scope->held != scope->held_inline) xfree(scope->held);
  if (scope->attached != scope->attached_inline) xfree(scope->attached);
}

void device_enter_data(const MapContext& ctx, const MapItem* items, size_t n) {
  Locked l(ctx.device);
  Step s{&g_dev[ctx.device], ctx, nullptr, {}, 0, false};
  map_items(s, items, n, nullptr);
}

void device_exit_data(const MapContext& ctx, const MapItem* items, size_t n) {
  Locked l(ctx.device);
  DeviceState* d = &g_dev[ctx.device];
  Step s{d, ctx, nullptr, {}, 0, false};
  // Pointers first, for the reason device_map_exit gives.
  for (size_t i = 0; i < n; ++i)
    if (items[i].op == kMapDetach) detach(s, items[i].host);
  auto* found = static_cast<Entry**>(__builtin_alloca(n * sizeof(Entry*)));
  for (size_t i = 0; i < n; ++i) {
    const MapItem& it = items[i];
    found[i] = nullptr;
    bool counts = it.op == kMapFrom || it.op == kMapToFrom || it.op == kMapRelease ||
                  it.op == kMapDelete || it.op == kMapAlloc || it.op == kMapTo;
    if (!counts || !it.host) continue;
    Entry* e = find_containing(d, reinterpret_cast<uintptr_t>(it.host), it.size);
    if (!e) continue;  // absent: nothing to do (OpenMP 5.2 §13.7)
    found[i] = e;
    if (e->infinite) continue;
    // One count for every construct, so exit data can end a mapping that
    // an enclosing target data region made. The map clause on exit, in
    // OpenMP 5.0's words (§2.19.7.1; 5.2 §5.8.3 has the same steps): "If the map-type is not delete
    // and the corresponding list item's reference count is finite and was
    // not already decremented because of the effect of a map clause on the
    // construct then: a) The corresponding list item's reference count is
    // decremented by one; [...] If the map-type is delete and the
    // corresponding list item's reference count is finite then: a) The
    // corresponding list item's reference count is set to zero; [...] If
    // the corresponding list item's reference count is zero then the
    // corresponding list item is removed from the device data
    // environment". The enclosing region's end then finds the data absent
    // (device_map_exit). LLVM's libomptarget and libgomp keep one count too.
    // Kite counts once per map item (not once per construct) on entry and
    // on exit alike, so that the two stay balanced.
    if (it.op == kMapDelete)
      e->refs = 0;
    else if (e->refs > 0)
      --e->refs;
  }
  for (size_t i = 0; i < n; ++i) {
    Entry* e = found[i];
    if (!e || !op_copies_from(items[i].op)) continue;
    if ((items[i].flags & kMapFlagAlways) || unmapped(e))
      from_device(ctx.device, translate(e, reinterpret_cast<uintptr_t>(items[i].host)),
                  reinterpret_cast<uintptr_t>(items[i].host), items[i].size, ctx.codeptr_ra);
  }
  for (size_t i = 0; i < n; ++i) {
    Entry* e = found[i];
    if (!e || !unmapped(e)) continue;
    bool dup = false;
    for (size_t k = 0; k < i && !dup; ++k) dup = found[k] == e;
    if (!dup) remove_entry(d, ctx.device, e, ctx.codeptr_ra);
  }
}

void device_update(const MapContext& ctx, const MapItem* items, size_t n) {
  Locked l(ctx.device);
  DeviceState* d = &g_dev[ctx.device];
  for (size_t i = 0; i < n; ++i) {
    const MapItem& it = items[i];
    if (!it.host || !it.size) continue;
    uintptr_t p = reinterpret_cast<uintptr_t>(it.host);
    Entry* e = find_containing(d, p, it.size);
    if (!e) {
      if (it.op == kMapPresent)
        device_fatal("present: the data at %p (%zu bytes) is not present on device %d (target "
                     "update)",
                     it.host, it.size, ctx.device);
      continue;  // OpenMP 5.2 §13.9: no effect for absent list items
    }
    if (op_copies_to(it.op)) to_device(ctx.device, translate(e, p), p, it.size, ctx.codeptr_ra);
    if (op_copies_from(it.op))
      from_device(ctx.device, translate(e, p), p, it.size, ctx.codeptr_ra);
  }
}

namespace {
__thread MapScope* t_data_scope __attribute__((tls_model("initial-exec")));
}

void device_push_data_scope(MapScope* scope) {
  scope->outer = t_data_scope;
  t_data_scope = scope;
}

MapScope* device_pop_data_scope() {
  MapScope* s = t_data_scope;
  if (s) t_data_scope = s->outer;
  return s;
}

void* device_translate(int device, const void* p, size_t size) {
  Locked l(device);
  Entry* e = find_containing(&g_dev[device], reinterpret_cast<uintptr_t>(p), size);
  if (!e || (size == 0 && e->he == reinterpret_cast<uintptr_t>(p) && e->hs != e->he)) return nullptr;
  return translate(e, reinterpret_cast<uintptr_t>(p));
}

int device_associate(int device, const void* host, void* dev, size_t size, const void* ra) {
  if (!host || !dev || !size) return EINVAL;
  Locked l(device);
  DeviceState* d = &g_dev[device];
  uintptr_t p = reinterpret_cast<uintptr_t>(host);
  Entry* e = find_containing(d, p, size);
  if (e) return (e->infinite && translate(e, p) == dev) ? 0 : EINVAL;
  if (find_overlapping(d, p, size)) return EINVAL;
  OpReport r(ompt_target_data_associate, host, host_num(), dev, device, size, ra);
  e = static_cast<Entry*>(xcalloc(1, sizeof(Entry)));
  e->hs = p;
  e->he = p + size;
  e->dev = static_cast<char*>(dev);
  e->infinite = true;
  insert(d, e);
  r.end(dev);
  return 0;
}

int device_disassociate(int device, const void* host, const void* ra) {
  Locked l(device);
  DeviceState* d = &g_dev[device];
  uintptr_t p = reinterpret_cast<uintptr_t>(host);
  Entry* e = find_containing(d, p, 0);
  if (!e || e->hs != p || !e->infinite || e->owns || e->global) return EINVAL;
  OpReport r(ompt_target_data_disassociate, host, host_num(), e->dev, device, e->he - e->hs, ra);
  erase(d, e);
  r.end(e->dev);
  xfree(e);
  return 0;
}

void device_add_global(int device, uintptr_t start, size_t size) {
  Locked l(device);
  DeviceState* d = &g_dev[device];
  if (find_overlapping(d, start, size)) return;
  auto* e = static_cast<Entry*>(xcalloc(1, sizeof(Entry)));
  e->hs = start;
  e->he = start + size;
  e->dev = reinterpret_cast<char*>(start);
  e->infinite = true;
  e->global = true;
  insert(d, e);
}

void device_remove_global(int device, uintptr_t start, size_t size) {
  Locked l(device);
  DeviceState* d = &g_dev[device];
  Entry* e = find_containing(d, start, size);
  if (!e || !e->global || e->hs != start || e->he != start + size) return;
  erase(d, e);
  if (e->pins == 0)
    xfree(e);
  else
    e->removed = true;
}

void device_copy(int dst_device, void* dst, int src_device, const void* src, size_t bytes,
                 const void* ra) {
  int host = host_num();
  ompt_target_data_op_t type = (src_device != host && dst_device == host)
                                   ? ompt_target_data_transfer_from_device
                                   : ompt_target_data_transfer_to_device;
  OpReport r(type, src, src_device, dst, dst_device, bytes, ra);
  memmove(dst, src, bytes);
  r.end(dst);
}

}  // namespace kite
