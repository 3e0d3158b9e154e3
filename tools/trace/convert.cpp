// kite-trace-convert: turns the raw files libkite-trace.so wrote (one per
// thread, raw_format.h) into an OTF2 archive, a Perfetto protobuf trace
// and, when asked, a Perfetto / Chrome trace-event JSON file; resolves every
// codeptr_ra to function and file:line (symbols.h), and prints the run's
// summary. It runs after the program has exited, in kite's own process.
//
// The threads' files are read together, each front to back in fixed-size
// chunks, merged by time (convert.h): a slice is written when it closes on
// its thread, and what crosses threads is kept only while it is alive.
// convert_events.cpp says what each record becomes. The ranks of an MPI job
// become one trace, converted one after the other into the same outputs
// (convert_mpi.cpp).
//
//   kite-trace-convert [--format otf2,perfetto,json] [--rank R] [--quiet] RAWDIR OUTDIR
#include <omp-tools.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <queue>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "names.h"
#include "text.h"

namespace kite_trace {

bool quiet;

[[noreturn]] void die(const std::string &msg) {
  fprintf(stderr, "kite-trace-convert: %s\n", msg.c_str());
  exit(1);
}

void otf2_check(OTF2_ErrorCode rc, const char *what) {
  if (rc != OTF2_SUCCESS) die(std::string("OTF2: ") + what + ": " + OTF2_Error_GetName(rc));
}

namespace {

OTF2_FlushType pre_flush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) {
  return OTF2_FLUSH;
}
// No post-flush callback: OTF2 then writes no BufferFlush record. A flush
// here happens after the program, so such a record (which says the
// measurement stopped for a while) would be about the converter, not the run.
OTF2_FlushCallbacks flush_callbacks = {pre_flush, nullptr};

// OTF2 keeps a writer's chunks in memory until it is closed unless its
// allocator says no: then it flushes them to the file and frees them all.
// Each buffer (an event or definition writer) may hold kChunksPerBuffer
// chunks of the smallest size OTF2 allows, so the archive's memory is
// kChunksPerBuffer * kChunkBytes per location, whatever the number of
// events. Chunks are mapped whole and kept for the buffer's next ones until
// it is closed: no page is faulted in and zeroed again at each flush, and the
// memory a buffer reached is what it keeps (malloc would scatter them).
constexpr size_t kChunksPerBuffer = 2;
constexpr uint64_t kChunkBytes = OTF2_CHUNK_SIZE_MIN;  // 256 KiB
struct Chunks {
  struct Chunk {
    void *p;
    size_t bytes;
  };
  std::vector<Chunk> mapped;
  size_t used = 0;  // mapped[0, used) hold OTF2's data
};
void *chunk_allocate(void *, OTF2_FileType, OTF2_LocationRef, void **per_buffer, uint64_t size) {
  if (!*per_buffer) *per_buffer = new Chunks;
  Chunks *c = static_cast<Chunks *>(*per_buffer);
  if (c->used >= kChunksPerBuffer) return nullptr;  // OTF2 flushes, then frees all
  if (c->used < c->mapped.size() && c->mapped[c->used].bytes >= size)
    return c->mapped[c->used++].p;
  void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  if (c->used < c->mapped.size()) {  // a larger chunk than the one kept there
    munmap(c->mapped[c->used].p, c->mapped[c->used].bytes);
    c->mapped[c->used] = {p, size_t(size)};
  } else {
    c->mapped.push_back({p, size_t(size)});
  }
  c->used++;
  return p;
}
void chunk_free_all(void *, OTF2_FileType, OTF2_LocationRef, void **per_buffer, bool final) {
  Chunks *c = static_cast<Chunks *>(*per_buffer);
  if (!c) return;
  c->used = 0;
  if (!final) return;
  for (const Chunks::Chunk &k : c->mapped) munmap(k.p, k.bytes);
  delete c;
  *per_buffer = nullptr;
}
OTF2_MemoryCallbacks memory_callbacks = {chunk_allocate, chunk_free_all};

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

}  // namespace

// Every <stem>.thread-<n>.raw of this stem, with what its first records say
// (the thread's tid and type, the first time stamp).
void Process::find_threads() {
  std::string prefix = stem_ + ".thread-";
  DIR *d = opendir(raw_dir_.c_str());
  if (!d) die("cannot read " + raw_dir_);
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.compare(0, prefix.size(), prefix) != 0 || n.size() < 4 ||
        n.compare(n.size() - 4, 4, ".raw") != 0)
      continue;
    char *end = nullptr;
    unsigned long index = strtoul(n.c_str() + prefix.size(), &end, 10);
    if (!end || strcmp(end, ".raw") != 0) continue;  // another stream (samples)
    ThreadFile tf;
    tf.path = raw_dir_ + "/" + n;
    tf.index = uint32_t(index);
    threads_.push_back(tf);
  }
  closedir(d);
  std::sort(threads_.begin(), threads_.end(),
            [](const ThreadFile &a, const ThreadFile &b) { return a.index < b.index; });
  origin_ = align_(strtoull(meta_["start_ns"].c_str(), nullptr, 10));
  uint64_t first = UINT64_MAX;
  for (size_t i = 0; i < threads_.size(); ++i) {
    ThreadFile &tf = threads_[i];
    tf.rank = uint32_t(i);
    thread_rank_[tf.index] = tf.rank;
    if (tf.index < 4096) {
      if (rank_by_index_.size() <= tf.index) rank_by_index_.resize(tf.index + 1, 0);
      rank_by_index_[tf.index] = tf.rank;
    }
    RecordReader in(tf.path, window_bytes_, clock_);
    if (!in.ok()) die("cannot read " + tf.path);
    for (int k = 0; k < 4; ++k) {
      const Record *r = in.next();
      if (!r) break;
      first = std::min(first, align_(r->time));
      if (r->kind == kHeader) {
        if (r->u32 != kMagic || r->c != kVersion)
          die(tf.path + " was not written by this version of libkite-trace.so");
        tf.tid = r->b;
      } else if (r->kind == kThreadBegin) {
        tf.type = r->sub;
      }
    }
  }
  if (first != UINT64_MAX && (origin_ == 0 || first < origin_)) origin_ = first;
  // The ranks of a job share one time line: the earliest rank's start.
  if (out_.mpi && out_.origin) {
    out_.first = std::min(out_.first, origin_);
    origin_ = out_.origin;
  } else {
    out_.origin = origin_;
  }
}

void Process::open_outputs() {
  json_ = out_.json.get();
  perfetto_ = out_.perfetto.get();
  archive_ = out_.archive;
  std::string exe = meta_["exe"];
  std::string process_name = exe.substr(exe.rfind('/') + 1) + " (" + meta_["runtime"] + ")";
  if (out_.merged) {
    process_name = "rank " + std::to_string(world_rank_);
    // Two ranks on two hosts may have the same pid: the viewers would show
    // one process. The later gets a number no Linux pid reaches.
    if (!out_.pids.insert(pid_).second) {
      pid_ = 0x40000000 + world_rank_;
      if (!quiet)
        fprintf(stderr, "kite-trace-convert: rank %d has the pid of an earlier rank (on another "
                        "host): its Perfetto/JSON process is numbered %d\n", world_rank_, pid_);
    }
  }
  auto thread_name = [](const ThreadFile &tf) {
    const char *type = tf.type == ompt_thread_initial ? "initial" :
                       tf.type == ompt_thread_worker ? "worker" : "other";
    return "OpenMP thread " + std::to_string(tf.index) + " (" + type + ", tid " +
           std::to_string(tf.tid) + ")";
  };
  if (perfetto_) {
    perfetto_->process(pid_, process_name);
    for (size_t i = 0; i < threads_.size(); ++i)
      states_[i].seq = perfetto_->thread_track(threads_[i].tid, thread_name(threads_[i]));
  }
  if (json_) {
    json_->event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) +
                 ",\"name\":\"process_name\",\"args\":{\"name\":\"" + json_escape(process_name) +
                 "\"}}");
    if (out_.merged)
      json_->event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) +
                   ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" +
                   std::to_string(world_rank_) + "}}");
    for (const ThreadFile &tf : threads_) {
      json_->event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) + ",\"tid\":" +
                   std::to_string(tf.tid) + ",\"name\":\"thread_name\",\"args\":{\"name\":\"" +
                   thread_name(tf) + "\"}}");
      json_->event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid_) + ",\"tid\":" +
                   std::to_string(tf.tid) +
                   ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" +
                   std::to_string(tf.index) + "}}");
    }
  }
  location_base_ = out_.next_location;
  out_.next_location += threads_.size();
  team_comm_ = out_.new_comm();
  if (out_.mpi && world_rank_ >= 0) {
    auto it = out_.mpi->ranks.find(uint32_t(world_rank_));
    if (it != out_.mpi->ranks.end() && !threads_.empty()) {
      it->second.location = location_base_;
      it->second.converted = true;
    }
  }
  if (archive_)
    for (size_t i = 0; i < threads_.size(); ++i)
      states_[i].evt = OTF2_Archive_GetEvtWriter(archive_, location_base_ + threads_[i].rank);
}

// What this process adds to the OTF2 definitions: its location group (a
// process: its world rank under MPI), its threads and device lanes, its
// OpenMP team.
void Process::close_outputs() {
  if (archive_)
    for (DeviceLane &l : device_lanes_)
      if (l.evt) otf2_check(OTF2_Archive_CloseEvtWriter(archive_, l.evt), "close event writer");
  out_.first = std::min(out_.first, origin_);
  out_.last = std::max(out_.last, last_);
  // Under MPI, OTF2 wants a process's location group numbered by its rank.
  uint32_t group = out_.merged ? uint32_t(world_rank_) : uint32_t(out_.location_groups.size());
  location_group_ = group;
  Output::LocationGroup pg;
  pg.name = "process " + std::to_string(real_pid_);
  if (world_rank_ >= 0) {
    std::string host = meta_["mpi_host"];
    pg.host = host.empty() ? "localhost" : host;
    pg.name = "rank " + std::to_string(world_rank_) + " (" + pg.host + ", pid " + std::to_string(real_pid_) + ")";
    pg.world_rank = uint32_t(world_rank_);
  } else if (!meta_["rank"].empty()) {
    pg.name = "rank " + meta_["rank"] + " (pid " + std::to_string(real_pid_) + ")";
  }
  pg.type = OTF2_LOCATION_GROUP_TYPE_PROCESS;
  pg.creator = OTF2_UNDEFINED_LOCATION_GROUP;
  out_.location_group(pg, group);
  std::vector<uint64_t> members;
  for (const ThreadFile &tf : threads_) {
    std::string n = "OpenMP thread " + std::to_string(tf.index) + " (tid " + std::to_string(tf.tid) + ")";
    out_.location({location_base_ + tf.rank, n, OTF2_LOCATION_TYPE_CPU_THREAD,
                   states_[tf.rank].evt_count, group});
    members.push_back(location_base_ + tf.rank);
  }
  out_.openmp_team(world_rank_ >= 0 ? "OpenMP team of rank " + std::to_string(world_rank_)
                                    : std::string("OpenMP process team"),
                   members, team_comm_);
  // Devices: one accelerator location group per device, created by the
  // process, with a stream per lane.
  std::map<uint32_t, uint32_t> device_group;
  for (const DeviceLane &l : device_lanes_) {
    if (!device_group.count(l.device)) {
      Output::LocationGroup dg;
      dg.name = "device " + std::to_string(l.device) + " (OMPT device tracing)";
      if (world_rank_ >= 0) dg.name += " of rank " + std::to_string(world_rank_);
      dg.host = pg.host;
      dg.type = OTF2_LOCATION_GROUP_TYPE_ACCELERATOR;
      dg.creator = group;
      device_group[l.device] = out_.location_group(dg, UINT32_MAX);
    }
    std::string n = "device " + std::to_string(l.device) +
                    (l.lane ? " lane " + std::to_string(l.lane) : std::string());
    out_.location({l.location, n, OTF2_LOCATION_TYPE_ACCELERATOR_STREAM, l.events,
                   device_group[l.device]});
  }
  out_.next_location = std::max<uint64_t>(out_.next_location, location_base_ + threads_.size() +
                                                                  device_lanes_.size());
}

void Output::open() {
  if (formats_.perfetto) {
    std::string path = base_ + ".perfetto-trace";
    perfetto = std::make_unique<PerfettoOut>(path);
    if (!perfetto->ok()) die("cannot write " + path + ": " + strerror(errno));
    paths.push_back(path);
  }
  if (formats_.json) {
    std::string path = base_ + ".json";
    json = std::make_unique<JsonOut>(path);
    if (!json->ok()) die("cannot write " + path + ": " + strerror(errno));
    paths.push_back(path);
  }
  if (formats_.otf2) {
    std::string dir = base_ + ".otf2";
    archive = OTF2_Archive_Open(dir.c_str(), "traces", OTF2_FILEMODE_WRITE, kChunkBytes,
                                kChunkBytes, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) die("cannot create the OTF2 archive " + dir);
    otf2_check(OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, nullptr), "flush");
    otf2_check(OTF2_Archive_SetMemoryCallbacks(archive, &memory_callbacks, nullptr), "memory");
    otf2_check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "collectives");
    otf2_check(OTF2_Archive_SetCreator(archive, "kite trace"), "creator");
    otf2_check(OTF2_Archive_OpenEvtFiles(archive), "open event files");
    paths.push_back(dir + "/traces.otf2");
  }
}

void Output::close() {
  if (archive) {
    otf2_check(OTF2_Archive_CloseEvtFiles(archive), "close event files");
    otf2_check(OTF2_Archive_OpenDefFiles(archive), "open definition files");
    for (const Location &l : locations_) {
      OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(archive, l.ref);
      otf2_check(OTF2_Archive_CloseDefWriter(archive, dw), "close definition writer");
    }
    otf2_check(OTF2_Archive_CloseDefFiles(archive), "close definition files");
    write_defs();
    otf2_check(OTF2_Archive_Close(archive), "close archive");
    archive = nullptr;
  }
  if (perfetto && !perfetto->close()) die("cannot write " + base_ + ".perfetto-trace");
  if (json && !json->close()) die("cannot write " + base_ + ".json");
}

uint32_t Output::region(const Otf2Region &r) {
  auto it = region_index_.find(r);
  if (it != region_index_.end()) return it->second;
  uint32_t ref = uint32_t(regions_.size());
  regions_.push_back(r);
  region_index_.emplace(r, ref);
  return ref;
}

uint32_t Output::location_group(const LocationGroup &g, uint32_t ref) {
  if (ref == UINT32_MAX) {  // a device's: after every process's (world ranks come first)
    ref = merged ? mpi->world_size : 0;
    while (location_groups.count(ref)) ++ref;
  }
  location_groups[ref] = g;
  return ref;
}

void Output::openmp_team(const std::string &name, const std::vector<uint64_t> &locations,
                         uint32_t comm) {
  teams_.push_back({name, locations, comm});
}

uint32_t Output::str(const std::string &s) {
  auto it = strings_.find(s);
  if (it != strings_.end()) return it->second;
  uint32_t ref = uint32_t(strings_.size());
  strings_.emplace(s, ref);
  otf2_check(OTF2_GlobalDefWriter_WriteString(defs_, ref, s.c_str()), "string");
  return ref;
}

void Output::write_defs() {
  OTF2_GlobalDefWriter *g = defs_ = OTF2_Archive_GetGlobalDefWriter(archive);
  if (!g) die("OTF2: no global definition writer");
  uint64_t offset = std::min(origin, first);
  otf2_check(OTF2_GlobalDefWriter_WriteClockProperties(
                 g, 1000000000, offset, last > offset ? last - offset + 1 : 1,
                 OTF2_UNDEFINED_TIMESTAMP),
             "clock properties");
  uint32_t empty = str("");
  // The system tree: one node, or under an MPI job a node per host.
  otf2_check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, str(mpi ? "job" : "node"),
                                                      str(mpi ? "machine" : "node"),
                                                      OTF2_UNDEFINED_SYSTEM_TREE_NODE),
             "system tree");
  std::map<std::string, uint32_t> hosts;
  for (const auto &kv : location_groups) {
    if (kv.second.host.empty() || hosts.count(kv.second.host)) continue;
    uint32_t ref = uint32_t(hosts.size() + 1);
    hosts[kv.second.host] = ref;
    otf2_check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, ref, str(kv.second.host), str("node"), 0),
               "system tree node");
  }
  for (const auto &kv : location_groups) {
    const LocationGroup &lg = kv.second;
    uint32_t node = lg.host.empty() ? 0 : hosts[lg.host];
    otf2_check(OTF2_GlobalDefWriter_WriteLocationGroup(g, kv.first, str(lg.name), lg.type, node,
                                                       lg.creator),
               "location group");
  }
  for (const Location &l : locations_)
    otf2_check(OTF2_GlobalDefWriter_WriteLocation(g, l.ref, str(l.name), l.type, l.events, l.group),
               "location");
  // OpenMP: the threads of every process (COMM_LOCATIONS), each process's
  // team a group of them (COMM_GROUP, by index) and a comm: tasks are named
  // by (team, creating thread, generation), the creating thread its index
  // in the team.
  uint32_t next_group = 0;
  if (!teams_.empty()) {
    std::vector<uint64_t> all;
    for (const Team &t : teams_) all.insert(all.end(), t.locations.begin(), t.locations.end());
    uint32_t locations_group = next_group++;
    otf2_check(OTF2_GlobalDefWriter_WriteGroup(g, locations_group, str("OpenMP threads"),
                                               OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_OPENMP,
                                               OTF2_GROUP_FLAG_NONE, uint32_t(all.size()),
                                               all.data()),
               "locations group");
    uint64_t index = 0;
    for (const Team &t : teams_) {
      std::vector<uint64_t> members;
      for (size_t i = 0; i < t.locations.size(); ++i) members.push_back(index++);
      uint32_t ref = next_group++;
      otf2_check(OTF2_GlobalDefWriter_WriteGroup(g, ref, str(t.name), OTF2_GROUP_TYPE_COMM_GROUP,
                                                 OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                                 uint32_t(members.size()), members.data()),
                 "team group");
      comm_def(t.comm, t.name, ref, OTF2_UNDEFINED_COMM);
    }
  }
  if (mpi) mpi->write_defs(g, *this, next_group);
  std::sort(comms_.begin(), comms_.end(), [](const Comm &a, const Comm &b) { return a.ref < b.ref; });
  for (const Comm &c : comms_)
    otf2_check(OTF2_GlobalDefWriter_WriteComm(g, c.ref, str(c.name), c.group,
                                              c.parent < c.ref ? c.parent : OTF2_UNDEFINED_COMM,
                                              OTF2_COMM_FLAG_NONE),
               "comm");
  for (size_t i = 0; i < regions_.size(); ++i) {
    const Otf2Region &r = regions_[i];
    uint32_t name = str(r.name);
    otf2_check(OTF2_GlobalDefWriter_WriteRegion(g, uint32_t(i), name, name, str(r.desc), r.role,
                                                r.paradigm, OTF2_REGION_FLAG_NONE,
                                                r.file.empty() ? empty : str(r.file), r.line,
                                                r.line),
               "region");
  }
}

// On stderr, for conversions longer than 2 s: a line that rewrites itself
// on a terminal, a line every 10 s elsewhere.
void Process::report_progress(uint64_t done, uint64_t total, double elapsed) {
  static double last_report = -10;
  bool tty = isatty(2);
  if (elapsed < 2 || elapsed - last_report < (tty ? 0.5 : 10)) return;
  last_report = elapsed;
  fprintf(stderr, "kite-trace-convert: %s: %.1f M of %.1f M events (%.0f %%), %.1f M events/s%s",
          stem_.c_str(), double(done) / 1e6, double(total) / 1e6,
          total ? 100.0 * double(done) / double(total) : 100.0, double(done) / elapsed / 1e6,
          tty ? "\r" : "\n");
  fflush(stderr);
}

void Process::convert() {
  double t0 = now_s();
  meta_ = read_meta(raw_dir_ + "/" + stem_ + ".meta");
  pid_ = real_pid_ = atoi(meta_["pid"].c_str());
  window_bytes_ = strtoull(meta_["window_bytes"].c_str(), nullptr, 10);
  runtime_module_ = meta_["runtime_module"];
  clock_ = TimeMap::from_meta(meta_);
  if (out_.mpi) {
    world_rank_ = atoi((meta_.count("mpi_world_rank") ? meta_["mpi_world_rank"] : meta_["rank"]).c_str());
    auto it = out_.mpi->ranks.find(uint32_t(world_rank_));
    if (it != out_.mpi->ranks.end()) {
      align_ = it->second.align;
      if (it->second.ns_per_tick > 0 && clock_.tsc) clock_.ns_per_tick = it->second.ns_per_tick;
    }
  }
  read_window();
  if (window_bytes_ < sizeof(Record)) die(stem_ + ".meta names no buffer size");
  sym_ = std::make_unique<Symbolizer>(raw_dir_ + "/" + stem_ + ".maps");
  if (!sym_->ok() && !quiet)
    fprintf(stderr, "kite-trace-convert: %s: no memory map, return addresses stay unresolved\n",
            stem_.c_str());
  find_threads();
  states_.resize(threads_.size());
  uint64_t total = 0;  // records, for the progress line
  for (size_t i = 0; i < threads_.size(); ++i) {
    states_[i].file = &threads_[i];
    struct stat st;
    if (stat(threads_[i].path.c_str(), &st) == 0) total += uint64_t(st.st_size) / sizeof(Record);
  }
  open_outputs();

  // The merge: the thread whose next record is earliest goes next (on a
  // tie, the thread being read goes on: the order is the same on every run).
  using Head = std::pair<uint64_t, uint32_t>;
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
  for (size_t i = 0; i < states_.size(); ++i) {
    ThreadState &ts = states_[i];
    ts.in = std::make_unique<RecordReader>(threads_[i].path, window_bytes_, clock_);
    if (const Record *r = ts.in->next()) {
      ts.next = *r;
      ts.next.time = align_(ts.next.time);
      heads.emplace(ts.next.time, uint32_t(i));
    } else {
      finish_thread(ts);
    }
  }
  uint64_t done = 0;
  while (!heads.empty()) {
    uint32_t i = heads.top().second;
    heads.pop();
    ThreadState &ts = states_[i];
    // Records of one thread are in time order: handle them while they
    // stay at or before the next thread's.
    uint64_t limit = heads.empty() ? UINT64_MAX : heads.top().first;
    for (;;) {
      handle(ts, ts.next);
      if ((++done & 0xffff) == 0 && !quiet) report_progress(done, total, now_s() - t0);
      const Record *r = ts.in->next();
      if (!r) {
        finish_thread(ts);
        break;
      }
      ts.next = *r;
      ts.next.time = align_(ts.next.time);
      if (ts.next.time > limit) {
        heads.emplace(ts.next.time, i);
        break;
      }
    }
  }
  double elapsed = now_s() - t0;
  if (!quiet && elapsed >= 2 && isatty(2)) fprintf(stderr, "\n");
  close_outputs();
  convert_seconds = now_s() - t0;
}

void Process::print_summary(FILE *out) const {
  uint64_t start = align_(strtoull(meta_.count("start_ns") ? meta_.at("start_ns").c_str() : "0", nullptr, 10));
  uint64_t end = meta_.count("end_ns") ? align_(strtoull(meta_.at("end_ns").c_str(), nullptr, 10)) : last_;
  if (!start) start = origin_;
  double wall = end > start ? double(end - start) / 1e9 : 0;
  const std::string &rank = meta_.count("rank") ? meta_.at("rank") : std::string();
  fprintf(out, "kite trace: %s (pid %d%s%s) on %s\n",
          meta_.count("exe") ? meta_.at("exe").c_str() : "?", real_pid_, rank.empty() ? "" : ", rank ",
          rank.c_str(), meta_.count("runtime") ? meta_.at("runtime").c_str() : "?");
  if (!meta_.count("end_ns"))
    fprintf(out, "  the program ended without finalizing the tool (crash, _exit or abort): "
                 "the trace holds what was recorded until then\n");
  // "1 task", "2 tasks": the count and the right form of its noun.
  auto count = [](uint64_t n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  fprintf(out, "  wall %.3f s, %s, %s, %s, %s\n", wall,
          count(threads_.size(), "thread", "threads").c_str(),
          count(stats_.parallel_regions, "parallel region", "parallel regions").c_str(),
          count(stats_.tasks, "task", "tasks").c_str(), count(stats_.events, "event", "events").c_str());
  uint64_t over = meta_.count("over_limit_records")
                      ? strtoull(meta_.at("over_limit_records").c_str(), nullptr, 10) : 0;
  if (over)
    fprintf(out, "  recording stopped at --max-size %s bytes: %s not recorded after it "
                 "(the program ran on)\n",
            meta_.at("max_bytes").c_str(), count(over, "event", "events").c_str());
  print_filter(out);
  std::vector<std::pair<uint64_t, const Stats::Par *>> top;
  for (const auto &kv : stats_.parallel) top.emplace_back(kv.first, &kv.second);
  std::sort(top.begin(), top.end(),
            [](auto &a, auto &b) { return a.second->total_ns > b.second->total_ns; });
  if (!top.empty()) fprintf(out, "  costliest parallel regions (time on the thread that began them):\n");
  for (size_t i = 0; i < top.size() && i < 5; ++i) {
    const SourceLocation &loc = const_cast<Symbolizer &>(*sym_).resolve(top[i].first);
    std::string name = loc.function;  // an inlined function's regions: by call site
    if (!loc.inlined_at.empty()) name += " (inlined at " + loc.inlined_at + ")";
    fprintf(out, "    %9.3f ms %6" PRIu64 "x  team %-3u %s  %s\n",
            double(top[i].second->total_ns) / 1e6, top[i].second->count, top[i].second->max_team,
            loc.short_label().c_str(), name.c_str());
  }
  for (const auto &kv : stats_.devices) {
    const Stats::Dev &d = kv.second;
    fprintf(out, "  device %u: %s %.3f ms, %s of %s %.3f ms, %s (device trace records)\n",
            kv.first, count(d.kernels, "kernel", "kernels").c_str(), double(d.kernel_ns) / 1e6,
            count(d.transfers, "transfer", "transfers").c_str(),
            count(d.transfer_bytes, "byte", "bytes").c_str(), double(d.transfer_ns) / 1e6,
            count(d.other_ops, "other data operation", "other data operations").c_str());
  }
  if (stats_.mpi_calls)
    fprintf(out, "  MPI: %s, %.3f ms in them (%.1f %% of the wall time), %s, %s, %s\n",
            count(stats_.mpi_calls, "call", "calls").c_str(), double(stats_.mpi_ns) / 1e6,
            wall > 0 ? 100.0 * double(stats_.mpi_ns) / 1e9 / wall : 0.0,
            count(stats_.mpi_sends, "send", "sends").c_str(),
            count(stats_.mpi_receives, "receive", "receives").c_str(),
            count(stats_.mpi_collectives, "collective", "collectives").c_str());
  uint64_t wait = 0;
  for (const auto &kv : stats_.waiting) wait += kv.second;
  if (stats_.thread_ns) {
    fprintf(out, "  thread time %.3f s, waiting or idle %.1f %%", double(stats_.thread_ns) / 1e9,
            100.0 * double(wait) / double(stats_.thread_ns));
    std::vector<std::pair<uint64_t, std::string>> kinds;
    for (const auto &kv : stats_.waiting)
      if (kv.second) kinds.emplace_back(kv.second, kv.first);
    std::sort(kinds.rbegin(), kinds.rend());
    const char *sep = ": ";
    for (const auto &k : kinds) {
      fprintf(out, "%s%s %.1f %%", sep, k.second.c_str(),
              100.0 * double(k.first) / double(stats_.thread_ns));
      sep = ", ";
    }
    fprintf(out, "\n");
  }
}

void Process::write_summary_json(const std::string &path) const {
  FILE *f = fopen(path.c_str(), "we");
  if (!f) die("cannot write " + path);
  write_summary_object(f);
  fprintf(f, "\n");
  if (fclose(f) != 0) die("cannot write " + path);
}

void Process::write_summary_object(FILE *f) const {
  auto m = [&](const char *k) { return meta_.count(k) ? meta_.at(k) : std::string(); };
  uint64_t start = align_(strtoull(m("start_ns").c_str(), nullptr, 10));
  uint64_t end = meta_.count("end_ns") ? align_(strtoull(m("end_ns").c_str(), nullptr, 10)) : last_;
  fprintf(f,
          "{\"format\":\"kite-trace-summary\",\"version\":1,\"pid\":%d,\"rank\":\"%s\","
          "\"exe\":\"%s\",\"runtime\":\"%s\",\"finalized\":%s,\"wall_ns\":%" PRIu64
          ",\"threads\":%zu,\"parallel_regions\":%" PRIu64 ",\"tasks\":%" PRIu64
          ",\"tasks_alive_max\":%" PRIu64 ",\"events\":%" PRIu64 ",\"thread_ns\":%" PRIu64
          ",\"parallel\":[",
          real_pid_, json_escape(m("rank")).c_str(), json_escape(m("exe")).c_str(),
          json_escape(m("runtime")).c_str(), meta_.count("end_ns") ? "true" : "false",
          end > start ? end - start : 0, threads_.size(), stats_.parallel_regions, stats_.tasks,
          stats_.tasks_alive_max, stats_.events, stats_.thread_ns);
  const char *sep = "";
  for (const auto &kv : stats_.parallel) {
    const SourceLocation &loc = const_cast<Symbolizer &>(*sym_).resolve(kv.first);
    fprintf(f,
            "%s{\"codeptr_ra\":\"%s\",\"function\":\"%s\",\"file\":\"%s\",\"line\":%d,"
            "\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"max_team\":%u}",
            sep, hex(kv.first).c_str(), json_escape(loc.function).c_str(),
            json_escape(loc.file).c_str(), loc.line, kv.second.count, kv.second.total_ns,
            kv.second.max_team);
    sep = ",";
  }
  fprintf(f, "],\"waiting_ns\":{");
  sep = "";
  for (const auto &kv : stats_.waiting) {
    fprintf(f, "%s\"%s\":%" PRIu64, sep, json_escape(kv.first).c_str(), kv.second);
    sep = ",";
  }
  fprintf(f, "},\"devices\":[");
  sep = "";
  for (const auto &kv : stats_.devices) {
    const Stats::Dev &d = kv.second;
    fprintf(f,
            "%s{\"device\":%u,\"kernels\":%" PRIu64 ",\"kernel_ns\":%" PRIu64
            ",\"transfers\":%" PRIu64 ",\"transfer_bytes\":%" PRIu64 ",\"transfer_ns\":%" PRIu64
            ",\"other_data_ops\":%" PRIu64 "}",
            sep, kv.first, d.kernels, d.kernel_ns, d.transfers, d.transfer_bytes, d.transfer_ns,
            d.other_ops);
    sep = ",";
  }
  fprintf(f, "]");
  if (stats_.mpi_calls)
    fprintf(f,
            ",\"mpi\":{\"world_rank\":%d,\"calls\":%" PRIu64 ",\"ns\":%" PRIu64
            ",\"sends\":%" PRIu64 ",\"receives\":%" PRIu64 ",\"collectives\":%" PRIu64 "}",
            world_rank_, stats_.mpi_calls, stats_.mpi_ns, stats_.mpi_sends, stats_.mpi_receives,
            stats_.mpi_collectives);
  write_filter_json(f);
  fprintf(f, "}");
}

namespace {

[[noreturn]] void usage(int status) {
  fprintf(status ? stderr : stdout,
          "usage: kite-trace-convert [--format otf2,perfetto,json] [--rank R] [--quiet] RAWDIR OUTDIR\n"
          "Converts the raw files libkite-trace.so wrote into RAWDIR: per process,\n"
          "OUTDIR/<name>.otf2/traces.otf2 (otf2), OUTDIR/<name>.perfetto-trace (perfetto:\n"
          "Perfetto's protobuf format), OUTDIR/<name>.json (json: Perfetto / Chrome trace\n"
          "events) and OUTDIR/<name>.summary.json; prints each process's summary\n"
          "(not with --quiet). Default formats: otf2,perfetto.\n"
          "The ranks of an MPI job (processes whose meta names a rank) become ONE\n"
          "trace named trace, on rank 0's clock, their messages matched; with --rank R\n"
          "only rank R is converted, named rank<R>. Other processes are named trace,\n"
          "plus -pid<P> when several share a name.\n"
          "Exit status 3: RAWDIR holds no process's trace.\n");
  exit(status);
}

}  // namespace

}  // namespace kite_trace

using namespace kite_trace;

int main(int argc, char **argv) {
  Formats formats;
  std::string only_rank;
  bool rank_given = false;
  std::vector<std::string> pos;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") usage(0);
    if (a == "--quiet") {
      quiet = true;
    } else if (a == "--format" && i + 1 < argc) {
      std::string f = argv[++i];
      formats = Formats{false, false, false};
      size_t p = 0;
      while (p <= f.size()) {
        size_t c = f.find(',', p);
        std::string one = f.substr(p, c == std::string::npos ? std::string::npos : c - p);
        if (one == "otf2") formats.otf2 = true;
        else if (one == "perfetto") formats.perfetto = true;
        else if (one == "json") formats.json = true;
        else die("unknown format '" + one + "' (otf2, perfetto, json)");
        if (c == std::string::npos) break;
        p = c + 1;
      }
    } else if (a == "--rank" && i + 1 < argc) {
      only_rank = argv[++i];
      rank_given = true;
    } else if (!a.empty() && a[0] == '-') {
      fprintf(stderr, "kite-trace-convert: unknown option '%s'\n", a.c_str());
      usage(2);
    } else {
      pos.push_back(a);
    }
  }
  if (pos.size() != 2) usage(2);
  const std::string raw = pos[0], out = pos[1];
  struct Stem {
    std::string stem, rank, base;
    uint64_t start;
  };
  std::vector<Stem> stems;
  DIR *d = opendir(raw.c_str());
  if (!d) die("cannot read " + raw + ": " + strerror(errno));
  while (dirent *e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() < 6 || n.compare(n.size() - 5, 5, ".meta") != 0) continue;
    Stem s;
    s.stem = n.substr(0, n.size() - 5);
    auto meta = read_meta(raw + "/" + n);
    s.rank = meta.count("mpi_world_rank") ? meta["mpi_world_rank"] : meta["rank"];
    s.start = strtoull(meta["start_ns"].c_str(), nullptr, 10);
    if (rank_given && s.rank != only_rank) continue;
    stems.push_back(s);
  }
  closedir(d);
  if (stems.empty()) return 3;
  std::sort(stems.begin(), stems.end(), [](const Stem &a, const Stem &b) { return a.start < b.start; });
  mkdir(out.c_str(), 0755);

  // The ranks of an MPI job: one output, rank after rank.
  std::vector<Stem> ranked, alone;
  for (const Stem &s : stems) (s.rank.empty() || rank_given ? alone : ranked).push_back(s);
  MpiJob job;
  if (!ranked.empty()) {
    std::vector<std::string> names;
    for (const Stem &s : ranked) names.push_back(s.stem);
    std::string why;
    if (!job.read(raw, names, why)) {
      fprintf(stderr, "kite-trace-convert: the ranks in %s are not merged: %s; each is converted "
                      "on its own\n", raw.c_str(), why.c_str());
      alone.insert(alone.end(), ranked.begin(), ranked.end());
      ranked.clear();
    }
  }
  bool merged_trace = !ranked.empty();
  if (merged_trace) {
    double t0 = now_s();
    Output o(out + "/trace", formats);
    o.mpi = &job;
    o.merged = true;
    // Time 0: the earliest start of a rank, on rank 0's clock.
    o.origin = UINT64_MAX;
    for (const auto &kv : job.ranks) {
      auto meta = read_meta(raw + "/" + kv.second.stem + ".meta");
      uint64_t start = kv.second.align(strtoull(meta["start_ns"].c_str(), nullptr, 10));
      o.origin = std::min(o.origin, start);
    }
    o.open();
    std::vector<std::unique_ptr<Process>> done;
    uint64_t events = 0;
    FILE *summary = fopen((out + "/trace.summary.json").c_str(), "we");
    if (!summary) die("cannot write " + out + "/trace.summary.json");
    fprintf(summary, "{\"format\":\"kite-trace-summary\",\"version\":1,\"job\":true,\"ranks\":[");
    const char *sep = "";
    for (auto &kv : job.ranks) {
      Process p(raw, kv.second.stem, o);
      p.convert();
      events += p.events();
      fputs(sep, summary);
      sep = ",";
      p.write_summary_object(summary);
      if (!quiet) p.print_summary(stdout);
    }
    o.close();
    uint64_t matched = 0, lost_sends = 0, lost_receives = 0;
    job.matches(matched, lost_sends, lost_receives);
    fprintf(summary,
            "],\"world_size\":%u,\"ranks_merged\":%zu,\"events\":%" PRIu64
            ",\"messages\":{\"matched\":%" PRIu64 ",\"unmatched_sends\":%" PRIu64
            ",\"unmatched_receives\":%" PRIu64 "},\"clock_corrections\":[",
            job.world_size, job.ranks.size(), events, matched, lost_sends, lost_receives);
    sep = "";
    for (const auto &kv : job.ranks) {
      const ClockAlign &c = kv.second.align;
      if (!c.shift) continue;
      fprintf(summary,
              "%s{\"rank\":%u,\"offset_init_ns\":%" PRId64 ",\"uncertainty_init_ns\":%" PRIu64,
              sep, kv.first, c.o0, c.e0);
      if (c.two)
        fprintf(summary, ",\"offset_final_ns\":%" PRId64 ",\"uncertainty_final_ns\":%" PRIu64,
                c.o1, c.e1);
      fprintf(summary, "}");
      sep = ",";
    }
    fprintf(summary, "]}\n");
    if (fclose(summary) != 0) die("cannot write " + out + "/trace.summary.json");
    if (!quiet) {
      fprintf(stderr,
              "kite-trace-convert: merged %zu rank%s of %u into %s/trace: %" PRIu64
              " events, %" PRIu64 " MPI message%s matched, %" PRIu64 " unmatched (%" PRIu64
              " sends without a receive, %" PRIu64 " receives without a send), %.2f s\n",
              job.ranks.size(), job.ranks.size() == 1 ? "" : "s", job.world_size, out.c_str(),
              events, matched, matched == 1 ? "" : "s", lost_sends + lost_receives, lost_sends,
              lost_receives, now_s() - t0);
      if (job.unknown_peers)
        fprintf(stderr, "kite-trace-convert: %" PRIu64 " peers not in their communicator's "
                        "member list (OTF2 says them undefined)\n", job.unknown_peers);
      for (const std::string &n : job.clock_notes)
        fprintf(stderr, "kite-trace-convert: %s\n", n.c_str());
      for (const std::string &p : o.paths) printf("  wrote %s\n", p.c_str());
      printf("  wrote %s/trace.summary.json\n", out.c_str());
    }
  }

  std::map<std::string, int> seen;
  if (merged_trace) seen["trace"] = 1;
  for (Stem &s : alone) {
    std::string base = s.rank.empty() ? "trace" : "rank" + s.rank;
    if (seen[base]++) base += "-" + s.stem.substr(s.stem.rfind("pid"));
    s.base = base;
  }
  for (const Stem &s : alone) {
    Output o(out + "/" + s.base, formats);
    // A rank on its own (--rank): its MPI records on its own clock.
    MpiJob single;
    std::string why;
    if (!s.rank.empty() && single.read(raw, {s.stem}, why)) o.mpi = &single;
    o.open();
    Process p(raw, s.stem, o);
    p.convert();
    o.close();
    p.write_summary_json(out + "/" + s.base + ".summary.json");
    if (quiet) continue;
    p.print_summary(stdout);
    for (const std::string &path : o.paths) printf("  wrote %s\n", path.c_str());
  }
  return 0;
}
