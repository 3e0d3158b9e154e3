#include "region_lines.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <cstring>
#include <unistd.h>

namespace kite_trace {
namespace {

// A row's file names the spec's file: the same path, or a path that ends
// with it after a '/' (a spec of "src/a.c" names "/home/me/src/a.c").
bool same_file(const char *row, const char *spec) {
  if (!row) return false;
  size_t r = strlen(row), s = strlen(spec);
  if (r == s) return memcmp(row, spec, s) == 0;
  return r > s && spec[0] != '/' && row[r - s - 1] == '/' && memcmp(row + r - s, spec, s) == 0;
}

struct Search {
  LineSpec *specs;
  size_t n;
  CodeRange *out;
  size_t max, count;
};

int each_module(Dwfl_Module *mod, void **, const char *, Dwarf_Addr, void *arg) {
  Search &s = *static_cast<Search *>(arg);
  Dwarf_Addr bias;
  for (Dwarf_Die *cu = dwfl_module_nextcu(mod, nullptr, &bias); cu;
       cu = dwfl_module_nextcu(mod, cu, &bias)) {
    size_t rows = 0;
    if (dwfl_getsrclines(cu, &rows) != 0) continue;
    for (size_t i = 0; i + 1 < rows; ++i) {
      Dwfl_Line *row = dwfl_onesrcline(cu, i);
      Dwarf_Addr lo = 0, hi = 0;
      int line = 0;
      const char *file = row ? dwfl_lineinfo(row, &lo, &line, nullptr, nullptr, nullptr) : nullptr;
      if (!file || line <= 0) continue;
      LineSpec *spec = nullptr;
      for (size_t k = 0; k < s.n && !spec; ++k)
        if (s.specs[k].line == line && same_file(file, s.specs[k].file)) spec = &s.specs[k];
      if (!spec) continue;
      // The row's code runs to the next row's address, unless it ends its
      // sequence (then it has none).
      Dwarf_Addr row_bias;
      bool ends = false;
      if (Dwarf_Line *dl = dwfl_dwarf_line(row, &row_bias)) dwarf_lineendsequence(dl, &ends);
      Dwfl_Line *next = dwfl_onesrcline(cu, i + 1);
      if (ends || !next || !dwfl_lineinfo(next, &hi, nullptr, nullptr, nullptr, nullptr) ||
          hi <= lo)
        continue;
      spec->rows++;
      if (s.count < s.max) s.out[s.count++] = CodeRange{lo, hi};
    }
  }
  return DWARF_CB_OK;
}

}  // namespace

long resolve_lines(LineSpec *specs, size_t n, CodeRange *out, size_t max) {
  static char *debuginfo_path = nullptr;
  static const Dwfl_Callbacks callbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo,
                                           nullptr, &debuginfo_path};
  Dwfl *d = dwfl_begin(&callbacks);
  if (!d) return -1;
  dwfl_report_begin(d);
  if (dwfl_linux_proc_report(d, getpid()) != 0 || dwfl_report_end(d, nullptr, nullptr) != 0) {
    dwfl_end(d);
    return -1;
  }
  Search s{specs, n, out, max, 0};
  dwfl_getmodules(d, each_module, &s, 0);
  dwfl_end(d);
  return long(s.count);
}

}  // namespace kite_trace
