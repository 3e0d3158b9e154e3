// Small text helpers of the tools' converters (after the program).
#pragma once

#include <cinttypes>
#include <cstdio>
#include <string>

namespace kite_trace {

// s as the inside of a JSON string.
inline std::string json_escape(const std::string &s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += char(ch);
    } else if (ch < 0x20) {
      char b[8];
      snprintf(b, sizeof b, "\\u%04x", ch);
      out += b;
    } else {
      out += char(ch);
    }
  }
  return out;
}

inline std::string hex(uint64_t v) {
  char b[24];
  snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

}  // namespace kite_trace
