// Writes a Perfetto protobuf trace (perfetto_trace.proto: the subset of
// Perfetto's published protos it uses) as the converter streams events:
// one packet sequence per track (a thread, a device lane), each with a
// delta-encoded clock of its own, the track as its default, and names,
// source locations and annotation names interned on first use. Nothing is
// kept per event: memory holds the interning tables and a write buffer.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "protobuf.h"

namespace kite_trace {

// Debug annotation names, interned once per sequence; their iids are these values.
enum AnnotationName : uint8_t {
  aNone = 0,
  aRequestedThreads,
  aTeamSize,
  aThreadNum,
  aCount,
  aStart,
  aIterations,
  aWaitId,
  aDevice,
  aOptype,
  aBytes,
  aRequestedTeams,
  aFlags,
  aUndeferred,
  aPeer,
  aTag,
  aComm,
  aRoot,
  aBytesReceived,
  aMessages,
  aRequest,
  aCollectivesCompleted,
  aCollectiveRequest,
  aCancelled,
  aAnnotationNames
};
const char *annotation_name(AnnotationName a);

struct Annotation {
  AnnotationName name = aNone;
  enum Type : uint8_t { kUint, kInt, kPointer, kBool } type = kUint;
  uint64_t value = 0;
};

struct PerfettoEvent {
  uint64_t name_iid = 0;
  uint64_t location_iid = 0;  // 0: none
  const Annotation *annotations = nullptr;
  unsigned n_annotations = 0;
  const uint64_t *flows = nullptr;  // flow_ids: flows that start here
  unsigned n_flows = 0;
  const uint64_t *terminating = nullptr;  // terminating_flow_ids: flows that end here
  unsigned n_terminating = 0;
};

class PerfettoOut {
 public:
  explicit PerfettoOut(const std::string &path);
  ~PerfettoOut();
  bool ok() const { return f_ != nullptr; }

  void process(int pid, const std::string &name);
  // A thread's track and its sequence; returns the sequence's index.
  uint32_t thread_track(uint64_t tid, const std::string &name);
  // A track of the process that is no thread (a device lane).
  uint32_t named_track(const std::string &name);

  uint64_t name_iid(const std::string &name);
  uint64_t location_iid(const std::string &file, const std::string &function, int line);

  void begin(uint32_t seq, uint64_t t, const PerfettoEvent &e);
  void end(uint32_t seq, uint64_t t, const uint64_t *flows = nullptr, unsigned n_flows = 0,
           const uint64_t *terminating = nullptr, unsigned n_terminating = 0);
  void instant(uint32_t seq, uint64_t t, const PerfettoEvent &e);
  // Flushes and closes; false on a write error.
  bool close();
  uint64_t bytes() const { return written_ + out_.size(); }

 private:
  struct Sequence {
    uint32_t id;
    uint64_t track;
    bool started = false;
    uint64_t last = 0;
    std::vector<uint8_t> names, locations;  // interned on this sequence yet
    bool annotations[aAnnotationNames] = {};
  };
  struct Location {
    std::string file, function;
    int line;
  };
  void start(Sequence &s, uint64_t t);
  void event(uint32_t seq, uint64_t t, unsigned type, const PerfettoEvent *e,
             const uint64_t *flows, unsigned n_flows, const uint64_t *terminating = nullptr,
             unsigned n_terminating = 0);
  void track_descriptor(const Sequence *s, uint64_t uuid, const std::string &name, bool thread,
                        uint64_t tid);
  void flush();

  FILE *f_;
  bool failed_ = false;
  int pid_ = 0;
  uint64_t process_uuid_ = 0;
  std::vector<Sequence> seqs_;
  std::map<std::string, uint64_t> name_index_;
  std::vector<const std::string *> names_;  // by iid - 1
  std::map<std::tuple<std::string, std::string, int>, uint64_t> location_index_;
  std::vector<Location> locations_;
  Bytes out_, packet_, body_, interned_, sub_, sub2_;
  uint64_t written_ = 0;
};

}  // namespace kite_trace
