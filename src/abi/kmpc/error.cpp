// LLVM ABI: the error directive at execution time (__kmpc_error). Severity
// 1 (warning) prints the message and continues; 2 (fatal) prints it and
// ends the program with exit status 1, as GOMP_error does for gcc's
// programs (abi/gomp/error.cpp). A null message: the directive has no
// message clause. Tools hear of the directive first (error callback).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/kmpc/kmpc.h"
#include "ompt/events_mutex.h"

using namespace kite;

namespace {

constexpr int kSeverityWarning = 1;
constexpr int kSeverityFatal = 2;

// "file:line" from clang's ";file;function;line;column;;" source string,
// when the program was built with it.
bool source_position(const ident_t* loc, const char** file, int* file_len, int* line) {
  if (!loc || !loc->psource || loc->psource[0] != ';') return false;
  const char* f = loc->psource + 1;
  const char* f_end = strchr(f, ';');
  if (!f_end) return false;
  const char* fn_end = strchr(f_end + 1, ';');
  if (!fn_end) return false;
  *file = f;
  *file_len = static_cast<int>(f_end - f);
  *line = atoi(fn_end + 1);
  return *file_len > 0 && *line > 0;
}

void print_directive_message(const char* prefix, const ident_t* loc, const char* msg) {
  const char* file;
  int file_len, line;
  flockfile(stderr);
  fputs(prefix, stderr);
  fputs("error directive encountered", stderr);
  if (source_position(loc, &file, &file_len, &line))
    fprintf(stderr, " at %.*s:%d", file_len, file, line);
  if (msg) {
    fputs(": ", stderr);
    fputs(msg, stderr);
  }
  fputc('\n', stderr);
  funlockfile(stderr);
}

}  // namespace

extern "C" {

KITE_EXPORT void __kmpc_error(ident_t* loc, int severity, const char* message) {
  const void* ra = KITE_RETURN_ADDRESS();
  if (severity != kSeverityWarning && severity != kSeverityFatal) {
    warn("__kmpc_error: unknown severity %d; treated as fatal", severity);
    severity = kSeverityFatal;
  }
  // The thread record first: it activates a tool when the directive is the
  // program's first OpenMP call.
  self();
  ompt::on_error(severity == kSeverityFatal ? ompt_fatal : ompt_warning, message ? message : "",
                 message ? strlen(message) : 0, ra);
  if (severity == kSeverityWarning) {
    print_directive_message("kite: warning: ", loc, message);
    return;
  }
  fflush(stdout);
  print_directive_message("kite: fatal error: ", loc, message);
  exit(EXIT_FAILURE);
}

}  // extern "C"
