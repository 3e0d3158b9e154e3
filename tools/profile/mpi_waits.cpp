// Wait states of an MPI job (mpi_waits.h).
#include "mpi_waits.h"

#include <algorithm>
#include <tuple>

#include "mpi_format.h"

namespace kite_profile {

const char *const kWaitKindNames[kWaitKindCount] = {"late_sender", "late_receiver",
                                                    "wait_at_collective"};

namespace {

using Key = std::tuple<uint64_t, uint32_t, uint32_t, uint64_t>;  // comm, sender, receiver, tag

struct SendRef {
  size_t rank, index;
  uint64_t start;
};
struct RecvRef {
  size_t rank, index;
  uint64_t post;
};

// The longest wait state of each waiting call.
class Candidates {
 public:
  void offer(const WaitState &w) {
    if (w.hi <= w.lo) return;
    auto key = std::make_pair(w.victim, w.call);
    auto it = best_.find(key);
    if (it == best_.end() || it->second.hi - it->second.lo < w.hi - w.lo) best_[key] = w;
  }
  std::vector<WaitState> take() const {
    std::vector<WaitState> v;
    for (const auto &kv : best_) v.push_back(kv.second);
    return v;
  }

 private:
  std::map<std::pair<int, uint32_t>, WaitState> best_;
};

// When rank r's receive `m` was posted: its irecv (the latest post of the
// same request before it), or its blocking call's entry.
uint64_t posted_at(const MpiRank &r, const MpiMessage &m,
                   const std::map<uint64_t, std::vector<uint64_t>> &posts) {
  if (m.request) {
    auto it = posts.find(m.request);
    if (it != posts.end()) {
      auto p = std::upper_bound(it->second.begin(), it->second.end(), m.time);
      if (p != it->second.begin()) return *std::prev(p);
    }
  }
  return r.calls[m.call].enter;
}

bool blocking_send(unsigned call) {
  using namespace kite_mpi;
  return call == kSend || call == kSsend || call == kRsend;
}

void point_to_point(const std::vector<MpiRank> &ranks, Candidates &out) {
  std::map<uint32_t, size_t> position;
  for (size_t i = 0; i < ranks.size(); ++i) position[uint32_t(ranks[i].rank)] = i;
  std::map<Key, std::vector<SendRef>> sends;
  std::map<Key, std::vector<RecvRef>> recvs;
  // Per rank, each request's completions (kMpiSendComplete), by time.
  std::vector<std::map<uint64_t, std::vector<const MpiSendDone *>>> dones(ranks.size());
  for (size_t ri = 0; ri < ranks.size(); ++ri) {
    for (const MpiSendDone &d : ranks[ri].send_dones) dones[ri][d.request].push_back(&d);
    for (auto &kv : dones[ri])
      std::stable_sort(kv.second.begin(), kv.second.end(),
                       [](const MpiSendDone *x, const MpiSendDone *y) { return x->time < y->time; });
  }
  for (size_t ri = 0; ri < ranks.size(); ++ri) {
    const MpiRank &r = ranks[ri];
    uint32_t me = uint32_t(r.rank);
    for (size_t i = 0; i < r.sends.size(); ++i) {
      const MpiMessage &s = r.sends[i];
      sends[Key{s.comm, me, s.peer, s.tag}].push_back(SendRef{ri, i, r.calls[s.call].enter});
    }
    std::map<uint64_t, std::vector<uint64_t>> posts;  // request -> posting times
    for (const MpiMessage &p : r.posts) posts[p.request].push_back(p.time);
    for (auto &kv : posts) std::sort(kv.second.begin(), kv.second.end());
    for (size_t i = 0; i < r.recvs.size(); ++i) {
      const MpiMessage &m = r.recvs[i];
      recvs[Key{m.comm, m.peer, me, m.tag}].push_back(RecvRef{ri, i, posted_at(r, m, posts)});
    }
  }
  for (auto &kv : sends) {
    auto rv = recvs.find(kv.first);
    if (rv == recvs.end()) continue;
    auto &sv = kv.second;
    auto &rcv = rv->second;
    std::stable_sort(sv.begin(), sv.end(), [](const SendRef &a, const SendRef &b) { return a.start < b.start; });
    std::stable_sort(rcv.begin(), rcv.end(), [](const RecvRef &a, const RecvRef &b) { return a.post < b.post; });
    for (size_t k = 0; k < sv.size() && k < rcv.size(); ++k) {
      const SendRef &s = sv[k];
      const RecvRef &q = rcv[k];
      const MpiRank &sr = ranks[s.rank], &rr = ranks[q.rank];
      // Late sender: the receive was posted before the send began.
      const MpiMessage &m = rr.recvs[q.index];
      const MpiCall &w = rr.calls[m.call];
      if (q.post < s.start) {
        WaitState ws{kLateSender, int(q.rank), int(s.rank), m.call, sr.sends[s.index].call, w.enter,
                     std::min(s.start, w.leave)};
        out.offer(ws);
      }
      // Late receiver: a send that waits for its receive, posted later.
      const MpiMessage &sm = sr.sends[s.index];
      const MpiCall *sw = nullptr;
      uint32_t sw_index = 0;
      if (sm.request == 0 && blocking_send(sr.calls[sm.call].call)) {
        sw = &sr.calls[sm.call];
        sw_index = sm.call;
      } else if (sm.request) {
        // The first completion of its request after the isend.
        auto it = dones[s.rank].find(sm.request);
        if (it != dones[s.rank].end()) {
          auto d = std::lower_bound(it->second.begin(), it->second.end(), sm.time,
                                    [](const MpiSendDone *x, uint64_t t) { return x->time < t; });
          if (d != it->second.end()) {
            sw = &sr.calls[(*d)->call];
            sw_index = (*d)->call;
          }
        }
      }
      // A send that returned before its receive was posted was buffered
      // (eager): it waited for no one.
      if (sw && q.post > s.start && sw->leave >= q.post) {
        WaitState ws{kLateReceiver, int(s.rank), int(q.rank), sw_index, m.call, sw->enter,
                     std::min(q.post, sw->leave)};
        out.offer(ws);
      }
    }
  }
}

void collectives(const std::vector<MpiRank> &ranks, const std::map<uint64_t, size_t> &comm_size,
                 Candidates &out, std::vector<std::string> &notes) {
  // Per communicator, per rank: its collectives in the order it entered them.
  std::map<uint64_t, std::map<size_t, std::vector<const MpiCollective *>>> by_comm;
  for (size_t ri = 0; ri < ranks.size(); ++ri)
    for (const MpiCollective &c : ranks[ri].collectives) by_comm[c.comm][ri].push_back(&c);
  for (auto &kv : by_comm) {
    uint64_t comm = kv.first;
    if (comm >= kite_mpi::kSelfBase) continue;  // a rank alone waits for no one
    auto &per_rank = kv.second;
    auto size = comm_size.find(comm);
    if (size == comm_size.end() || per_rank.size() < size->second) {
      notes.push_back("communicator " + std::to_string(comm) + ": collectives recorded by " +
                      std::to_string(per_rank.size()) + " rank(s) of " +
                      (size == comm_size.end() ? std::string("an unknown number")
                                               : std::to_string(size->second)) +
                      "; its collective waits are not computed");
      continue;
    }
    size_t n = SIZE_MAX;
    for (auto &pr : per_rank) {
      const MpiRank &r = ranks[pr.first];
      std::stable_sort(pr.second.begin(), pr.second.end(),
                       [&](const MpiCollective *a, const MpiCollective *b) {
                         return r.calls[a->call].enter < r.calls[b->call].enter;
                       });
      n = std::min(n, pr.second.size());
    }
    for (auto &pr : per_rank)
      if (pr.second.size() != n) {
        notes.push_back("communicator " + std::to_string(comm) +
                        ": its ranks recorded different numbers of collectives; the first " +
                        std::to_string(n) + " are matched");
        break;
      }
    for (size_t k = 0; k < n; ++k) {
      uint8_t op = per_rank.begin()->second[k]->op;
      bool same = std::all_of(per_rank.begin(), per_rank.end(),
                              [&](const auto &pr) { return pr.second[k]->op == op; });
      if (!same) {
        notes.push_back("communicator " + std::to_string(comm) + ": collective " + std::to_string(k) +
                        " is not the same operation on every rank; matching stops there");
        break;
      }
      if (!kite_mpi::all_to_all_sync(op)) continue;
      size_t last = per_rank.begin()->first;
      uint32_t last_call = 0;
      uint64_t last_enter = 0;
      for (const auto &pr : per_rank) {
        uint64_t e = ranks[pr.first].calls[pr.second[k]->call].enter;
        if (e >= last_enter) last_enter = e, last = pr.first, last_call = pr.second[k]->call;
      }
      for (const auto &pr : per_rank) {
        if (pr.first == last) continue;
        const MpiCall &c = ranks[pr.first].calls[pr.second[k]->call];
        WaitState ws{kWaitAtCollective, int(pr.first), int(last), pr.second[k]->call, last_call,
                     c.enter, std::min(last_enter, c.leave)};
        out.offer(ws);
      }
    }
  }
}

}  // namespace

std::vector<WaitState> find_wait_states(const std::vector<MpiRank> &ranks,
                                        const std::map<uint64_t, size_t> &comm_size,
                                        std::vector<std::string> &notes) {
  Candidates c;
  point_to_point(ranks, c);
  collectives(ranks, comm_size, c, notes);
  return c.take();
}

}  // namespace kite_profile
