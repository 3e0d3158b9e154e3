#include "region_lines.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

namespace kite_trace {
namespace {

// libdw is opened only when --regions asks for lines (dlopen): a trace
// without it maps nothing of elfutils into the program.
struct Dw {
  decltype(&dwfl_begin) begin;
  decltype(&dwfl_report_begin) report_begin;
  decltype(&dwfl_linux_proc_report) proc_report;
  decltype(&dwfl_report_end) report_end;
  decltype(&dwfl_getmodules) getmodules;
  decltype(&dwfl_end) end;
  decltype(&dwfl_module_nextcu) module_nextcu;
  decltype(&dwfl_getsrclines) getsrclines;
  decltype(&dwfl_onesrcline) onesrcline;
  decltype(&dwfl_lineinfo) lineinfo;
  decltype(&dwfl_dwarf_line) dwarf_line;
  decltype(&dwarf_lineendsequence) lineendsequence;
  decltype(&dwfl_linux_proc_find_elf) proc_find_elf;
  decltype(&dwfl_standard_find_debuginfo) find_debuginfo;
};
Dw dw;

template <typename F>
bool find(void *lib, F &f, const char *name) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

// Opens libdw.so.1 once; false when it (or one of its functions) is missing.
bool open_libdw() {
  static int state = 0;  // 0: not tried, 1: ready, -1: missing
  if (state) return state > 0;
  void *lib = dlopen("libdw.so.1", RTLD_LAZY | RTLD_LOCAL);
  bool ok = lib && find(lib, dw.begin, "dwfl_begin") &&
            find(lib, dw.report_begin, "dwfl_report_begin") &&
            find(lib, dw.proc_report, "dwfl_linux_proc_report") &&
            find(lib, dw.report_end, "dwfl_report_end") &&
            find(lib, dw.getmodules, "dwfl_getmodules") && find(lib, dw.end, "dwfl_end") &&
            find(lib, dw.module_nextcu, "dwfl_module_nextcu") &&
            find(lib, dw.getsrclines, "dwfl_getsrclines") &&
            find(lib, dw.onesrcline, "dwfl_onesrcline") &&
            find(lib, dw.lineinfo, "dwfl_lineinfo") &&
            find(lib, dw.dwarf_line, "dwfl_dwarf_line") &&
            find(lib, dw.lineendsequence, "dwarf_lineendsequence") &&
            find(lib, dw.proc_find_elf, "dwfl_linux_proc_find_elf") &&
            find(lib, dw.find_debuginfo, "dwfl_standard_find_debuginfo");
  state = ok ? 1 : -1;
  return ok;
}

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
  for (Dwarf_Die *cu = dw.module_nextcu(mod, nullptr, &bias); cu;
       cu = dw.module_nextcu(mod, cu, &bias)) {
    size_t rows = 0;
    if (dw.getsrclines(cu, &rows) != 0) continue;
    for (size_t i = 0; i + 1 < rows; ++i) {
      Dwfl_Line *row = dw.onesrcline(cu, i);
      Dwarf_Addr lo = 0, hi = 0;
      int line = 0;
      const char *file = row ? dw.lineinfo(row, &lo, &line, nullptr, nullptr, nullptr) : nullptr;
      if (!file || line <= 0) continue;
      LineSpec *spec = nullptr;
      for (size_t k = 0; k < s.n && !spec; ++k)
        if (s.specs[k].line == line && same_file(file, s.specs[k].file)) spec = &s.specs[k];
      if (!spec) continue;
      // The row's code runs to the next row's address, unless it ends its
      // sequence (then it has none).
      Dwarf_Addr row_bias;
      bool ends = false;
      if (Dwarf_Line *dl = dw.dwarf_line(row, &row_bias)) dw.lineendsequence(dl, &ends);
      Dwfl_Line *next = dw.onesrcline(cu, i + 1);
      if (ends || !next || !dw.lineinfo(next, &hi, nullptr, nullptr, nullptr, nullptr) ||
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
  if (!open_libdw()) return -2;
  static char *debuginfo_path = nullptr;
  static Dwfl_Callbacks callbacks;
  callbacks.find_elf = dw.proc_find_elf;
  callbacks.find_debuginfo = dw.find_debuginfo;
  callbacks.debuginfo_path = &debuginfo_path;
  Dwfl *d = dw.begin(&callbacks);
  if (!d) return -1;
  dw.report_begin(d);
  if (dw.proc_report(d, getpid()) != 0 || dw.report_end(d, nullptr, nullptr) != 0) {
    dw.end(d);
    return -1;
  }
  Search s{specs, n, out, max, 0};
  dw.getmodules(d, each_module, &s, 0);
  dw.end(d);
  return long(s.count);
}

}  // namespace kite_trace
