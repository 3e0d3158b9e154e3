// kite-trace-convert: the MPI records of mpi_format.h, and the ranks of an
// MPI job made one trace. Each rank is converted on its own, one after the
// other, into the same files (an Output): nothing of one rank's events is
// held while another's are read. What ties them together is small and kept
// for the whole job:
//  - one time line: each rank's times are moved to rank 0's clock by the
//    offsets its MPI wrapper measured in MPI_Init and MPI_Finalize
//    (ClockAlign), unless it shares rank 0's clock domain;
//  - its communicators (members from the meta files), for OTF2's
//    definitions and the translation of world ranks into communicator ranks;
//  - a counter per message channel (communicator, sender, receiver, tag):
//    MPI does not let messages of one channel overtake each other, so the
//    n-th send and the n-th receive of a channel are the same message, and
//    both sides name its flow by (channel, n) without seeing each other.
#include <algorithm>
#include <cinttypes>
#include <cstring>

#include "convert.h"
#include "text.h"

namespace kite_trace {

using namespace kite_mpi;

namespace {

bool match_mpi(const Open &o, uint64_t, uint16_t) { return o.kind == sMpi; }

OTF2_CollectiveOp collective_op(unsigned call) {
  switch (call) {
    case kBarrier: return OTF2_COLLECTIVE_OP_BARRIER;
    case kBcast: return OTF2_COLLECTIVE_OP_BCAST;
    case kReduce: return OTF2_COLLECTIVE_OP_REDUCE;
    case kAllreduce: return OTF2_COLLECTIVE_OP_ALLREDUCE;
    case kGather: return OTF2_COLLECTIVE_OP_GATHER;
    case kGatherv: return OTF2_COLLECTIVE_OP_GATHERV;
    case kScatter: return OTF2_COLLECTIVE_OP_SCATTER;
    case kScatterv: return OTF2_COLLECTIVE_OP_SCATTERV;
    case kAllgather: return OTF2_COLLECTIVE_OP_ALLGATHER;
    case kAllgatherv: return OTF2_COLLECTIVE_OP_ALLGATHERV;
    case kAlltoall: return OTF2_COLLECTIVE_OP_ALLTOALL;
    case kAlltoallv: return OTF2_COLLECTIVE_OP_ALLTOALLV;
    case kReduce_scatter: return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
    case kReduce_scatter_block: return OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK;
    case kScan: return OTF2_COLLECTIVE_OP_SCAN;
    case kExscan: return OTF2_COLLECTIVE_OP_EXSCAN;
    case kComm_dup:
    case kComm_split:
    case kComm_create: return OTF2_COLLECTIVE_OP_CREATE_HANDLE;
    case kComm_free: return OTF2_COLLECTIVE_OP_DESTROY_HANDLE;
  }
  return OTF2_COLLECTIVE_OP_BARRIER;
}

// "L O E" of mpi_clock_init / mpi_clock_final.
bool clock_measure(const std::map<std::string, std::string> &m, const char *key, int64_t &l,
                   int64_t &o, uint64_t &e) {
  auto it = m.find(key);
  if (it == m.end()) return false;
  long long L, O;
  unsigned long long E;
  if (sscanf(it->second.c_str(), "%lld %lld %llu", &L, &O, &E) != 3) return false;
  l = L;
  o = O;
  e = E;
  return true;
}

bool parse_rank(const std::string &s, uint32_t &r) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  r = uint32_t(strtoul(s.c_str(), nullptr, 10));
  return true;
}

std::string signed_ns(int64_t v) { return (v >= 0 ? "+" : "") + std::to_string(v); }

}  // namespace

bool MpiJob::read(const std::string &raw_dir, const std::vector<std::string> &stems,
                  std::string &why) {
  std::map<uint32_t, std::map<std::string, std::string>> metas;
  for (const std::string &stem : stems) {
    auto meta = read_meta(raw_dir + "/" + stem + ".meta");
    std::string rs = meta.count("mpi_world_rank") ? meta["mpi_world_rank"] : meta["rank"];
    uint32_t r;
    if (!parse_rank(rs, r)) {
      why = stem + ".meta names the rank '" + rs + "'";
      return false;
    }
    if (ranks.count(r)) {
      why = "rank " + rs + " was recorded twice (" + ranks[r].stem + " and " + stem + ")";
      return false;
    }
    Rank &k = ranks[r];
    k.stem = stem;
    k.host = meta["mpi_host"];
    k.domain = meta["clock_domain"];
    k.pid = atoi(meta["pid"].c_str());
    k.finalized = meta.count("end_ns") != 0;
    world_size = std::max<uint32_t>(world_size, r + 1);
    uint32_t n;
    if (parse_rank(meta["mpi_world_size"], n)) world_size = std::max(world_size, n);
    for (const auto &kv : meta) {
      if (kv.first.compare(0, 9, "mpi_comm.") != 0) continue;
      uint64_t id = strtoull(kv.first.c_str() + 9, nullptr, 0);
      std::vector<uint32_t> list;
      const char *p = kv.second.c_str();
      while (*p) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p) break;
        list.push_back(uint32_t(v));
        p = *end == ',' ? end + 1 : end;
      }
      members_[id] = list;  // the same on every member
    }
    metas[r] = std::move(meta);
  }
  // A rank that did not finish (a crash, or killed by the launcher after
  // another's crash) has only the TSC rate its recorder measured over 2 ms
  // at its start, which a busy machine makes 0.1 % wrong or more: a
  // millisecond after a second, a different one on each rank. The
  // processes of one clock domain read one TSC, so they take one rate: the
  // one their start and end pairs (TSC, CLOCK_MONOTONIC ns) span, when
  // some process finished or they lie 5 ms apart; else the median of their
  // own measurements. Mapped with one rate, the ranks agree with each
  // other to the few microseconds their start pairs are apart times the
  // rate's error.
  struct Domain {
    std::vector<std::pair<double, double>> pairs;  // (ns, tsc)
    std::vector<double> hz;
    bool finished = false;
  };
  std::map<std::string, Domain> domains;
  for (const auto &kv : metas) {
    const auto &m = kv.second;
    auto num = [&](const char *k) {
      auto it = m.find(k);
      return it == m.end() ? 0.0 : strtod(it->second.c_str(), nullptr);
    };
    if (!m.count("clock") || m.at("clock") != "tsc" || !m.count("clock_domain")) continue;
    Domain &d = domains[m.at("clock_domain")];
    if (num("ns_start") > 0) d.pairs.emplace_back(num("ns_start"), num("tsc_start"));
    if (num("ns_end") > 0) {
      d.pairs.emplace_back(num("ns_end"), num("tsc_end"));
      d.finished = true;
    }
    if (num("tsc_hz") > 0) d.hz.push_back(num("tsc_hz"));
  }
  for (auto &kv : ranks) {
    const auto &m = metas[kv.first];
    if (m.count("tsc_end") || !m.count("tsc_hz") || !domains.count(kv.second.domain)) continue;
    Domain &d = domains[kv.second.domain];
    if (d.pairs.empty() || d.hz.size() + d.finished < 2) continue;  // nothing to share
    auto lo = std::min_element(d.pairs.begin(), d.pairs.end());
    auto hi = std::max_element(d.pairs.begin(), d.pairs.end());
    double span = hi->first - lo->first;
    std::string how;
    char buf[200];
    if ((d.finished || span >= 5e6) && hi->second > lo->second) {
      kv.second.ns_per_tick = span / (hi->second - lo->second);
      snprintf(buf, sizeof buf, "the one its clock domain's processes span over %.0f ms", span / 1e6);
    } else {
      std::vector<double> hz = d.hz;
      std::sort(hz.begin(), hz.end());
      kv.second.ns_per_tick = 1e9 / hz[hz.size() / 2];
      snprintf(buf, sizeof buf, "the median of its clock domain's %zu processes' measurements",
               hz.size());
    }
    how = buf;
    double own = strtod(m.at("tsc_hz").c_str(), nullptr);
    char note[400];
    snprintf(note, sizeof note,
             "rank %u did not finish: its TSC rate is %s (%.6f GHz), not its own 2 ms "
             "measurement (%.6f GHz)",
             kv.first, how.c_str(), 1.0 / kv.second.ns_per_tick, own / 1e9);
    clock_notes.push_back(note);
  }
  // One time line: rank 0's clock.
  auto zero = ranks.find(0);
  if (zero == ranks.end()) {
    if (stems.size() > 1) clock_notes.push_back("no rank 0 recorded: every rank's times as recorded");
    return true;
  }
  for (auto &kv : ranks) {
    Rank &k = kv.second;
    if (kv.first == 0 || k.domain == zero->second.domain) continue;
    ClockAlign &c = k.align;
    const auto &m = metas[kv.first];
    bool init = clock_measure(m, "mpi_clock_init", c.l0, c.o0, c.e0);
    bool fin = clock_measure(m, "mpi_clock_final", c.l1, c.o1, c.e1);
    std::string who = "rank " + std::to_string(kv.first) + " (clock domain " + k.domain +
                      ", rank 0's " + zero->second.domain + ")";
    if (!init && !fin) {
      clock_notes.push_back(who + ": no clock offset measured, its times as recorded");
      continue;
    }
    c.shift = true;
    if (!init) {  // one measurement: a constant offset
      c.l0 = c.l1;
      c.o0 = c.o1;
      c.e0 = c.e1;
    }
    c.two = init && fin && c.l1 > c.l0;
    std::string note = who + ": moved to rank 0's clock by " + signed_ns(c.o0) + " ns (+-" +
                       std::to_string(c.e0) + " ns)";
    if (c.two) {
      note += " at MPI_Init to " + signed_ns(c.o1) + " ns (+-" + std::to_string(c.e1) +
              " ns) at MPI_Finalize, linearly between";
    } else {
      note += init ? " measured at MPI_Init only (no MPI_Finalize), held constant"
                   : " measured at MPI_Finalize only, held constant";
    }
    clock_notes.push_back(note);
  }
  bool moved = false;
  for (const auto &kv : ranks) moved = moved || kv.second.align.shift;
  if (!moved && ranks.size() > 1)
    clock_notes.push_back("no clock correction: every rank read rank 0's clock (clock domain " +
                          (zero->second.domain.empty() ? std::string("not recorded") : zero->second.domain) + ")");
  return true;
}

uint32_t MpiJob::comm(uint64_t id, Output &out) {
  if (id == kWorldComm) {
    if (world_ref_ == UINT32_MAX) world_ref_ = out.new_comm();
    return world_ref_;
  }
  if (id >= kSelfBase) {
    if (self_ref_ == UINT32_MAX) self_ref_ = out.new_comm();
    return self_ref_;
  }
  auto it = comm_refs_.find(id);
  if (it != comm_refs_.end()) return it->second;
  return comm_refs_[id] = out.new_comm();
}

uint32_t MpiJob::rank_in(uint64_t comm, uint32_t world) {
  if (world == kAnyRank) return OTF2_UNDEFINED_UINT32;
  if (comm == kWorldComm) return world;
  if (comm >= kSelfBase) return 0;
  auto it = members_.find(comm);
  if (it != members_.end())
    for (size_t i = 0; i < it->second.size(); ++i)
      if (it->second[i] == world) return uint32_t(i);
  ++unknown_peers;
  return OTF2_UNDEFINED_UINT32;
}

MpiJob::Channel &MpiJob::channel(const ChannelKey &k) {
  auto it = channels_.find(k);
  if (it != channels_.end()) return it->second;
  Channel &c = channels_[k];
  c.index = channels_.size() - 1;
  return c;
}

// Flow ids far above the small ones of OpenMP tasks and dependences.
static uint64_t message_flow(uint64_t channel, uint64_t n) {
  return (uint64_t(1) << 62) | ((channel & 0x3fffffff) << 32) | (n & 0xffffffff);
}

uint64_t MpiJob::send_flow(uint64_t comm, uint32_t from, uint32_t to, uint64_t tag) {
  Channel &c = channel(ChannelKey(comm, from, to, tag));
  return message_flow(c.index, c.sends++);
}

uint64_t MpiJob::recv_flow(uint64_t comm, uint32_t from, uint32_t to, uint64_t tag) {
  Channel &c = channel(ChannelKey(comm, from, to, tag));
  return message_flow(c.index, c.receives++);
}

void MpiJob::matches(uint64_t &matched, uint64_t &unmatched_sends,
                     uint64_t &unmatched_receives) const {
  matched = unmatched_sends = unmatched_receives = 0;
  for (const auto &kv : channels_) {
    uint64_t m = std::min(kv.second.sends, kv.second.receives);
    matched += m;
    unmatched_sends += kv.second.sends - m;
    unmatched_receives += kv.second.receives - m;
  }
}

// MPI's definitions: the location of each world rank (its first thread;
// COMM_LOCATIONS, index = world rank), MPI_COMM_WORLD and every other
// communicator a group of those indexes (COMM_GROUP), MPI_COMM_SELF the
// paradigm's one COMM_SELF group.
void MpiJob::write_defs(OTF2_GlobalDefWriter *g, Output &out, uint32_t &next_group) {
  comm(kWorldComm, out);
  std::vector<uint64_t> locations(world_size, OTF2_UNDEFINED_LOCATION);
  for (const auto &kv : ranks)
    if (kv.second.converted && kv.first < world_size) locations[kv.first] = kv.second.location;  // else undefined: it left no thread file
  uint32_t all = next_group++;
  otf2_check(OTF2_GlobalDefWriter_WriteGroup(g, all, out.str("MPI ranks"),
                                             OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, uint32_t(locations.size()),
                                             locations.data()),
             "MPI locations group");
  std::vector<uint64_t> world(world_size);
  for (uint32_t i = 0; i < world_size; ++i) world[i] = i;
  uint32_t world_group = next_group++;
  otf2_check(OTF2_GlobalDefWriter_WriteGroup(g, world_group, out.str("MPI_COMM_WORLD"),
                                             OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, world_size, world.data()),
             "MPI_COMM_WORLD group");
  out.comm_def(world_ref_, "MPI_COMM_WORLD", world_group, OTF2_UNDEFINED_COMM);
  if (self_ref_ != UINT32_MAX) {
    uint32_t self = next_group++;
    otf2_check(OTF2_GlobalDefWriter_WriteGroup(g, self, out.str("MPI_COMM_SELF"),
                                               OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                               OTF2_GROUP_FLAG_NONE, 0, nullptr),
               "MPI_COMM_SELF group");
    out.comm_def(self_ref_, "MPI_COMM_SELF", self, OTF2_UNDEFINED_COMM);
  }
  for (const auto &kv : comm_refs_) {
    std::vector<uint64_t> members;
    auto it = members_.find(kv.first);
    if (it != members_.end()) members.assign(it->second.begin(), it->second.end());
    std::string name = "MPI communicator " + hex(kv.first) +
                       (it == members_.end() ? " (members not recorded)" : "");
    uint32_t group = next_group++;
    otf2_check(OTF2_GlobalDefWriter_WriteGroup(g, group, out.str(name), OTF2_GROUP_TYPE_COMM_GROUP,
                                               OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                               uint32_t(members.size()), members.data()),
               "communicator group");
    out.comm_def(kv.second, name, group, world_ref_);
  }
}

// The values shown with an MPI call's slice: its first message's, or its
// collective operation's (a non-blocking one's with its request id); a
// wait/test call's non-blocking collectives completed and requests found
// cancelled. At most kMpiAnnotations.
constexpr unsigned kMpiAnnotations = 10;
static unsigned mpi_annotations(const ThreadState::MpiCall &m, Annotation *a) {
  unsigned n = 0;
  auto add = [&](AnnotationName name, uint64_t v, Annotation::Type t) {
    a[n].name = name;
    a[n].value = v;
    a[n].type = t;
    ++n;
  };
  if (m.collective_ended) {
    add(aComm, m.comm, Annotation::kPointer);
    if (m.root != kAnyRank) add(aRoot, m.root, Annotation::kUint);
    add(aBytes, m.bytes, Annotation::kUint);
    add(aBytesReceived, m.received, Annotation::kUint);
    if (m.request) add(aRequest, m.request, Annotation::kUint);
  } else if (m.messages) {
    add(aComm, m.comm, Annotation::kPointer);
    if (m.peer != kAnyRank) add(aPeer, m.peer, Annotation::kUint);
    if (m.tag != kAnyTag) add(aTag, m.tag, Annotation::kUint);
    add(aBytes, m.bytes, Annotation::kUint);
    if (m.messages > 1) add(aMessages, m.messages, Annotation::kUint);
  }
  if (m.icollectives_done) {
    add(aCollectivesCompleted, m.icollectives_done, Annotation::kUint);
    add(aCollectiveRequest, m.icollective_request, Annotation::kUint);
  }
  if (m.cancelled) add(aCancelled, m.cancelled, Annotation::kUint);
  return n;
}

void Process::mpi_write_begin(ThreadState &ts, const Open &o) {
  ThreadState::MpiCall &m = ts.mpi;
  if (m.begin_written) return;
  m.begin_written = true;
  m.flows_written = m.flows_out.size();
  if (!perfetto_) return;
  const Site &s = sites_[o.site];
  Annotation a[kMpiAnnotations];
  PerfettoEvent e;
  e.name_iid = s.name_iid;
  e.location_iid = s.location_iid;
  e.annotations = a;
  e.n_annotations = mpi_annotations(m, a);
  e.flows = m.flows_out.data();
  e.n_flows = unsigned(m.flows_out.size());
  perfetto_->begin(ts.seq, o.begin, e);
}

void Process::mpi_close(Open &o, uint64_t t) {
  ThreadState &ts = *cur_;
  ThreadState::MpiCall &m = ts.mpi;
  const Site &s = sites_[o.site];
  if (ts.evt) {
    if (m.collective_begun && !m.collective_ended && out_.mpi) {  // it did not finish (a crash)
      otf2_check(OTF2_EvtWriter_MpiCollectiveEnd(ts.evt, nullptr, t, collective_op(o.sub),
                                                 out_.mpi->comm(kWorldComm, out_),
                                                 OTF2_UNDEFINED_UINT32, 0, 0),
                 "MPI collective end");
      ++ts.evt_count;
    }
    otf2_check(OTF2_EvtWriter_Leave(ts.evt, nullptr, t, s.region), "leave");
    ++ts.evt_count;
  }
  stats_.mpi_ns += t - o.begin;
  if (perfetto_) {
    mpi_write_begin(ts, o);
    // Flows of messages recorded after the begin was written start at the end.
    size_t late = m.flows_out.size() - m.flows_written;
    perfetto_->end(ts.seq, t, late ? m.flows_out.data() + m.flows_written : nullptr,
                   unsigned(late), m.flows_in.data(), unsigned(m.flows_in.size()));
  }
  if (json_) {
    std::string args = where(o.codeptr);
    Annotation a[kMpiAnnotations];
    unsigned n = mpi_annotations(m, a);
    for (unsigned i = 0; i < n; ++i)
      args += ",\"" + std::string(annotation_name(a[i].name)) + "\":" +
              (a[i].type == Annotation::kPointer ? "\"" + hex(a[i].value) + "\""
                                                 : std::to_string(a[i].value));
    char head[256];
    snprintf(head, sizeof head,
             "{\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64 ",\"ts\":%.3f,\"dur\":%.3f,", pid_,
             ts.file->tid, us(o.begin), double(t - o.begin) / 1000.0);
    json_->event(std::string(head) + "\"cat\":\"mpi\",\"name\":\"" + json_escape(s.name) +
                 "\",\"args\":{" + (args.empty() ? args : args.substr(1)) + "}}");
    for (uint64_t f : m.flows_out) json_flow("s", "mpi", std::to_string(f), ts.file->tid, us(o.begin));
    double end = t > o.begin ? us(t) - 0.001 : us(t);
    for (uint64_t f : m.flows_in) json_flow("f", "mpi", std::to_string(f), ts.file->tid, end);
  }
  m = ThreadState::MpiCall();
}

void Process::mpi_record(ThreadState &ts, const Record &r, uint64_t t) {
  ThreadState::MpiCall &m = ts.mpi;
  MpiJob *job = out_.mpi;
  uint32_t me = world_rank_ >= 0 ? uint32_t(world_rank_) : 0;
  // The first message (or the collective) of a call is what its slice shows.
  auto note = [&](uint64_t comm, uint64_t peer, uint64_t tag, uint64_t bytes) {
    if (m.messages++ || m.collective_ended) return;
    m.comm = comm;
    m.peer = peer;
    m.tag = tag;
    m.bytes = bytes;
  };
  switch (r.kind) {
    case kMpiEnter: {
      close_innermost(t, match_mpi, 0, 0, false);  // a call whose leave was not recorded
      m = ThreadState::MpiCall();
      stats_.mpi_calls++;
      push(sMpi, r.sub, t, 0, r.c, r.sub);
      m.begin_written = false;
      if (call_kind(r.sub) == kite_mpi::Kind::kCollective && ts.evt && job) {
        otf2_check(OTF2_EvtWriter_MpiCollectiveBegin(ts.evt, nullptr, t), "MPI collective begin");
        ++ts.evt_count;
        m.collective_begun = true;
      }
      break;
    }
    case kMpiLeave: close_innermost(t, match_mpi, 0, 0, false); break;
    case kMpiSend: {
      stats_.mpi_sends++;
      note(r.a, r.u32, r.b, r.d);
      if (!job) break;
      if (ts.evt) {
        uint32_t comm = job->comm(r.a, out_), peer = job->rank_in(r.a, r.u32);
        if (r.c)
          otf2_check(OTF2_EvtWriter_MpiIsend(ts.evt, nullptr, t, peer, comm, uint32_t(r.b), r.d, r.c),
                     "MPI isend");
        else
          otf2_check(OTF2_EvtWriter_MpiSend(ts.evt, nullptr, t, peer, comm, uint32_t(r.b), r.d),
                     "MPI send");
        ++ts.evt_count;
      }
      m.flows_out.push_back(job->send_flow(r.a, me, r.u32, r.b));
      break;
    }
    case kMpiSendComplete:
      if (ts.evt && job) {
        otf2_check(OTF2_EvtWriter_MpiIsendComplete(ts.evt, nullptr, t, r.a), "MPI isend complete");
        ++ts.evt_count;
      }
      break;
    case kMpiRecvRequest:
      if (ts.evt && job) {
        otf2_check(OTF2_EvtWriter_MpiIrecvRequest(ts.evt, nullptr, t, r.c), "MPI irecv request");
        ++ts.evt_count;
      }
      break;
    case kMpiRecv: {
      stats_.mpi_receives++;
      note(r.a, r.u32, r.b, r.d);
      if (!job) break;
      if (ts.evt) {
        uint32_t comm = job->comm(r.a, out_), peer = job->rank_in(r.a, r.u32);
        if (r.c)
          otf2_check(OTF2_EvtWriter_MpiIrecv(ts.evt, nullptr, t, peer, comm, uint32_t(r.b), r.d, r.c),
                     "MPI irecv");
        else
          otf2_check(OTF2_EvtWriter_MpiRecv(ts.evt, nullptr, t, peer, comm, uint32_t(r.b), r.d),
                     "MPI recv");
        ++ts.evt_count;
      }
      if (r.u32 != kAnyRank) m.flows_in.push_back(job->recv_flow(r.a, r.u32, me, r.b));
      break;
    }
    case kMpiCollective: {
      stats_.mpi_collectives++;
      if (!m.collective_ended && !m.messages) {
        m.comm = r.a;
        m.root = r.u32;
        m.bytes = r.b;
        m.received = r.d;
      }
      if (!job) {
        m.collective_ended = true;
        break;
      }
      if (ts.evt) {
        if (!m.collective_begun || m.collective_ended) {  // not a collective call's first
          otf2_check(OTF2_EvtWriter_MpiCollectiveBegin(ts.evt, nullptr, t), "MPI collective begin");
          ++ts.evt_count;
        }
        uint32_t root = job->rank_in(r.a, r.u32);
        otf2_check(OTF2_EvtWriter_MpiCollectiveEnd(ts.evt, nullptr, t, collective_op(r.sub),
                                                   job->comm(r.a, out_), root, r.b, r.d),
                   "MPI collective end");
        ++ts.evt_count;
      }
      m.collective_begun = true;
      m.collective_ended = true;
      break;
    }
    case kMpiCollectiveRequest: {  // a non-blocking collective started
      stats_.mpi_collectives++;
      if (!m.collective_ended && !m.messages) {
        m.comm = r.a;
        m.root = r.u32;
        m.bytes = r.b;
        m.received = r.d;
        m.request = r.c;
        m.collective_ended = true;  // its values are what the slice shows
      }
      if (ts.evt && job) {
        otf2_check(OTF2_EvtWriter_NonBlockingCollectiveRequest(ts.evt, nullptr, t, r.c),
                   "MPI non-blocking collective request");
        ++ts.evt_count;
      }
      break;
    }
    case kMpiCollectiveComplete:  // completed by this wait/test call
      if (!m.icollectives_done++) m.icollective_request = r.c;
      if (ts.evt && job) {
        otf2_check(OTF2_EvtWriter_NonBlockingCollectiveComplete(
                       ts.evt, nullptr, t, collective_op(blocking_of(r.sub)), job->comm(r.a, out_),
                       job->rank_in(r.a, r.u32), r.b, r.d, r.c),
                   "MPI non-blocking collective complete");
        ++ts.evt_count;
      }
      break;
    case kMpiRequestCancelled:
      ++m.cancelled;
      if (ts.evt && job) {
        otf2_check(OTF2_EvtWriter_MpiRequestCancelled(ts.evt, nullptr, t, r.a),
                   "MPI request cancelled");
        ++ts.evt_count;
      }
      break;
    default: break;
  }
}

}  // namespace kite_trace
