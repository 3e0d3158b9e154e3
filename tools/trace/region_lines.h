// kite trace --regions: the code of FILE:LINE in the running process, found
// once at the tool's start from the loaded objects' DWARF line tables
// (elfutils libdwfl, dlopen'ed on first use, reading /proc/self/maps and
// the files it names).
#pragma once

#include <cstddef>
#include <cstdint>

namespace kite_trace {

struct CodeRange {
  uint64_t lo, hi;  // [lo, hi): the code of one line-table row
};

struct LineSpec {
  char file[512];     // as given: a path, or its last components
  int line = 0;
  unsigned rows = 0;  // line-table rows found for it
};

// Fills `out` (at most `max`) with the address ranges whose line-table row
// names one of the specs' file and line, in every object loaded now; counts
// each spec's rows. Returns the number of ranges; -1 when the process's
// objects cannot be read, -2 when libdw.so.1 cannot be loaded (it is opened
// here, on first use, so that a trace without --regions loads none of it).
long resolve_lines(LineSpec *specs, size_t n, CodeRange *out, size_t max);

}  // namespace kite_trace
