#include "views.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "text.h"

using kite_trace::json_escape;

namespace kite_profile {
namespace {

std::string basename_of(const std::string &p) { return p.substr(p.rfind('/') + 1); }

std::string label(const ViewLoc &l) {
  if (l.file.empty()) return l.function;
  return l.function + " " + basename_of(l.file) + ":" + std::to_string(l.line);
}

std::string name_fields(const ViewLoc &l) {
  std::string s = "\"function\":\"" + json_escape(l.function) + "\"";
  if (!l.signature.empty()) s += ",\"signature\":\"" + json_escape(l.signature) + "\"";
  s += ",\"file\":\"" + json_escape(l.file) + "\",\"line\":" + std::to_string(l.line);
  return s;
}

// Time in each node's subtree, by the node's position (children follow
// their parents in `nodes`, so one backward pass adds them up).
std::vector<double> subtree_work(const Views &v) {
  std::vector<double> t(v.nodes.size(), 0.0);
  for (size_t i = v.nodes.size(); i-- > 0;) {
    t[i] += v.nodes[i].self_work;
    if (v.nodes[i].parent != ~0u) t[v.nodes[i].parent] += t[i];
  }
  return t;
}

struct Function {
  std::string name;
  const ViewLoc *first = nullptr;
  double self = 0, total = 0;
  std::map<std::string, std::pair<const ViewLoc *, double>> callers;  // by caller label
};

// Bottom-up: per function, the work sampled in it (self), in it or what it
// called (total: a recursive function's time counted once, at its
// outermost level on each path), and who called it (the caller's function
// and line, with the total time spent in the function through that call).
std::vector<Function> by_function(const Views &v) {
  std::vector<double> sub = subtree_work(v);
  std::map<std::string, Function> fns;
  for (size_t i = 1; i < v.nodes.size(); ++i) {
    const ViewNode &n = v.nodes[i];
    const ViewLoc &l = v.locs[n.loc];
    Function &f = fns[l.function];
    f.name = l.function;
    if (!f.first) f.first = &l;
    f.self += n.self_work;
    if (sub[i] <= 0) continue;
    bool outermost = true;
    for (uint32_t p = n.parent; p != ~0u && p != 0; p = v.nodes[p].parent)
      if (v.locs[v.nodes[p].loc].function == l.function) {
        outermost = false;
        break;
      }
    if (!outermost) continue;
    f.total += sub[i];
    if (n.parent != 0 && n.parent != ~0u) {
      const ViewLoc &c = v.locs[v.nodes[n.parent].loc];
      auto &e = f.callers[label(c)];
      e.first = &c;
      e.second += sub[i];
    } else {
      auto &e = f.callers["(root)"];
      e.second += sub[i];
    }
  }
  std::vector<Function> out;
  for (auto &kv : fns)
    if (kv.second.total > 0 || kv.second.self > 0) out.push_back(std::move(kv.second));
  std::sort(out.begin(), out.end(), [](const Function &a, const Function &b) {
    return a.self != b.self ? a.self > b.self : a.total > b.total;
  });
  return out;
}

// The call paths that end where work was sampled, by their own work.
std::vector<std::pair<double, uint32_t>> hot_paths(const Views &v) {
  std::vector<std::pair<double, uint32_t>> p;
  for (size_t i = 1; i < v.nodes.size(); ++i)
    if (v.nodes[i].self_work > 0) p.emplace_back(v.nodes[i].self_work, uint32_t(i));
  std::sort(p.rbegin(), p.rend());
  return p;
}

std::vector<uint32_t> path_locs(const Views &v, uint32_t node) {
  std::vector<uint32_t> locs;
  for (uint32_t n = node; n != 0 && n != ~0u; n = v.nodes[n].parent) locs.push_back(v.nodes[n].loc);
  std::reverse(locs.begin(), locs.end());
  return locs;
}

constexpr size_t kSourceFiles = 5;          // the hottest files embedded
constexpr size_t kSourceMaxBytes = 1 << 20;  // a larger file is said so, not embedded

void write_sources(FILE *f, const Views &v) {
  std::map<std::string, double> per_file;
  for (const ViewLine &l : v.lines) {
    const ViewLoc &loc = v.locs[l.loc];
    if (loc.file.empty() || loc.line <= 0 || loc.system) continue;
    per_file[loc.file] += l.self + l.wait + l.blame;
  }
  std::vector<std::pair<double, std::string>> files;
  for (auto &kv : per_file) files.emplace_back(kv.second, kv.first);
  std::sort(files.rbegin(), files.rend());
  if (files.size() > kSourceFiles) files.resize(kSourceFiles);
  fprintf(f, ",\n\"sources\":[");
  const char *sep = "";
  for (const auto &fe : files) {
    const std::string &path = fe.second;
    // The same line may be several locations (functions inlined at it):
    // their costs add up.
    std::map<int, ViewLine> costs;
    for (const ViewLine &l : v.lines) {
      const ViewLoc &loc = v.locs[l.loc];
      if (loc.file != path || loc.line <= 0) continue;
      ViewLine &c = costs[loc.line];
      c.self += l.self;
      c.wait += l.wait;
      c.blame += l.blame;
    }
    fprintf(f, "%s\n{\"file\":\"%s\",\"seconds\":%.6f,\"costs\":{", sep, json_escape(path).c_str(),
            fe.first);
    const char *s2 = "";
    for (const auto &c : costs) {
      fprintf(f, "%s\"%d\":[%.6f,%.6f,%.6f]", s2, c.first, c.second.self, c.second.wait,
              c.second.blame);
      s2 = ",";
    }
    fprintf(f, "}");
    std::ifstream in(path, std::ios::binary);
    std::string error;
    std::string text;
    if (!in) {
      error = std::string("cannot read ") + path + ": " + strerror(errno);
    } else {
      std::ostringstream ss;
      ss << in.rdbuf();
      text = ss.str();
      if (text.size() > kSourceMaxBytes) {
        error = path + " is larger than 1 MiB: not embedded";
        text.clear();
      }
    }
    if (!error.empty()) {
      fprintf(f, ",\"error\":\"%s\"}", json_escape(error).c_str());
    } else {
      fprintf(f, ",\"text\":[");
      std::istringstream lines(text);
      std::string line;
      const char *s3 = "";
      while (std::getline(lines, line)) {
        // "<" spelled out: the page embeds this JSON in a <script> element,
        // which a source line's "</script>" or "<!--" must not end or bend.
        std::string esc = json_escape(line), safe;
        for (char c : esc) safe += c == '<' ? std::string("\\u003c") : std::string(1, c);
        fprintf(f, "%s\"%s\"", s3, safe.c_str());
        s3 = ",";
      }
      fprintf(f, "]}");
    }
    sep = ",";
  }
  fprintf(f, "]");
}

}  // namespace

void print_call_paths(FILE *out, const Views &v, int top) {
  auto paths = hot_paths(v);
  if (paths.empty()) return;
  fprintf(out, "\n  call paths by own work (callers first):\n");
  for (int i = 0; i < int(paths.size()) && i < top; ++i) {
    std::vector<uint32_t> locs = path_locs(v, paths[i].second);
    fprintf(out, "    %8.3f s %5.1f %%  ", paths[i].first,
            v.thread_s > 0 ? 100 * paths[i].first / v.thread_s : 0);
    // Long paths keep their outermost two and innermost three levels.
    for (size_t k = 0; k < locs.size(); ++k) {
      if (locs.size() > 6 && k == 2) {
        fprintf(out, " > ...");
        k = locs.size() - 4;
        continue;
      }
      fprintf(out, "%s%s", k ? " > " : "", label(v.locs[locs[k]]).c_str());
    }
    fprintf(out, "\n");
  }
}

void write_views_json(FILE *f, const Views &v) {
  std::vector<Function> fns = by_function(v);
  fprintf(f, ",\n\"functions\":[");
  const char *sep = "";
  for (const Function &fn : fns) {
    ViewLoc head = *fn.first;
    fprintf(f, "%s\n{\"function\":\"%s\"", sep, json_escape(fn.name).c_str());
    if (!head.signature.empty()) fprintf(f, ",\"signature\":\"%s\"", json_escape(head.signature).c_str());
    fprintf(f, ",\"file\":\"%s\",\"self_s\":%.6f,\"total_s\":%.6f,\"callers\":[",
            json_escape(head.file).c_str(), fn.self, fn.total);
    std::vector<std::pair<double, const std::pair<const ViewLoc *, double> *>> cs;
    for (const auto &c : fn.callers) cs.emplace_back(c.second.second, &c.second);
    std::sort(cs.begin(), cs.end(), [](auto &a, auto &b) { return a.first > b.first; });
    const char *s2 = "";
    for (const auto &c : cs) {
      if (c.second->first)
        fprintf(f, "%s{%s,\"total_s\":%.6f}", s2, name_fields(*c.second->first).c_str(), c.first);
      else
        fprintf(f, "%s{\"root\":true,\"total_s\":%.6f}", s2, c.first);  // called by no one sampled
      s2 = ",";
    }
    fprintf(f, "]}");
    sep = ",";
  }
  fprintf(f, "],\n\"paths\":[");
  auto paths = hot_paths(v);
  sep = "";
  for (size_t i = 0; i < paths.size() && i < 50; ++i) {
    fprintf(f, "%s\n{\"self_s\":%.6f,\"frames\":[", sep, paths[i].first);
    const char *s2 = "";
    for (uint32_t loc : path_locs(v, paths[i].second)) {
      fprintf(f, "%s{%s}", s2, name_fields(v.locs[loc]).c_str());
      s2 = ",";
    }
    fprintf(f, "]}");
    sep = ",";
  }
  fprintf(f, "]");
  write_sources(f, v);
}

}  // namespace kite_profile
