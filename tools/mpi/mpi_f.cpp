// The Fortran bindings of mpif.h and `use mpi` as gfortran calls them
// (lower case, one underscore; every argument by reference; none of these
// calls has a character argument): mpi_x_ records what it does (handles
// converted with MPI_*_f2c) and calls the MPI's own Fortran entry pmpi_x_,
// found with dlsym(RTLD_NEXT) at its first call (the Fortran library is
// the program's, not ours). An MPI whose pmpi_x_ calls the C MPI_X (MPICH)
// enters our C binding nested: it passes through (kite_mpi.h Scope).
// Persistent requests, MPI_Request_free, MPI_Cancel and the non-blocking
// collectives as in mpi_c.cpp. mpi_f08 is not covered: its bindings are other symbols (mpi_send_f08_...).
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kite_mpi.h"

using namespace kmpi;
using namespace kite_mpi;

typedef MPI_Fint F;

namespace {

void *fortran_entry(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    warn("%s not found in the program's MPI Fortran library; cannot go on", name);
    abort();
  }
  return f;
}

// The MPI's own Fortran entry `name`, typed as the binding's own
// parameter list, looked up once (threads racing to look it up store the
// same value).
#define KMPI_PMPI(name, ...)                                                        \
  static void (*pf_)(__VA_ARGS__) = nullptr;                                        \
  void (*pf)(__VA_ARGS__) = __atomic_load_n(&pf_, __ATOMIC_ACQUIRE);                \
  if (!pf) {                                                                        \
    pf = reinterpret_cast<void (*)(__VA_ARGS__)>(fortran_entry(name));              \
    __atomic_store_n(&pf_, pf, __ATOMIC_RELEASE);                                   \
  }

constexpr int kFStatus = int(sizeof(MPI_Status) / sizeof(MPI_Fint));  // MPI_STATUS_SIZE

// A status to read when the program passed MPI_STATUS_IGNORE.
struct FStatus {
  F local[kFStatus + 2];
  F *p;
  explicit FStatus(F *given) : p(given == MPI_F_STATUS_IGNORE ? local : given) {}
  MPI_Status c() const {
    MPI_Status s;
    memset(&s, 0, sizeof s);
    MPI_Status_f2c(p, &s);
    return s;
  }
};

// n statuses, when the program passed MPI_STATUSES_IGNORE.
struct FStatuses {
  F local[16 * kFStatus];
  F *p;
  bool owned = false;
  FStatuses(F *given, int n) {
    if (given != MPI_F_STATUSES_IGNORE) {
      p = given;
    } else if (n <= 16) {
      p = local;
    } else {
      p = static_cast<F *>(malloc(sizeof(F) * size_t(kFStatus) * size_t(n)));
      owned = p != nullptr;
      if (!p) p = MPI_F_STATUSES_IGNORE;
    }
  }
  ~FStatuses() {
    if (owned) free(p);
  }
  bool usable() const { return p != MPI_F_STATUSES_IGNORE; }
  MPI_Status c(int i) const {
    MPI_Status s;
    memset(&s, 0, sizeof s);
    MPI_Status_f2c(p + size_t(i) * kFStatus, &s);
    return s;
  }
  FStatuses(const FStatuses &) = delete;
  FStatuses &operator=(const FStatuses &) = delete;
};

// The C handles of the requests a wait/test call is given, before it
// frees them.
struct CRequests {
  MPI_Request local[16];
  MPI_Request *p = local;
  bool owned = false;
  CRequests(const F *f, int n) {
    if (n > 16) {
      p = static_cast<MPI_Request *>(malloc(sizeof(MPI_Request) * size_t(n)));
      owned = p != nullptr;
      if (!p) {
        p = local;
        n = 0;
      }
    }
    for (int i = 0; i < n; ++i) p[i] = MPI_Request_f2c(f[i]);
  }
  ~CRequests() {
    if (owned) free(p);
  }
  CRequests(const CRequests &) = delete;
  CRequests &operator=(const CRequests &) = delete;
};

inline MPI_Comm C(const F *comm) { return MPI_Comm_f2c(*comm); }
inline MPI_Datatype T(const F *type) { return MPI_Type_f2c(*type); }

// Fortran's MPI_IN_PLACE: an address of the MPI's Fortran library.
bool f_in_place(const void *p) {
#ifdef OMPI_MAJOR_VERSION
  static const char *const names[] = {"mpi_fortran_in_place_", "mpi_fortran_in_place",
                                      "mpi_fortran_in_place__", "MPI_FORTRAN_IN_PLACE"};
  for (const char *n : names)
    if (void *v = dlsym(RTLD_DEFAULT, n))
      if (v == p) return true;
  return false;
#else
  void *v = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
  return v && *static_cast<void **>(v) == p;
#endif
}

}  // namespace

// ---- init / finalize ---------------------------------------------------------------

KMPI_EXPORT void mpi_init_(F *ierr) {
  KMPI_PMPI("pmpi_init_", F *);
  if (t_depth) return pf(ierr);
  before_init();
  Scope s(kInit, KMPI_RA);
  pf(ierr);
  int provided = MPI_THREAD_SINGLE;
  if (*ierr == MPI_SUCCESS) PMPI_Query_thread(&provided);
  after_init(*ierr, provided);
  s.done(*ierr);
}

KMPI_EXPORT void mpi_init_thread_(F *required, F *provided, F *ierr) {
  KMPI_PMPI("pmpi_init_thread_", F *, F *, F *);
  if (t_depth) return pf(required, provided, ierr);
  before_init();
  Scope s(kInit_thread, KMPI_RA);
  pf(required, provided, ierr);
  after_init(*ierr, *provided);
  s.done(*ierr);
}

KMPI_EXPORT void mpi_finalize_(F *ierr) {
  KMPI_PMPI("pmpi_finalize_", F *);
  Scope s(kFinalize, KMPI_RA);
  if (s.outer()) before_finalize();
  pf(ierr);
  s.done(*ierr);
}

// ---- point to point -------------------------------------------------------------------

#define KMPI_F_SEND(lower, Name)                                                            \
  KMPI_EXPORT void mpi_##lower##_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,   \
                                  F *ierr) {                                                \
    KMPI_PMPI("pmpi_" #lower "_", void *, F *, F *, F *, F *, F *, F *);                    \
    Scope s(k##Name, KMPI_RA);                                                              \
    if (s.rec()) note_send(C(comm), *dest, *tag, *count, T(type));                          \
    pf(buf, count, type, dest, tag, comm, ierr);                                            \
    s.done(*ierr);                                                                          \
  }
KMPI_F_SEND(send, Send)
KMPI_F_SEND(bsend, Bsend)
KMPI_F_SEND(ssend, Ssend)
KMPI_F_SEND(rsend, Rsend)

KMPI_EXPORT void mpi_recv_(void *buf, F *count, F *type, F *source, F *tag, F *comm, F *status,
                           F *ierr) {
  KMPI_PMPI("pmpi_recv_", void *, F *, F *, F *, F *, F *, F *, F *);
  Scope s(kRecv, KMPI_RA);
  if (!s.rec()) return pf(buf, count, type, source, tag, comm, status, ierr);
  FStatus st(status);
  pf(buf, count, type, source, tag, comm, st.p, ierr);
  if (*ierr == MPI_SUCCESS) {
    MPI_Status cs = st.c();
    note_recv(C(comm), &cs, T(type), 0);
  }
  s.done(*ierr);
}

// A send that leaves a request: the nonblocking sends (note_isend) and the
// persistent ones' _init (note_send_init).
#define KMPI_F_REQUEST_SEND(lower, Name, note)                                              \
  KMPI_EXPORT void mpi_##lower##_(void *buf, F *count, F *type, F *dest, F *tag, F *comm,   \
                                  F *req, F *ierr) {                                        \
    KMPI_PMPI("pmpi_" #lower "_", void *, F *, F *, F *, F *, F *, F *, F *);               \
    Scope s(k##Name, KMPI_RA);                                                              \
    pf(buf, count, type, dest, tag, comm, req, ierr);                                       \
    if (s.rec() && *ierr == MPI_SUCCESS)                                                    \
      note(MPI_Request_f2c(*req), C(comm), *dest, *tag, *count, T(type));                   \
    s.done(*ierr);                                                                          \
  }
KMPI_F_REQUEST_SEND(isend, Isend, note_isend)
KMPI_F_REQUEST_SEND(ibsend, Ibsend, note_isend)
KMPI_F_REQUEST_SEND(issend, Issend, note_isend)
KMPI_F_REQUEST_SEND(irsend, Irsend, note_isend)

KMPI_EXPORT void mpi_irecv_(void *buf, F *count, F *type, F *source, F *tag, F *comm, F *req,
                            F *ierr) {
  KMPI_PMPI("pmpi_irecv_", void *, F *, F *, F *, F *, F *, F *, F *);
  Scope s(kIrecv, KMPI_RA);
  pf(buf, count, type, source, tag, comm, req, ierr);
  if (s.rec() && *ierr == MPI_SUCCESS) note_irecv(MPI_Request_f2c(*req), C(comm), *source, *tag);
  s.done(*ierr);
}

KMPI_EXPORT void mpi_sendrecv_(void *sbuf, F *scount, F *stype, F *dest, F *stag, void *rbuf,
                               F *rcount, F *rtype, F *source, F *rtag, F *comm, F *status,
                               F *ierr) {
  KMPI_PMPI("pmpi_sendrecv_", void *, F *, F *, F *, F *, void *, F *, F *, F *, F *, F *, F *,
            F *);
  Scope s(kSendrecv, KMPI_RA);
  if (!s.rec())
    return pf(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status,
              ierr);
  note_send(C(comm), *dest, *stag, *scount, T(stype));
  FStatus st(status);
  pf(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, st.p, ierr);
  if (*ierr == MPI_SUCCESS) {
    MPI_Status cs = st.c();
    note_recv(C(comm), &cs, T(rtype), 0);
  }
  s.done(*ierr);
}

KMPI_EXPORT void mpi_sendrecv_replace_(void *buf, F *count, F *type, F *dest, F *stag,
                                       F *source, F *rtag, F *comm, F *status, F *ierr) {
  KMPI_PMPI("pmpi_sendrecv_replace_", void *, F *, F *, F *, F *, F *, F *, F *, F *, F *);
  Scope s(kSendrecv_replace, KMPI_RA);
  if (!s.rec()) return pf(buf, count, type, dest, stag, source, rtag, comm, status, ierr);
  note_send(C(comm), *dest, *stag, *count, T(type));
  FStatus st(status);
  pf(buf, count, type, dest, stag, source, rtag, comm, st.p, ierr);
  if (*ierr == MPI_SUCCESS) {
    MPI_Status cs = st.c();
    note_recv(C(comm), &cs, T(type), 0);
  }
  s.done(*ierr);
}

KMPI_EXPORT void mpi_probe_(F *source, F *tag, F *comm, F *status, F *ierr) {
  KMPI_PMPI("pmpi_probe_", F *, F *, F *, F *, F *);
  Scope s(kProbe, KMPI_RA);
  pf(source, tag, comm, status, ierr);
  s.done(*ierr);
}

KMPI_EXPORT void mpi_iprobe_(F *source, F *tag, F *comm, F *flag, F *status, F *ierr) {
  KMPI_PMPI("pmpi_iprobe_", F *, F *, F *, F *, F *, F *);
  Scope s(kIprobe, KMPI_RA);
  pf(source, tag, comm, flag, status, ierr);
  s.done(*ierr);
}

// ---- persistent requests, freeing, cancelling ----------------------------------------

KMPI_F_REQUEST_SEND(send_init, Send_init, note_send_init)
KMPI_F_REQUEST_SEND(bsend_init, Bsend_init, note_send_init)
KMPI_F_REQUEST_SEND(ssend_init, Ssend_init, note_send_init)
KMPI_F_REQUEST_SEND(rsend_init, Rsend_init, note_send_init)

KMPI_EXPORT void mpi_recv_init_(void *buf, F *count, F *type, F *source, F *tag, F *comm,
                                F *req, F *ierr) {
  KMPI_PMPI("pmpi_recv_init_", void *, F *, F *, F *, F *, F *, F *, F *);
  Scope s(kRecv_init, KMPI_RA);
  pf(buf, count, type, source, tag, comm, req, ierr);
  if (s.rec() && *ierr == MPI_SUCCESS)
    note_recv_init(MPI_Request_f2c(*req), C(comm), *source, *tag);
  s.done(*ierr);
}

KMPI_EXPORT void mpi_start_(F *req, F *ierr) {
  KMPI_PMPI("pmpi_start_", F *, F *);
  Scope s(kStart, KMPI_RA);
  pf(req, ierr);
  if (s.rec() && *ierr == MPI_SUCCESS) note_start(MPI_Request_f2c(*req));
  s.done(*ierr);
}

KMPI_EXPORT void mpi_startall_(F *count, F *reqs, F *ierr) {
  KMPI_PMPI("pmpi_startall_", F *, F *, F *);
  Scope s(kStartall, KMPI_RA);
  pf(count, reqs, ierr);
  if (s.rec() && *ierr == MPI_SUCCESS)
    for (int i = 0; i < *count; ++i) note_start(MPI_Request_f2c(reqs[i]));
  s.done(*ierr);
}

KMPI_EXPORT void mpi_request_free_(F *req, F *ierr) {
  KMPI_PMPI("pmpi_request_free_", F *, F *);
  Scope s(kRequest_free, KMPI_RA);
  if (s.outer()) note_request_free(MPI_Request_f2c(*req));
  pf(req, ierr);
  s.done(*ierr);
}

KMPI_EXPORT void mpi_cancel_(F *req, F *ierr) {
  KMPI_PMPI("pmpi_cancel_", F *, F *);
  Scope s(kCancel, KMPI_RA);
  pf(req, ierr);
  s.done(*ierr);
}

// ---- wait / test -----------------------------------------------------------------------

KMPI_EXPORT void mpi_wait_(F *req, F *status, F *ierr) {
  KMPI_PMPI("pmpi_wait_", F *, F *, F *);
  Scope s(kWait, KMPI_RA);
  if (!s.rec()) return pf(req, status, ierr);
  MPI_Request before = MPI_Request_f2c(*req);
  FStatus st(status);
  pf(req, st.p, ierr);
  if (*ierr == MPI_SUCCESS) {
    MPI_Status cs = st.c();
    note_completed(before, &cs);
  }
  s.done(*ierr);
}

KMPI_EXPORT void mpi_test_(F *req, F *flag, F *status, F *ierr) {
  KMPI_PMPI("pmpi_test_", F *, F *, F *, F *);
  Scope s(kTest, KMPI_RA);
  if (!s.rec()) return pf(req, flag, status, ierr);
  MPI_Request before = MPI_Request_f2c(*req);
  FStatus st(status);
  pf(req, flag, st.p, ierr);
  if (*ierr == MPI_SUCCESS && *flag) {
    MPI_Status cs = st.c();
    note_completed(before, &cs);
  }
  s.done(*ierr);
}

KMPI_EXPORT void mpi_waitall_(F *count, F *reqs, F *statuses, F *ierr) {
  KMPI_PMPI("pmpi_waitall_", F *, F *, F *, F *);
  Scope s(kWaitall, KMPI_RA);
  int n = *count;
  if (!s.rec() || n <= 0) {
    pf(count, reqs, statuses, ierr);
    s.done(*ierr);
    return;
  }
  CRequests before(reqs, n);
  FStatuses st(statuses, n);
  pf(count, reqs, st.p, ierr);
  if (*ierr == MPI_SUCCESS && st.usable())
    for (int i = 0; i < n; ++i) {
      MPI_Status cs = st.c(i);
      note_completed(before.p[i], &cs);
    }
  s.done(*ierr);
}

KMPI_EXPORT void mpi_testall_(F *count, F *reqs, F *flag, F *statuses, F *ierr) {
  KMPI_PMPI("pmpi_testall_", F *, F *, F *, F *, F *);
  Scope s(kTestall, KMPI_RA);
  int n = *count;
  if (!s.rec() || n <= 0) {
    pf(count, reqs, flag, statuses, ierr);
    s.done(*ierr);
    return;
  }
  CRequests before(reqs, n);
  FStatuses st(statuses, n);
  pf(count, reqs, flag, st.p, ierr);
  if (*ierr == MPI_SUCCESS && *flag && st.usable())
    for (int i = 0; i < n; ++i) {
      MPI_Status cs = st.c(i);
      note_completed(before.p[i], &cs);
    }
  s.done(*ierr);
}

// Fortran indices are 1-based.
KMPI_EXPORT void mpi_waitany_(F *count, F *reqs, F *index, F *status, F *ierr) {
  KMPI_PMPI("pmpi_waitany_", F *, F *, F *, F *, F *);
  Scope s(kWaitany, KMPI_RA);
  int n = *count;
  if (!s.rec() || n <= 0) {
    pf(count, reqs, index, status, ierr);
    s.done(*ierr);
    return;
  }
  CRequests before(reqs, n);
  FStatus st(status);
  pf(count, reqs, index, st.p, ierr);
  if (*ierr == MPI_SUCCESS && *index != MPI_UNDEFINED && *index >= 1 && *index <= n) {
    MPI_Status cs = st.c();
    note_completed(before.p[*index - 1], &cs);
  }
  s.done(*ierr);
}

KMPI_EXPORT void mpi_testany_(F *count, F *reqs, F *index, F *flag, F *status, F *ierr) {
  KMPI_PMPI("pmpi_testany_", F *, F *, F *, F *, F *, F *);
  Scope s(kTestany, KMPI_RA);
  int n = *count;
  if (!s.rec() || n <= 0) {
    pf(count, reqs, index, flag, status, ierr);
    s.done(*ierr);
    return;
  }
  CRequests before(reqs, n);
  FStatus st(status);
  pf(count, reqs, index, flag, st.p, ierr);
  if (*ierr == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED && *index >= 1 && *index <= n) {
    MPI_Status cs = st.c();
    note_completed(before.p[*index - 1], &cs);
  }
  s.done(*ierr);
}

#define KMPI_F_SOME(lower, Name)                                                            \
  KMPI_EXPORT void mpi_##lower##_(F *count, F *reqs, F *outcount, F *indices, F *statuses,  \
                                  F *ierr) {                                                \
    KMPI_PMPI("pmpi_" #lower "_", F *, F *, F *, F *, F *, F *);                            \
    Scope s(k##Name, KMPI_RA);                                                              \
    int n = *count;                                                                         \
    if (!s.rec() || n <= 0) {                                                               \
      pf(count, reqs, outcount, indices, statuses, ierr);                                   \
      s.done(*ierr);                                                                        \
      return;                                                                               \
    }                                                                                       \
    CRequests before(reqs, n);                                                              \
    FStatuses st(statuses, n);                                                              \
    pf(count, reqs, outcount, indices, st.p, ierr);                                         \
    if (*ierr == MPI_SUCCESS && *outcount != MPI_UNDEFINED && st.usable())                  \
      for (int k = 0; k < *outcount; ++k)                                                   \
        if (indices[k] >= 1 && indices[k] <= n) {                                           \
          MPI_Status cs = st.c(k);                                                          \
          note_completed(before.p[indices[k] - 1], &cs);                                    \
        }                                                                                   \
    s.done(*ierr);                                                                          \
  }
KMPI_F_SOME(waitsome, Waitsome)
KMPI_F_SOME(testsome, Testsome)

// ---- collectives -------------------------------------------------------------------------

#define KMPI_F_COLLECTIVE(lower, Name, params, types, args, note)  \
  KMPI_EXPORT void mpi_##lower##_ params {                         \
    KMPI_PMPI("pmpi_" #lower "_", KMPI_UNPAREN types);             \
    Scope s(k##Name, KMPI_RA);                                     \
    pf args;                                                       \
    if (s.rec() && *ierr == MPI_SUCCESS) note;                     \
    s.done(*ierr);                                                 \
  }
#define KMPI_UNPAREN(...) __VA_ARGS__

KMPI_F_COLLECTIVE(barrier, Barrier, (F *comm, F *ierr), (F *, F *), (comm, ierr),
                  coll_barrier(C(comm)))
KMPI_F_COLLECTIVE(bcast, Bcast, (void *buf, F *count, F *type, F *root, F *comm, F *ierr),
                  (void *, F *, F *, F *, F *, F *), (buf, count, type, root, comm, ierr),
                  coll_bcast(C(comm), *count, T(type), *root))
KMPI_F_COLLECTIVE(reduce, Reduce,
                  (void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *ierr),
                  (void *, void *, F *, F *, F *, F *, F *, F *),
                  (sbuf, rbuf, count, type, op, root, comm, ierr),
                  coll_reduce(C(comm), *count, T(type), *root))
KMPI_F_COLLECTIVE(allreduce, Allreduce,
                  (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr),
                  (void *, void *, F *, F *, F *, F *, F *),
                  (sbuf, rbuf, count, type, op, comm, ierr),
                  coll_every(kAllreduce, C(comm), *count, T(type)))
KMPI_F_COLLECTIVE(gather, Gather,
                  (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root,
                   F *comm, F *ierr),
                  (void *, F *, F *, void *, F *, F *, F *, F *, F *),
                  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr),
                  coll_gather(C(comm), *scount, T(stype), *rcount, T(rtype), *root))
KMPI_F_COLLECTIVE(gatherv, Gatherv,
                  (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs, F *rtype,
                   F *root, F *comm, F *ierr),
                  (void *, F *, F *, void *, F *, F *, F *, F *, F *, F *),
                  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, ierr),
                  coll_gatherv(C(comm), *scount, T(stype), rcounts, T(rtype), *root))
KMPI_F_COLLECTIVE(scatter, Scatter,
                  (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root,
                   F *comm, F *ierr),
                  (void *, F *, F *, void *, F *, F *, F *, F *, F *),
                  (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, ierr),
                  coll_scatter(C(comm), *scount, T(stype), *rcount, T(rtype), *root))
KMPI_F_COLLECTIVE(scatterv, Scatterv,
                  (void *sbuf, F *scounts, F *displs, F *stype, void *rbuf, F *rcount, F *rtype,
                   F *root, F *comm, F *ierr),
                  (void *, F *, F *, F *, void *, F *, F *, F *, F *, F *),
                  (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, ierr),
                  coll_scatterv(C(comm), scounts, T(stype), *rcount, T(rtype), *root))
KMPI_F_COLLECTIVE(allgather, Allgather,
                  (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm,
                   F *ierr),
                  (void *, F *, F *, void *, F *, F *, F *, F *),
                  (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr),
                  coll_every(kAllgather, C(comm), *rcount, T(rtype)))
KMPI_F_COLLECTIVE(allgatherv, Allgatherv,
                  (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs, F *rtype,
                   F *comm, F *ierr),
                  (void *, F *, F *, void *, F *, F *, F *, F *, F *),
                  (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, ierr),
                  coll_allgatherv(C(comm), rcounts, T(rtype)))
KMPI_F_COLLECTIVE(alltoall, Alltoall,
                  (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm,
                   F *ierr),
                  (void *, F *, F *, void *, F *, F *, F *, F *),
                  (sbuf, scount, stype, rbuf, rcount, rtype, comm, ierr),
                  coll_every(kAlltoall, C(comm), *rcount, T(rtype)))
KMPI_F_COLLECTIVE(alltoallv, Alltoallv,
                  (void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf, F *rcounts,
                   F *rdispls, F *rtype, F *comm, F *ierr),
                  (void *, F *, F *, F *, void *, F *, F *, F *, F *, F *),
                  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, ierr),
                  coll_alltoallv(C(comm), scounts, T(stype), rcounts, T(rtype),
                                 f_in_place(sbuf)))
KMPI_F_COLLECTIVE(reduce_scatter, Reduce_scatter,
                  (void *sbuf, void *rbuf, F *rcounts, F *type, F *op, F *comm, F *ierr),
                  (void *, void *, F *, F *, F *, F *, F *),
                  (sbuf, rbuf, rcounts, type, op, comm, ierr),
                  coll_reduce_scatter(C(comm), rcounts, T(type)))
KMPI_F_COLLECTIVE(reduce_scatter_block, Reduce_scatter_block,
                  (void *sbuf, void *rbuf, F *rcount, F *type, F *op, F *comm, F *ierr),
                  (void *, void *, F *, F *, F *, F *, F *),
                  (sbuf, rbuf, rcount, type, op, comm, ierr),
                  coll_every(kReduce_scatter_block, C(comm), *rcount, T(type)))
KMPI_F_COLLECTIVE(scan, Scan,
                  (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr),
                  (void *, void *, F *, F *, F *, F *, F *),
                  (sbuf, rbuf, count, type, op, comm, ierr),
                  coll_scan(kScan, C(comm), *count, T(type)))
KMPI_F_COLLECTIVE(exscan, Exscan,
                  (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr),
                  (void *, void *, F *, F *, F *, F *, F *),
                  (sbuf, rbuf, count, type, op, comm, ierr),
                  coll_scan(kExscan, C(comm), *count, T(type)))

// ---- non-blocking collectives ----------------------------------------------------------

#define KMPI_F_ICOLLECTIVE(lower, Name, params, types, args, note) \
  KMPI_EXPORT void mpi_##lower##_ params {                         \
    KMPI_PMPI("pmpi_" #lower "_", KMPI_UNPAREN types);             \
    Scope s(k##Name, KMPI_RA);                                     \
    pf args;                                                       \
    if (s.rec() && *ierr == MPI_SUCCESS) {                         \
      ICollective ic(k##Name, MPI_Request_f2c(*req));              \
      note;                                                        \
    }                                                              \
    s.done(*ierr);                                                 \
  }

KMPI_F_ICOLLECTIVE(ibarrier, Ibarrier, (F *comm, F *req, F *ierr), (F *, F *, F *),
                   (comm, req, ierr), coll_barrier(C(comm)))
KMPI_F_ICOLLECTIVE(ibcast, Ibcast,
                   (void *buf, F *count, F *type, F *root, F *comm, F *req, F *ierr),
                   (void *, F *, F *, F *, F *, F *, F *),
                   (buf, count, type, root, comm, req, ierr),
                   coll_bcast(C(comm), *count, T(type), *root))
KMPI_F_ICOLLECTIVE(ireduce, Ireduce,
                   (void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *req,
                    F *ierr),
                   (void *, void *, F *, F *, F *, F *, F *, F *, F *),
                   (sbuf, rbuf, count, type, op, root, comm, req, ierr),
                   coll_reduce(C(comm), *count, T(type), *root))
KMPI_F_ICOLLECTIVE(iallreduce, Iallreduce,
                   (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *req, F *ierr),
                   (void *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, rbuf, count, type, op, comm, req, ierr),
                   coll_every(kAllreduce, C(comm), *count, T(type)))
KMPI_F_ICOLLECTIVE(igather, Igather,
                   (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root,
                    F *comm, F *req, F *ierr),
                   (void *, F *, F *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req, ierr),
                   coll_gather(C(comm), *scount, T(stype), *rcount, T(rtype), *root))
KMPI_F_ICOLLECTIVE(igatherv, Igatherv,
                   (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs,
                    F *rtype, F *root, F *comm, F *req, F *ierr),
                   (void *, F *, F *, void *, F *, F *, F *, F *, F *, F *, F *),
                   (sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req, ierr),
                   coll_gatherv(C(comm), *scount, T(stype), rcounts, T(rtype), *root))
KMPI_F_ICOLLECTIVE(iscatter, Iscatter,
                   (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *root,
                    F *comm, F *req, F *ierr),
                   (void *, F *, F *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req, ierr),
                   coll_scatter(C(comm), *scount, T(stype), *rcount, T(rtype), *root))
KMPI_F_ICOLLECTIVE(iscatterv, Iscatterv,
                   (void *sbuf, F *scounts, F *displs, F *stype, void *rbuf, F *rcount,
                    F *rtype, F *root, F *comm, F *req, F *ierr),
                   (void *, F *, F *, F *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req, ierr),
                   coll_scatterv(C(comm), scounts, T(stype), *rcount, T(rtype), *root))
KMPI_F_ICOLLECTIVE(iallgather, Iallgather,
                   (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm,
                    F *req, F *ierr),
                   (void *, F *, F *, void *, F *, F *, F *, F *, F *),
                   (sbuf, scount, stype, rbuf, rcount, rtype, comm, req, ierr),
                   coll_every(kAllgather, C(comm), *rcount, T(rtype)))
KMPI_F_ICOLLECTIVE(iallgatherv, Iallgatherv,
                   (void *sbuf, F *scount, F *stype, void *rbuf, F *rcounts, F *displs,
                    F *rtype, F *comm, F *req, F *ierr),
                   (void *, F *, F *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req, ierr),
                   coll_allgatherv(C(comm), rcounts, T(rtype)))
KMPI_F_ICOLLECTIVE(ialltoall, Ialltoall,
                   (void *sbuf, F *scount, F *stype, void *rbuf, F *rcount, F *rtype, F *comm,
                    F *req, F *ierr),
                   (void *, F *, F *, void *, F *, F *, F *, F *, F *),
                   (sbuf, scount, stype, rbuf, rcount, rtype, comm, req, ierr),
                   coll_every(kAlltoall, C(comm), *rcount, T(rtype)))
KMPI_F_ICOLLECTIVE(ialltoallv, Ialltoallv,
                   (void *sbuf, F *scounts, F *sdispls, F *stype, void *rbuf, F *rcounts,
                    F *rdispls, F *rtype, F *comm, F *req, F *ierr),
                   (void *, F *, F *, F *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req,
                    ierr),
                   coll_alltoallv(C(comm), scounts, T(stype), rcounts, T(rtype),
                                  f_in_place(sbuf)))
KMPI_F_ICOLLECTIVE(ireduce_scatter, Ireduce_scatter,
                   (void *sbuf, void *rbuf, F *rcounts, F *type, F *op, F *comm, F *req,
                    F *ierr),
                   (void *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, rbuf, rcounts, type, op, comm, req, ierr),
                   coll_reduce_scatter(C(comm), rcounts, T(type)))
KMPI_F_ICOLLECTIVE(ireduce_scatter_block, Ireduce_scatter_block,
                   (void *sbuf, void *rbuf, F *rcount, F *type, F *op, F *comm, F *req,
                    F *ierr),
                   (void *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, rbuf, rcount, type, op, comm, req, ierr),
                   coll_every(kReduce_scatter_block, C(comm), *rcount, T(type)))
KMPI_F_ICOLLECTIVE(iscan, Iscan,
                   (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *req, F *ierr),
                   (void *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, rbuf, count, type, op, comm, req, ierr),
                   coll_scan(kScan, C(comm), *count, T(type)))
KMPI_F_ICOLLECTIVE(iexscan, Iexscan,
                   (void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *req, F *ierr),
                   (void *, void *, F *, F *, F *, F *, F *, F *),
                   (sbuf, rbuf, count, type, op, comm, req, ierr),
                   coll_scan(kExscan, C(comm), *count, T(type)))

// ---- communicators -----------------------------------------------------------------------

KMPI_EXPORT void mpi_comm_dup_(F *comm, F *newcomm, F *ierr) {
  KMPI_PMPI("pmpi_comm_dup_", F *, F *, F *);
  Scope s(kComm_dup, KMPI_RA);
  pf(comm, newcomm, ierr);
  if (s.outer() && *ierr == MPI_SUCCESS) comm_created(C(newcomm));
  s.done(*ierr);
}

KMPI_EXPORT void mpi_comm_split_(F *comm, F *color, F *key, F *newcomm, F *ierr) {
  KMPI_PMPI("pmpi_comm_split_", F *, F *, F *, F *, F *);
  Scope s(kComm_split, KMPI_RA);
  pf(comm, color, key, newcomm, ierr);
  if (s.outer() && *ierr == MPI_SUCCESS) comm_created(C(newcomm));
  s.done(*ierr);
}

KMPI_EXPORT void mpi_comm_create_(F *comm, F *group, F *newcomm, F *ierr) {
  KMPI_PMPI("pmpi_comm_create_", F *, F *, F *, F *);
  Scope s(kComm_create, KMPI_RA);
  pf(comm, group, newcomm, ierr);
  if (s.outer() && *ierr == MPI_SUCCESS) comm_created(C(newcomm));
  s.done(*ierr);
}

KMPI_EXPORT void mpi_comm_free_(F *comm, F *ierr) {
  KMPI_PMPI("pmpi_comm_free_", F *, F *);
  Scope s(kComm_free, KMPI_RA);
  if (s.outer()) {
    MPI_Comm c = C(comm);
    if (c != MPI_COMM_NULL) comm_freed(c);
  }
  pf(comm, ierr);
  s.done(*ierr);
}
