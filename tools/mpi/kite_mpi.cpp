// The MPI interposition library's shared parts (kite_mpi.h): finding the
// tool, the records, communicator ids, the request map and the clock
// offsets of mpi_format.h. No C++ library: plain C facilities only (the
// library is preloaded into C and Fortran programs).
#include "kite_mpi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef KITE_MPI_IMPL
#error "KITE_MPI_IMPL (openmpi or mpich) must be defined"
#endif

namespace kmpi {

using namespace kite_trace;
using namespace kite_mpi;

bool g_active;
int (*g_record)(const Record *);
int g_world_rank, g_world_size = 1;
__thread int t_depth;

namespace {

void (*g_meta)(const char *);
uint64_t (*g_now)(void);
MPI_Comm g_clock_comm = MPI_COMM_NULL;  // private duplicate of the world for the clock

uint64_t now_ns() {
  if (g_now) return g_now();
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

void meta(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void meta(const char *fmt, ...) {
  if (!g_meta) return;
  char line[8192];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n > 0 && size_t(n) < sizeof line) g_meta(line);
}

template <class H>
uint64_t key_of(H h) {
  static_assert(sizeof(H) <= sizeof(uint64_t), "MPI handle wider than 64 bits");
  uint64_t k = 0;
  memcpy(&k, &h, sizeof h);
  return k;
}

// ---- communicators ----------------------------------------------------------
// Every communicator the wrappers saw created, or met first in a call: its
// id and members (world ranks, in its rank order; the remote group of an
// inter-communicator, the side its peers' ranks name). A short list: a
// program has a few communicators.
struct Comm {
  uint64_t key;
  uint64_t id;
  int n;
  int *world;  // n world ranks
  Comm *next;
};
pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER;
Comm *comms;
uint32_t comm_counter;  // this rank's communicators (it being their rank 0)

// Communicators made by calls the wrappers do not wrap (MPI_Cart_create,
// MPI_Comm_create_group, inter-communicators, ...) cannot agree on an id
// by a message at first use: theirs is kUnseenBase | a hash of their
// members (the same on every member). mpi_format.h says so.
using kite_mpi::kUnseenBase;

// The members' world ranks (local group; remote group for an
// inter-communicator). n = 0 on failure.
int *members(MPI_Comm c, int *n) {
  *n = 0;
  int inter = 0;
  PMPI_Comm_test_inter(c, &inter);
  MPI_Group g, world;
  if ((inter ? PMPI_Comm_remote_group(c, &g) : PMPI_Comm_group(c, &g)) != MPI_SUCCESS) return nullptr;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int size = 0;
  PMPI_Group_size(g, &size);
  int *ranks = static_cast<int *>(malloc(sizeof(int) * size_t(size > 0 ? size : 1)));
  int *out = static_cast<int *>(malloc(sizeof(int) * size_t(size > 0 ? size : 1)));
  if (ranks && out) {
    for (int i = 0; i < size; ++i) ranks[i] = i;
    if (PMPI_Group_translate_ranks(g, size, ranks, world, out) == MPI_SUCCESS)
      *n = size;
  }
  free(ranks);
  PMPI_Group_free(&g);
  PMPI_Group_free(&world);
  if (*n == 0) {
    free(out);
    return nullptr;
  }
  return out;
}

void write_members(uint64_t id, const int *world, int n) {
  if (!g_meta || n <= 0) return;
  size_t cap = size_t(n) * 12 + 64;
  char *line = static_cast<char *>(malloc(cap));
  if (!line) return;
  size_t at = size_t(snprintf(line, cap, "mpi_comm.%llu=", (unsigned long long)id));
  for (int i = 0; i < n; ++i)
    at += size_t(snprintf(line + at, cap - at, i ? ",%d" : "%d", world[i]));
  snprintf(line + at, cap - at, "\n");
  g_meta(line);
  free(line);
}

// Adds c (lock held). Takes world.
Comm *add_comm(MPI_Comm c, uint64_t id, int *world, int n) {
  Comm *e = static_cast<Comm *>(malloc(sizeof(Comm)));
  if (!e) {
    free(world);
    return nullptr;
  }
  e->key = key_of(c);
  e->id = id;
  e->n = n;
  e->world = world;
  e->next = comms;
  comms = e;
  return e;
}

Comm *find_comm(uint64_t key) {
  for (Comm *e = comms; e; e = e->next)
    if (e->key == key) return e;
  return nullptr;
}

// The entry of c, made at first use for a communicator not seen created
// (lock held).
Comm *comm_entry(MPI_Comm c) {
  uint64_t key = key_of(c);
  if (Comm *e = find_comm(key)) return e;
  int n = 0;
  int *world = members(c, &n);
  if (!world) return nullptr;
  uint32_t h = 2166136261u;  // FNV-1a over the members
  for (int i = 0; i < n; ++i)
    for (int b = 0; b < 4; ++b) {
      h ^= uint32_t(world[i] >> (8 * b)) & 0xffu;
      h *= 16777619u;
    }
  uint64_t id = kUnseenBase | h;
  write_members(id, world, n);
  return add_comm(c, id, world, n);
}

// ---- requests ---------------------------------------------------------------
// Requests posted by isend/irecv/non-blocking collectives, until a
// wait/test call completes them, and persistent requests, from their
// MPI_X_init until MPI_Request_free: open addressing on the handle (one
// handle may be there more than once), grown at half full, under a lock
// (calls from several threads at once under MPI_THREAD_MULTIPLE).
enum What : uint8_t { kReqSend, kReqRecv, kReqCollective };
struct Pending {
  uint64_t key;  // the handle; 0: free slot
  uint64_t id;   // request id of its (current) start; 0: a persistent one not started yet
  uint64_t comm;
  uint64_t bytes;     // sent (a collective: this rank's bytes sent)
  uint64_t tag;
  uint64_t received;  // a collective: this rank's bytes received
  uint32_t peer;      // world rank (a collective: its root, or kAnyRank)
  uint8_t what;
  uint8_t call;       // a collective: its I-call
  bool persistent;    // made by MPI_X_init: stays until MPI_Request_free
  bool active;        // a persistent request started and not yet completed
};
pthread_mutex_t req_lock = PTHREAD_MUTEX_INITIALIZER;
Pending *reqs;
size_t req_cap, req_used;
uint64_t req_counter;  // request ids (atomic increments)

uint64_t new_request_id() { return __atomic_add_fetch(&req_counter, 1, __ATOMIC_RELAXED); }

size_t slot_of(uint64_t key, size_t cap) {
  uint64_t h = key * 0x9e3779b97f4a7c15ull;
  return size_t(h >> 20) & (cap - 1);
}

bool grow_reqs() {
  size_t cap = req_cap ? req_cap * 2 : 256;
  Pending *t = static_cast<Pending *>(calloc(cap, sizeof(Pending)));
  if (!t) return false;
  for (size_t i = 0; i < req_cap; ++i)
    if (reqs[i].key) {
      size_t j = slot_of(reqs[i].key, cap);
      while (t[j].key) j = (j + 1) & (cap - 1);
      t[j] = reqs[i];
    }
  free(reqs);
  reqs = t;
  req_cap = cap;
  return true;
}

// MPI_REQUEST_NULL's bits are never a posted request's; a handle whose
// bits are 0 (MPICH's request ints are not) is stored as ~0.
uint64_t req_key(MPI_Request r) {
  uint64_t k = key_of(r);
  return k ? k : ~uint64_t(0);
}

void put_request(const Pending &p) {
  pthread_mutex_lock(&req_lock);
  if ((req_used + 1) * 2 > req_cap && !grow_reqs()) {
    pthread_mutex_unlock(&req_lock);
    return;
  }
  size_t j = slot_of(p.key, req_cap);
  while (reqs[j].key) j = (j + 1) & (req_cap - 1);
  ++req_used;
  reqs[j] = p;
  pthread_mutex_unlock(&req_lock);
}

// The slot of a handle's entry (lock held), req_cap if none. A handle may
// be pending more than once: MPICH hands out one predefined, already
// complete request for every isend that completed at once. The oldest
// entry of the handle is the one (persistent ones only, when asked).
size_t find_request(uint64_t key, bool persistent_only) {
  size_t j = req_cap;
  if (!req_cap) return j;
  for (size_t k = slot_of(key, req_cap); reqs[k].key; k = (k + 1) & (req_cap - 1))
    if (reqs[k].key == key && (!persistent_only || reqs[k].persistent) &&
        (j == req_cap || reqs[k].id < reqs[j].id))
      j = k;
  return j;
}

// Removes the entry at slot j (lock held): backward-shift deletion, later
// entries of the run move up.
void remove_request(size_t j) {
  size_t hole = j;
  for (size_t k = (j + 1) & (req_cap - 1); reqs[k].key; k = (k + 1) & (req_cap - 1)) {
    size_t home = slot_of(reqs[k].key, req_cap);
    bool movable = hole <= k ? (home <= hole || home > k) : (home <= hole && home > k);
    if (movable) {
      reqs[hole] = reqs[k];
      hole = k;
    }
  }
  reqs[hole].key = 0;
  --req_used;
}

// The entry a wait/test call completed: taken out of the map, or, for a
// persistent request, made inactive (false for one not started).
bool complete_request(uint64_t key, Pending *out) {
  bool found = false;
  pthread_mutex_lock(&req_lock);
  size_t j = find_request(key, false);
  if (j != req_cap) {
    *out = reqs[j];
    if (!reqs[j].persistent) {
      remove_request(j);
      found = true;
    } else if (reqs[j].active) {
      reqs[j].active = false;
      found = true;
    }
  }
  pthread_mutex_unlock(&req_lock);
  return found;
}

// Non-blocking collective being started on this thread: note_collective
// records its kMpiCollectiveRequest and remembers the request.
__thread Call t_icall;
__thread MPI_Request t_ireq;

// ---- clock offsets ----------------------------------------------------------
// A few ping-pongs between rank 0 and each other rank over the private
// communicator: the rank sends, rank 0 answers with its clock, the rank
// keeps the exchange of the smallest round trip (mpi_format.h).
constexpr int kPingPongs = 8;
constexpr int kClockTag = 7;

void measure_clock(const char *key) {
  if (g_clock_comm == MPI_COMM_NULL) return;
  if (g_world_rank == 0) {
    for (int r = 1; r < g_world_size; ++r)
      for (int k = 0; k < kPingPongs; ++k) {
        unsigned long long ping = 0;
        PMPI_Recv(&ping, 1, MPI_UNSIGNED_LONG_LONG, r, kClockTag, g_clock_comm, MPI_STATUS_IGNORE);
        unsigned long long t = now_ns();
        PMPI_Send(&t, 1, MPI_UNSIGNED_LONG_LONG, r, kClockTag, g_clock_comm);
      }
    meta("%s=%llu 0 0\n", key, (unsigned long long)now_ns());
    return;
  }
  uint64_t best_rtt = ~uint64_t(0), at = 0;
  int64_t offset = 0;
  for (int k = 0; k < kPingPongs; ++k) {
    unsigned long long t0 = now_ns(), theirs = 0;
    PMPI_Send(&t0, 1, MPI_UNSIGNED_LONG_LONG, 0, kClockTag, g_clock_comm);
    PMPI_Recv(&theirs, 1, MPI_UNSIGNED_LONG_LONG, 0, kClockTag, g_clock_comm, MPI_STATUS_IGNORE);
    uint64_t t1 = now_ns();
    if (t1 - t0 < best_rtt) {
      best_rtt = t1 - t0;
      at = t0 + (t1 - t0) / 2;
      offset = int64_t(theirs) - int64_t(at);
    }
  }
  meta("%s=%llu %lld %llu\n", key, (unsigned long long)at, (long long)offset,
       (unsigned long long)(best_rtt / 2));
}

bool warned_no_tool;

}  // namespace

void warn(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kite-mpi: %s\n", line);
}

void record(uint8_t kind, uint8_t sub, uint32_t u32, uint64_t a, uint64_t b, uint64_t c,
            uint64_t d) {
  if (!g_record) return;
  Record r;
  memset(&r, 0, sizeof r);
  r.kind = kind;
  r.sub = sub;
  r.u32 = u32;
  r.a = a;
  r.b = b;
  r.c = c;
  r.d = d;
  g_record(&r);
}

// ---- init / finalize --------------------------------------------------------

void before_init() {
  const char *lib = getenv("KITE_MPI_TOOL_LIB");
  g_active = lib && *lib;
  if (!g_active) return;
  // The runtime loads the tool RTLD_LOCAL: found by its path, if loaded.
  void *h = dlopen(lib, RTLD_NOLOAD | RTLD_LAZY);
  if (!h) {
    // A runtime that loads its tool at its first OpenMP call (LLVM's
    // libomp) has not yet: one call starts it.
    if (void *f = dlsym(RTLD_DEFAULT, "omp_get_max_threads")) reinterpret_cast<int (*)()>(f)();
    h = dlopen(lib, RTLD_NOLOAD | RTLD_LAZY);
  }
  if (h) {
    g_record = reinterpret_cast<int (*)(const Record *)>(dlsym(h, "kite_rec_external"));
    g_meta = reinterpret_cast<void (*)(const char *)>(dlsym(h, "kite_rec_meta"));
    g_now = reinterpret_cast<uint64_t (*)()>(dlsym(h, "kite_rec_now_ns"));
  }
  if (!g_record || !g_meta || !g_now) {
    g_record = nullptr;
    g_meta = nullptr;
    g_now = nullptr;
    if (!warned_no_tool) {
      warned_no_tool = true;
      warn("KITE_MPI_TOOL_LIB=%s is set, but that tool library is not loaded in this process "
           "(no OpenMP runtime loaded it through OMP_TOOL_LIBRARIES), or lacks the recorder's "
           "entry points; MPI calls are not recorded",
           lib);
    }
  }
}

void after_init(int rc, int provided) {
  if (!g_active || rc != MPI_SUCCESS) return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &g_world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g_world_size);
  PMPI_Comm_dup(MPI_COMM_WORLD, &g_clock_comm);
  char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
  int len = 0;
  if (PMPI_Get_processor_name(host, &len) != MPI_SUCCESS) len = 0;
  host[len > 0 && len <= MPI_MAX_PROCESSOR_NAME ? len : 0] = 0;
  for (char *p = host; *p; ++p)
    if (*p == '\n') *p = ' ';
  meta("mpi=%s\nmpi_world_rank=%d\nmpi_world_size=%d\nmpi_thread_level=%d\nmpi_host=%s\n",
       KITE_MPI_IMPL, g_world_rank, g_world_size, provided, host);
  measure_clock("mpi_clock_init");
}

void before_finalize() {
  if (!g_active) return;
  measure_clock("mpi_clock_final");
  if (g_clock_comm != MPI_COMM_NULL) PMPI_Comm_free(&g_clock_comm);
}

// ---- communicators ----------------------------------------------------------

Peer peer(MPI_Comm comm, int rank) {
  Peer p;
  if (comm == MPI_COMM_WORLD) {
    p.comm = kWorldComm;
    if (rank >= 0 && rank < g_world_size) p.world = uint32_t(rank);
    return p;
  }
  if (comm == MPI_COMM_SELF) {
    p.comm = kSelfBase + uint32_t(g_world_rank);
    if (rank == 0) p.world = uint32_t(g_world_rank);
    return p;
  }
  pthread_mutex_lock(&comm_lock);
  if (Comm *e = comm_entry(comm)) {
    p.comm = e->id;
    if (rank >= 0 && rank < e->n) p.world = uint32_t(e->world[rank]);
  }
  pthread_mutex_unlock(&comm_lock);
  return p;
}

uint64_t comm_id(MPI_Comm comm) { return peer(comm, -1).comm; }

void comm_created(MPI_Comm c) {
  if (!g_active || c == MPI_COMM_NULL) return;
  int inter = 0;
  PMPI_Comm_test_inter(c, &inter);
  if (inter) {  // no single rank 0 to tell an id: the members' hash (comm_entry)
    pthread_mutex_lock(&comm_lock);
    comm_entry(c);
    pthread_mutex_unlock(&comm_lock);
    return;
  }
  int rank = 0;
  PMPI_Comm_rank(c, &rank);
  unsigned long long id = 0;
  if (rank == 0)
    id = (uint64_t(uint32_t(g_world_rank) + 1) << 32) |
         __atomic_add_fetch(&comm_counter, 1, __ATOMIC_RELAXED);
  // Before any call of the program on it, so no collective of its own can
  // be matched with this one.
  PMPI_Bcast(&id, 1, MPI_UNSIGNED_LONG_LONG, 0, c);
  int n = 0;
  int *world = members(c, &n);
  if (!world) return;
  write_members(id, world, n);
  pthread_mutex_lock(&comm_lock);
  if (Comm *old = find_comm(key_of(c))) {  // a stale entry of a reused handle
    free(old->world);
    old->world = world;
    old->n = n;
    old->id = id;
  } else {
    add_comm(c, id, world, n);
  }
  pthread_mutex_unlock(&comm_lock);
}

void comm_freed(MPI_Comm c) {
  uint64_t key = key_of(c);
  pthread_mutex_lock(&comm_lock);
  for (Comm **p = &comms; *p; p = &(*p)->next)
    if ((*p)->key == key) {
      Comm *e = *p;
      *p = e->next;
      free(e->world);
      free(e);
      break;
    }
  pthread_mutex_unlock(&comm_lock);
}

// ---- point to point ---------------------------------------------------------

uint64_t type_bytes(int count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS || size < 0) return 0;
  return uint64_t(count) * uint64_t(size);
}

uint64_t status_bytes(const MPI_Status *status, MPI_Datatype type) {
  // Whole elements of the receive's type times its size; a partial
  // element (MPI_UNDEFINED), or no type, as the status's byte count.
  int count = MPI_UNDEFINED;
  if (type != MPI_DATATYPE_NULL &&
      PMPI_Get_count(status, type, &count) == MPI_SUCCESS && count != MPI_UNDEFINED)
    return type_bytes(count, type);
  count = 0;
  if (PMPI_Get_count(status, MPI_BYTE, &count) != MPI_SUCCESS || count == MPI_UNDEFINED) return 0;
  return count > 0 ? uint64_t(count) : 0;
}

static uint64_t tag_of(int tag) { return tag == MPI_ANY_TAG ? kAnyTag : uint64_t(uint32_t(tag)); }

void note_send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type) {
  if (dest == MPI_PROC_NULL) return;  // no message
  Peer p = peer(comm, dest);
  record(kMpiSend, 0, p.world, p.comm, tag_of(tag), 0, type_bytes(count, type));
}

void note_recv(MPI_Comm comm, const MPI_Status *status, MPI_Datatype type, uint64_t request) {
  if (status->MPI_SOURCE == MPI_PROC_NULL || status->MPI_SOURCE < 0) return;  // no message
  Peer p = peer(comm, status->MPI_SOURCE);
  record(kMpiRecv, 0, p.world, p.comm, tag_of(status->MPI_TAG), request, status_bytes(status, type));
}

void note_isend(MPI_Request req, MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type) {
  if (dest == MPI_PROC_NULL || req == MPI_REQUEST_NULL) return;
  Pending e;
  memset(&e, 0, sizeof e);
  e.key = req_key(req);
  e.id = new_request_id();
  Peer p = peer(comm, dest);
  e.comm = p.comm;
  e.peer = p.world;
  e.tag = tag_of(tag);
  e.bytes = type_bytes(count, type);
  e.what = kReqSend;
  put_request(e);
  record(kMpiSend, 0, e.peer, e.comm, e.tag, e.id, e.bytes);
}

void note_irecv(MPI_Request req, MPI_Comm comm, int source, int tag) {
  if (source == MPI_PROC_NULL || req == MPI_REQUEST_NULL) return;
  Pending e;
  memset(&e, 0, sizeof e);
  e.key = req_key(req);
  e.id = new_request_id();
  Peer p = peer(comm, source == MPI_ANY_SOURCE ? -1 : source);
  e.comm = p.comm;
  e.peer = p.world;
  e.tag = tag_of(tag);
  e.what = kReqRecv;
  put_request(e);
  record(kMpiRecvRequest, 0, e.peer, e.comm, e.tag, e.id, 0);
}

void note_completed(MPI_Request req, const MPI_Status *status) {
  if (req == MPI_REQUEST_NULL) return;
  Pending e;
  if (!complete_request(req_key(req), &e)) return;
  if (e.what == kReqCollective) {
    record(kMpiCollectiveComplete, e.call, e.peer, e.comm, e.bytes, e.id, e.received);
    return;
  }
  int cancelled = 0;
  if (PMPI_Test_cancelled(status, &cancelled) == MPI_SUCCESS && cancelled) {
    record(kMpiRequestCancelled, 0, 0, e.id, 0, 0, 0);
    return;
  }
  if (e.what == kReqSend) {
    record(kMpiSendComplete, 0, 0, e.id, 0, 0, 0);
    return;
  }
  if (status->MPI_SOURCE == MPI_PROC_NULL || status->MPI_SOURCE < 0) return;
  // The sender from the status, through the communicator the irecv named
  // (its id was kept; its members may be needed for a wildcard source).
  uint32_t world = e.peer;
  if (e.comm == kWorldComm) {
    world = uint32_t(status->MPI_SOURCE);
  } else if (e.comm == kSelfBase + uint32_t(g_world_rank)) {
    world = uint32_t(g_world_rank);
  } else {
    pthread_mutex_lock(&comm_lock);
    for (Comm *c = comms; c; c = c->next)
      if (c->id == e.comm) {
        if (status->MPI_SOURCE < c->n) world = uint32_t(c->world[status->MPI_SOURCE]);
        break;
      }
    pthread_mutex_unlock(&comm_lock);
  }
  record(kMpiRecv, 0, world, e.comm, tag_of(status->MPI_TAG), e.id,
         status_bytes(status, MPI_DATATYPE_NULL));
}

// ---- persistent requests, freeing, non-blocking collectives ------------------------

void note_send_init(MPI_Request req, MPI_Comm comm, int dest, int tag, int count,
                    MPI_Datatype type) {
  if (dest == MPI_PROC_NULL || req == MPI_REQUEST_NULL) return;  // its starts send nothing
  Pending e;
  memset(&e, 0, sizeof e);
  e.key = req_key(req);
  Peer p = peer(comm, dest);
  e.comm = p.comm;
  e.peer = p.world;
  e.tag = tag_of(tag);
  e.bytes = type_bytes(count, type);
  e.what = kReqSend;
  e.persistent = true;
  put_request(e);
}

void note_recv_init(MPI_Request req, MPI_Comm comm, int source, int tag) {
  if (source == MPI_PROC_NULL || req == MPI_REQUEST_NULL) return;
  Pending e;
  memset(&e, 0, sizeof e);
  e.key = req_key(req);
  Peer p = peer(comm, source == MPI_ANY_SOURCE ? -1 : source);
  e.comm = p.comm;
  e.peer = p.world;
  e.tag = tag_of(tag);
  e.what = kReqRecv;
  e.persistent = true;
  put_request(e);
}

void note_start(MPI_Request req) {
  if (req == MPI_REQUEST_NULL) return;
  Pending e;
  bool found = false;
  pthread_mutex_lock(&req_lock);
  size_t j = find_request(req_key(req), true);
  if (j != req_cap) {
    reqs[j].id = new_request_id();
    reqs[j].active = true;
    e = reqs[j];
    found = true;
  }
  pthread_mutex_unlock(&req_lock);
  if (!found) return;  // a request the wrappers did not see made, or to MPI_PROC_NULL
  if (e.what == kReqSend)
    record(kMpiSend, 0, e.peer, e.comm, e.tag, e.id, e.bytes);
  else
    record(kMpiRecvRequest, 0, e.peer, e.comm, e.tag, e.id, 0);
}

void note_request_free(MPI_Request req) {
  if (req == MPI_REQUEST_NULL) return;
  pthread_mutex_lock(&req_lock);
  size_t j = find_request(req_key(req), false);
  if (j != req_cap) remove_request(j);
  pthread_mutex_unlock(&req_lock);
}

ICollective::ICollective(Call icall, MPI_Request req) {
  t_icall = icall;
  t_ireq = req;
}
ICollective::~ICollective() { t_icall = kNoCall; }

// ---- collectives --------------------------------------------------------------

void note_collective(Call call, MPI_Comm comm, int root, uint64_t sent, uint64_t received) {
  Peer p = peer(comm, root);
  uint32_t root_world = root < 0 ? kAnyRank : p.world;
  if (t_icall == kNoCall) {
    record(kMpiCollective, call, root_world, p.comm, sent, 0, received);
    return;
  }
  // A non-blocking collective's start (ICollective): remembered until the
  // wait/test call that completes it.
  Pending e;
  memset(&e, 0, sizeof e);
  e.id = new_request_id();
  e.comm = p.comm;
  e.peer = root_world;
  e.bytes = sent;
  e.received = received;
  e.what = kReqCollective;
  e.call = t_icall;
  if (t_ireq != MPI_REQUEST_NULL) {
    e.key = req_key(t_ireq);
    put_request(e);
  }
  record(kMpiCollectiveRequest, t_icall, root_world, p.comm, sent, e.id, received);
}

}  // namespace kmpi
