// OpenMP 6.0's num_threads clause forms in the LLVM ABI (libomp 19):
// a list (one value per nesting level, from the region the clause is on
// down), and the strict modifier (the region must get exactly that many
// threads, else an error of the given severity with the given message).
// Also __kmpc_fork_call_if, the fork with an if-clause value that libomp 19
// offers to compilers outlining with a single argument block.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/kmpc/kmpc.h"
#include "ompt/events_mutex.h"

using namespace kite;
using namespace kite::kmpc;

namespace {

constexpr int kSeverityWarning = 1;
constexpr int kSeverityFatal = 2;

// Pushed for the next fork of this thread.
__thread NestedThreads t_list_pending = {{}, 0};
// The levels below the current implicit task, from an enclosing list.
__thread NestedThreads t_list_current = {{}, 0};

struct Strict {
  bool pending;
  int num_threads;
  int severity;
  const char* message;
};
__thread Strict t_strict = {false, 0, 0, nullptr};

int checked_severity(int severity, const char* entry) {
  if (severity == kSeverityWarning || severity == kSeverityFatal) return severity;
  warn("%s: unknown severity %d; treated as fatal", entry, severity);
  return kSeverityFatal;
}

// Values of a list must be positive: a bad one ends the list there.
int push_list(const char* entry, kmp_uint32 length, const kmp_int32* list) {
  if (length == 0 || !list) {
    warn("%s: empty list; using the default number of threads", entry);
    return 0;
  }
  if (list[0] <= 0) {
    warn("%s: num_threads(%d) is not positive; using the default number of threads", entry,
         list[0]);
    return 0;
  }
  push_num_threads_value(list[0]);
  int n = 0;
  for (kmp_uint32 i = 1; i < length; ++i) {
    if (list[i] <= 0) {
      warn("%s: list element %u (%d) is not positive; the levels from there on use "
           "nthreads-var",
           entry, i, list[i]);
      break;
    }
    if (n == kMaxIcvList) {
      warn("%s: more than %d nested levels; the levels past them use nthreads-var", entry,
           kMaxIcvList + 1);
      break;
    }
    t_list_pending.v[n++] = list[i];
  }
  t_list_pending.n = n;
  return list[0];
}

void push_strict(const char* entry, int num_threads, int severity, const char* message) {
  if (num_threads <= 0) return;  // push_list / the push warned already
  t_strict.pending = true;
  t_strict.num_threads = num_threads;
  t_strict.severity = checked_severity(severity, entry);
  t_strict.message = message;
}

}  // namespace

namespace kite::kmpc {

bool nested_for_fork(NestedThreads* out) {
  if (KITE_LIKELY(t_list_pending.n == 0 && t_list_current.n == 0)) return false;
  *out = t_list_pending.n > 0 ? t_list_pending : t_list_current;
  t_list_pending.n = 0;
  return true;
}

NestedThreads nested_enter(Thread* me, const NestedThreads& list) {
  NestedThreads saved = t_list_current;
  me->task->icv.nthreads = list.v[0];
  t_list_current.n = list.n - 1;
  for (int i = 1; i < list.n; ++i) t_list_current.v[i - 1] = list.v[i];
  return saved;
}

void nested_leave(const NestedThreads& saved) { t_list_current = saved; }

bool strict_pending() { return t_strict.pending; }

// The check uses the count the fork computes from the ICVs and the
// threads busy now; a nested region started at the same moment by another
// thread of the contention group can still take threads in between.
// if(false) asks for one thread: nothing to check.
void strict_check(const ForkSpec& spec) {
  Strict s = t_strict;
  t_strict.pending = false;
  if (!spec.if_clause) return;
  Thread* me = self();
  int avail = threads_for_region(spec, me);
  if (avail == s.num_threads) return;
  char text[160];
  snprintf(text, sizeof text, "num_threads(strict: %d) cannot be honoured: %d thread%s available",
           s.num_threads, avail, avail == 1 ? "" : "s");
  const char* msg = s.message ? s.message : text;
  ompt::on_error(s.severity == kSeverityFatal ? ompt_fatal : ompt_warning, msg, strlen(msg),
                 spec.codeptr_ra);
  flockfile(stderr);
  fprintf(stderr, "kite: %s: %s", s.severity == kSeverityFatal ? "fatal error" : "warning", text);
  if (s.message) fprintf(stderr, ": %s", s.message);
  fputc('\n', stderr);
  funlockfile(stderr);
  if (s.severity == kSeverityFatal) {
    fflush(stdout);
    exit(EXIT_FAILURE);
  }
}

}  // namespace kite::kmpc

extern "C" {

KITE_EXPORT void __kmpc_push_num_threads_strict(ident_t*, kmp_int32, kmp_int32 num_threads,
                                                int severity, const char* message) {
  if (num_threads <= 0) {
    warn("num_threads(strict: %d) is not positive; using the default number of threads",
         num_threads);
    return;
  }
  push_num_threads_value(num_threads);
  push_strict("__kmpc_push_num_threads_strict", num_threads, severity, message);
}

KITE_EXPORT void __kmpc_push_num_threads_list(ident_t*, kmp_int32, kmp_uint32 length,
                                              kmp_int32* list) {
  push_list("__kmpc_push_num_threads_list", length, list);
}

// strict applies to the region the clause is on (the list's first value).
KITE_EXPORT void __kmpc_push_num_threads_list_strict(ident_t*, kmp_int32, kmp_uint32 length,
                                                     kmp_int32* list, int severity,
                                                     const char* message) {
  int n = push_list("__kmpc_push_num_threads_list_strict", length, list);
  push_strict("__kmpc_push_num_threads_list_strict", n, severity, message);
}

// The outlined function gets one shared argument, `args` (the compiler's
// block of shared variables), or none when args is null; cond false runs
// it on a team of one. argc is what libomp would pass on: 1 with args.
KITE_EXPORT void __kmpc_fork_call_if(ident_t*, kmp_int32 argc, kmpc_micro microtask,
                                     kmp_int32 cond, void* args) {
  if (args ? argc != 1 : argc != 0)
    warn("__kmpc_fork_call_if: argc %d with %s argument block; passing %s", argc,
         args ? "an" : "no", args ? "the block as the one argument" : "no argument");
  void* argv[4] = {args, nullptr, nullptr, nullptr};
  fork_outlined(microtask, args ? 1 : 0, argv, cond != 0, KITE_RETURN_ADDRESS(),
                __builtin_dwarf_cfa());
}

}  // extern "C"
