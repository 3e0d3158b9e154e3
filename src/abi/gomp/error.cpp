// libgomp ABI: the error directive at execution time (OpenMP 5.1).
//   GOMP_warning  severity(warning): print the message and continue.
//   GOMP_error    severity(fatal): print the message and end the program
//                 with exit status 1, as libgomp does.
// gcc passes msglen == (size_t)-1 for a NUL-terminated message (C, C++) and
// the exact length for Fortran strings, which carry no terminator; a null
// msg means the directive has no message clause.
#include <stdio.h>
#include <stdlib.h>

#include "abi/gomp/gomp.h"

namespace {

void print_directive_message(const char* prefix, const char* msg, size_t msglen) {
  flockfile(stderr);
  fputs(prefix, stderr);
  fputs("error directive encountered", stderr);
  if (msg) {
    fputs(": ", stderr);
    if (msglen == static_cast<size_t>(-1))
      fputs(msg, stderr);
    else
      fwrite(msg, 1, msglen, stderr);
  }
  fputc('\n', stderr);
  funlockfile(stderr);
}

}  // namespace

extern "C" {

KITE_EXPORT void GOMP_warning(const char* msg, size_t msglen) {
  print_directive_message("kite: warning: ", msg, msglen);
}

KITE_EXPORT void GOMP_error(const char* msg, size_t msglen) {
  fflush(stdout);
  print_directive_message("kite: fatal error: ", msg, msglen);
  exit(EXIT_FAILURE);
}

}  // extern "C"
