// Return addresses to function, file:line (and the inlined call chain),
// with elfutils' libdw, from a copy of the traced process's /proc/self/maps.
// Used by kite-trace-convert and kite-profile-analyze after the program has
// exited.
//
// Names follow one rule in every output of every kite tool (docs/kite-profile.md,
// "Names"): the user's function, demangled, without its parameter list (the
// full signature is kept apart); a body the compiler outlined for an OpenMP
// construct is named by the user function that encloses it and the
// construct's line, "f (omp at line 12)"; inlined functions are levels of
// their own, each with the line it was called from; line 0 is never given.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

struct Dwfl;

namespace kite_trace {

// One level of the source-level call chain at an address.
struct SourceFrame {
  std::string function;   // display name (the naming rule above); "" when unknown
  std::string signature;  // demangled, with parameters; "" when it says no more than function
  std::string file;       // as the debug information names it; "" when unknown
  int line = 0;           // > 0 whenever file is set
};

struct SourceLocation {
  std::string function;   // display name of the innermost level; "" when unknown
  std::string signature;  // its full signature ("" when it adds nothing)
  std::string file;       // innermost level's file; "" when unknown
  int line = 0;           // its line, never 0 when file is set
  std::string module;     // the shared object or executable's file name
  std::string inlined;    // "f (inlined at file:line) <- g (...)", innermost first; "" if none
  std::string inlined_at; // "file:line" (basename) the innermost level was inlined at; "" if not
  // Outermost first: the real (out-of-line) function, then each inlined
  // level; a level's line is where it calls the next one. At least one
  // level when function is known.
  std::vector<SourceFrame> frames;
  bool known() const { return !file.empty() || !function.empty(); }
  // "file:line" (basename) or "function" or "module": never empty, never ":0".
  std::string short_label() const;
};

// The naming rule on a symbol alone (linkage or plain name, as the symbol
// table or the debug information spells it): demangled, parameters dropped,
// compiler clone suffixes (".constprop.0", ".isra.0", ".part.0", ".cold",
// "[clone ...]") dropped, gfortran's "__mod_MOD_proc" as "mod::proc". An
// outlined OpenMP body whose name tells its enclosing function gives that
// function's name; `outlined` (when not null) says whether it was one.
std::string display_name(const std::string &symbol, bool *outlined = nullptr);
// The demangled name of a C++ symbol, with parameters ("" for a C name).
std::string full_signature(const std::string &symbol);
// A demangled C++ name without its parameter list, qualifiers or return type:
// "void ns::f<int>(int) const" -> "ns::f<int>".
std::string strip_parameters(const std::string &demangled);

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
  // Outlined bodies whose name does not tell their function (clang 14's
  // ".omp_outlined."), by DIE offset: the enclosing function's raw name.
  std::unordered_map<uint64_t, std::string> enclosing_cache_;
  std::unordered_map<uint64_t, std::string> qualified_cache_;  // by DIE offset
};

}  // namespace kite_trace
