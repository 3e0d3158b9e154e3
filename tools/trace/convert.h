// kite-trace-convert's model of one process's trace while it streams: the
// threads' files are read together in time order (a merge), each thread
// keeps the stack of slices open on it, and what one thread's events need
// from another's (which code created a task, its dependences, the code of
// a parallel region) is kept only while that task or region is alive.
// Memory follows what is open at one moment, not the number of events.
#pragma once

#include <otf2/otf2.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "json_out.h"
#include "mpi_format.h"
#include "perfetto_out.h"
#include "raw_format.h"
#include "reader.h"
#include "symbols.h"

namespace kite_trace {

extern bool quiet;
[[noreturn]] void die(const std::string &msg);
void otf2_check(OTF2_ErrorCode rc, const char *what);

// An explicit task from its creation to its end.
struct TaskInfo {
  uint64_t codeptr = 0;
  uint32_t flags = 0;
  bool started = false;
  uint64_t flow = 0;                 // its creation flow (Perfetto)
  std::vector<uint64_t> flows_out;  // dependence flows that start when it ends
  std::vector<uint64_t> flows_in;   // dependence flows that end when it starts
};

struct ThreadFile {
  uint32_t index = 0;
  std::string path;
  uint64_t tid = 0;
  int type = 0;       // ompt_thread_t
  uint32_t rank = 0;  // position among this process's threads (OTF2 location)
};

// Slices the converter keeps open per thread.
enum SliceKind : uint8_t {
  sParallel, sImplicit, sInitial, sWork, sChunk, sSync, sWait, sReduction, sTask, sMutexWait,
  sMutexHold, sMasked, sTarget, sDataOp, sCreate, sDevice, sMpi
};

// What a slice's name and source location are made of: its kind, a
// variant (work type, sync kind, thread number...) and its codeptr_ra.
struct Site {
  std::string name;
  uint64_t codeptr = 0;
  OTF2_RegionRole role = OTF2_REGION_ROLE_UNKNOWN;
  uint32_t region = 0;     // OTF2 region
  uint64_t name_iid = 0;   // Perfetto
  uint64_t location_iid = 0;
};

struct Open {
  SliceKind kind;
  uint16_t sub;
  uint64_t begin;
  uint64_t key;
  uint64_t codeptr;
  uint32_t site;
  uint64_t v[3];
  uint64_t runtime_codeptr = 0;  // the construct's own codeptr_ra, inside the runtime
  uint32_t order = 0;            // a lock hold's acquisition order (OTF2)
  uint64_t nested_task_ns = 0;
};

// A device track: the device's operations that overlap in time get lanes
// of their own (nowait constructs on several host threads), so slices on
// a lane never overlap.
struct DeviceLane {
  uint32_t device;
  uint32_t lane;
  uint64_t location;  // OTF2 location ref
  uint64_t tid;       // JSON track id
  uint64_t events = 0;
  uint64_t free_at = 0;
  OTF2_EvtWriter *evt = nullptr;
  uint32_t seq = 0;  // Perfetto sequence
};

struct Stats {
  uint64_t events = 0, parallel_regions = 0, tasks = 0, thread_ns = 0;
  uint64_t tasks_alive_max = 0;  // explicit tasks created and not yet ended, at most
  struct Par {
    uint64_t count = 0, total_ns = 0;
    unsigned max_team = 0;
  };
  std::map<uint64_t, Par> parallel;  // by codeptr
  std::map<std::string, uint64_t> waiting;  // ns by kind
  struct Dev {
    uint64_t kernels = 0, kernel_ns = 0, transfers = 0, transfer_bytes = 0, transfer_ns = 0,
             other_ops = 0;
  };
  std::map<uint32_t, Dev> devices;
  uint64_t mpi_calls = 0, mpi_ns = 0, mpi_sends = 0, mpi_receives = 0, mpi_collectives = 0;
};

// One thread while the merge reads it.
struct ThreadState {
  const ThreadFile *file = nullptr;
  std::unique_ptr<RecordReader> in;
  Record next{};  // its next record, not yet handled
  std::vector<Open> stack;
  uint64_t first = 0, t = 0, implicit_ns = 0;
  OTF2_EvtWriter *evt = nullptr;
  uint64_t evt_count = 0;
  uint32_t seq = 0;  // Perfetto sequence
  // The MPI call open on this thread (the wrappers record the outermost
  // only, so there is at most one). Its Perfetto begin waits for the
  // messages recorded inside it: a send's flow starts at the begin.
  struct MpiCall {
    bool begin_written = true;
    bool collective_begun = false, collective_ended = false;
    unsigned messages = 0;
    uint64_t comm = 0, peer = kite_mpi::kAnyRank, tag = 0, bytes = 0, received = 0;
    uint64_t root = kite_mpi::kAnyRank;
    uint64_t request = 0;  // a non-blocking collective's start: its request id
    // Non-blocking collectives this (wait/test) call completed, the first's
    // request id; requests it found cancelled.
    unsigned icollectives_done = 0, cancelled = 0;
    uint64_t icollective_request = 0;
    std::vector<uint64_t> flows_out, flows_in;
    size_t flows_written = 0;  // flows_out on the Perfetto begin
  } mpi;
};

struct Formats {
  bool otf2 = true, perfetto = true, json = false;
};

// An OTF2 region, as the global definitions say it.
struct Otf2Region {
  std::string name, desc, file;
  uint32_t line = 0;
  OTF2_RegionRole role = OTF2_REGION_ROLE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_OPENMP;
  bool operator<(const Otf2Region &o) const {
    return std::tie(name, desc, file, line, role, paradigm) <
           std::tie(o.name, o.desc, o.file, o.line, o.role, o.paradigm);
  }
};

// Clock alignment of one rank to rank 0's clock (mpi_format.h): t + O(t),
// O interpolated between the offsets measured at MPI_Init and
// MPI_Finalize, held constant outside them.
struct ClockAlign {
  bool shift = false;
  int64_t l0 = 0, o0 = 0, l1 = 0, o1 = 0;
  uint64_t e0 = 0, e1 = 0;
  bool two = false;
  uint64_t operator()(uint64_t t) const {
    if (!shift) return t;
    int64_t o = o0;
    if (two && l1 != l0) {
      int64_t x = int64_t(t);
      if (x >= l1)
        o = o1;
      else if (x > l0)
        o = o0 + int64_t(double(o1 - o0) * double(x - l0) / double(l1 - l0));
    }
    return uint64_t(int64_t(t) + o);
  }
};

class Output;

// The ranks of an MPI job merged into one output: their clocks, their
// communicators and the matching of their messages (convert_mpi.cpp).
class MpiJob {
 public:
  struct Rank {
    std::string stem, host, domain;
    int pid = 0;
    bool finalized = false;
    ClockAlign align;
    uint64_t location = 0;  // OTF2 location of its first thread
    bool converted = false;
    double ns_per_tick = 0;  // a TSC rate for a rank that did not measure its own (0: its own)
  };
  // The job the stems' meta files describe; false with `why` when they do
  // not make one (a rank seen twice).
  bool read(const std::string &raw_dir, const std::vector<std::string> &stems, std::string &why);
  std::map<uint32_t, Rank> ranks;  // by world rank
  uint32_t world_size = 0;
  std::vector<std::string> clock_notes;  // what the alignment did, for stderr

  uint32_t comm(uint64_t id, Output &out);           // OTF2 comm of a communicator id
  uint32_t rank_in(uint64_t comm, uint32_t world);   // its rank there (OTF2_UNDEFINED_UINT32)
  // Flow ids: the n-th message on a channel (comm, sender, receiver, tag)
  // has the same id on both sides, so each rank is converted on its own.
  uint64_t send_flow(uint64_t comm, uint32_t from, uint32_t to, uint64_t tag);
  uint64_t recv_flow(uint64_t comm, uint32_t from, uint32_t to, uint64_t tag);
  void matches(uint64_t &matched, uint64_t &unmatched_sends, uint64_t &unmatched_receives) const;
  uint64_t unknown_peers = 0;
  void write_defs(OTF2_GlobalDefWriter *g, Output &out, uint32_t &next_group);

 private:
  std::map<uint64_t, std::vector<uint32_t>> members_;  // comm id -> world ranks, comm rank order
  std::map<uint64_t, uint32_t> comm_refs_;
  uint32_t self_ref_ = UINT32_MAX, world_ref_ = UINT32_MAX;
  using ChannelKey = std::tuple<uint64_t, uint32_t, uint32_t, uint64_t>;
  struct Channel {
    uint64_t index = 0, sends = 0, receives = 0;
  };
  std::map<ChannelKey, Channel> channels_;
  Channel &channel(const ChannelKey &k);
};

// The files one conversion writes: those of one process, or of all the
// ranks of an MPI job, converted one after the other into the same files
// (convert_mpi.cpp). What the OTF2 global definitions need is gathered here
// from each process and written when the files close.
class Output {
 public:
  Output(std::string base, Formats formats) : base_(std::move(base)), formats_(formats) {}
  void open();
  void close();
  const std::string &base() const { return base_; }
  const Formats &formats() const { return formats_; }
  std::vector<std::string> paths;

  std::unique_ptr<JsonOut> json;
  std::unique_ptr<PerfettoOut> perfetto;
  OTF2_Archive *archive = nullptr;
  MpiJob *mpi = nullptr;  // the job's ranks: one time line, their messages
  bool merged = false;    // all the ranks of a job (not one alone, --rank)
  std::set<int> pids;     // the Perfetto / JSON process ids given out

  uint64_t origin = 0;  // ns: time 0 of the JSON, OTF2's global offset
  uint64_t first = UINT64_MAX, last = 0;
  uint64_t next_flow = 0;      // Perfetto / JSON flow ids, unique across processes
  uint64_t next_location = 0;  // OTF2 location refs

  // OTF2 definitions.
  uint32_t region(const Otf2Region &r);
  struct Location {
    uint64_t ref;
    std::string name;
    OTF2_LocationType type;
    uint64_t events;
    uint32_t group;
  };
  struct LocationGroup {
    std::string name, host;
    OTF2_LocationGroupType type;
    uint32_t creator;  // OTF2_UNDEFINED_LOCATION_GROUP, or the process of a device
    uint32_t world_rank = UINT32_MAX;
  };
  // A process's location group: its world rank under an MPI launcher.
  uint32_t location_group(const LocationGroup &g, uint32_t ref);
  void location(const Location &l) { locations_.push_back(l); }
  // An OpenMP team (a process's threads, by location ref): its OTF2 comm.
  void openmp_team(const std::string &name, const std::vector<uint64_t> &locations, uint32_t comm);
  uint32_t new_comm() { return next_comm_++; }
  // A comm definition: written with the others in the order of their refs.
  void comm_def(uint32_t ref, const std::string &name, uint32_t group, uint32_t parent) {
    comms_.push_back({ref, name, group, parent});
  }
  std::map<uint32_t, LocationGroup> location_groups;
  std::vector<Location> locations_;
  uint32_t str(const std::string &s);  // a string definition (while they are written)

 private:
  void write_defs();
  OTF2_GlobalDefWriter *defs_ = nullptr;
  std::map<std::string, uint32_t> strings_;
  std::string base_;
  Formats formats_;
  std::vector<Otf2Region> regions_;
  std::map<Otf2Region, uint32_t> region_index_;
  struct Team {
    std::string name;
    std::vector<uint64_t> locations;
    uint32_t comm;
  };
  std::vector<Team> teams_;
  uint32_t next_comm_ = 0;
  struct Comm {
    uint32_t ref;
    std::string name;
    uint32_t group, parent;
  };
  std::vector<Comm> comms_;
};

class Process {
 public:
  Process(std::string raw_dir, std::string stem, Output &out)
      : raw_dir_(std::move(raw_dir)), stem_(std::move(stem)), out_(out) {}

  void convert();
  void print_summary(FILE *out) const;
  void write_summary_json(const std::string &path) const;
  void write_summary_object(FILE *f) const;
  uint64_t events() const { return stats_.events; }
  uint64_t perfetto_bytes = 0;
  double convert_seconds = 0;

 private:
  // setup (convert.cpp)
  void find_threads();
  void open_outputs();
  void close_outputs();
  // MPI records (convert_mpi.cpp)
  void mpi_record(ThreadState &ts, const Record &r, uint64_t t);
  void mpi_close(Open &o, uint64_t t);
  void mpi_write_begin(ThreadState &ts, const Open &o);
  void report_progress(uint64_t done, uint64_t total, double elapsed);

  // events (convert_events.cpp)
  void handle(ThreadState &ts, const Record &r);
  void finish_thread(ThreadState &ts);
  void push(SliceKind kind, uint16_t variant, uint64_t t, uint64_t key, uint64_t codeptr,
            uint64_t v0 = 0, uint64_t v1 = 0, uint64_t v2 = 0);
  bool close_innermost(uint64_t t, bool (*match)(const Open &, uint64_t, uint16_t), uint64_t key,
                       uint16_t sub, bool reopen_above);
  void close_top(uint64_t t);
  void emit_close(Open &o, uint64_t t);
  void reopen(Open &o, uint64_t t);
  void begin_event(const Open &o, uint64_t t);
  unsigned annotations(const Open &o, Annotation *out) const;
  std::string json_args(const Open &o) const;
  void json_flow(const char *ph, const char *cat, const std::string &id, uint64_t tid, double ts);
  uint64_t location_iid(uint64_t codeptr);  // Perfetto's interned source location
  uint32_t site(SliceKind kind, uint16_t variant, uint64_t codeptr);
  std::string site_name(SliceKind kind, uint16_t variant, uint64_t codeptr);
  std::string where(uint64_t codeptr);  // JSON members with the source location
  std::string label(const char *what, uint64_t codeptr);
  bool in_runtime(uint64_t codeptr);
  double us(uint64_t t) const { return (double(t) - double(origin_)) / 1000.0; }
  void device_op(const Record &r);
  DeviceLane &lane_for(uint32_t device, uint64_t begin);
  uint32_t lock_id(uint64_t wait_id);
  // A recorded time window (kite trace --start-after/--duration): what was
  // open at its start is shown from it, what is open at its end closed there.
  uint64_t window_clip(const Record &r);
  uint64_t window_close_time(const ThreadState &ts);
  void read_window();
  void print_filter(FILE *out) const;
  void write_filter_json(FILE *f) const;

  std::string raw_dir_, stem_;
  Output &out_;
  ClockAlign align_;
  int world_rank_ = -1;  // under an MPI job being merged
  std::map<std::string, std::string> meta_;
  std::unique_ptr<Symbolizer> sym_;
  std::vector<ThreadFile> threads_;
  std::string runtime_module_;  // the OpenMP runtime's file (meta runtime_module)
  std::map<uint32_t, uint32_t> thread_rank_;  // thread index -> location rank
  std::vector<uint32_t> rank_by_index_;        // the same for small indexes, read per task event
  uint32_t rank_of_task(uint64_t task_id) const;  // the location of the thread that created it
  std::vector<uint64_t> flows_scratch_;        // flows ending at a task's start
  uint64_t origin_ = 0, last_ = 0;
  size_t window_bytes_ = 0;
  TimeMap clock_;
  int pid_ = 0;       // the process's pid in the Perfetto / JSON outputs
  int real_pid_ = 0;  // its pid
  uint64_t window_start_ = 0, window_end_ = 0;  // ns; 0: none
  uint64_t window_clipped_ = 0, window_closed_ = 0;

  // Alive state shared between threads: dropped when the task or region ends.
  std::unordered_map<uint64_t, TaskInfo> tasks_;
  std::unordered_map<uint64_t, uint64_t> parallel_codeptr_;  // open parallel id -> codeptr_ra
  uint64_t &next_flow_ = out_.next_flow;  // Perfetto flow ids: small numbers encode short
  uint64_t location_base_ = 0;  // OTF2 location refs of this process's threads start here
  uint32_t team_comm_ = 0;      // OTF2 comm of its OpenMP team
  uint32_t location_group_ = 0;
  std::unordered_map<uint64_t, uint32_t> lock_ids_;  // one per lock the program used
  uint32_t lock_order_ = 0;
  // (CLOCK_MONOTONIC ns, stamp-derived ns - that): where host stamps sit
  // against the clock device times are on; the most recent ones only.
  std::deque<std::pair<uint64_t, int64_t>> clock_pairs_;
  std::vector<DeviceLane> device_lanes_;

  // Sites: names, OTF2 regions and Perfetto iids, by (kind, variant, codeptr).
  struct SiteKey {
    uint64_t codeptr;
    uint32_t kv;
    bool operator==(const SiteKey &o) const { return codeptr == o.codeptr && kv == o.kv; }
  };
  struct SiteHash {
    size_t operator()(const SiteKey &k) const { return k.codeptr * 0x9e3779b97f4a7c15ull ^ k.kv; }
  };
  std::unordered_map<SiteKey, uint32_t, SiteHash> site_index_;
  std::vector<Site> sites_;
  std::unordered_map<uint64_t, bool> in_runtime_;
  std::unordered_map<uint64_t, std::string> where_cache_;

  // outputs
  JsonOut *json_ = nullptr;
  PerfettoOut *perfetto_ = nullptr;
  OTF2_Archive *archive_ = nullptr;

  std::vector<ThreadState> states_;
  ThreadState *cur_ = nullptr;

  Stats stats_;
};

}  // namespace kite_trace
