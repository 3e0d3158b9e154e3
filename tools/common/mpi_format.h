// MPI events in Kite's raw files (raw_format.h): what the MPI interposition
// libraries (tools/mpi/, libkite-mpi-openmpi.so and libkite-mpi-mpich.so,
// preloaded by `kite trace` and `kite profile` into MPI programs) record on
// the calling thread's event stream, through the recorder of the tool
// library the OpenMP runtime loaded (kite_rec_external, recorder.h), and
// what the converter (kite-trace-convert) and the analyzer
// (kite-profile-analyze) read back.
//
// Every MPI call the wrappers see is one kMpiEnter ... kMpiLeave interval
// on the calling thread (a call made inside another wrapped call, e.g. a
// Fortran binding that calls the C one, is not recorded twice). Between
// them, the messages and collective operations the call took part in:
//
//   kMpiSend       a blocking send or a send request's start (isend):
//                  a: communicator id, u32: the receiver's rank in
//                  MPI_COMM_WORLD, b: tag, d: bytes, c: request id
//                  (0: blocking; else kMpiSendComplete follows later)
//   kMpiSendComplete  a: request id of an isend completed by this call
//                  (wait/test families)
//   kMpiRecvRequest   an irecv posted: a: communicator id, c: request id,
//                  u32: source asked for (world rank, kAnyRank), b: tag
//                  asked for (kAnyTag)
//   kMpiRecv       a receive completed (blocking, or an irecv completed by
//                  a wait/test call): a: communicator id, u32: the sender's
//                  world rank (from the status), b: tag (from the status),
//                  d: bytes received, c: request id (0: blocking)
//   kMpiCollective a collective operation, recorded before its kMpiLeave:
//                  sub: Call, a: communicator id, u32: root's world rank
//                  (kAnyRank: none), b: bytes this rank sent, d: bytes it
//                  received
//   kMpiCollectiveRequest  a non-blocking collective started (MPI_Ibarrier
//                  ... MPI_Iexscan), recorded in its call: sub: Call (the
//                  I-call), a, u32, b, d as kMpiCollective (what this
//                  rank's part will send and receive, counted as for the
//                  blocking operation), c: request id
//   kMpiCollectiveComplete  the wait/test call that completed a
//                  non-blocking collective: the same fields as its
//                  kMpiCollectiveRequest (sub: the I-call, c: its id)
//   kMpiRequestCancelled  a: request id of an isend, irecv or persistent
//                  request's start whose completion (wait/test) found it
//                  cancelled (MPI_Cancel; MPI_Test_cancelled on its
//                  status): no kMpiSendComplete / kMpiRecv follows for it
//
// Requests: every isend/irecv/non-blocking collective gets a request id
// (per process, from 1) when it starts. A persistent request
// (MPI_Send_init, Bsend_init, Ssend_init, Rsend_init, Recv_init) records
// nothing when made; each MPI_Start / MPI_Startall of it records a
// kMpiSend (send; c: a fresh request id) or a kMpiRecvRequest (receive),
// exactly as an isend / irecv, and the wait/test that completes that start
// its kMpiSendComplete / kMpiRecv. MPI_Request_free forgets a request: a
// receive freed before it completed records no kMpiRecv (its message stays
// unmatched), a send freed so its kMpiSend but no kMpiSendComplete.
// MPI_Cancel records nothing itself; the completion does (above). A send
// that was really cancelled (MPICH can; Open MPI does not cancel sends)
// keeps its kMpiSend: the converters count it as sent.
//
// Bytes of a collective count pairwise transfers, the rank itself
// included, so that over a communicator's ranks the bytes sent add up to
// the bytes received: a bcast's root sends count*size to each of N ranks
// (N*count*size) and every rank, the root too, receives count*size; a
// reduce sends count*size from each rank, its root receives N times that;
// allreduce, allgather, alltoall, reduce_scatter_block: N blocks each way;
// gather(v)/scatter(v) as their counts say; scan: rank i receives i+1
// blocks and sends N-i (exscan: i and N-1-i). Sends to and receives from
// MPI_PROC_NULL are no messages: not recorded (nor their requests).
//
// kMpiEnter: sub: Call, c: the call site (the return address into the
// program). kMpiLeave: sub: Call, u32: the MPI return code.
//
// Communicator ids are the same on every rank of the communicator:
// MPI_COMM_WORLD is 0, MPI_COMM_SELF is kSelfBase + world rank, a new
// communicator gets ((world rank of its rank 0) + 1) << 32 | (a counter
// of that rank), told to its members by its rank 0 at creation. Point-to-
// point messages match on (communicator, sender, receiver, tag) in order
// (MPI's non-overtaking rule). A communicator made by a call the wrappers
// do not wrap (MPI_Cart_create, MPI_Comm_create_group, an
// inter-communicator, ...) gets kUnseenBase | a 32-bit FNV-1a hash of its
// members' world ranks at its first use (the same on every member, as no
// message can be exchanged then), and its members in the meta likewise.
//
// The meta file gains (recorder.h append_meta, through kite_rec_meta):
//   mpi=openmpi|mpich          the wrapper that ran
//   mpi_world_rank=R, mpi_world_size=N, mpi_thread_level=L (provided)
//   mpi_host=HOSTNAME (MPI_Get_processor_name)
//   mpi_comm.<id>=r0,r1,...    each communicator's members, in its rank
//                              order, as world ranks (0 and self omitted)
//   clock_domain=ID            CLOCK_MONOTONIC is one clock for every
//                              process of the same domain (the boot id:
//                              one machine, one boot); a test's injected
//                              skew (KITE_TEST_CLOCK_SKEW_NS) makes its own
//   mpi_clock_init=L O E, mpi_clock_final=L O E
//                              offset to rank 0's clock measured in
//                              MPI_Init and in MPI_Finalize: at local
//                              CLOCK_MONOTONIC ns L, rank 0's clock read
//                              L + O (ns, signed), E the measurement's
//                              half round trip (ns). Rank 0: "L 0 0".
//                              A time t of this rank is rank 0's
//                              t + O(t), O interpolated linearly between
//                              the two measurements (held outside them).
//                              The clock is the recorder's (recorder.h
//                              kite_rec_now_ns: with the test skew).
#pragma once

#include <cstdint>

namespace kite_mpi {

constexpr uint32_t kAnyRank = 0xffffffffu;  // MPI_ANY_SOURCE, or no root
constexpr uint64_t kAnyTag = ~uint64_t(0);  // MPI_ANY_TAG
constexpr uint64_t kWorldComm = 0;
constexpr uint64_t kSelfBase = uint64_t(0xffffffff) << 32;
constexpr uint64_t kUnseenBase = uint64_t(0xfffffffe) << 32;

// The wrapped calls. Append only: the numbers are in raw files.
#define KITE_MPI_CALLS(X)                                                            \
  X(Init) X(Init_thread) X(Finalize)                                                 \
  X(Send) X(Bsend) X(Ssend) X(Rsend) X(Recv)                                         \
  X(Isend) X(Ibsend) X(Issend) X(Irsend) X(Irecv)                                    \
  X(Sendrecv) X(Sendrecv_replace) X(Probe) X(Iprobe)                                 \
  X(Wait) X(Waitall) X(Waitany) X(Waitsome)                                          \
  X(Test) X(Testall) X(Testany) X(Testsome)                                          \
  X(Barrier) X(Bcast) X(Reduce) X(Allreduce)                                         \
  X(Gather) X(Gatherv) X(Scatter) X(Scatterv)                                        \
  X(Allgather) X(Allgatherv) X(Alltoall) X(Alltoallv)                                \
  X(Reduce_scatter) X(Reduce_scatter_block) X(Scan) X(Exscan)                        \
  X(Comm_dup) X(Comm_split) X(Comm_create) X(Comm_free)                            \
  X(Send_init) X(Bsend_init) X(Ssend_init) X(Rsend_init) X(Recv_init)                \
  X(Start) X(Startall) X(Request_free) X(Cancel)                                     \
  X(Ibarrier) X(Ibcast) X(Ireduce) X(Iallreduce)                                     \
  X(Igather) X(Igatherv) X(Iscatter) X(Iscatterv)                                    \
  X(Iallgather) X(Iallgatherv) X(Ialltoall) X(Ialltoallv)                            \
  X(Ireduce_scatter) X(Ireduce_scatter_block) X(Iscan) X(Iexscan)

enum Call : uint8_t {
  kNoCall = 0,
#define KITE_MPI_ENUM(name) k##name,
  KITE_MPI_CALLS(KITE_MPI_ENUM)
#undef KITE_MPI_ENUM
  kCallCount
};

// "MPI_Send" etc.; "MPI_?" for a number this build does not know.
inline const char *call_name(unsigned c) {
  static const char *const names[] = {
      "MPI_?",
#define KITE_MPI_NAME(name) "MPI_" #name,
      KITE_MPI_CALLS(KITE_MPI_NAME)
#undef KITE_MPI_NAME
  };
  return c < kCallCount ? names[c] : names[0];
}

// kCollective: a blocking collective (its kMpiCollective is in the call);
// kNonBlockingCollective: MPI_Ibarrier ... MPI_Iexscan (kMpiCollectiveRequest
// in the call, kMpiCollectiveComplete in a later wait/test call).
enum class Kind { kPointToPoint, kCollective, kWaitTest, kOther, kNonBlockingCollective };

// Calls appended after kComm_free are outside the ranges: each has its
// own case.
inline Kind call_kind(unsigned c) {
  if (c >= kSend && c <= kIprobe) return Kind::kPointToPoint;
  if (c >= kWait && c <= kTestsome) return Kind::kWaitTest;
  if (c >= kBarrier && c <= kExscan) return Kind::kCollective;
  switch (c) {
    case kSend_init:
    case kBsend_init:
    case kSsend_init:
    case kRsend_init:
    case kRecv_init:
    case kStart:
    case kStartall: return Kind::kPointToPoint;
    case kRequest_free:
    case kCancel: return Kind::kOther;
  }
  if (c >= kIbarrier && c <= kIexscan) return Kind::kNonBlockingCollective;
  return Kind::kOther;
}

static_assert(kIexscan - kIbarrier == kExscan - kBarrier,
              "the non-blocking collectives are listed in the blocking ones' order");

// The blocking collective of a non-blocking one (MPI_Iallreduce ->
// kAllreduce: the operation it performs); c itself for any other call.
inline unsigned blocking_of(unsigned c) {
  if (c >= kIbarrier && c <= kIexscan) return c - kIbarrier + kBarrier;
  return c;
}

// Collectives in which every rank waits for every other (N to N): the
// time a rank waits in them for the last one to arrive is a wait state.
inline bool all_to_all_sync(unsigned c) {
  return c == kBarrier || c == kAllreduce || c == kAllgather || c == kAllgatherv ||
         c == kAlltoall || c == kAlltoallv || c == kReduce_scatter ||
         c == kReduce_scatter_block;
}

}  // namespace kite_mpi
