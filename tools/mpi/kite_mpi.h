// The MPI interposition library's shared parts (kite_mpi.cpp): how a
// wrapper finds the tool, records, names communicators and follows
// requests. The bindings (mpi_c.cpp: MPI_X -> PMPI_X; mpi_f.cpp: the
// gfortran mpif.h / `use mpi` bindings mpi_x_ -> pmpi_x_) are thin: each
// opens a Scope, notes what the call did, and closes it with the return
// code. The whole library is compiled once per MPI (KITE_MPI_IMPL:
// "openmpi" or "mpich"), against that MPI's mpi.h.
//
// What is recorded and how is mpi_format.h's contract. Without
// KITE_MPI_TOOL_LIB the wrappers only pass the calls through; with it,
// every rank takes part in the protocol that needs all of them (clock
// offsets, communicator ids), whether or not its tool could be found, so
// one rank without a tool never leaves the others waiting.
#pragma once

#include <mpi.h>
#include <stdint.h>

#include "mpi_format.h"
#include "raw_format.h"

namespace kmpi {

using kite_mpi::Call;
using kite_trace::Record;

// True with KITE_MPI_TOOL_LIB set (the protocol runs); recording needs the
// tool's entry point too (recording()).
extern bool g_active;
extern int (*g_record)(const Record *);
extern int g_world_rank, g_world_size;

// Per thread: how many wrapped calls are open. A wrapped call made inside
// another (a Fortran binding whose PMPI calls the C MPI_X) is passed
// through untouched: the outer one records it.
extern __thread int t_depth;

inline bool recording() { return g_record != nullptr; }

void record(uint8_t kind, uint8_t sub, uint32_t u32, uint64_t a, uint64_t b, uint64_t c,
            uint64_t d);

// One wrapped call: kMpiEnter at construction (when recording and the
// outermost call), kMpiLeave at done().
class Scope {
 public:
  Scope(Call call, void *ra) : call_(call), outer_(t_depth++ == 0) {
    rec_ = outer_ && recording();
    if (rec_) record(kite_trace::kMpiEnter, call, 0, 0, 0, uint64_t(ra), 0);
  }
  ~Scope() { --t_depth; }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;
  // The outermost wrapped call of its thread (it does the bookkeeping).
  bool outer() const { return outer_; }
  // Its records are wanted.
  bool rec() const { return rec_; }
  int done(int rc) {
    if (rec_) record(kite_trace::kMpiLeave, call_, uint32_t(rc), 0, 0, 0, 0);
    return rc;
  }

 private:
  Call call_;
  bool outer_, rec_;
};

// MPI_Init / MPI_Init_thread: before (the tool looked for, the OpenMP
// runtime started if it is not yet) and after the PMPI call (the world,
// the meta keys, the first clock offset).
void before_init();
void after_init(int rc, int provided);
// MPI_Finalize, before PMPI_Finalize: the second clock offset.
void before_finalize();

// Communicators: the id of mpi_format.h and a rank's world rank.
struct Peer {
  uint64_t comm = 0;
  uint32_t world = kite_mpi::kAnyRank;  // kAnyRank for MPI_ANY_SOURCE / MPI_PROC_NULL
};
Peer peer(MPI_Comm comm, int rank);
uint64_t comm_id(MPI_Comm comm);
// After a call that made `created` from a communicator (dup, split,
// create): agrees on its id with its members (a broadcast from its rank 0)
// and writes its members into the meta. Nothing for MPI_COMM_NULL.
void comm_created(MPI_Comm created);
// Before MPI_Comm_free.
void comm_freed(MPI_Comm comm);

// Bytes of count elements of a type (0 for a bad type or count).
uint64_t type_bytes(int count, MPI_Datatype type);
// Bytes a completed receive brought (its status).
uint64_t status_bytes(const MPI_Status *status, MPI_Datatype type);

// Point to point.
void note_send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type);
// A completed blocking receive (status from the call; type of the buffer).
void note_recv(MPI_Comm comm, const MPI_Status *status, MPI_Datatype type, uint64_t request);
// isend / irecv posted: the request remembered, kMpiSend / kMpiRecvRequest.
void note_isend(MPI_Request req, MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type);
void note_irecv(MPI_Request req, MPI_Comm comm, int source, int tag);
// A request completed by a wait/test call (its handle as it was before
// the call): kMpiSendComplete, kMpiRecv, kMpiCollectiveComplete, or
// kMpiRequestCancelled when its status says it was cancelled; nothing for
// a request the wrappers did not post (generalized, MPI_REQUEST_NULL) or
// an inactive persistent one.
void note_completed(MPI_Request req, const MPI_Status *status);

// Persistent requests (mpi_format.h): made (nothing recorded), started
// (kMpiSend / kMpiRecvRequest with a fresh request id), completed by
// note_completed (kept, inactive), forgotten by note_request_free (any
// request: a freed one is never matched to a later request that reuses
// its handle).
void note_send_init(MPI_Request req, MPI_Comm comm, int dest, int tag, int count,
                    MPI_Datatype type);
void note_recv_init(MPI_Request req, MPI_Comm comm, int source, int tag);
void note_start(MPI_Request req);
void note_request_free(MPI_Request req);

// While one lives, on its thread, the coll_* functions below record the
// start of the non-blocking collective `icall` with request `req`
// (kMpiCollectiveRequest, the bytes as the blocking operation's), which
// note_completed completes (kMpiCollectiveComplete).
class ICollective {
 public:
  ICollective(Call icall, MPI_Request req);
  ~ICollective();
  ICollective(const ICollective &) = delete;
  ICollective &operator=(const ICollective &) = delete;
};

// Collectives: kMpiCollective. root: a rank of comm, or -1 (none).
void note_collective(Call call, MPI_Comm comm, int root, uint64_t sent, uint64_t received);

// Each collective's kMpiCollective from its C arguments (mpi_c.cpp).
void coll_barrier(MPI_Comm comm);
void coll_bcast(MPI_Comm comm, int count, MPI_Datatype type, int root);
void coll_reduce(MPI_Comm comm, int count, MPI_Datatype type, int root);
void coll_every(Call call, MPI_Comm comm, int count, MPI_Datatype type);
void coll_gather(MPI_Comm comm, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype,
                 int root);
void coll_gatherv(MPI_Comm comm, int scount, MPI_Datatype stype, const int *rcounts,
                  MPI_Datatype rtype, int root);
void coll_scatter(MPI_Comm comm, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype,
                  int root);
void coll_scatterv(MPI_Comm comm, const int *scounts, MPI_Datatype stype, int rcount,
                   MPI_Datatype rtype, int root);
void coll_allgatherv(MPI_Comm comm, const int *rcounts, MPI_Datatype rtype);
void coll_alltoallv(MPI_Comm comm, const int *scounts, MPI_Datatype stype, const int *rcounts,
                    MPI_Datatype rtype, bool in_place);
void coll_reduce_scatter(MPI_Comm comm, const int *rcounts, MPI_Datatype type);
void coll_scan(Call call, MPI_Comm comm, int count, MPI_Datatype type);

// Warnings on stderr, prefixed "kite-mpi: ".
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace kmpi

#define KMPI_RA __builtin_return_address(0)
#define KMPI_EXPORT extern "C" __attribute__((visibility("default")))
