// The Perfetto protobuf writer (perfetto_out.h). Field numbers are those of
// tools/trace/perfetto_trace.proto, checked against Perfetto's published
// protos/perfetto/trace/*.proto.
#include "perfetto_out.h"

#include <cerrno>

namespace kite_trace {

namespace {

// TracePacket
constexpr uint32_t kPacketTimestamp = 8, kPacketClockSnapshot = 6, kPacketTrackEvent = 11,
                   kPacketSequenceId = 10, kPacketInterned = 12, kPacketSequenceFlags = 13,
                   kPacketDefaults = 59, kPacketTrackDescriptor = 60;
constexpr uint32_t kSeqIncrementalStateCleared = 1, kSeqNeedsIncrementalState = 2;
// TracePacketDefaults / TrackEventDefaults
constexpr uint32_t kDefaultsClockId = 58, kDefaultsTrackEvent = 11, kEventDefaultsTrack = 11;
// ClockSnapshot, ClockSnapshot.Clock
constexpr uint32_t kSnapshotClocks = 1, kSnapshotPrimaryClock = 2, kClockId = 1,
                   kClockTimestamp = 2, kClockIncremental = 3;
constexpr uint32_t kBuiltinMonotonic = 3;
constexpr uint32_t kSequenceClock = 64;  // the first sequence-scoped clock id
// TrackEvent
constexpr uint32_t kEventAnnotations = 4, kEventType = 9, kEventNameIid = 10,
                   kEventLocationIid = 34;
// Flow ids: the varint fields (flow_ids_old, terminating_flow_ids_old), not
// the fixed64 ones Perfetto now prefers: with small ids they take 3 to 5
// bytes where fixed64 takes 10, a tenth of a task's bytes. Trace processor
// reads both.
constexpr uint32_t kEventFlowIds = 36, kEventTerminatingFlowIds = 42;
constexpr unsigned kTypeSliceBegin = 1, kTypeSliceEnd = 2, kTypeInstant = 3;
// DebugAnnotation
constexpr uint32_t kAnnotationNameIid = 1, kAnnotationBool = 2, kAnnotationUint = 3,
                   kAnnotationInt = 4, kAnnotationPointer = 7;
// InternedData and its entries (iid = 1, name = 2 in each)
constexpr uint32_t kInternedEventNames = 2, kInternedAnnotationNames = 3,
                   kInternedLocations = 4;
constexpr uint32_t kIid = 1, kInternedName = 2, kLocationFile = 2, kLocationFunction = 3,
                   kLocationLine = 4;
// TrackDescriptor, ProcessDescriptor, ThreadDescriptor
constexpr uint32_t kTrackUuid = 1, kTrackName = 2, kTrackProcess = 3, kTrackThread = 4,
                   kTrackParent = 5;
constexpr uint32_t kProcessPid = 1, kProcessName = 6;
constexpr uint32_t kThreadPid = 1, kThreadTid = 2, kThreadName = 5;
// Trace
constexpr uint32_t kTracePacket = 1;

constexpr size_t kFlushBytes = 1 << 20;

}  // namespace

const char *annotation_name(AnnotationName a) {
  switch (a) {
    case aRequestedThreads: return "requested_threads";
    case aTeamSize: return "team_size";
    case aThreadNum: return "thread_num";
    case aCount: return "count";
    case aStart: return "start";
    case aIterations: return "iterations";
    case aWaitId: return "wait_id";
    case aDevice: return "device";
    case aOptype: return "optype";
    case aBytes: return "bytes";
    case aRequestedTeams: return "requested_num_teams";
    case aFlags: return "flags";
    case aUndeferred: return "undeferred";
    case aPeer: return "peer";
    case aTag: return "tag";
    case aComm: return "comm";
    case aRoot: return "root";
    case aBytesReceived: return "bytes_received";
    case aMessages: return "messages";
    case aRequest: return "request";
    case aCollectivesCompleted: return "collectives_completed";
    case aCollectiveRequest: return "collective_request";
    case aCancelled: return "requests_cancelled";
    default: return "?";
  }
}

PerfettoOut::PerfettoOut(const std::string &path) : f_(fopen(path.c_str(), "we")) {}

PerfettoOut::~PerfettoOut() {
  if (f_) fclose(f_);
}

void PerfettoOut::flush() {
  if (!f_ || out_.size() == 0) return;
  if (fwrite(out_.data(), 1, out_.size(), f_) != out_.size()) failed_ = true;
  written_ += out_.size();
  out_.clear();
}

bool PerfettoOut::close() {
  flush();
  bool ok = f_ && !failed_;
  if (f_ && fclose(f_) != 0) ok = false;
  f_ = nullptr;
  return ok;
}

void PerfettoOut::process(int pid, const std::string &name) {
  pid_ = pid;
  // Track uuids: the process's own, and its tracks numbered below it.
  process_uuid_ = (uint64_t(uint32_t(pid)) << 24) | 0xffffff;
  track_descriptor(nullptr, process_uuid_, name, false, 0);
}

void PerfettoOut::track_descriptor(const Sequence *s, uint64_t uuid, const std::string &name,
                                   bool thread, uint64_t tid) {
  body_.clear();
  body_.uint(kTrackUuid, uuid);
  sub_.clear();
  if (!s) {
    sub_.uint(kProcessPid, uint64_t(uint32_t(pid_)));
    sub_.string(kProcessName, name);
    body_.message(kTrackProcess, sub_);
  } else if (thread) {
    sub_.uint(kThreadPid, uint64_t(uint32_t(pid_)));
    sub_.uint(kThreadTid, tid);
    sub_.string(kThreadName, name);
    body_.message(kTrackThread, sub_);
  } else {
    body_.uint(kTrackParent, process_uuid_);
    body_.string(kTrackName, name);
  }
  packet_.clear();
  if (s) packet_.uint(kPacketSequenceId, s->id);
  packet_.message(kPacketTrackDescriptor, body_);
  out_.message(kTracePacket, packet_);
}

uint32_t PerfettoOut::thread_track(uint64_t tid, const std::string &name) {
  Sequence s;
  s.id = uint32_t(seqs_.size() + 1);
  s.track = (uint64_t(uint32_t(pid_)) << 24) | s.id;
  track_descriptor(&s, s.track, name, true, tid);
  seqs_.push_back(std::move(s));
  return uint32_t(seqs_.size() - 1);
}

uint32_t PerfettoOut::named_track(const std::string &name) {
  Sequence s;
  s.id = uint32_t(seqs_.size() + 1);
  s.track = (uint64_t(uint32_t(pid_)) << 24) | s.id;
  track_descriptor(&s, s.track, name, false, 0);
  seqs_.push_back(std::move(s));
  return uint32_t(seqs_.size() - 1);
}

uint64_t PerfettoOut::name_iid(const std::string &name) {
  auto it = name_index_.find(name);
  if (it != name_index_.end()) return it->second;
  uint64_t iid = names_.size() + 1;
  it = name_index_.emplace(name, iid).first;
  names_.push_back(&it->first);
  return iid;
}

uint64_t PerfettoOut::location_iid(const std::string &file, const std::string &function,
                                   int line) {
  auto key = std::make_tuple(file, function, line);
  auto it = location_index_.find(key);
  if (it != location_index_.end()) return it->second;
  locations_.push_back({file, function, line});
  uint64_t iid = locations_.size();
  location_index_.emplace(std::move(key), iid);
  return iid;
}

// A sequence's first packet clears its incremental state and sets its
// defaults (track, clock); the second anchors its delta clock at t.
void PerfettoOut::start(Sequence &s, uint64_t t) {
  s.started = true;
  s.last = t;
  body_.clear();
  body_.uint(kDefaultsClockId, kSequenceClock);
  sub_.clear();
  sub_.uint(kEventDefaultsTrack, s.track);
  body_.message(kDefaultsTrackEvent, sub_);
  packet_.clear();
  packet_.uint(kPacketSequenceId, s.id);
  packet_.uint(kPacketSequenceFlags, kSeqIncrementalStateCleared);
  packet_.message(kPacketDefaults, body_);
  out_.message(kTracePacket, packet_);

  body_.clear();
  sub_.clear();
  sub_.uint(kClockId, kBuiltinMonotonic);
  sub_.uint(kClockTimestamp, t);
  body_.message(kSnapshotClocks, sub_);
  sub_.clear();
  sub_.uint(kClockId, kSequenceClock);
  sub_.uint(kClockTimestamp, t);
  sub_.uint(kClockIncremental, 1);
  body_.message(kSnapshotClocks, sub_);
  body_.uint(kSnapshotPrimaryClock, kBuiltinMonotonic);
  packet_.clear();
  packet_.uint(kPacketSequenceId, s.id);
  packet_.uint(kPacketSequenceFlags, kSeqNeedsIncrementalState);
  packet_.message(kPacketClockSnapshot, body_);
  out_.message(kTracePacket, packet_);
}

void PerfettoOut::event(uint32_t seq, uint64_t t, unsigned type, const PerfettoEvent *e,
                        const uint64_t *flows, unsigned n_flows, const uint64_t *terminating,
                        unsigned n_terminating) {
  Sequence &s = seqs_[seq];
  if (!s.started) start(s, t);
  if (t < s.last) t = s.last;  // a sequence's clock only moves forward
  uint64_t delta = t - s.last;
  s.last = t;
  body_.clear();
  interned_.clear();
  body_.uint(kEventType, type);
  if (e) {
    uint64_t n = e->name_iid;
    body_.uint(kEventNameIid, n);
    if (s.names.size() <= n) s.names.resize(n + 64);
    if (!s.names[n]) {
      s.names[n] = true;
      sub_.clear();
      sub_.uint(kIid, n);
      sub_.string(kInternedName, *names_[n - 1]);
      interned_.message(kInternedEventNames, sub_);
    }
    if (uint64_t l = e->location_iid) {
      body_.uint(kEventLocationIid, l);
      if (s.locations.size() <= l) s.locations.resize(l + 64);
      if (!s.locations[l]) {
        s.locations[l] = true;
        const Location &loc = locations_[l - 1];
        sub_.clear();
        sub_.uint(kIid, l);
        if (!loc.file.empty()) sub_.string(kLocationFile, loc.file);
        if (!loc.function.empty()) sub_.string(kLocationFunction, loc.function);
        if (loc.line > 0) sub_.uint(kLocationLine, uint64_t(loc.line));
        interned_.message(kInternedLocations, sub_);
      }
    }
    for (unsigned i = 0; i < e->n_annotations; ++i) {
      const Annotation &a = e->annotations[i];
      if (!s.annotations[a.name]) {
        s.annotations[a.name] = true;
        sub_.clear();
        sub_.uint(kIid, a.name);
        const char *nm = annotation_name(a.name);
        sub_.bytes(kInternedName, nm, strlen(nm));
        interned_.message(kInternedAnnotationNames, sub_);
      }
      sub2_.clear();
      sub2_.uint(kAnnotationNameIid, a.name);
      switch (a.type) {
        case Annotation::kUint: sub2_.uint(kAnnotationUint, a.value); break;
        case Annotation::kInt: sub2_.sint64(kAnnotationInt, int64_t(a.value)); break;
        case Annotation::kPointer: sub2_.uint(kAnnotationPointer, a.value); break;
        case Annotation::kBool: sub2_.uint(kAnnotationBool, a.value ? 1 : 0); break;
      }
      body_.message(kEventAnnotations, sub2_);
    }
    for (unsigned i = 0; i < e->n_flows; ++i) body_.uint(kEventFlowIds, e->flows[i]);
    for (unsigned i = 0; i < e->n_terminating; ++i)
      body_.uint(kEventTerminatingFlowIds, e->terminating[i]);
  }
  for (unsigned i = 0; i < n_flows; ++i) body_.uint(kEventFlowIds, flows[i]);
  for (unsigned i = 0; i < n_terminating; ++i) body_.uint(kEventTerminatingFlowIds, terminating[i]);
  // The packet goes straight into the output, its length summed from its
  // fields (one copy less per event than building it apart).
  size_t packet = uint_size(kPacketTimestamp, delta) + uint_size(kPacketSequenceId, s.id) +
                  uint_size(kPacketSequenceFlags, kSeqNeedsIncrementalState) +
                  bytes_size(kPacketTrackEvent, body_.size());
  if (interned_.size()) packet += bytes_size(kPacketInterned, interned_.size());
  out_.tag(kTracePacket, 2);
  out_.varint(packet);
  out_.uint(kPacketTimestamp, delta);
  out_.uint(kPacketSequenceId, s.id);
  out_.uint(kPacketSequenceFlags, kSeqNeedsIncrementalState);
  out_.message(kPacketTrackEvent, body_);
  if (interned_.size()) out_.message(kPacketInterned, interned_);
  if (out_.size() >= kFlushBytes) flush();
}

void PerfettoOut::begin(uint32_t seq, uint64_t t, const PerfettoEvent &e) {
  event(seq, t, kTypeSliceBegin, &e, nullptr, 0);
}

void PerfettoOut::end(uint32_t seq, uint64_t t, const uint64_t *flows, unsigned n_flows,
                      const uint64_t *terminating, unsigned n_terminating) {
  event(seq, t, kTypeSliceEnd, nullptr, flows, n_flows, terminating, n_terminating);
}

void PerfettoOut::instant(uint32_t seq, uint64_t t, const PerfettoEvent &e) {
  event(seq, t, kTypeInstant, &e, nullptr, 0);
}

}  // namespace kite_trace
