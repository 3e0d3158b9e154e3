#include "env_parse.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

namespace kite {

namespace {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }
inline bool is_alpha(char c) { c = lower(c); return (c >= 'a' && c <= 'z') || c == '_'; }

}  // namespace

const char* env_skip_blanks(const char* s) {
  while (is_blank(*s)) ++s;
  return s;
}

bool env_blank(const char* s) { return *env_skip_blanks(s) == '\0'; }

bool env_word(const char* s, const char* word, const char** end) {
  s = env_skip_blanks(s);
  while (*word) {
    if (lower(*s) != lower(*word)) return false;
    ++s;
    ++word;
  }
  if (is_alpha(*s)) return false;
  if (end) *end = s;
  return true;
}

bool env_is(const char* s, const char* word) {
  const char* end;
  return env_word(s, word, &end) && env_blank(end);
}

bool env_parse_long_prefix(const char* s, long* out, const char** end) {
  s = env_skip_blanks(s);
  // strtol accepts its own leading blanks and a '+'; a sign is allowed here
  // so the caller can report "negative" rather than "garbage".
  if (!((*s >= '0' && *s <= '9') || *s == '-' || *s == '+')) return false;
  if ((*s == '-' || *s == '+') && !(s[1] >= '0' && s[1] <= '9')) return false;
  char* e;
  errno = 0;
  long v = strtol(s, &e, 10);
  if (errno == ERANGE) return false;
  *out = v;
  *end = e;
  return true;
}

bool env_parse_long(const char* s, long lo, long hi, long* out, const char** why) {
  long v;
  const char* end;
  if (env_blank(s)) {
    *why = "empty value";
    return false;
  }
  if (!env_parse_long_prefix(s, &v, &end)) {
    *why = "not an integer";
    return false;
  }
  if (!env_blank(end)) {
    *why = "unexpected characters after the number";
    return false;
  }
  if (v < lo || v > hi) {
    *why = "out of range";
    return false;
  }
  *out = v;
  return true;
}

bool env_parse_bool(const char* s, int* out, const char** why) {
  if (env_is(s, "true")) {
    *out = 1;
    return true;
  }
  if (env_is(s, "false")) {
    *out = 0;
    return true;
  }
  *why = "expected true or false";
  return false;
}

bool env_parse_size(const char* s, long* bytes, const char** why) {
  long v;
  const char* end;
  if (!env_parse_long_prefix(s, &v, &end) || v < 0) {
    *why = "expected a non-negative size like 4M";
    return false;
  }
  end = env_skip_blanks(end);
  long unit = 1024;
  switch (lower(*end)) {
    case 'b': unit = 1; ++end; break;
    case 'k': unit = 1L << 10; ++end; break;
    case 'm': unit = 1L << 20; ++end; break;
    case 'g': unit = 1L << 30; ++end; break;
    case '\0': break;
    default:
      *why = "unknown unit (use B, K, M or G)";
      return false;
  }
  if (!env_blank(end)) {
    *why = "unexpected characters after the size";
    return false;
  }
  if (v > LONG_MAX / unit) {
    *why = "too large";
    return false;
  }
  *bytes = v * unit;
  return true;
}

const char* env_get(const char* name) { return getenv(name); }

}  // namespace kite
