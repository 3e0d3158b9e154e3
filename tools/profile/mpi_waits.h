// The MPI calls of a job's ranks as kite-profile-analyze reads them back
// (mpi_format.h: kMpiEnter ... kMpiLeave intervals with their messages and
// collectives), and the wait states found by matching them across ranks
// (docs/kite-profile.md, "MPI wait states"):
//
//   late_sender    a blocking receive, or the wait completing an irecv,
//                  that waited because the matching send began later:
//                  from the waiting call's entry to the send's start
//                  (clipped to the call), blamed on the sender;
//   late_receiver  a blocking send (MPI_Send, Ssend, Rsend) or the wait
//                  completing an isend that waited because the matching
//                  receive was posted later: from the call's entry to the
//                  receive's posting, blamed on the receiver (a send that
//                  returned before the posting was buffered: no wait);
//   wait_at_collective  an N-to-N collective (mpi_format.h
//                  all_to_all_sync): from a rank's arrival to the last
//                  rank's arrival (clipped to its call), blamed on the last
//                  to arrive.
//
// Messages match on (communicator, world sender, world receiver, tag) in
// order: the k-th send of a key with the k-th receive of that key, sends
// ordered by their call's entry, receives by their posting (the irecv, or
// the blocking call's entry). Collectives match by their order on each
// communicator. One waiting call gets at most one wait state: the longest
// found for it (a waitall completing several late messages waited for the
// last one), so no time is counted twice.
//
// All times are the job's clock (rank 0's CLOCK_MONOTONIC, ns): the
// analyzer aligns each rank's before it fills these.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kite_profile {

struct MpiCall {
  uint8_t call = 0;      // mpi_format.h Call
  uint32_t thread = 0;   // the analyzer's position of the calling thread
  uint64_t enter = 0, leave = 0;
  uint64_t site = 0;     // return address into the program
};

// A kMpiSend, kMpiRecvRequest or kMpiRecv; `call` is its call's index.
struct MpiMessage {
  uint32_t call = 0;
  uint32_t peer = 0;     // world rank: receiver of a send, sender of a receive
  uint64_t comm = 0, tag = 0, bytes = 0, request = 0, time = 0;
};

struct MpiCollective {
  uint32_t call = 0;
  uint8_t op = 0;        // mpi_format.h Call
  uint32_t root = 0;
  uint64_t comm = 0, sent = 0, received = 0;
};

struct MpiSendDone {
  uint32_t call = 0;
  uint64_t request = 0, time = 0;
};

struct MpiRank {
  int rank = 0;
  std::vector<MpiCall> calls;
  std::vector<MpiMessage> sends, posts, recvs;
  std::vector<MpiSendDone> send_dones;
  std::vector<MpiCollective> collectives;
  uint64_t bad_records = 0;  // MPI records outside any call
};

enum WaitKind { kLateSender, kLateReceiver, kWaitAtCollective, kWaitKindCount };
extern const char *const kWaitKindNames[kWaitKindCount];

struct WaitState {
  WaitKind kind;
  int victim = 0, culprit = 0;  // positions in the ranks vector
  uint32_t call = 0;            // the victim's waiting call (index into its calls)
  uint32_t culprit_call = 0;    // the culprit's call (its send, receive or collective)
  uint64_t lo = 0, hi = 0;      // the waiting, job clock ns
};

// comm_size: each communicator's member count (from the meta's mpi_comm.*
// lines and mpi_world_size); a communicator whose collectives not every
// member recorded is left out, with a note.
std::vector<WaitState> find_wait_states(const std::vector<MpiRank> &ranks,
                                        const std::map<uint64_t, size_t> &comm_size,
                                        std::vector<std::string> &notes);

}  // namespace kite_profile
