#include "symbols.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <cctype>
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

bool ends_with(const std::string &s, const char *suffix) {
  size_t n = strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Where the part of a symbol that names an outlined OpenMP body begins:
// gcc's "f._omp_fn.3", "f._omp_cpyfn.1"; clang's ".omp_outlined..2",
// ".omp_outlined._debug__", ".omp_task_entry.", and since clang 16
// "f.omp_outlined", "f.omp_outlined_debug__", "f.omp_outlined_debug__.omp.reduction...".
size_t outlined_suffix(const std::string &s) {
  size_t best = std::string::npos;
  for (const char *marker : {"._omp_", ".omp_", ".omp."}) {
    size_t at = s.find(marker);
    if (at != std::string::npos && at < best) best = at;
  }
  return best;
}

// Drops every " [clone ...]" the demangler adds for gcc's function clones.
std::string drop_clones(std::string s) {
  for (size_t at; (at = s.find(" [clone ")) != std::string::npos;) {
    size_t close = s.find(']', at);
    s.erase(at, close == std::string::npos ? std::string::npos : close - at + 1);
  }
  return s;
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
        tag == DW_TAG_class_type || tag == DW_TAG_structure_type || tag == DW_TAG_module) {
      if (functions_at(&child, pc, chain)) return true;
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

// The function written in the source that holds an outlined body whose
// name does not say (clang 14's ".omp_outlined..N" are top-level DIEs with
// only the construct's line): of the functions with code in the same file,
// the one declared last at or above that line. A lambda or a nested
// function declared inside its parent wins over the parent, as it should.
void enclosing_by_line(Dwarf_Die *die, const char *file, int line, int &best_line,
                       std::string &best) {
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0) return;
  do {
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_subprogram) {
      int l = 0;
      const char *f = dwarf_decl_file(&child);
      const char *name = die_name(&child);
      bool code = dwarf_hasattr(&child, DW_AT_low_pc) || dwarf_hasattr(&child, DW_AT_ranges) ||
                  dwarf_hasattr(&child, DW_AT_inline);
      if (code && name && outlined_suffix(name) == std::string::npos && f && !strcmp(f, file) &&
          dwarf_decl_line(&child, &l) == 0 && l <= line && l > best_line) {
        best_line = l;
        best = name;
      }
    }
    if (tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
        tag == DW_TAG_module)
      enclosing_by_line(&child, file, line, best_line, best);
  } while (dwarf_siblingof(&child, &child) == 0);
}

// The scopes (namespaces, classes, functions) around the DIE at `target`,
// outermost first, found by walking down from `die`.
bool scopes_to(Dwarf_Die *die, Dwarf_Off target, std::vector<std::string> &names) {
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0) return false;
  do {
    if (dwarf_dieoffset(&child) == target) return true;
    int tag = dwarf_tag(&child);
    if (tag == DW_TAG_namespace || tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
        tag == DW_TAG_union_type || tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
        tag == DW_TAG_module) {
      const char *n = dwarf_diename(&child);
      // gcc names no lambda's closure type: an unnamed class holding a
      // function is one.
      if (!n && (tag == DW_TAG_class_type || tag == DW_TAG_structure_type)) n = "{lambda}";
      bool named = n && tag != DW_TAG_lexical_block;
      if (named) names.push_back(n);
      if (scopes_to(&child, target, names)) return true;
      if (named) names.pop_back();
    }
  } while (dwarf_siblingof(&child, &child) == 0);
  return false;
}

}  // namespace

std::string strip_parameters(const std::string &demangled) {
  std::string s = drop_clones(demangled);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  // Qualifiers after the parameter list.
  for (bool again = true; again;) {
    again = false;
    for (const char *q : {" const", " volatile", " &&", " &", " noexcept"})
      if (ends_with(s, q)) {
        s.resize(s.size() - strlen(q));
        again = true;
      }
  }
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') depth++;
      if (s[i] == '(' && --depth == 0) {
        // "(anonymous namespace)" is a scope, not a parameter list.
        if (i > 0) s.resize(i);
        break;
      }
    }
  }
  // A template function's return type comes first: keep what follows the
  // last space outside brackets, and do not look into an operator's name
  // ("operator<<", "operator new").
  size_t limit = s.size();
  for (size_t at = s.rfind("operator"); at != std::string::npos;
       at = at ? s.rfind("operator", at - 1) : std::string::npos) {
    bool starts = at == 0 || s[at - 1] == ':' || s[at - 1] == ' ';
    char after = at + 8 < s.size() ? s[at + 8] : ' ';
    if (starts && !(isalnum(static_cast<unsigned char>(after)) || after == '_')) {
      limit = at;
      break;
    }
  }
  int depth = 0;
  size_t space = std::string::npos;
  for (size_t i = 0; i < limit; ++i) {
    char c = s[i];
    if (c == '<' || c == '(' || c == '[' || c == '{') depth++;
    else if (c == '>' || c == ')' || c == ']' || c == '}') depth--;
    else if (c == ' ' && depth == 0) space = i;
  }
  if (space != std::string::npos) s.erase(0, space + 1);
  return s;
}

std::string full_signature(const std::string &symbol) {
  std::string s = symbol;
  size_t at = outlined_suffix(s);
  if (at != std::string::npos) s.resize(at);
  if (s.rfind("_Z", 0) != 0) return "";
  std::string d = demangle(s.c_str());
  return d == s ? "" : drop_clones(d);
}

std::string display_name(const std::string &symbol, bool *outlined) {
  if (outlined) *outlined = false;
  std::string s = symbol;
  size_t at = outlined_suffix(s);
  if (at != std::string::npos) {
    if (outlined) *outlined = true;
    s.resize(at);
    if (s.empty()) return "";
  }
  if (s.rfind("_Z", 0) == 0) {
    std::string d = demangle(s.c_str());
    if (d != s) return strip_parameters(d);
  }
  // gfortran's module procedures: __<module>_MOD_<procedure>.
  size_t mod = s.find("_MOD_");
  if (s.rfind("__", 0) == 0 && mod != std::string::npos && mod > 2)
    return s.substr(2, mod - 2) + "::" + s.substr(mod + 5);
  // A C name never holds a dot: what follows one is a clone's suffix
  // (".part.0", ".constprop.0", ".isra.0", ".cold").
  size_t dot = s.find('.', 1);
  if (dot != std::string::npos) s.resize(dot);
  return s;
}

namespace {

const Dwfl_Callbacks callbacks = {
    dwfl_linux_proc_find_elf,
    dwfl_standard_find_debuginfo,
    nullptr,
    nullptr,
};

}  // namespace

std::string SourceLocation::short_label() const {
  if (!file.empty() && line > 0) return basename_of(file) + ":" + std::to_string(line);
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

namespace {

// The line nearest to pc, within [lo, hi), that is not line 0: compilers
// give line 0 to code that belongs to no statement (clang after an
// inlined call, in outlined bodies' prologues). The nearest line before pc
// first (the statement that set up what pc does), else the nearest after.
int nearest_line(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Addr lo, Dwarf_Addr hi, const char **file) {
  Dwarf_Lines *lines = nullptr;
  size_t n = 0;
  if (dwarf_getsrclines(cu, &lines, &n) != 0) return 0;
  Dwarf_Addr before = 0, after = ~Dwarf_Addr(0);
  int before_line = 0, after_line = 0;
  const char *before_file = nullptr, *after_file = nullptr;
  for (size_t i = 0; i < n; ++i) {
    Dwarf_Line *l = dwarf_onesrcline(lines, i);
    Dwarf_Addr a = 0;
    int ln = 0;
    bool end = false;
    if (!l || dwarf_lineaddr(l, &a) != 0 || dwarf_lineno(l, &ln) != 0 || ln == 0) continue;
    if (dwarf_lineendsequence(l, &end) == 0 && end) continue;
    if (a < lo || a >= hi) continue;
    if (a <= pc && (!before_line || a >= before)) {
      before = a;
      before_line = ln;
      before_file = dwarf_linesrc(l, nullptr, nullptr);
    } else if (a > pc && a < after) {
      after = a;
      after_line = ln;
      after_file = dwarf_linesrc(l, nullptr, nullptr);
    }
  }
  if (before_line) {
    *file = before_file;
    return before_line;
  }
  *file = after_file;
  return after_line;
}

}  // namespace

// A DIE's name for the naming rule: its linkage name when it has one (the
// demangler qualifies it), else its plain name qualified by the scopes that
// hold its declaration (gcc gives a lambda's operator() no linkage name:
// "main::<lambda(int)>::operator()").
static std::string qualified_die_name(Dwarf_Die *cu, Dwarf_Die *die,
                                      std::unordered_map<uint64_t, std::string> &qualified_cache_) {
  Dwarf_Attribute attr;
  if (const char *l = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr)))
    return l;
  const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
  if (!name) return "";
  if (outlined_suffix(name) != std::string::npos) return name;
  // The declaration: through the abstract origin, then the specification.
  Dwarf_Die decl = *die, next;
  for (int hops = 0; hops < 4; ++hops) {
    if (dwarf_attr(&decl, DW_AT_abstract_origin, &attr) && dwarf_formref_die(&attr, &next)) {
      decl = next;
      continue;
    }
    if (dwarf_attr(&decl, DW_AT_specification, &attr) && dwarf_formref_die(&attr, &next)) {
      decl = next;
      continue;
    }
    break;
  }
  Dwarf_Off off = dwarf_dieoffset(&decl);
  auto it = qualified_cache_.find(off);
  if (it != qualified_cache_.end()) return it->second;
  std::vector<std::string> scopes;
  std::string q;
  if (cu && scopes_to(cu, off, scopes))
    for (const std::string &sc : scopes) q += display_name(sc) + "::";
  q += name;
  return qualified_cache_.emplace(off, q).first->second;
}

SourceLocation Symbolizer::lookup(uint64_t pc) {
  SourceLocation loc;
  Dwfl_Module *mod = dwfl_addrmodule(dwfl_, pc);
  if (!mod) return loc;
  const char *modname = dwfl_module_info(mod, nullptr, nullptr, nullptr, nullptr, nullptr,
                                         nullptr, nullptr);
  if (modname) loc.module = modname;
  // The symbol table's name and extent: the name when there is no debug
  // information, the extent to look for a line in.
  GElf_Off offset = 0;
  GElf_Sym sym;
  const char *symname = dwfl_module_addrinfo(mod, pc, &offset, &sym, nullptr, nullptr, nullptr);
  std::string raw_symbol = symname ? symname : "";
  Dwarf_Addr sym_lo = pc - offset, sym_hi = sym_lo + (sym.st_size ? sym.st_size : 1);
  if (!symname) sym_lo = pc, sym_hi = pc + 1;
  bool outlined_symbol = false;
  loc.function = display_name(raw_symbol, &outlined_symbol);
  loc.signature = full_signature(raw_symbol);
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
  auto finish_without_dwarf = [&]() {
    if (loc.function.empty() && outlined_symbol) loc.function = "omp region";
    if (loc.signature == loc.function) loc.signature.clear();
    if (!loc.function.empty() || !loc.file.empty())
      loc.frames.push_back(SourceFrame{loc.function, loc.signature, loc.file, loc.line});
    return loc;
  };
  if (!cu) return finish_without_dwarf();
  const Dwarf_Addr dpc = pc - bias;
  if (Dwarf_Line *line = dwarf_getsrc_die(cu, dpc)) {
    int lineno = 0;
    const char *file = dwarf_linesrc(line, nullptr, nullptr);
    dwarf_lineno(line, &lineno);
    if (lineno == 0) lineno = nearest_line(cu, dpc, sym_lo - bias, sym_hi - bias, &file);
    if (file && lineno > 0) {
      loc.file = file;
      loc.line = lineno;
    }
  }
  // The source-level functions at pc, outermost first: the function the
  // code belongs to, then each function inlined into it.
  std::vector<Dwarf_Die> scopes;
  functions_at(cu, dpc, scopes);
  for (size_t i = 1; i < scopes.size(); ++i)
    if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)  // nested out-of-line code: it starts over
      scopes.erase(scopes.begin(), scopes.begin() + long(i)), i = 0;
  if (scopes.empty()) return finish_without_dwarf();
  Dwarf_Files *files = nullptr;
  size_t nfiles = 0;
  dwarf_getsrcfiles(cu, &files, &nfiles);
  struct Level {
    SourceFrame frame;
    bool outlined;
  };
  std::vector<Level> levels;
  for (size_t i = 0; i < scopes.size(); ++i) {
    Dwarf_Die &scope = scopes[i];
    std::string raw_name = qualified_die_name(cu, &scope, qualified_cache_);
    if (raw_name.empty() && i == 0) raw_name = raw_symbol;
    Level lv;
    lv.frame.function = display_name(raw_name, &lv.outlined);
    lv.frame.signature = full_signature(raw_name);
    if (lv.outlined) {
      // The construct's line: the outlined DIE's declared line (clang), else
      // the line of its first instruction (gcc gives it the pragma's).
      int construct = 0;
      if (dwarf_decl_line(&scope, &construct) != 0 || construct <= 0) {
        Dwarf_Addr entry = 0;
        if (dwarf_entrypc(&scope, &entry) == 0)
          if (Dwarf_Line *l = dwarf_getsrc_die(cu, entry)) dwarf_lineno(l, &construct);
      }
      if (lv.frame.function.empty()) {
        // clang 14: the name says nothing of the enclosing function.
        Dwarf_Off off = dwarf_dieoffset(&scope);
        auto it = enclosing_cache_.find(off);
        if (it == enclosing_cache_.end()) {
          std::string best;
          int best_line = 0;
          const char *f = dwarf_decl_file(&scope);
          if (f && construct > 0) enclosing_by_line(cu, f, construct, best_line, best);
          it = enclosing_cache_.emplace(off, best).first;
        }
        lv.frame.function = display_name(it->second);
        lv.frame.signature = full_signature(it->second);
      }
      if (lv.frame.function.empty()) lv.frame.function = "omp region";
      if (construct > 0) {
        std::string tag = " (omp at line " + std::to_string(construct) + ")";
        lv.frame.function += tag;
        if (!lv.frame.signature.empty()) lv.frame.signature += tag;
      }
    }
    if (lv.frame.signature == lv.frame.function) lv.frame.signature.clear();
    // clang's outlined wrapper with its body (".omp_outlined._debug__")
    // inlined into it is one construct to the user: one level.
    if (lv.outlined && !levels.empty() && levels.back().outlined &&
        dwarf_tag(&scope) == DW_TAG_inlined_subroutine)
      continue;
    levels.push_back(lv);
  }
  // Each level's line: where it calls the next level in (that level's call
  // site), the innermost one's the line of pc.
  for (size_t i = 0; i < levels.size(); ++i) {
    SourceFrame &f = levels[i].frame;
    f.file = loc.file;
    f.line = loc.line;
  }
  {
    size_t level = 0;
    for (size_t i = 1; i < scopes.size() && level < levels.size(); ++i) {
      Dwarf_Die &scope = scopes[i];
      if (dwarf_tag(&scope) != DW_TAG_inlined_subroutine) continue;
      Dwarf_Attribute attr;
      Dwarf_Word call_file = 0, call_line = 0;
      dwarf_formudata(dwarf_attr(&scope, DW_AT_call_file, &attr), &call_file);
      dwarf_formudata(dwarf_attr(&scope, DW_AT_call_line, &attr), &call_line);
      const char *cf = files ? dwarf_filesrc(files, call_file, nullptr, nullptr) : nullptr;
      // Scopes folded into the level above (the outlined body) do not
      // start a level: find the level this scope is.
      const char *raw = die_name(&scope);
      bool outlined = false;
      display_name(raw ? raw : "", &outlined);
      bool folded = outlined && level < levels.size() && levels[level].outlined;
      if (folded) continue;
      if (cf && call_line > 0) {
        levels[level].frame.file = cf;
        levels[level].frame.line = int(call_line);
      }
      level++;
    }
  }
  std::string chain;
  for (size_t i = levels.size(); i-- > 1;) {
    if (!chain.empty()) chain += " <- ";
    chain += levels[i].frame.function.empty() ? "?" : levels[i].frame.function;
    const SourceFrame &caller = levels[i - 1].frame;
    std::string site = caller.file.empty() ? "?" : basename_of(caller.file) + ":" +
                                                       std::to_string(caller.line);
    chain += " (inlined at " + site + ")";
    if (i == levels.size() - 1) loc.inlined_at = site;
  }
  loc.inlined = chain;
  for (Level &lv : levels) loc.frames.push_back(lv.frame);
  const SourceFrame &inner = loc.frames.back();
  if (!inner.function.empty()) {
    loc.function = inner.function;
    loc.signature = inner.signature;
  }
  if (loc.file.empty() && !loc.frames.empty()) {
    // No line for pc: the function's declared line, else no file at all.
    int decl = 0;
    const char *f = dwarf_decl_file(&scopes.back());
    if (f && dwarf_decl_line(&scopes.back(), &decl) == 0 && decl > 0) {
      loc.file = f;
      loc.line = decl;
      loc.frames.back().file = f;
      loc.frames.back().line = decl;
    }
  }
  return loc;
}

}  // namespace kite_trace
