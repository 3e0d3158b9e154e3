// Return addresses to function, file:line (and the inlined call chain),
// with elfutils' libdw, from a copy of the traced process's /proc/self/maps.
// Used by kite-trace-convert after the program has exited.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

struct Dwfl;

namespace kite_trace {

struct SourceLocation {
  std::string function;  // demangled; "" when unknown
  std::string file;      // as the debug information names it; "" when unknown
  int line = 0;
  std::string module;    // the shared object or executable's file name
  std::string inlined;   // "f (file:line) <- g (file:line)", innermost first; "" if none
  bool known() const { return !file.empty() || !function.empty(); }
  // "file:line" (basename) or "function" or "module+0x..": never empty.
  std::string short_label() const;
};

class Symbolizer {
 public:
  // maps_path: a copy of the process's /proc/<pid>/maps.
  explicit Symbolizer(const std::string &maps_path);
  ~Symbolizer();
  Symbolizer(const Symbolizer &) = delete;
  Symbolizer &operator=(const Symbolizer &) = delete;
  bool ok() const { return dwfl_ != nullptr; }

  // A return address: the call instruction (ra - 1) is looked up.
  const SourceLocation &resolve(uint64_t return_address);

 private:
  SourceLocation lookup(uint64_t pc);
  Dwfl *dwfl_ = nullptr;
  std::unordered_map<uint64_t, SourceLocation> cache_;
};

}  // namespace kite_trace
