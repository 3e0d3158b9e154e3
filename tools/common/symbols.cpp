#include "symbols.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <vector>

namespace kite_trace {
namespace {

std::string demangle(const char *name) {
  if (!name) return "";
  int status = 0;
  char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status == 0 && d) {
    std::string s(d);
    free(d);
    return s;
  }
  return name;
}

std::string basename_of(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

const char *die_name(Dwarf_Die *die) {
  Dwarf_Attribute attr;
  // The name of an inlined instance lives on its abstract origin;
  // dwarf_attr_integrate follows it.
  const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
  if (!name) name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
  return name;
}

// The functions (subprograms and inlined subroutines) whose code holds pc,
// outermost first, under `die`. Every child is searched, not only those
// whose ranges hold pc: gcc nests an outlined region's subprogram inside the
// DIE of the function it came from, whose own ranges do not hold it (which
// is also why libdw's dwarf_getscopes finds nothing there).
bool functions_at(Dwarf_Die *die, Dwarf_Addr pc, std::vector<Dwarf_Die> &chain) {
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0) return false;
  do {
    int tag = dwarf_tag(&child);
    bool function = tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
    if (function && dwarf_haspc(&child, pc) > 0) {
      chain.push_back(child);
      functions_at(&child, pc, chain);
      return true;
    }
    if (function || tag == DW_TAG_lexical_block || tag == DW_TAG_namespace ||
        tag == DW_TAG_class_type || tag == DW_TAG_structure_type) {
      if (functions_at(&child, pc, chain)) return true;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

const Dwfl_Callbacks callbacks = {
    dwfl_linux_proc_find_elf,
    dwfl_standard_find_debuginfo,
    nullptr,
    nullptr,
};

}  // namespace

std::string SourceLocation::short_label() const {
  if (!file.empty()) return basename_of(file) + ":" + std::to_string(line);
  if (!function.empty()) return function;
  if (!module.empty()) return basename_of(module);
  return "?";
}

Symbolizer::Symbolizer(const std::string &maps_path) {
  FILE *maps = fopen(maps_path.c_str(), "re");
  if (!maps) return;
  Dwfl *d = dwfl_begin(&callbacks);
  if (d) {
    dwfl_report_begin(d);
    int rc = dwfl_linux_proc_maps_report(d, maps);
    dwfl_report_end(d, nullptr, nullptr);
    if (rc != 0) {
      dwfl_end(d);
      d = nullptr;
    }
  }
  fclose(maps);
  dwfl_ = d;
}

Symbolizer::~Symbolizer() {
  if (dwfl_) dwfl_end(dwfl_);
}

const SourceLocation &Symbolizer::resolve(uint64_t return_address) {
  auto it = cache_.find(return_address);
  if (it != cache_.end()) return it->second;
  SourceLocation loc;
  // The return address is the instruction after the call; the construct's
  // line is the call's, one byte back.
  if (return_address && dwfl_) loc = lookup(return_address - 1);
  return cache_.emplace(return_address, std::move(loc)).first->second;
}

SourceLocation Symbolizer::lookup(uint64_t pc) {
  SourceLocation loc;
  Dwfl_Module *mod = dwfl_addrmodule(dwfl_, pc);
  if (!mod) return loc;
  const char *modname = dwfl_module_info(mod, nullptr, nullptr, nullptr, nullptr, nullptr,
                                         nullptr, nullptr);
  if (modname) loc.module = modname;
  loc.function = demangle(dwfl_module_addrname(mod, pc));
  // The compilation unit holding pc. Through .debug_aranges when the
  // compiler wrote them; clang writes none by default, and libdw 0.188 does
  // not look further, so the units' own ranges are searched then.
  Dwarf_Addr bias = 0;
  Dwarf_Die *cu = dwfl_module_addrdie(mod, pc, &bias);
  if (!cu) {
    Dwarf_Addr cu_bias = 0;
    for (Dwarf_Die *c = dwfl_module_nextcu(mod, nullptr, &cu_bias); c;
         c = dwfl_module_nextcu(mod, c, &cu_bias))
      if (dwarf_haspc(c, pc - cu_bias) > 0) {
        cu = c;
        bias = cu_bias;
        break;
      }
  }
  if (!cu) return loc;
  if (Dwarf_Line *line = dwarf_getsrc_die(cu, pc - bias)) {
    int lineno = 0;
    const char *file = dwarf_linesrc(line, nullptr, nullptr);
    dwarf_lineno(line, &lineno);
    if (file) loc.file = file;
    loc.line = lineno;
  }
  // The inlined call chain: the scopes at pc, innermost first. An inlined
  // subroutine's own name is the function the line belongs to; its call
  // site is where the enclosing function called it.
  std::vector<Dwarf_Die> scopes;  // innermost first
  functions_at(cu, pc - bias, scopes);
  std::reverse(scopes.begin(), scopes.end());
  Dwarf_Files *files = nullptr;
  size_t nfiles = 0;
  dwarf_getsrcfiles(cu, &files, &nfiles);
  std::string chain;
  bool innermost = true;
  for (Dwarf_Die &scope : scopes) {
    int tag = dwarf_tag(&scope);
    std::string name = demangle(die_name(&scope));
    if (innermost && !name.empty()) loc.function = name;
    innermost = false;
    if (tag != DW_TAG_inlined_subroutine) break;
    Dwarf_Attribute attr;
    Dwarf_Word call_file = 0, call_line = 0;
    dwarf_formudata(dwarf_attr(&scope, DW_AT_call_file, &attr), &call_file);
    dwarf_formudata(dwarf_attr(&scope, DW_AT_call_line, &attr), &call_line);
    const char *cf = files ? dwarf_filesrc(files, call_file, nullptr, nullptr) : nullptr;
    if (!chain.empty()) chain += " <- ";
    chain += name.empty() ? "?" : name;
    chain += " (inlined at " + basename_of(cf ? cf : "?") + ":" + std::to_string(call_line) + ")";
  }
  loc.inlined = chain;
  return loc;
}

}  // namespace kite_trace
