// Affinity format expansion (OpenMP 5.2 §2.x affinity-format-var, the
// OMP_AFFINITY_FORMAT field table) and the OMP_DISPLAY_AFFINITY lines.
//
// A field is %[0][.][width]type or %[0][.][width]{long_name}; '.' right-
// justifies, '0' pads with zeros; fields are left-justified otherwise.
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "places.h"

namespace kite {

namespace {

struct Field {
  char letter;
  const char* name;
};
const Field kFields[] = {
    {'t', "team_num"},      {'T', "num_teams"},        {'L', "nesting_level"},
    {'n', "thread_num"},    {'N', "num_threads"},      {'a', "ancestor_tnum"},
    {'H', "host"},          {'P', "process_id"},       {'i', "native_thread_id"},
    {'A', "thread_affinity"},
};

// Output into a bounded buffer that still counts what did not fit.
struct Out {
  char* buf;
  size_t cap;
  size_t len;
  void put(char c) {
    if (len + 1 < cap) buf[len] = c;
    ++len;
  }
  void puts(const char* s, size_t n) {
    for (size_t i = 0; i < n; ++i) put(s[i]);
  }
};

// Parses one field after '%'; returns the letter (0 when unknown) and
// advances *pp past it.
char parse_field(const char** pp, bool* zero, bool* right, int* width) {
  const char* p = *pp;
  *zero = *right = false;
  *width = 0;
  if (*p == '0') {
    *zero = true;
    ++p;
  }
  if (*p == '.') {
    *right = true;
    ++p;
  }
  while (*p >= '0' && *p <= '9' && *width < 4096) *width = *width * 10 + (*p++ - '0');
  char letter = 0;
  if (*p == '{') {
    const char* close = strchr(p, '}');
    if (close) {
      size_t n = size_t(close - p - 1);
      for (const Field& f : kFields)
        if (strlen(f.name) == n && strncmp(f.name, p + 1, n) == 0) letter = f.letter;
      p = close + 1;
    } else {
      p += strlen(p);
    }
  } else if (*p) {
    for (const Field& f : kFields)
      if (f.letter == *p) letter = f.letter;
    ++p;
  }
  *pp = p;
  return letter;
}

// "0-3,8,10-11" for the calling thread's affinity mask.
void format_mask(char* buf, size_t cap) {
  cpu_set_t set;
  Out o{buf, cap, 0};
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    bool any = false;
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (!CPU_ISSET(c, &set)) continue;
      int e = c;
      while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set)) ++e;
      char tmp[32];
      int w = e > c ? snprintf(tmp, sizeof tmp, "%s%d-%d", any ? "," : "", c, e)
                    : snprintf(tmp, sizeof tmp, "%s%d", any ? "," : "", c);
      o.puts(tmp, size_t(w));
      any = true;
      c = e;
    }
  }
  if (cap) buf[o.len < cap ? o.len : cap - 1] = '\0';
}

void field_value(char letter, Thread* t, char* v, size_t cap) {
  const Team* team = t->team;
  switch (letter) {
    case 't': snprintf(v, cap, "%d", t->league_num); break;
    case 'T': snprintf(v, cap, "%d", t->league_size > 0 ? t->league_size : 1); break;
    case 'L': snprintf(v, cap, "%d", team ? team->level : 0); break;
    case 'n': snprintf(v, cap, "%d", team ? t->tid : 0); break;
    case 'N': snprintf(v, cap, "%d", team ? team->nthreads : 1); break;
    case 'a': snprintf(v, cap, "%d", team ? team->parent_tid : -1); break;
    case 'H':
      if (gethostname(v, cap) != 0) snprintf(v, cap, "unknown");
      v[cap - 1] = '\0';
      break;
    case 'P': snprintf(v, cap, "%d", int(getpid())); break;
    case 'i': snprintf(v, cap, "%ld", long(syscall(SYS_gettid))); break;
    case 'A': format_mask(v, cap); break;
    default: v[0] = '\0'; break;
  }
}

// Identifies what the format's fields would show for a thread, to display
// its line again only when something changed.
uint64_t affinity_signature(Thread* t) {
  const Team* team = t->team;
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](long x) { h = (h ^ uint64_t(x)) * 1099511628211ull; };
  mix(team ? team->level : 0);
  mix(team ? t->tid : 0);
  mix(team ? team->nthreads : 1);
  mix(team ? team->parent_tid : -1);
  mix(t->league_num);
  mix(t->league_size);
  mix(t->place);
  return h | 1;
}

__thread uint64_t t_shown_signature = 0;

}  // namespace

size_t affinity_format_expand(char* buf, size_t cap, const char* format, Thread* t) {
  Out o{buf, cap, 0};
  for (const char* p = format; *p;) {
    if (*p != '%') {
      o.put(*p++);
      continue;
    }
    if (p[1] == '%') {
      o.put('%');
      p += 2;
      continue;
    }
    const char* start = p;
    ++p;
    bool zero, right;
    int width;
    char letter = parse_field(&p, &zero, &right, &width);
    if (!letter) {
      // Unknown fields are shown as written.
      o.puts(start, size_t(p - start));
      continue;
    }
    char v[1024];
    field_value(letter, t, v, sizeof v);
    size_t n = strlen(v);
    size_t pad = size_t(width) > n ? size_t(width) - n : 0;
    if (right) {
      // Zero padding goes after a sign, as printf does.
      size_t i = 0;
      if (zero && v[0] == '-') o.put(v[i++]);
      for (size_t k = 0; k < pad; ++k) o.put(zero ? '0' : ' ');
      o.puts(v + i, n - i);
    } else {
      o.puts(v, n);
      for (size_t k = 0; k < pad; ++k) o.put(' ');
    }
  }
  if (cap) buf[o.len < cap ? o.len : cap - 1] = '\0';
  return o.len;
}

bool affinity_format_valid(const char* format, const char** why) {
  for (const char* p = format; *p;) {
    if (*p++ != '%') continue;
    if (*p == '%') {
      ++p;
      continue;
    }
    if (*p == '\0') {
      *why = "a lone '%' at the end";
      return false;
    }
    bool zero, right;
    int width;
    if (!parse_field(&p, &zero, &right, &width)) {
      *why = "unknown field";
      return false;
    }
  }
  return true;
}

void affinity_display(const char* format, Thread* t) {
  if (!format || !*format) format = g_icv.affinity_format;
  char small[512];
  size_t n = affinity_format_expand(small, sizeof small, format, t);
  char* line = small;
  if (n + 2 > sizeof small) {
    line = static_cast<char*>(xmalloc(n + 2));
    affinity_format_expand(line, n + 2, format, t);
  }
  line[n] = '\n';
  // One write per line keeps lines of concurrent threads whole.
  ssize_t w = write(2, line, n + 1);
  (void)w;
  if (line != small) xfree(line);
}

void affinity_display_if_changed(Thread* me) {
  uint64_t sig = affinity_signature(me);
  if (sig == t_shown_signature) return;
  t_shown_signature = sig;
  affinity_display(nullptr, me);
}

}  // namespace kite
