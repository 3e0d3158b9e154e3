// The Perfetto / Chrome trace-event JSON file (kite trace --format json):
// one event per line inside {"traceEvents":[...]}.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace kite_trace {

class JsonOut {
 public:
  explicit JsonOut(const std::string &path) : path_(path) {
    f_ = fopen(path.c_str(), "we");
    if (f_) fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", f_);
  }
  ~JsonOut() {
    if (f_) fclose(f_);
  }
  bool ok() const { return f_ != nullptr; }
  void event(const std::string &body) {
    if (!first_) fputs(",\n", f_);
    first_ = false;
    fputs(body.c_str(), f_);
  }
  bool close() {
    fputs("\n]}\n", f_);
    bool ok = fclose(f_) == 0;
    f_ = nullptr;
    return ok;
  }

 private:
  std::string path_;
  FILE *f_ = nullptr;
  bool first_ = true;
};

}  // namespace kite_trace
