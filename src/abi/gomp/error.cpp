// libgomp ABI: the error directive at execution time (OpenMP 5.1).
//   GOMP_warning  severity(warning): print the message and continue.
//   GOMP_error    severity(fatal): print the message and end the program
//                 with exit status 1, as libgomp does.
// gcc passes msglen == (size_t)-1 for a NUL-terminated message (C, C++) and
// the exact length for Fortran strings, which carry no terminator; a null
// msg means the directive has no message clause.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/gomp/gomp.h"
#include "ompt/events_mutex.h"

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

// The error callback gets the message without a terminator's help: its
// length, and "" (length 0) for a directive with no message clause. Tools
// hear of the directive before its message is printed, and before a fatal
// one ends the program. The thread record is made first: it is what
// activates a tool when the directive is the program's first OpenMP call.
void report_to_tool(ompt_severity_t severity, const char* msg, size_t msglen, const void* ra) {
  kite::self();
  if (!msg) {
    msg = "";
    msglen = 0;
  } else if (msglen == static_cast<size_t>(-1)) {
    msglen = strlen(msg);
  }
  kite::ompt::on_error(severity, msg, msglen, ra);
}

}  // namespace

extern "C" {

KITE_EXPORT void GOMP_warning(const char* msg, size_t msglen) {
  report_to_tool(ompt_warning, msg, msglen, __builtin_return_address(0));
  print_directive_message("kite: warning: ", msg, msglen);
}

KITE_EXPORT void GOMP_error(const char* msg, size_t msglen) {
  report_to_tool(ompt_fatal, msg, msglen, __builtin_return_address(0));
  fflush(stdout);
  print_directive_message("kite: fatal error: ", msg, msglen);
  exit(EXIT_FAILURE);
}

}  // extern "C"
