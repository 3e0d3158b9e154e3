// The C bindings: MPI_X records (kite_mpi.h Scope) and calls PMPI_X. Every
// call of mpi_format.h KITE_MPI_CALLS.
#include <stdlib.h>
#include <string.h>

#include "kite_mpi.h"

using namespace kmpi;
using namespace kite_mpi;

namespace {

// A status to read when the caller passed MPI_STATUS_IGNORE.
inline MPI_Status *status_or(MPI_Status *given, MPI_Status *local) {
  return given == MPI_STATUS_IGNORE ? local : given;
}

// Room for n statuses when the caller passed MPI_STATUSES_IGNORE (and a
// request there may need its status read): on the stack for a few,
// allocated beyond.
struct Statuses {
  MPI_Status local[16];
  MPI_Status *p = nullptr;
  bool owned = false;
  Statuses(MPI_Status *given, int n) {
    if (given != MPI_STATUSES_IGNORE) {
      p = given;
    } else if (n <= 16) {
      p = local;
    } else {
      p = static_cast<MPI_Status *>(malloc(sizeof(MPI_Status) * size_t(n)));
      owned = p != nullptr;
      if (!p) p = MPI_STATUSES_IGNORE;
    }
  }
  ~Statuses() {
    if (owned) free(p);
  }
  Statuses(const Statuses &) = delete;
  Statuses &operator=(const Statuses &) = delete;
};

// Copies of the request handles a wait/test call is given (it sets the
// completed ones to MPI_REQUEST_NULL).
struct Handles {
  MPI_Request local[16];
  MPI_Request *p = local;
  bool owned = false;
  Handles(const MPI_Request *r, int n) {
    if (n > 16) {
      p = static_cast<MPI_Request *>(malloc(sizeof(MPI_Request) * size_t(n)));
      owned = p != nullptr;
      if (!p) n = 0;
    }
    if (n > 0) memcpy(p, r, sizeof(MPI_Request) * size_t(n));
  }
  ~Handles() {
    if (owned) free(p);
  }
  Handles(const Handles &) = delete;
  Handles &operator=(const Handles &) = delete;
};

int comm_size(MPI_Comm c) {
  int n = 0;
  PMPI_Comm_size(c, &n);
  return n;
}
int comm_rank(MPI_Comm c) {
  int r = 0;
  PMPI_Comm_rank(c, &r);
  return r;
}
uint64_t sum_bytes(const int *counts, int n, MPI_Datatype type) {
  uint64_t total = 0;
  if (counts)
    for (int i = 0; i < n; ++i) total += type_bytes(counts[i], type);
  return total;
}

}  // namespace

// ---- init / finalize ----------------------------------------------------------

KMPI_EXPORT int MPI_Init(int *argc, char ***argv) {
  if (t_depth) return PMPI_Init(argc, argv);
  before_init();
  Scope s(kInit, KMPI_RA);
  int rc = PMPI_Init(argc, argv);
  int provided = MPI_THREAD_SINGLE;
  if (rc == MPI_SUCCESS) PMPI_Query_thread(&provided);
  after_init(rc, provided);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  if (t_depth) return PMPI_Init_thread(argc, argv, required, provided);
  before_init();
  Scope s(kInit_thread, KMPI_RA);
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  after_init(rc, *provided);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Finalize(void) {
  Scope s(kFinalize, KMPI_RA);
  if (s.outer()) before_finalize();
  return s.done(PMPI_Finalize());
}

// ---- point to point -------------------------------------------------------------

#define KMPI_BLOCKING_SEND(Name)                                                          \
  KMPI_EXPORT int MPI_##Name(const void *buf, int count, MPI_Datatype type, int dest,     \
                             int tag, MPI_Comm comm) {                                    \
    Scope s(k##Name, KMPI_RA);                                                            \
    if (s.rec() && comm != MPI_COMM_NULL) note_send(comm, dest, tag, count, type);        \
    return s.done(PMPI_##Name(buf, count, type, dest, tag, comm));                        \
  }
KMPI_BLOCKING_SEND(Send)
KMPI_BLOCKING_SEND(Bsend)
KMPI_BLOCKING_SEND(Ssend)
KMPI_BLOCKING_SEND(Rsend)

KMPI_EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
                         MPI_Comm comm, MPI_Status *status) {
  Scope s(kRecv, KMPI_RA);
  if (!s.rec()) return PMPI_Recv(buf, count, type, source, tag, comm, status);
  MPI_Status local;
  MPI_Status *st = status_or(status, &local);
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
  if (rc == MPI_SUCCESS) note_recv(comm, st, type, 0);
  return s.done(rc);
}

// A send that leaves a request: the nonblocking sends (note_isend) and the
// persistent ones' _init (note_send_init).
#define KMPI_REQUEST_SEND(Name, note)                                                     \
  KMPI_EXPORT int MPI_##Name(const void *buf, int count, MPI_Datatype type, int dest,     \
                             int tag, MPI_Comm comm, MPI_Request *req) {                  \
    Scope s(k##Name, KMPI_RA);                                                            \
    int rc = PMPI_##Name(buf, count, type, dest, tag, comm, req);                         \
    if (s.rec() && rc == MPI_SUCCESS) note(*req, comm, dest, tag, count, type);           \
    return s.done(rc);                                                                    \
  }
KMPI_REQUEST_SEND(Isend, note_isend)
KMPI_REQUEST_SEND(Ibsend, note_isend)
KMPI_REQUEST_SEND(Issend, note_isend)
KMPI_REQUEST_SEND(Irsend, note_isend)

KMPI_EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
                          MPI_Comm comm, MPI_Request *req) {
  Scope s(kIrecv, KMPI_RA);
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
  if (s.rec() && rc == MPI_SUCCESS) note_irecv(*req, comm, source, tag);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest,
                             int stag, void *rbuf, int rcount, MPI_Datatype rtype, int source,
                             int rtag, MPI_Comm comm, MPI_Status *status) {
  Scope s(kSendrecv, KMPI_RA);
  if (!s.rec())
    return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                         comm, status);
  if (comm != MPI_COMM_NULL) note_send(comm, dest, stag, scount, stype);
  MPI_Status local;
  MPI_Status *st = status_or(status, &local);
  int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
                         comm, st);
  if (rc == MPI_SUCCESS) note_recv(comm, st, rtype, 0);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                                     int stag, int source, int rtag, MPI_Comm comm,
                                     MPI_Status *status) {
  Scope s(kSendrecv_replace, KMPI_RA);
  if (!s.rec())
    return PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
  if (comm != MPI_COMM_NULL) note_send(comm, dest, stag, count, type);
  MPI_Status local;
  MPI_Status *st = status_or(status, &local);
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, st);
  if (rc == MPI_SUCCESS) note_recv(comm, st, type, 0);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  Scope s(kProbe, KMPI_RA);
  return s.done(PMPI_Probe(source, tag, comm, status));
}

KMPI_EXPORT int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  Scope s(kIprobe, KMPI_RA);
  return s.done(PMPI_Iprobe(source, tag, comm, flag, status));
}

// ---- persistent requests, freeing, cancelling ----------------------------------------

KMPI_REQUEST_SEND(Send_init, note_send_init)
KMPI_REQUEST_SEND(Bsend_init, note_send_init)
KMPI_REQUEST_SEND(Ssend_init, note_send_init)
KMPI_REQUEST_SEND(Rsend_init, note_send_init)

KMPI_EXPORT int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag,
                              MPI_Comm comm, MPI_Request *req) {
  Scope s(kRecv_init, KMPI_RA);
  int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, req);
  if (s.rec() && rc == MPI_SUCCESS) note_recv_init(*req, comm, source, tag);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Start(MPI_Request *req) {
  Scope s(kStart, KMPI_RA);
  int rc = PMPI_Start(req);
  if (s.rec() && rc == MPI_SUCCESS) note_start(*req);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Startall(int n, MPI_Request reqs[]) {
  Scope s(kStartall, KMPI_RA);
  int rc = PMPI_Startall(n, reqs);
  if (s.rec() && rc == MPI_SUCCESS)
    for (int i = 0; i < n; ++i) note_start(reqs[i]);
  return s.done(rc);
}

// The entry goes whether or not the program's freeing succeeds: a handle
// MPI gave out again must never find it (outer call only: it is the
// bookkeeping, recorded or not).
KMPI_EXPORT int MPI_Request_free(MPI_Request *req) {
  Scope s(kRequest_free, KMPI_RA);
  if (s.outer() && req) note_request_free(*req);
  return s.done(PMPI_Request_free(req));
}

// Nothing to note: the wait/test call that completes the request finds
// whether it was cancelled (note_completed).
KMPI_EXPORT int MPI_Cancel(MPI_Request *req) {
  Scope s(kCancel, KMPI_RA);
  return s.done(PMPI_Cancel(req));
}

// ---- wait / test ------------------------------------------------------------------

KMPI_EXPORT int MPI_Wait(MPI_Request *req, MPI_Status *status) {
  Scope s(kWait, KMPI_RA);
  if (!s.rec()) return PMPI_Wait(req, status);
  MPI_Request before = *req;
  MPI_Status local;
  MPI_Status *st = status_or(status, &local);
  int rc = PMPI_Wait(req, st);
  if (rc == MPI_SUCCESS) note_completed(before, st);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  Scope s(kTest, KMPI_RA);
  if (!s.rec()) return PMPI_Test(req, flag, status);
  MPI_Request before = *req;
  MPI_Status local;
  MPI_Status *st = status_or(status, &local);
  int rc = PMPI_Test(req, flag, st);
  if (rc == MPI_SUCCESS && *flag) note_completed(before, st);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[]) {
  Scope s(kWaitall, KMPI_RA);
  if (!s.rec() || n <= 0) return s.done(PMPI_Waitall(n, reqs, statuses));
  Handles before(reqs, n);
  Statuses st(statuses, n);
  int rc = PMPI_Waitall(n, reqs, st.p);
  // MPI_ERR_IN_STATUS: each status says whether its request completed.
  if (st.p != MPI_STATUSES_IGNORE && (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS))
    for (int i = 0; i < n; ++i)
      if (rc == MPI_SUCCESS || st.p[i].MPI_ERROR == MPI_SUCCESS) note_completed(before.p[i], &st.p[i]);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[]) {
  Scope s(kTestall, KMPI_RA);
  if (!s.rec() || n <= 0) return s.done(PMPI_Testall(n, reqs, flag, statuses));
  Handles before(reqs, n);
  Statuses st(statuses, n);
  int rc = PMPI_Testall(n, reqs, flag, st.p);
  if (rc == MPI_SUCCESS && *flag && st.p != MPI_STATUSES_IGNORE)
    for (int i = 0; i < n; ++i) note_completed(before.p[i], &st.p[i]);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status) {
  Scope s(kWaitany, KMPI_RA);
  if (!s.rec() || n <= 0) return s.done(PMPI_Waitany(n, reqs, index, status));
  Handles before(reqs, n);
  MPI_Status local;
  MPI_Status *st = status_or(status, &local);
  int rc = PMPI_Waitany(n, reqs, index, st);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED && *index >= 0 && *index < n)
    note_completed(before.p[*index], st);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status) {
  Scope s(kTestany, KMPI_RA);
  if (!s.rec() || n <= 0) return s.done(PMPI_Testany(n, reqs, index, flag, status));
  Handles before(reqs, n);
  MPI_Status local;
  MPI_Status *st = status_or(status, &local);
  int rc = PMPI_Testany(n, reqs, index, flag, st);
  if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED && *index >= 0 && *index < n)
    note_completed(before.p[*index], st);
  return s.done(rc);
}

// MPI_Waitsome and MPI_Testsome: the requests completed are those indices
// name, looked up by their handles before the call (it frees them).
#define KMPI_SOME(Name)                                                                   \
  KMPI_EXPORT int MPI_##Name(int n, MPI_Request reqs[], int *outcount, int indices[],     \
                             MPI_Status statuses[]) {                                     \
    Scope s(k##Name, KMPI_RA);                                                            \
    if (!s.rec() || n <= 0) return s.done(PMPI_##Name(n, reqs, outcount, indices, statuses)); \
    Handles before(reqs, n);                                                              \
    Statuses st(statuses, n);                                                             \
    int rc = PMPI_##Name(n, reqs, outcount, indices, st.p);                               \
    if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED && st.p != MPI_STATUSES_IGNORE)   \
      for (int k = 0; k < *outcount; ++k)                                                 \
        if (indices[k] >= 0 && indices[k] < n) note_completed(before.p[indices[k]], &st.p[k]); \
    return s.done(rc);                                                                    \
  }
KMPI_SOME(Waitsome)
KMPI_SOME(Testsome)

// ---- collectives --------------------------------------------------------------------
// Bytes as pairwise transfers, the rank itself included (mpi_format.h):
// what every rank sent adds up to what every rank received. The sizes of
// a rank's own block come from the arguments MPI reads at that rank (the
// receive side's at a root: MPI requires the type signatures to match, and
// MPI_IN_PLACE leaves the send side unused). The coll_* functions serve
// the Fortran bindings too.

void kmpi::coll_barrier(MPI_Comm comm) { note_collective(kBarrier, comm, -1, 0, 0); }

void kmpi::coll_bcast(MPI_Comm comm, int count, MPI_Datatype type, int root) {
  uint64_t b = type_bytes(count, type);
  bool at_root = comm_rank(comm) == root;
  note_collective(kBcast, comm, root, at_root ? b * uint64_t(comm_size(comm)) : 0, b);
}

void kmpi::coll_reduce(MPI_Comm comm, int count, MPI_Datatype type, int root) {
  uint64_t b = type_bytes(count, type);
  bool at_root = comm_rank(comm) == root;
  note_collective(kReduce, comm, root, b, at_root ? b * uint64_t(comm_size(comm)) : 0);
}

// Allreduce, Allgather, Alltoall, Reduce_scatter_block: a block of
// count elements to and from every rank.
void kmpi::coll_every(Call call, MPI_Comm comm, int count, MPI_Datatype type) {
  uint64_t b = type_bytes(count, type) * uint64_t(comm_size(comm));
  note_collective(call, comm, -1, b, b);
}

void kmpi::coll_gather(MPI_Comm comm, int scount, MPI_Datatype stype, int rcount,
                       MPI_Datatype rtype, int root) {
  if (comm_rank(comm) == root) {
    uint64_t r = type_bytes(rcount, rtype);
    note_collective(kGather, comm, root, r, r * uint64_t(comm_size(comm)));
  } else {
    note_collective(kGather, comm, root, type_bytes(scount, stype), 0);
  }
}

void kmpi::coll_gatherv(MPI_Comm comm, int scount, MPI_Datatype stype, const int *rcounts,
                        MPI_Datatype rtype, int root) {
  int me = comm_rank(comm);
  if (me == root)
    note_collective(kGatherv, comm, root, type_bytes(rcounts[me], rtype),
                    sum_bytes(rcounts, comm_size(comm), rtype));
  else
    note_collective(kGatherv, comm, root, type_bytes(scount, stype), 0);
}

void kmpi::coll_scatter(MPI_Comm comm, int scount, MPI_Datatype stype, int rcount,
                        MPI_Datatype rtype, int root) {
  if (comm_rank(comm) == root) {
    uint64_t b = type_bytes(scount, stype);
    note_collective(kScatter, comm, root, b * uint64_t(comm_size(comm)), b);
  } else {
    note_collective(kScatter, comm, root, 0, type_bytes(rcount, rtype));
  }
}

void kmpi::coll_scatterv(MPI_Comm comm, const int *scounts, MPI_Datatype stype, int rcount,
                         MPI_Datatype rtype, int root) {
  int me = comm_rank(comm);
  if (me == root)
    note_collective(kScatterv, comm, root, sum_bytes(scounts, comm_size(comm), stype),
                    type_bytes(scounts[me], stype));
  else
    note_collective(kScatterv, comm, root, 0, type_bytes(rcount, rtype));
}

void kmpi::coll_allgatherv(MPI_Comm comm, const int *rcounts, MPI_Datatype rtype) {
  int n = comm_size(comm), me = comm_rank(comm);
  note_collective(kAllgatherv, comm, -1, type_bytes(rcounts[me], rtype) * uint64_t(n),
                  sum_bytes(rcounts, n, rtype));
}

void kmpi::coll_alltoallv(MPI_Comm comm, const int *scounts, MPI_Datatype stype,
                          const int *rcounts, MPI_Datatype rtype, bool in_place) {
  int n = comm_size(comm);
  uint64_t received = sum_bytes(rcounts, n, rtype);
  note_collective(kAlltoallv, comm, -1, in_place ? received : sum_bytes(scounts, n, stype),
                  received);
}

void kmpi::coll_reduce_scatter(MPI_Comm comm, const int *rcounts, MPI_Datatype type) {
  int n = comm_size(comm), me = comm_rank(comm);
  note_collective(kReduce_scatter, comm, -1, sum_bytes(rcounts, n, type),
                  type_bytes(rcounts[me], type) * uint64_t(n));
}

// Scan: rank i receives from ranks 0..i, sends to i..n-1; Exscan: the
// rank itself left out.
void kmpi::coll_scan(Call call, MPI_Comm comm, int count, MPI_Datatype type) {
  uint64_t b = type_bytes(count, type);
  int n = comm_size(comm), me = comm_rank(comm);
  if (call == kScan)
    note_collective(kScan, comm, -1, b * uint64_t(n - me), b * uint64_t(me + 1));
  else
    note_collective(kExscan, comm, -1, b * uint64_t(n - 1 - me), b * uint64_t(me));
}

#define KMPI_COLLECTIVE(Name, params, args, note)      \
  KMPI_EXPORT int MPI_##Name params {                  \
    Scope s(k##Name, KMPI_RA);                         \
    int rc = PMPI_##Name args;                         \
    if (s.rec() && rc == MPI_SUCCESS) note;            \
    return s.done(rc);                                 \
  }

KMPI_COLLECTIVE(Barrier, (MPI_Comm comm), (comm), coll_barrier(comm))
KMPI_COLLECTIVE(Bcast, (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
                (buf, count, type, root, comm), coll_bcast(comm, count, type, root))
KMPI_COLLECTIVE(Reduce,
                (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                 MPI_Comm comm),
                (sbuf, rbuf, count, type, op, root, comm), coll_reduce(comm, count, type, root))
KMPI_COLLECTIVE(Allreduce,
                (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm),
                (sbuf, rbuf, count, type, op, comm), coll_every(kAllreduce, comm, count, type))
KMPI_COLLECTIVE(Gather,
                (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm),
                (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
                coll_gather(comm, scount, stype, rcount, rtype, root))
KMPI_COLLECTIVE(Gatherv,
                (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                 MPI_Comm comm),
                (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
                coll_gatherv(comm, scount, stype, rcounts, rtype, root))
KMPI_COLLECTIVE(Scatter,
                (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm),
                (sbuf, scount, stype, rbuf, rcount, rtype, root, comm),
                coll_scatter(comm, scount, stype, rcount, rtype, root))
KMPI_COLLECTIVE(Scatterv,
                (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm),
                (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
                coll_scatterv(comm, scounts, stype, rcount, rtype, root))
KMPI_COLLECTIVE(Allgather,
                (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm),
                (sbuf, scount, stype, rbuf, rcount, rtype, comm),
                coll_every(kAllgather, comm, rcount, rtype))
KMPI_COLLECTIVE(Allgatherv,
                (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm),
                (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
                coll_allgatherv(comm, rcounts, rtype))
KMPI_COLLECTIVE(Alltoall,
                (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm),
                (sbuf, scount, stype, rbuf, rcount, rtype, comm),
                coll_every(kAlltoall, comm, rcount, rtype))
KMPI_COLLECTIVE(Alltoallv,
                (const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                 void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                 MPI_Comm comm),
                (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
                coll_alltoallv(comm, scounts, stype, rcounts, rtype, sbuf == MPI_IN_PLACE))
KMPI_COLLECTIVE(Reduce_scatter,
                (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm),
                (sbuf, rbuf, rcounts, type, op, comm), coll_reduce_scatter(comm, rcounts, type))
KMPI_COLLECTIVE(Reduce_scatter_block,
                (const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm),
                (sbuf, rbuf, rcount, type, op, comm),
                coll_every(kReduce_scatter_block, comm, rcount, type))
KMPI_COLLECTIVE(Scan,
                (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm),
                (sbuf, rbuf, count, type, op, comm), coll_scan(kScan, comm, count, type))
KMPI_COLLECTIVE(Exscan,
                (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm),
                (sbuf, rbuf, count, type, op, comm), coll_scan(kExscan, comm, count, type))

// ---- communicators ------------------------------------------------------------------

KMPI_EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  Scope s(kComm_dup, KMPI_RA);
  int rc = PMPI_Comm_dup(comm, newcomm);
  if (s.outer() && rc == MPI_SUCCESS) comm_created(*newcomm);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
  Scope s(kComm_split, KMPI_RA);
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  if (s.outer() && rc == MPI_SUCCESS) comm_created(*newcomm);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
  Scope s(kComm_create, KMPI_RA);
  int rc = PMPI_Comm_create(comm, group, newcomm);
  if (s.outer() && rc == MPI_SUCCESS) comm_created(*newcomm);
  return s.done(rc);
}

KMPI_EXPORT int MPI_Comm_free(MPI_Comm *comm) {
  Scope s(kComm_free, KMPI_RA);
  if (s.outer() && comm && *comm != MPI_COMM_NULL) comm_freed(*comm);
  return s.done(PMPI_Comm_free(comm));
}

// ---- non-blocking collectives ----------------------------------------------------------
// The same bytes as the blocking operation's, recorded at the start with a
// request id (ICollective), completed in the wait/test call.

#define KMPI_ICOLLECTIVE(Name, params, args, note)     \
  KMPI_EXPORT int MPI_##Name params {                  \
    Scope s(k##Name, KMPI_RA);                         \
    int rc = PMPI_##Name args;                         \
    if (s.rec() && rc == MPI_SUCCESS) {                \
      ICollective ic(k##Name, *req);                   \
      note;                                            \
    }                                                  \
    return s.done(rc);                                 \
  }

KMPI_ICOLLECTIVE(Ibarrier, (MPI_Comm comm, MPI_Request *req), (comm, req), coll_barrier(comm))
KMPI_ICOLLECTIVE(Ibcast,
                 (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                  MPI_Request *req),
                 (buf, count, type, root, comm, req), coll_bcast(comm, count, type, root))
KMPI_ICOLLECTIVE(Ireduce,
                 (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm comm, MPI_Request *req),
                 (sbuf, rbuf, count, type, op, root, comm, req),
                 coll_reduce(comm, count, type, root))
KMPI_ICOLLECTIVE(Iallreduce,
                 (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm, MPI_Request *req),
                 (sbuf, rbuf, count, type, op, comm, req),
                 coll_every(kAllreduce, comm, count, type))
KMPI_ICOLLECTIVE(Igather,
                 (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req),
                 (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req),
                 coll_gather(comm, scount, stype, rcount, rtype, root))
KMPI_ICOLLECTIVE(Igatherv,
                 (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                  MPI_Comm comm, MPI_Request *req),
                 (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req),
                 coll_gatherv(comm, scount, stype, rcounts, rtype, root))
KMPI_ICOLLECTIVE(Iscatter,
                 (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req),
                 (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req),
                 coll_scatter(comm, scount, stype, rcount, rtype, root))
KMPI_ICOLLECTIVE(Iscatterv,
                 (const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req),
                 (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req),
                 coll_scatterv(comm, scounts, stype, rcount, rtype, root))
KMPI_ICOLLECTIVE(Iallgather,
                 (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req),
                 (sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
                 coll_every(kAllgather, comm, rcount, rtype))
KMPI_ICOLLECTIVE(Iallgatherv,
                 (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                  const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm,
                  MPI_Request *req),
                 (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req),
                 coll_allgatherv(comm, rcounts, rtype))
KMPI_ICOLLECTIVE(Ialltoall,
                 (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req),
                 (sbuf, scount, stype, rbuf, rcount, rtype, comm, req),
                 coll_every(kAlltoall, comm, rcount, rtype))
KMPI_ICOLLECTIVE(Ialltoallv,
                 (const void *sbuf, const int scounts[], const int sdispls[],
                  MPI_Datatype stype, void *rbuf, const int rcounts[], const int rdispls[],
                  MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req),
                 (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req),
                 coll_alltoallv(comm, scounts, stype, rcounts, rtype, sbuf == MPI_IN_PLACE))
KMPI_ICOLLECTIVE(Ireduce_scatter,
                 (const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm, MPI_Request *req),
                 (sbuf, rbuf, rcounts, type, op, comm, req),
                 coll_reduce_scatter(comm, rcounts, type))
KMPI_ICOLLECTIVE(Ireduce_scatter_block,
                 (const void *sbuf, void *rbuf, int rcount, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm, MPI_Request *req),
                 (sbuf, rbuf, rcount, type, op, comm, req),
                 coll_every(kReduce_scatter_block, comm, rcount, type))
KMPI_ICOLLECTIVE(Iscan,
                 (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm, MPI_Request *req),
                 (sbuf, rbuf, count, type, op, comm, req), coll_scan(kScan, comm, count, type))
KMPI_ICOLLECTIVE(Iexscan,
                 (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm, MPI_Request *req),
                 (sbuf, rbuf, count, type, op, comm, req), coll_scan(kExscan, comm, count, type))
