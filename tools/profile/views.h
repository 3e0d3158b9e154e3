// The views of a profile derived from its call tree and line table, apart
// from the analysis that builds them (analyze.cpp): the bottom-up view by
// function with its callers, the top call paths, and the annotated source
// of the hottest files (docs/kite-profile.md, "Views").
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace kite_profile {

struct ViewLoc {
  std::string function, signature, file;
  int line = 0;
  bool system = false;  // a system library's code: its time is its user caller's
};

// One node of the top-down call tree: its location, its parent (~0u for
// the root) and the time sampled in it.
struct ViewNode {
  uint32_t loc = ~0u, parent = ~0u;
  double self_work = 0, self_blame = 0;
};

// One source line's costs (seconds of thread time).
struct ViewLine {
  uint32_t loc;
  double self = 0, wait = 0, blame = 0;
};

struct Views {
  std::vector<ViewLoc> locs;
  std::vector<ViewNode> nodes;  // nodes[0] is the root
  std::vector<ViewLine> lines;
  double thread_s = 0;
};

// The text report's part: the top call paths by own work, callers first.
void print_call_paths(FILE *out, const Views &v, int top);
// profile.json's "functions" (bottom-up), "paths" and "sources" members,
// each written as ",\n\"name\":..." to follow the document's members.
void write_views_json(FILE *f, const Views &v);

}  // namespace kite_profile
