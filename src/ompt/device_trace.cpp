// Device tracing for the emulated devices (device_trace.h): handles, clocks,
// the entry points of the device tracing interface (OpenMP 5.2 §19.6.2), and
// how records reach the tool's buffers.
//
// Delivery design. Records are first appended to a per-device queue in the
// runtime's own memory (malloc, grown on demand), kept sorted by time; they
// are copied into the tool's buffer by one "deliverer" at a time, which
// calls buffer_request and buffer_complete with no runtime lock held. A
// thread that appends while another thread delivers (or while the tool's
// buffer_complete runs, however slowly) only queues, so nothing is dropped
// and nobody waits for the tool: the deliverer picks those records up on
// its next pass or the next append does. Order per device: a record whose
// operation is still running (an open TraceSpan) will carry its start time,
// so records later than the oldest open span's start are held back until
// that span closes; every buffer is then in time order, and so is the
// sequence of buffers. Flush, stop and finalization deliver everything
// queued (a partially filled buffer too).
#include "ompt/device_trace.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "core/icv.h"
#include "core/team.h"
#include "ompt/callbacks.h"
#include "ompt/events_target.h"

namespace kite {
namespace ompt {

std::atomic<uint64_t> g_device_tracing{0};

namespace {

// A native record of an emulated device (ompt_set_trace_native): the
// abstract part a tool reads with ompt_get_record_abstract, then what the
// operation moved. docs/ompt.md documents the layout and type strings.
struct NativeRecord {
  ompt_record_abstract_t abstract;
  ompt_id_t target_id;
  size_t bytes;
  int flag;  // the ompt_native_mon_flag_t class of the activity
};

// What the tool's buffer holds: fixed-size slots, the cursor being a byte
// offset from the buffer's start. The magic lets the record accessors
// answer ompt_record_invalid for a cursor that points at no record.
constexpr uint32_t kSlotMagic = 0x4b54524bu;  // "KRTK"
struct Slot {
  uint32_t magic;
  uint32_t kind;          // ompt_record_t
  ompt_id_t host_op_id;   // native records: the host operation
  void* owned;            // runtime memory the record points into (target_map)
  union {
    ompt_record_ompt_t ompt;
    NativeRecord native;
  } u;
};

ompt_device_time_t slot_time(const Slot& s) {
  return s.kind == ompt_record_ompt ? s.u.ompt.time : s.u.native.abstract.start_time;
}

// One emulated device as the tracing interface knows it. The handle a tool
// receives is the address of its slot in g_devices.
struct Device {
  int num;
  pthread_mutex_t mu;        // everything below except `deliverer`'s buffer
  pthread_mutex_t deliver;   // held by the one thread delivering
  ompt_callback_buffer_request_t request;
  ompt_callback_buffer_complete_t complete;
  bool started;
  bool paused;
  uint64_t ompt_types;       // bit e: records of ompt_callbacks_t e
  int native_flags;          // ompt_native_mon_flag_t bits
  // Queue of records not yet copied out, sorted by time: [begin, end).
  Slot* q;
  size_t cap, begin, end;
  // Open spans, oldest start first.
  TraceSpan* open_head;
  TraceSpan* open_tail;
  // The tool buffer being filled; touched only under `deliver`.
  char* buf;
  size_t buf_bytes, buf_used;
  void** to_free;            // blocks of the records in `buf`, freed after
  size_t nfree, cap_free;    //   the buffer's buffer_complete returned
  // The thread delivering now, so a flush from inside the tool's callback
  // on that thread can tell (read by other threads: atomics).
  std::atomic<pthread_t> deliverer;
  std::atomic<bool> delivering;
  bool force_again;          // a flush/stop came from inside a tool callback
};

Device g_devices[kMaxTracedDevices];
pthread_once_t g_init_once = PTHREAD_ONCE_INIT;

void init_devices() {
  for (int i = 0; i < kMaxTracedDevices; ++i) {
    Device& d = g_devices[i];
    d.num = i;
    pthread_mutex_init(&d.mu, nullptr);
    pthread_mutex_init(&d.deliver, nullptr);
  }
}

Device* device_at(int num) {
  if (static_cast<unsigned>(num) >= kMaxTracedDevices) return nullptr;
  pthread_once(&g_init_once, init_devices);
  return &g_devices[num];
}

Device* device_of(ompt_device_t* handle) {
  char* p = static_cast<char*>(handle);
  char* lo = reinterpret_cast<char*>(g_devices);
  if (p < lo || p >= lo + sizeof g_devices || (p - lo) % sizeof(Device) != 0) return nullptr;
  return device_at(int((p - lo) / sizeof(Device)));
}

// The record types a device traces: target constructs, data operations,
// kernels (target_submit) and maps. ompt_set_trace_ompt accepts both the
// EMI and the non-EMI event of each; records carry the non-EMI value as
// their type, the member of ompt_record_ompt_t's union being named so.
int record_type_of(unsigned etype) {
  switch (etype) {
    case ompt_callback_target:
    case ompt_callback_target_emi:
      return ompt_callback_target;
    case ompt_callback_target_data_op:
    case ompt_callback_target_data_op_emi:
      return ompt_callback_target_data_op;
    case ompt_callback_target_submit:
    case ompt_callback_target_submit_emi:
      return ompt_callback_target_submit;
    case ompt_callback_target_map:
    case ompt_callback_target_map_emi:
      return ompt_callback_target_map;
    default:
      return 0;
  }
}
constexpr uint64_t kAllTypes = (1ull << ompt_callback_target) |
                               (1ull << ompt_callback_target_data_op) |
                               (1ull << ompt_callback_target_submit) |
                               (1ull << ompt_callback_target_map);
constexpr int kNativeSupported = ompt_native_data_motion_explicit |
                                 ompt_native_data_motion_implicit |
                                 ompt_native_kernel_invocation |
                                 ompt_native_kernel_execution | ompt_native_runtime;

// Recomputes device d's bit of g_device_tracing (d.mu held).
void update_tracing_bit(Device& d) {
  bool on = d.started && !d.paused && (d.ompt_types != 0 || d.native_flags != 0);
  uint64_t bit = 1ull << d.num;
  if (on)
    g_device_tracing.fetch_or(bit, std::memory_order_relaxed);
  else
    g_device_tracing.fetch_and(~bit, std::memory_order_relaxed);
}

bool collecting(const Device& d) { return d.started && !d.paused; }

// --- the queue (d.mu held) ---------------------------------------------------

void queue_make_room(Device& d) {
  if (d.end < d.cap) return;
  size_t n = d.end - d.begin;
  if (d.begin > 0 && n < d.cap / 2) {
    memmove(d.q, d.q + d.begin, n * sizeof(Slot));
  } else {
    size_t cap = d.cap ? d.cap * 2 : 64;
    Slot* q = static_cast<Slot*>(xmalloc(cap * sizeof(Slot)));
    if (n) memcpy(q, d.q + d.begin, n * sizeof(Slot));
    xfree(d.q);
    d.q = q;
    d.cap = cap;
  }
  d.begin = 0;
  d.end = n;
}

// Inserts keeping time order; equal times keep arrival order.
void queue_insert(Device& d, const Slot& s) {
  queue_make_room(d);
  ompt_device_time_t t = slot_time(s);
  size_t i = d.end;
  while (i > d.begin && slot_time(d.q[i - 1]) > t) --i;
  if (i < d.end) memmove(d.q + i + 1, d.q + i, (d.end - i) * sizeof(Slot));
  d.q[i] = s;
  ++d.end;
}

// How many queued records may be handed out: those no open span can still
// precede; all of them when `all`.
size_t queue_ready(const Device& d, bool all) {
  if (all || !d.open_head) return d.end - d.begin;
  ompt_device_time_t limit = d.open_head->start;
  size_t i = d.begin;
  while (i < d.end && slot_time(d.q[i]) <= limit) ++i;
  return i - d.begin;
}

// --- delivery ----------------------------------------------------------------

// Hands the current buffer to the tool (d.deliver held, d.mu not held).
void complete_buffer(Device& d) {
  char* buf = d.buf;
  size_t used = d.buf_used;
  d.buf = nullptr;
  d.buf_bytes = d.buf_used = 0;
  if (d.complete) d.complete(d.num, buf, used, 0, 1);
  // No other delivery runs meanwhile (a flush from inside the callback only
  // asks this one for a forced pass), so every block kept is this buffer's.
  for (size_t i = 0; i < d.nfree; ++i) xfree(d.to_free[i]);
  d.nfree = 0;
}

// The records copied into the tool's buffer keep their blocks alive until
// that buffer is completed (d.deliver held).
void keep_blocks(Device& d, const Slot* s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (!s[i].owned) continue;
    if (d.nfree == d.cap_free) {
      size_t cap = d.cap_free ? d.cap_free * 2 : 16;
      void** v = static_cast<void**>(xmalloc(cap * sizeof(void*)));
      if (d.nfree) memcpy(v, d.to_free, d.nfree * sizeof(void*));
      xfree(d.to_free);
      d.to_free = v;
      d.cap_free = cap;
    }
    d.to_free[d.nfree++] = s[i].owned;
  }
}

// Copies ready records into tool buffers, completing each one that fills.
// `force`: everything queued goes, and a partly filled buffer is completed.
// Called with d.deliver held and d.mu not held.
void deliver_locked(Device& d, bool force) {
  d.deliverer.store(pthread_self(), std::memory_order_relaxed);
  d.delivering.store(true, std::memory_order_release);
  for (;;) {
    pthread_mutex_lock(&d.mu);
    bool all = force || d.force_again;
    size_t ready = queue_ready(d, all);
    pthread_mutex_unlock(&d.mu);
    if (ready == 0) {
      if (all && d.buf && d.buf_used > 0) complete_buffer(d);
      pthread_mutex_lock(&d.mu);
      bool again = d.force_again;
      d.force_again = false;
      pthread_mutex_unlock(&d.mu);
      if (again) {
        force = true;
        continue;
      }
      break;
    }
    if (!d.buf) {
      ompt_buffer_t* buf = nullptr;
      size_t bytes = 0;
      if (d.request) d.request(d.num, &buf, &bytes);
      if (!buf || bytes < sizeof(Slot)) {
        // No room from the tool now: the records stay queued for the
        // next attempt (the next append, flush, stop or finalization).
        break;
      }
      d.buf = static_cast<char*>(buf);
      d.buf_bytes = bytes;
      d.buf_used = 0;
    }
    pthread_mutex_lock(&d.mu);
    size_t fit = (d.buf_bytes - d.buf_used) / sizeof(Slot);
    size_t n = queue_ready(d, force || d.force_again);
    if (n > fit) n = fit;
    memcpy(d.buf + d.buf_used, d.q + d.begin, n * sizeof(Slot));
    keep_blocks(d, d.q + d.begin, n);
    d.begin += n;
    if (d.begin == d.end) d.begin = d.end = 0;
    pthread_mutex_unlock(&d.mu);
    d.buf_used += n * sizeof(Slot);
    if (d.buf_bytes - d.buf_used < sizeof(Slot)) complete_buffer(d);
  }
  d.delivering.store(false, std::memory_order_release);
}

bool is_deliverer(const Device& d) {
  return d.delivering.load(std::memory_order_acquire) &&
         pthread_equal(d.deliverer.load(std::memory_order_relaxed), pthread_self());
}

// After an append: deliver if nobody else is (never waits for the tool).
void try_deliver(Device& d) {
  if (pthread_mutex_trylock(&d.deliver) != 0) return;
  deliver_locked(d, false);
  pthread_mutex_unlock(&d.deliver);
}

// Flush, stop, finalization: everything queued reaches the tool before
// this returns. From inside the tool's own request/complete callback on
// this device (the deliverer's thread), the running delivery is told to
// finish with a forced pass instead.
void deliver_all(Device& d) {
  if (is_deliverer(d)) {
    pthread_mutex_lock(&d.mu);
    d.force_again = true;
    pthread_mutex_unlock(&d.mu);
    return;
  }
  pthread_mutex_lock(&d.deliver);
  deliver_locked(d, true);
  pthread_mutex_unlock(&d.deliver);
}

constexpr size_t kDeliverBatch = 32;

// Puts `n` records into the queue in one critical section with what
// makes them ready: `span` leaves the open list there (so no deliverer can
// hand out a later record before this one is in), and a point record
// (`point`) takes its time there (so it is never earlier than a record
// already handed out).
void commit(Device& d, Slot* slots, int n, TraceSpan* span, bool point) {
  pthread_mutex_lock(&d.mu);
  if (span) {
    if (span->prev)
      span->prev->next = span->next;
    else
      d.open_head = span->next;
    if (span->next)
      span->next->prev = span->prev;
    else
      d.open_tail = span->prev;
    span->device_num = -1;
  }
  if (point) {
    ompt_device_time_t now = device_time(d.num);
    for (int i = 0; i < n; ++i) slots[i].u.ompt.time = now;
  }
  bool keep = collecting(d) && n > 0;
  for (int i = 0; keep && i < n; ++i) queue_insert(d, slots[i]);
  // Records are handed over in batches: a delivery pass costs a few lock
  // operations whatever it moves.
  bool batch = keep && d.end - d.begin >= kDeliverBatch;
  pthread_mutex_unlock(&d.mu);
  if (!keep)
    for (int i = 0; i < n; ++i) xfree(slots[i].owned);
  if (batch && !is_deliverer(d)) try_deliver(d);
}

// --- clock -------------------------------------------------------------------

int64_t host_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);  // omp_get_wtime's clock
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Device d's clock reads host time plus (d + 1) * kClockSkew ns, so device
// times of different devices never look alike and none equals host time.
constexpr int64_t kClockSkew = 1000000000000;  // 1000 s

// --- entry points ------------------------------------------------------------

int get_device_num_procs(ompt_device_t* device) {
  // An emulated device runs its regions on the host's processors.
  return device_of(device) ? g_icv.num_procs : 0;
}

ompt_device_time_t get_device_time(ompt_device_t* device) {
  Device* d = device_of(device);
  return d ? device_time(d->num) : 0;
}

// "The ompt_translate_time entry point ... translates a time value that is
// obtained from the specified device to a corresponding time value on the
// host device. The returned value for the host time has the same meaning
// as the value returned from omp_get_wtime." (5.2 §19.6.2.3)
double translate_time(ompt_device_t* device, ompt_device_time_t time) {
  Device* d = device_of(device);
  if (!d) return 0.0;
  int64_t ns = int64_t(time) - (d->num + 1) * kClockSkew;
  return double(ns / 1000000000) + double(ns % 1000000000) * 1e-9;
}

// etype 0 applies to every event type (5.2 §19.6.2.4). Types a device never
// records answer ompt_set_never when enabled.
ompt_set_result_t set_trace_ompt(ompt_device_t* device, unsigned enable, unsigned etype) {
  Device* d = device_of(device);
  if (!d) return ompt_set_error;
  uint64_t bits;
  if (etype == 0) {
    bits = kAllTypes;
  } else if (int t = record_type_of(etype)) {
    bits = 1ull << t;
  } else {
    if (etype > unsigned(ompt_callback_error)) return ompt_set_error;
    return enable ? ompt_set_never : ompt_set_always;
  }
  pthread_mutex_lock(&d->mu);
  if (enable)
    d->ompt_types |= bits;
  else
    d->ompt_types &= ~bits;
  update_tracing_bit(*d);
  pthread_mutex_unlock(&d->mu);
  return ompt_set_always;
}

ompt_set_result_t set_trace_native(ompt_device_t* device, int enable, int flags) {
  Device* d = device_of(device);
  if (!d || flags == 0) return ompt_set_error;
  int supported = flags & kNativeSupported;
  pthread_mutex_lock(&d->mu);
  if (enable)
    d->native_flags |= supported;
  else
    d->native_flags &= ~flags;
  update_tracing_bit(*d);
  pthread_mutex_unlock(&d->mu);
  if (!enable || supported == flags) return ompt_set_always;
  return supported ? ompt_set_sometimes : ompt_set_never;
}

int start_trace(ompt_device_t* device, ompt_callback_buffer_request_t request,
                ompt_callback_buffer_complete_t complete) {
  Device* d = device_of(device);
  if (!d || !request || !complete) return 0;
  pthread_mutex_lock(&d->mu);
  bool ok = !d->started;
  if (ok) {
    d->request = request;
    d->complete = complete;
    d->started = true;
    d->paused = false;
    update_tracing_bit(*d);
  }
  pthread_mutex_unlock(&d->mu);
  return ok;
}

// Pausing twice or resuming twice is harmless and answers as the first did.
int pause_trace(ompt_device_t* device, int begin_pause) {
  Device* d = device_of(device);
  if (!d) return 0;
  pthread_mutex_lock(&d->mu);
  bool ok = d->started;
  if (ok) {
    d->paused = begin_pause != 0;
    update_tracing_bit(*d);
  }
  pthread_mutex_unlock(&d->mu);
  return ok;
}

int flush_trace(ompt_device_t* device) {
  Device* d = device_of(device);
  if (!d) return 0;
  pthread_mutex_lock(&d->mu);
  bool ok = d->started;
  pthread_mutex_unlock(&d->mu);
  if (ok) deliver_all(*d);
  return ok;
}

// Stops collecting, then delivers every record collected before.
int stop_trace(ompt_device_t* device) {
  Device* d = device_of(device);
  if (!d) return 0;
  pthread_mutex_lock(&d->mu);
  bool ok = d->started;
  d->paused = false;
  pthread_mutex_unlock(&d->mu);
  if (!ok) return 0;
  // Records already queued still go out: collection stops first so that
  // the delivery below ends, then the callbacks are forgotten.
  pthread_mutex_lock(&d->mu);
  d->started = false;
  update_tracing_bit(*d);
  pthread_mutex_unlock(&d->mu);
  deliver_all(*d);
  return 1;
}

const Slot* slot_at(ompt_buffer_t* buffer, ompt_buffer_cursor_t current) {
  if (!buffer || current % sizeof(Slot) != 0) return nullptr;
  const Slot* s = reinterpret_cast<const Slot*>(static_cast<char*>(buffer) + current);
  return s->magic == kSlotMagic ? s : nullptr;
}

int advance_buffer_cursor(ompt_device_t*, ompt_buffer_t* buffer, size_t size,
                          ompt_buffer_cursor_t current, ompt_buffer_cursor_t* next) {
  if (!buffer || !next || current % sizeof(Slot) != 0) return 0;
  ompt_buffer_cursor_t n = current + sizeof(Slot);
  if (n + sizeof(Slot) > size) return 0;
  *next = n;
  return 1;
}

ompt_record_t get_record_type(ompt_buffer_t* buffer, ompt_buffer_cursor_t current) {
  const Slot* s = slot_at(buffer, current);
  return s ? ompt_record_t(s->kind) : ompt_record_invalid;
}

ompt_record_ompt_t* get_record_ompt(ompt_buffer_t* buffer, ompt_buffer_cursor_t current) {
  const Slot* s = slot_at(buffer, current);
  if (!s || s->kind != ompt_record_ompt) return nullptr;
  return const_cast<ompt_record_ompt_t*>(&s->u.ompt);
}

void* get_record_native(ompt_buffer_t* buffer, ompt_buffer_cursor_t current,
                        ompt_id_t* host_op_id) {
  const Slot* s = slot_at(buffer, current);
  if (!s || s->kind != ompt_record_native) return nullptr;
  if (host_op_id) *host_op_id = s->host_op_id;
  return const_cast<NativeRecord*>(&s->u.native);
}

ompt_record_abstract_t* get_record_abstract(void* native_record) {
  // A native record of this runtime starts with its abstract part.
  return native_record ? &static_cast<NativeRecord*>(native_record)->abstract : nullptr;
}

struct Entry {
  const char* name;
  ompt_interface_fn_t fn;
};

#define KITE_ENTRY(fn) {"ompt_" #fn, reinterpret_cast<ompt_interface_fn_t>(&fn)}
const Entry kEntries[] = {
    KITE_ENTRY(get_device_num_procs), KITE_ENTRY(get_device_time),
    KITE_ENTRY(translate_time),       KITE_ENTRY(set_trace_ompt),
    KITE_ENTRY(set_trace_native),     KITE_ENTRY(start_trace),
    KITE_ENTRY(pause_trace),          KITE_ENTRY(flush_trace),
    KITE_ENTRY(stop_trace),           KITE_ENTRY(advance_buffer_cursor),
    KITE_ENTRY(get_record_type),      KITE_ENTRY(get_record_ompt),
    KITE_ENTRY(get_record_native),    KITE_ENTRY(get_record_abstract),
};
#undef KITE_ENTRY

// --- native records -----------------------------------------------------------

// The native class and type string of an ompt record, or 0 when the
// activity has no native counterpart (target begin/end, maps).
int native_class(const ompt_record_ompt_t& r, const char** type) {
  if (r.type == ompt_callback_target_submit) {
    *type = "kite-emu:kernel";
    return ompt_native_kernel_execution | ompt_native_kernel_invocation;
  }
  if (r.type != ompt_callback_target_data_op) return 0;
  const ompt_record_target_data_op_t& op = r.record.target_data_op;
  // Transfers inside a device construct come from its map clauses
  // (implicit data motion); outside one, from omp_target_memcpy & co.
  int motion = r.target_id ? ompt_native_data_motion_implicit : ompt_native_data_motion_explicit;
  switch (op.optype) {
    case ompt_target_data_transfer_to_device:
    case ompt_target_data_transfer_to_device_async:
      *type = "kite-emu:copy-to-device";
      return motion;
    case ompt_target_data_transfer_from_device:
    case ompt_target_data_transfer_from_device_async:
      *type = "kite-emu:copy-from-device";
      return motion;
    case ompt_target_data_alloc:
    case ompt_target_data_alloc_async:
      *type = "kite-emu:alloc";
      return ompt_native_runtime;
    case ompt_target_data_delete:
    case ompt_target_data_delete_async:
      *type = "kite-emu:free";
      return ompt_native_runtime;
    case ompt_target_data_associate:
      *type = "kite-emu:associate";
      return ompt_native_runtime;
    case ompt_target_data_disassociate:
      *type = "kite-emu:disassociate";
      return ompt_native_runtime;
    default:
      *type = "kite-emu:data-op";
      return ompt_native_runtime;
  }
}

// Builds the records `rec` stands for (the ompt one, a native one, either,
// both or neither, as the tool asked) and commits them.
void append_record(Device& d, ompt_record_ompt_t* rec, ompt_device_time_t end, TraceSpan* span,
                   void* owned = nullptr) {
  Thread* me = tls_self;
  rec->thread_id = me ? ompt_id_t(me->gtid + 1) : 0;
  // Which kinds the tool wants is read without the lock: a record racing
  // with ompt_set_trace_ompt may go either way, as the call's effect on an
  // operation already under way is unspecified.
  Slot s[2];
  int n = 0;
  if (!(d.ompt_types & (1ull << rec->type))) {
    xfree(owned);
  } else {
    Slot& o = s[n++];
    o.magic = kSlotMagic;
    o.kind = ompt_record_ompt;
    o.host_op_id = 0;
    o.owned = owned;
    o.u.ompt = *rec;
  }
  const char* type = nullptr;
  int cls = d.native_flags ? native_class(*rec, &type) : 0;
  if (cls & d.native_flags) {
    Slot& o = s[n++];
    memset(&o, 0, sizeof o);
    o.magic = kSlotMagic;
    o.kind = ompt_record_native;
    NativeRecord& nr = o.u.native;
    nr.abstract.rclass = ompt_record_native_event;
    nr.abstract.type = type;
    nr.abstract.start_time = rec->time;
    nr.abstract.end_time = end;
    int cpu = sched_getcpu();
    nr.abstract.hwid = cpu >= 0 ? ompt_hwid_t(cpu) + 1 : ompt_hwid_none;
    nr.target_id = rec->target_id;
    nr.flag = cls & d.native_flags;
    if (rec->type == ompt_callback_target_submit) {
      o.host_op_id = rec->record.target_kernel.host_op_id;
    } else {
      o.host_op_id = rec->record.target_data_op.host_op_id;
      nr.bytes = rec->record.target_data_op.bytes;
    }
  }
  commit(d, s, n, span, span == nullptr);
}

}  // namespace

ompt_device_t* device_handle(int device_num) { return device_at(device_num); }

ompt_interface_fn_t device_lookup(const char* name) {
  if (!name) return nullptr;
  for (const Entry& e : kEntries)
    if (strcmp(e.name, name) == 0) return e.fn;
  return nullptr;
}

void device_trace_finalize(int device_num) {
  Device* d = device_at(device_num);
  if (!d) return;
  pthread_mutex_lock(&d->mu);
  bool started = d->started;
  pthread_mutex_unlock(&d->mu);
  if (started) stop_trace(d);
}

ompt_device_time_t device_time(int device_num) {
  return ompt_device_time_t(host_ns() + (device_num + 1) * kClockSkew);
}

void trace_span_begin(int device_num, TraceSpan* span) {
  Device* d = device_at(device_num);
  span->device_num = -1;
  if (!d) return;
  pthread_mutex_lock(&d->mu);
  // The start is read under the lock, so open spans are in start order.
  span->start = device_time(device_num);
  span->device_num = device_num;
  span->next = nullptr;
  span->prev = d->open_tail;
  if (d->open_tail)
    d->open_tail->next = span;
  else
    d->open_head = span;
  d->open_tail = span;
  pthread_mutex_unlock(&d->mu);
}

void trace_span_end(TraceSpan* span, ompt_record_ompt_t* rec) {
  if (span->device_num < 0) return;
  Device& d = g_devices[span->device_num];
  ompt_device_time_t end = device_time(span->device_num);
  rec->time = span->start;
  if (rec->type == ompt_callback_target_data_op)
    rec->record.target_data_op.end_time = end;
  else if (rec->type == ompt_callback_target_submit)
    rec->record.target_kernel.end_time = end;
  append_record(d, rec, end, span);
}

void trace_point(int device_num, ompt_record_ompt_t* rec) {
  Device* d = device_at(device_num);
  if (!d) return;
  append_record(*d, rec, 0, nullptr);
}

// --- hooks for the target emitters -------------------------------------------

namespace {

// The construct's id as the tool knows it (device_trace.h).
ompt_id_t traced_target_id(const TargetRecord* rec) {
  if (!rec) return 0;
  return g_callbacks.fn[ompt_callback_target_emi] ? rec->target_data.value : rec->target_id;
}

ompt_record_ompt_t new_record(ompt_callbacks_t type, const TargetRecord* rec) {
  ompt_record_ompt_t r;
  memset(&r, 0, sizeof r);
  r.type = type;
  r.target_id = traced_target_id(rec);
  return r;
}

}  // namespace

void trace_target_endpoint(TargetRecord* rec, ompt_scope_endpoint_t ep) {
  Device* d = device_at(rec->device_num);
  if (!d) return;
  ompt_record_ompt_t r = new_record(ompt_callback_target, rec);
  ompt_record_target_t& t = r.record.target;
  t.kind = ompt_target_t(rec->kind);
  t.endpoint = ep;
  t.device_num = rec->device_num;
  t.task_id = rec->task_data ? rec->task_data->value : 0;
  t.target_id = r.target_id;
  t.codeptr_ra = rec->codeptr_ra;
  append_record(*d, &r, 0, nullptr);
}

void trace_kernel_begin(TargetRecord* rec, KernelTrace* k, unsigned requested_num_teams) {
  // A construct submits one region; should a second submission come
  // first, the span is closed before it is reused.
  trace_kernel_end(rec, k);
  k->host_op_id = rec->host_op_id;
  k->requested_num_teams = requested_num_teams;
  trace_span_begin(rec->device_num, &k->span);
}

void trace_kernel_end(TargetRecord* rec, KernelTrace* k) {
  if (!trace_span_open(&k->span)) return;
  ompt_record_ompt_t r = new_record(ompt_callback_target_submit, rec);
  ompt_record_target_kernel_t& kr = r.record.target_kernel;
  kr.host_op_id = k->host_op_id;
  kr.requested_num_teams = k->requested_num_teams;
  // The emulated device grants what was asked for (one team when the
  // construct named no number).
  kr.granted_num_teams = k->requested_num_teams ? k->requested_num_teams : 1;
  trace_span_end(&k->span, &r);
}

int data_op_trace_device(const DataOp* op) {
  if (device_tracing(op->dest_device_num)) return op->dest_device_num;
  if (device_tracing(op->src_device_num)) return op->src_device_num;
  return -1;
}

void trace_data_op_begin(DataOp* op, TraceSpan* span) {
  int dev = data_op_trace_device(op);
  if (dev >= 0) trace_span_begin(dev, span);
}

void trace_data_op_end(TargetRecord* rec, DataOp* op, ompt_id_t host_op_id, TraceSpan* span) {
  if (!trace_span_open(span)) return;
  ompt_record_ompt_t r = new_record(ompt_callback_target_data_op, rec);
  ompt_record_target_data_op_t& o = r.record.target_data_op;
  o.host_op_id = host_op_id;
  o.optype = op->optype;
  o.src_addr = op->src_addr;
  o.src_device_num = op->src_device_num;
  o.dest_addr = op->dest_addr;
  o.dest_device_num = op->dest_device_num;
  o.bytes = op->bytes;
  o.codeptr_ra = op->codeptr_ra;
  trace_span_end(span, &r);
}

void trace_target_map(TargetRecord* rec, unsigned n, void** host, void** dev, size_t* bytes,
                      unsigned* flags, const void* codeptr_ra) {
  Device* d = rec ? device_at(rec->device_num) : nullptr;
  if (!d) return;
  ompt_record_ompt_t r = new_record(ompt_callback_target_map, rec);
  ompt_record_target_map_t& m = r.record.target_map;
  // One block holds the four arrays: host, device addresses, sizes, flags.
  size_t ptrs = size_t(n) * sizeof(void*);
  char* block = static_cast<char*>(xmalloc(3 * ptrs + size_t(n) * sizeof(unsigned) + 1));
  m.host_addr = reinterpret_cast<void**>(block);
  m.device_addr = reinterpret_cast<void**>(block + ptrs);
  m.bytes = reinterpret_cast<size_t*>(block + 2 * ptrs);
  m.mapping_flags = reinterpret_cast<unsigned*>(block + 3 * ptrs);
  if (n) {
    memcpy(m.host_addr, host, ptrs);
    memcpy(m.device_addr, dev, ptrs);
    memcpy(m.bytes, bytes, size_t(n) * sizeof(size_t));
    memcpy(m.mapping_flags, flags, size_t(n) * sizeof(unsigned));
  }
  m.target_id = r.target_id;
  m.nitems = n;
  m.codeptr_ra = codeptr_ra;
  append_record(*d, &r, 0, nullptr, block);
}

}  // namespace ompt
}  // namespace kite
