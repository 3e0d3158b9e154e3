// Fortran entry points for the affinity-format routines (C side:
// affinity_api.cpp).
//
// A Fortran CHARACTER argument arrives as a pointer plus a hidden size_t
// length after the ordinary arguments; it is not NUL-terminated, and an
// output argument must be filled completely, blank-padded. The text is taken
// as given (trailing blanks included), as libgomp does, and a zero-length
// format means "use the affinity-format ICV", as a NULL format does in C.
#include <omp.h>

#include <cstring>

#include "api/fortran_args.h"

using namespace kite::fortran;

namespace {

// Scratch text of n+1 bytes: on the stack when short, else on the heap.
class Scratch {
 public:
  explicit Scratch(std::size_t n)
      : p_(n < sizeof small_ ? small_ : static_cast<char*>(kite::xmalloc(n + 1))) {
    p_[0] = '\0';
  }
  ~Scratch() {
    if (p_ != small_) kite::xfree(p_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  char* get() { return p_; }

 private:
  char small_[256];
  char* p_;
};

// A NUL-terminated copy of a Fortran string.
class CString : public Scratch {
 public:
  CString(const char* s, std::size_t n) : Scratch(n) {
    if (n) std::memcpy(get(), s, n);
    get()[n] = '\0';
  }
};

// Stores the C result `text` (full length `full`, of which at most `len`
// bytes were produced) into a Fortran CHARACTER(len) variable.
void store_blank_padded(char* dest, std::size_t len, const char* text, std::size_t full) {
  const std::size_t c = full < len ? full : len;
  std::memcpy(dest, text, c);
  std::memset(dest + c, ' ', len - c);
}

}  // namespace

extern "C" {

KITE_EXPORT void omp_set_affinity_format_(const char* format, std::size_t format_len) {
  CString f(format, format_len);
  omp_set_affinity_format(f.get());
}

KITE_EXPORT int32_t omp_get_affinity_format_(char* buffer, std::size_t buffer_len) {
  Scratch text(buffer_len);
  const std::size_t full = omp_get_affinity_format(text.get(), buffer_len + 1);
  store_blank_padded(buffer, buffer_len, text.get(), full);
  return length_to_int32(full);
}

KITE_EXPORT void omp_display_affinity_(const char* format, std::size_t format_len) {
  if (format_len == 0) {
    omp_display_affinity(nullptr);
    return;
  }
  CString f(format, format_len);
  omp_display_affinity(f.get());
}

KITE_EXPORT int32_t omp_capture_affinity_(char* buffer, const char* format,
                                          std::size_t buffer_len, std::size_t format_len) {
  CString f(format, format_len);
  Scratch text(buffer_len);
  const std::size_t full =
      omp_capture_affinity(text.get(), buffer_len + 1, format_len ? f.get() : nullptr);
  store_blank_padded(buffer, buffer_len, text.get(), full);
  return length_to_int32(full);
}

}  // extern "C"
