#include "place_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env_parse.h"

namespace kite {

namespace {

// Bounds that keep a hostile value from asking for gigabytes.
constexpr long kMaxProc = (1L << 20) - 1;
constexpr int kMaxTotalProcs = 1 << 22;

template <class T>
T* grow(T* p, int* cap, int need) {
  if (need <= *cap) return p;
  int c = *cap ? *cap : 8;
  while (c < need) c *= 2;
  T* q = static_cast<T*>(realloc(p, sizeof(T) * size_t(c)));
  if (!q) fatal("out of memory building the place list");
  *cap = c;
  return q;
}

}  // namespace

void IntBuf::push(int x) {
  v = grow(v, &cap, n + 1);
  v[n++] = x;
}

bool IntBuf::contains(int x) const {
  for (int i = 0; i < n; ++i)
    if (v[i] == x) return true;
  return false;
}

void IntBuf::release() {
  free(v);
  *this = IntBuf();
}

void PlaceList::add_proc(int cpu) {
  if (!first) {
    first = grow(first, &cap_places, 2);
    first[0] = 0;
  }
  int start = first[count];
  for (int k = start; k < nprocs; ++k)
    if (procs[k] == cpu) return;
  procs = grow(procs, &cap_procs, nprocs + 1);
  // Keep the place sorted: places are small, insertion is enough.
  int k = nprocs++;
  while (k > start && procs[k - 1] > cpu) {
    procs[k] = procs[k - 1];
    --k;
  }
  procs[k] = cpu;
}

void PlaceList::end_place() {
  if (!first || first[count] == nprocs) return;
  first = grow(first, &cap_places, count + 2);
  first[++count] = nprocs;
}

void PlaceList::discard_open_place() {
  if (first) nprocs = first[count];
}

bool PlaceList::remove_open_place_from_list() {
  if (!first) return false;
  int start = first[count];
  int len = nprocs - start;
  for (int p = 0; p < count; ++p) {
    int plen = first[p + 1] - first[p];
    if (plen != len || memcmp(procs + first[p], procs + start, sizeof(int) * size_t(len)) != 0)
      continue;
    // Close the gap left by place p; the open place is dropped with it.
    memmove(procs + first[p], procs + first[p + 1], sizeof(int) * size_t(start - first[p + 1]));
    for (int q = p + 1; q <= count; ++q) first[q - 1] = first[q] - plen;
    --count;
    nprocs = first[count];
    return true;
  }
  discard_open_place();
  return false;
}

void PlaceList::truncate(int n) {
  if (n >= count) return;
  count = n;
  nprocs = first[n];
}

void PlaceList::release() {
  free(first);
  free(procs);
  *this = PlaceList();
}

size_t PlaceList::format(char* buf, size_t cap) const {
  size_t len = 0;
  auto put = [&](const char* fmt, int a, int b) {
    char tmp[32];
    int w = snprintf(tmp, sizeof tmp, fmt, a, b);
    for (int i = 0; i < w; ++i, ++len)
      if (len + 1 < cap) buf[len] = tmp[i];
  };
  for (int p = 0; p < count; ++p) {
    put(p ? ",{" : "{", 0, 0);
    int k = first[p];
    bool firstrun = true;
    while (k < first[p + 1]) {
      int run = 1;
      while (k + run < first[p + 1] && procs[k + run] == procs[k] + run) ++run;
      if (run > 1)
        put(firstrun ? "%d:%d" : ",%d:%d", procs[k], run);
      else
        put(firstrun ? "%d" : ",%d", procs[k], 0);
      firstrun = false;
      k += run;
    }
    put("}", 0, 0);
  }
  if (cap) buf[len < cap ? len : cap - 1] = '\0';
  return len;
}

// --- the OMP_PLACES grammar ----------------------------------------------
//   list     := item (',' item)*
//   item     := ['!'] place [':' length [':' stride]]
//   place    := '{' res (',' res)* '}' | number
//   res      := ['!'] number [':' length [':' stride]]

namespace {

struct Parser {
  const char* p;
  const char** why;

  bool fail(const char* w) {
    *why = w;
    return false;
  }
  void blanks() { p = env_skip_blanks(p); }
  bool number(long lo, long hi, long* out, const char* what) {
    const char* end;
    if (!env_parse_long_prefix(p, out, &end)) return fail(what);
    if (*out < lo || *out > hi) return fail(what);
    p = end;
    return true;
  }
  // Optional ":length[:stride]".
  bool interval(long* len, long* stride) {
    *len = 1;
    *stride = 1;
    blanks();
    if (*p != ':') return true;
    ++p;
    if (!number(1, kMaxProc + 1, len, "an interval length must be a positive integer")) return false;
    blanks();
    if (*p != ':') return true;
    ++p;
    return number(-kMaxProc, kMaxProc, stride, "an interval stride must be an integer");
  }

  bool place(IntBuf& procs) {
    blanks();
    if (*p != '{') {
      long n;
      if (!number(0, kMaxProc, &n, "expected '{' or a processor number")) return false;
      procs.push(int(n));
      return true;
    }
    ++p;
    IntBuf excluded;
    for (;;) {
      blanks();
      bool excl = *p == '!';
      if (excl) ++p;
      long start, len, stride;
      if (!number(0, kMaxProc, &start, "expected a non-negative processor number") ||
          !interval(&len, &stride)) {
        excluded.release();
        return false;
      }
      for (long k = 0; k < len; ++k) {
        long c = start + k * stride;
        if (c < 0 || c > kMaxProc || procs.n >= kMaxTotalProcs) {
          excluded.release();
          return fail("an interval leaves the range of processor numbers");
        }
        (excl ? excluded : procs).push(int(c));
      }
      blanks();
      if (*p == ',') {
        ++p;
        continue;
      }
      if (*p == '}') {
        ++p;
        break;
      }
      excluded.release();
      return fail("expected ',' or '}' in a place");
    }
    // Exclusions apply to the whole place, wherever they were written.
    int kept = 0;
    for (int i = 0; i < procs.n; ++i)
      if (!excluded.contains(procs.v[i])) procs.v[kept++] = procs.v[i];
    procs.n = kept;
    excluded.release();
    if (kept == 0) return fail("a place has no processors");
    return true;
  }

  bool list(PlaceList& out) {
    blanks();
    if (!*p) return fail("empty value");
    for (;;) {
      blanks();
      bool excl = *p == '!';
      if (excl) ++p;
      IntBuf procs;
      long len, stride;
      if (!place(procs) || !interval(&len, &stride)) {
        procs.release();
        return false;
      }
      for (long k = 0; k < len; ++k) {
        for (int i = 0; i < procs.n; ++i) {
          long c = procs.v[i] + k * stride;
          if (c < 0 || c > kMaxProc || out.nprocs >= kMaxTotalProcs) {
            out.discard_open_place();
            procs.release();
            return fail("a place interval leaves the range of processor numbers");
          }
          out.add_proc(int(c));
        }
        if (excl) {
          if (!out.remove_open_place_from_list()) {
            procs.release();
            return fail("'!' excludes a place that is not in the list");
          }
        } else {
          out.end_place();
        }
      }
      procs.release();
      blanks();
      if (*p == ',') {
        ++p;
        continue;
      }
      if (!*p) break;
      return fail("expected ',' between places");
    }
    if (out.count == 0) return fail("no places remain");
    return true;
  }
};

}  // namespace

bool place_list_parse(const char* s, PlaceList& out, const char** why) {
  Parser ps{s, why};
  return ps.list(out);
}

}  // namespace kite
