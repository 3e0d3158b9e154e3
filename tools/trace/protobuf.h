// The protobuf wire format, as much of it as the Perfetto writer needs:
// varints, fixed64 and length-delimited fields appended to a byte string.
// A nested message is written into a Bytes of its own and appended whole,
// so its length is known when its tag is written.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace kite_trace {

class Bytes {
 public:
  void clear() { s_.clear(); }
  size_t size() const { return s_.size(); }
  const std::string &str() const { return s_; }

  void varint(uint64_t v) {
    char b[10];
    int n = 0;
    while (v >= 0x80) {
      b[n++] = char(uint8_t(v) | 0x80);
      v >>= 7;
    }
    b[n++] = char(v);
    s_.append(b, size_t(n));
  }
  // Wire types: 0 varint, 1 fixed64, 2 length-delimited.
  void tag(uint32_t field, unsigned wire) { varint((uint64_t(field) << 3) | wire); }
  void uint(uint32_t field, uint64_t v) {
    tag(field, 0);
    varint(v);
  }
  void sint64(uint32_t field, int64_t v) { uint(field, uint64_t(v)); }  // int64: two's complement
  void fixed64(uint32_t field, uint64_t v) {
    tag(field, 1);
    char b[8];
    memcpy(b, &v, 8);  // little-endian hosts only (x86-64, aarch64)
    s_.append(b, 8);
  }
  void bytes(uint32_t field, const char *p, size_t n) {
    tag(field, 2);
    varint(n);
    s_.append(p, n);
  }
  void string(uint32_t field, const std::string &v) { bytes(field, v.data(), v.size()); }
  void message(uint32_t field, const Bytes &m) { bytes(field, m.s_.data(), m.s_.size()); }

 private:
  std::string s_;
};

}  // namespace kite_trace
