// The protobuf wire format, as much of it as the Perfetto writer needs:
// varints, fixed64 and length-delimited fields appended to a byte buffer.
// A nested message is written into a Bytes of its own and appended whole,
// so its length is known when its tag is written.
//
// The buffer is a plain malloc'd array whose capacity only grows: every
// append is inline and checks the room once (std::string's append, called
// once per varint, took a third of the converter's time).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

namespace kite_trace {

// Encoded sizes, for a message written straight into its parent.
inline size_t varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}
inline size_t uint_size(uint32_t field, uint64_t v) {
  return varint_size(uint64_t(field) << 3) + varint_size(v);
}
inline size_t bytes_size(uint32_t field, size_t n) {
  return varint_size(uint64_t(field) << 3) + varint_size(n) + n;
}

class Bytes {
 public:
  Bytes() = default;
  Bytes(const Bytes &) = delete;
  Bytes &operator=(const Bytes &) = delete;
  ~Bytes() { free(p_); }

  void clear() { n_ = 0; }
  size_t size() const { return n_; }
  const char *data() const { return p_; }

  void varint(uint64_t v) {
    room(10);
    put(v);
  }
  // Wire types: 0 varint, 1 fixed64, 2 length-delimited.
  void tag(uint32_t field, unsigned wire) { varint((uint64_t(field) << 3) | wire); }
  void uint(uint32_t field, uint64_t v) {
    room(20);
    put((uint64_t(field) << 3) | 0);
    put(v);
  }
  void sint64(uint32_t field, int64_t v) { uint(field, uint64_t(v)); }  // int64: two's complement
  void fixed64(uint32_t field, uint64_t v) {
    room(18);
    put((uint64_t(field) << 3) | 1);
    memcpy(p_ + n_, &v, 8);  // little-endian hosts only (x86-64, aarch64)
    n_ += 8;
  }
  void bytes(uint32_t field, const char *p, size_t n) {
    room(20 + n);
    put((uint64_t(field) << 3) | 2);
    put(n);
    if (n) memcpy(p_ + n_, p, n);
    n_ += n;
  }
  void string(uint32_t field, const std::string &v) { bytes(field, v.data(), v.size()); }
  void message(uint32_t field, const Bytes &m) { bytes(field, m.p_, m.n_); }

 private:
  // Appends a varint; room() made space for it.
  void put(uint64_t v) {
    char *q = p_ + n_;
    while (v >= 0x80) {
      *q++ = char(uint8_t(v) | 0x80);
      v >>= 7;
    }
    *q++ = char(v);
    n_ = size_t(q - p_);
  }
  void room(size_t k) {
    if (n_ + k > cap_) grow(n_ + k);
  }
  __attribute__((noinline)) void grow(size_t need) {
    size_t cap = cap_ ? cap_ : 256;
    while (cap < need) cap *= 2;
    char *p = static_cast<char *>(realloc(p_, cap));
    if (!p) throw std::bad_alloc();
    p_ = p;
    cap_ = cap;
  }

  char *p_ = nullptr;
  size_t n_ = 0, cap_ = 0;
};

}  // namespace kite_trace
