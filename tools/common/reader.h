// Reading the raw files of recorder.h back, after the program: records in
// order with their payloads, and the meta file.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <map>
#include <string>
#include <vector>

#include "raw_format.h"

namespace kite_trace {

// Reads a thread's file window by window: a window holds
// window_bytes / sizeof(Record) records and ends with the few bytes that
// do not make a whole record.
// Records' time stamps to CLOCK_MONOTONIC nanoseconds (recorder.h stamp()):
// TSC ticks mapped linearly through the two pairs the meta file holds (the
// start and the end of the run; a rate measured at the start when the run
// did not end normally).
struct TimeMap {
  bool tsc = false;
  uint64_t tsc0 = 0, ns0 = 0;
  double ns_per_tick = 1.0;
  uint64_t to_ns(uint64_t t) const {
    if (!tsc) return t;
    double d = (double(int64_t(t - tsc0))) * ns_per_tick;
    return uint64_t(int64_t(ns0) + int64_t(d));
  }
  static TimeMap from_meta(const std::map<std::string, std::string> &m) {
    TimeMap tm;
    auto num = [&](const char *k) {
      auto it = m.find(k);
      return it == m.end() ? 0.0 : strtod(it->second.c_str(), nullptr);
    };
    auto clock = m.find("clock");
    if (clock == m.end() || clock->second != "tsc") return tm;
    tm.tsc = true;
    tm.tsc0 = uint64_t(num("tsc_start"));
    tm.ns0 = uint64_t(num("ns_start"));
    double hz = num("tsc_hz");
    double t1 = num("tsc_end"), n1 = num("ns_end");
    if (t1 > double(tm.tsc0) && n1 > double(tm.ns0))
      tm.ns_per_tick = (n1 - double(tm.ns0)) / (t1 - double(tm.tsc0));
    else if (hz > 0)
      tm.ns_per_tick = 1e9 / hz;
    return tm;
  }
};

// The tail of a stream (recorder.cpp: the ring of windows its thread fills
// in turn, kept in <file>.tail until they are copied into the file) that a
// run which did not end normally (a crash, abort, _exit, SIGKILL) left
// behind: its windows are copied into the file at their places, and the
// tail is removed. A slot whose first record is empty holds nothing the
// file lacks (it was written, then cleared). False, with the tail kept,
// when the tail is not one of this window size or cannot be copied.
inline bool salvage_tail(const std::string &path, size_t window_bytes) {
  std::string tail = path + ".tail";
  int in = open(tail.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return true;
  constexpr uint64_t kMaxSlots = 64;
  struct {
    uint64_t magic, window_bytes, slots, window[kMaxSlots];
  } ctl;
  const size_t control_bytes = 4096;
  bool ok = pread(in, &ctl, sizeof ctl, 0) == ssize_t(sizeof ctl) && ctl.magic == kMagic &&
            ctl.window_bytes == window_bytes && window_bytes >= sizeof(Record) &&
            ctl.slots >= 1 && ctl.slots <= kMaxSlots;
  int out = ok ? open(path.c_str(), O_WRONLY | O_CLOEXEC) : -1;
  ok = ok && out >= 0;
  std::vector<char> slot(ok ? window_bytes : 0);
  for (uint64_t k = 0; ok && k < ctl.slots; ++k) {
    if (ctl.window[k] == 0) continue;
    off_t from = off_t(control_bytes + k * window_bytes);
    if (pread(in, slot.data(), window_bytes, from) != ssize_t(window_bytes)) {
      ok = false;
      break;
    }
    if (reinterpret_cast<const Record *>(slot.data())->kind == kEnd) continue;
    ok = pwrite(out, slot.data(), window_bytes, off_t((ctl.window[k] - 1) * window_bytes)) ==
         ssize_t(window_bytes);
  }
  if (out >= 0) close(out);
  close(in);
  if (ok)
    unlink(tail.c_str());
  else
    fprintf(stderr, "kite: cannot copy the records left in %s into %s; they are not read\n",
            tail.c_str(), path.c_str());
  return ok;
}

class RecordReader {
 public:
  RecordReader(const std::string &path, size_t window_bytes, TimeMap clock = TimeMap())
      : clock_(clock),
        salvaged_(salvage_tail(path, window_bytes)),
        f_(fopen(path.c_str(), "rbe")),
        per_window_(window_bytes / sizeof(Record)),
        pad_(window_bytes % sizeof(Record)) {}
  ~RecordReader() {
    if (f_) fclose(f_);
  }
  bool ok() const { return f_ != nullptr && per_window_ > 0; }
  // The next record, or nullptr at the end (kind 0 or end of file).
  const Record *next() {
    for (;;) {
      if (pos_ == len_ && !refill()) return nullptr;
      Record *r = &buf_[pos_++];
      if (r->kind == kPad) continue;
      if (r->kind == kEnd || r->kind >= kKindCount) {
        done_ = true;
        pos_ = len_ = 0;
        return nullptr;
      }
      r->time = clock_.to_ns(r->time);
      return r;
    }
  }
  // The n records after a record with a payload (raw_format.h), or nullptr.
  const uint64_t *payload(unsigned words) {
    payload_.clear();
    for (unsigned k = payload_records(words); k > 0; --k) {
      if (pos_ == len_ && !refill()) return nullptr;
      const uint64_t *w = reinterpret_cast<const uint64_t *>(&buf_[pos_++]);
      payload_.insert(payload_.end(), w, w + kWordsPerRecord);
    }
    return payload_.data();
  }

 private:
  bool refill() {
    if (!f_ || done_) return false;
    if (left_in_window_ == 0) {
      if (started_ && pad_ && fseek(f_, long(pad_), SEEK_CUR) != 0) return false;
      started_ = true;
      left_in_window_ = per_window_;
    }
    size_t want = std::min(buf_.size(), left_in_window_);
    len_ = fread(buf_.data(), sizeof(Record), want, f_);
    left_in_window_ -= len_;
    pos_ = 0;
    return len_ > 0;
  }
  std::vector<uint64_t> payload_;

  TimeMap clock_;
  bool salvaged_;
  FILE *f_;
  size_t per_window_, pad_;
  size_t left_in_window_ = 0;
  bool started_ = false;
  std::vector<Record> buf_ = std::vector<Record>(16384);
  size_t pos_ = 0, len_ = 0;
  bool done_ = false;
};

inline std::map<std::string, std::string> read_meta(const std::string &path) {
  std::map<std::string, std::string> m;
  FILE *f = fopen(path.c_str(), "re");
  if (!f) return m;
  char line[8192];
  while (fgets(line, sizeof line, f)) {
    char *eq = strchr(line, '=');
    if (!eq) continue;
    *eq = 0;
    std::string v(eq + 1);
    while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.pop_back();
    m[line] = v;  // later lines (the finalizer's) win
  }
  fclose(f);
  return m;
}

}  // namespace kite_trace
