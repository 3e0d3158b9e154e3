// kite-trace-convert: the edges of a recorded time window and what a window
// or --regions left out (trace_filter.h says how the tool records them).
// Before the window a thread's tool kept the begin records of what was open
// on it, and wrote them (with their own, earlier stamps) before its first
// event inside the window: those slices are shown from the window's start.
// What is still open when a thread's records end inside a window that ended
// before the program is closed at the window's end. Every slice is closed,
// so the outputs nest as without a window.
#include <cinttypes>

#include "convert.h"
#include "text.h"

namespace kite_trace {

namespace {

uint64_t meta_u64(const std::map<std::string, std::string> &m, const char *k) {
  auto it = m.find(k);
  return it == m.end() ? 0 : strtoull(it->second.c_str(), nullptr, 10);
}

std::string meta_str(const std::map<std::string, std::string> &m, const char *k) {
  auto it = m.find(k);
  return it == m.end() ? std::string() : it->second;
}

}  // namespace

void Process::read_window() {
  uint64_t start = meta_u64(meta_, "window_start"), end = meta_u64(meta_, "window_end");
  window_start_ = meta_.count("window_start") ? align_(clock_.to_ns(start)) : 0;
  window_end_ = end ? align_(clock_.to_ns(end)) : 0;
}

uint64_t Process::window_clip(const Record &r) {
  if (!window_start_ || r.time >= window_start_) return r.time;
  if (r.kind != kHeader && r.kind != kThreadBegin) ++window_clipped_;  // not a slice
  return window_start_;
}

uint64_t Process::window_close_time(const ThreadState &ts) {
  if (!window_end_ || ts.stack.empty() || !meta_.count("end_ns")) return ts.t;
  uint64_t run_end = align_(meta_u64(meta_, "end_ns"));
  if (run_end <= window_end_ || window_end_ <= ts.t) return ts.t;
  window_closed_ += ts.stack.size();
  return window_end_;
}

void Process::print_filter(FILE *out) const {
  auto count = [](uint64_t n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  if (meta_.count("window_start")) {
    std::string after = meta_str(meta_, "window_start_after"),
                duration = meta_str(meta_, "window_duration");
    fprintf(out, "  window: recorded from %s s after the start%s%s%s\n", after.c_str(),
            duration.empty() ? "" : " for ", duration.c_str(), duration.empty() ? "" : " s");
    if (meta_.count("left_out_before_window"))
      fprintf(out, "    not recorded: %s before it, %s after it\n",
              count(meta_u64(meta_, "left_out_before_window"), "event", "events").c_str(),
              count(meta_u64(meta_, "left_out_after_window"), "event", "events").c_str());
    fprintf(out, "    %s open at its start shown from it, %s open at its end closed at it\n",
            count(window_clipped_, "record", "records").c_str(),
            count(window_closed_, "slice", "slices").c_str());
  }
  if (meta_.count("regions")) {
    fprintf(out, "  regions: only %s (%s of code)", meta_str(meta_, "regions").c_str(),
            count(meta_u64(meta_, "region_code_ranges"), "range", "ranges").c_str());
    if (meta_.count("left_out_outside_regions"))
      fprintf(out, ": %s outside them not recorded",
              count(meta_u64(meta_, "left_out_outside_regions"), "event", "events").c_str());
    fprintf(out, "\n");
    std::string missing = meta_str(meta_, "regions_without_code");
    if (!missing.empty()) fprintf(out, "    no code found at %s\n", missing.c_str());
  }
}

void Process::write_filter_json(FILE *f) const {
  bool window = meta_.count("window_start") != 0, regions = meta_.count("regions") != 0;
  if (!window && !regions) return;
  fprintf(f, ",\"filter\":{");
  const char *sep = "";
  if (window) {
    std::string duration = meta_str(meta_, "window_duration");
    fprintf(f,
            "\"start_after_s\":%s,\"duration_s\":%s,\"window_start_us\":%.3f"
            ",\"window_end_us\":%.3f,\"left_out_before_window\":%" PRIu64
            ",\"left_out_after_window\":%" PRIu64 ",\"open_at_window_start\":%" PRIu64
            ",\"closed_at_window_end\":%" PRIu64,
            meta_str(meta_, "window_start_after").c_str(),
            duration.empty() ? "null" : duration.c_str(), us(window_start_),
            window_end_ ? us(window_end_) : -1.0,
            meta_u64(meta_, "left_out_before_window"), meta_u64(meta_, "left_out_after_window"),
            window_clipped_, window_closed_);
    sep = ",";
  }
  if (regions)
    fprintf(f,
            "%s\"regions\":\"%s\",\"region_code_ranges\":%" PRIu64
            ",\"regions_without_code\":\"%s\",\"left_out_outside_regions\":%" PRIu64,
            sep, json_escape(meta_str(meta_, "regions")).c_str(),
            meta_u64(meta_, "region_code_ranges"),
            json_escape(meta_str(meta_, "regions_without_code")).c_str(),
            meta_u64(meta_, "left_out_outside_regions"));
  fprintf(f, "}");
}

}  // namespace kite_trace
