// libkite-profile-guard.so: preloaded by `kite profile` (LD_PRELOAD) next to
// the sampling tool. The tool's SIGPROF handler unwinds the interrupted
// thread with libunwind, which looks up each new code address with
// dl_iterate_phdr, and so takes the dynamic loader's lock inside the
// handler. A thread interrupted while it held that lock itself (inside
// dl_iterate_phdr, dlopen, dlmopen or dlclose) then waited in its own
// handler for a lock it holds, forever: Open MPI's MPI_Init, which loads
// its components and walks the loaded objects, hung that way about once in
// 80 four-rank runs sampled at 1000 Hz. This library blocks SIGPROF for
// the duration of those four calls, so that no sample interrupts a thread
// holding the loader's lock; a sample due meanwhile is delivered when the
// call returns. Calls made inside the C library itself (its own dlopen of
// NSS or iconv modules) do not pass through here.
#include <dlfcn.h>
#include <link.h>
#include <signal.h>

namespace {

using IterateFn = int (*)(int (*)(dl_phdr_info *, size_t, void *), void *);
using OpenFn = void *(*)(const char *, int);
using MopenFn = void *(*)(Lmid_t, const char *, int);
using CloseFn = int (*)(void *);

IterateFn real_iterate;
OpenFn real_open;
MopenFn real_mopen;
CloseFn real_close;

// Looked up once, before any handler can run (dlsym takes the loader's
// lock itself, so never from a signal handler).
__attribute__((constructor)) void find_real() {
  real_iterate = reinterpret_cast<IterateFn>(dlsym(RTLD_NEXT, "dl_iterate_phdr"));
  real_open = reinterpret_cast<OpenFn>(dlsym(RTLD_NEXT, "dlopen"));
  real_mopen = reinterpret_cast<MopenFn>(dlsym(RTLD_NEXT, "dlmopen"));
  real_close = reinterpret_cast<CloseFn>(dlsym(RTLD_NEXT, "dlclose"));
}

// SIGPROF blocked on the calling thread for the scope's life.
class NoSamples {
 public:
  NoSamples() {
    sigset_t prof;
    sigemptyset(&prof);
    sigaddset(&prof, SIGPROF);
    pthread_sigmask(SIG_BLOCK, &prof, &saved_);
  }
  ~NoSamples() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }
  NoSamples(const NoSamples &) = delete;
  NoSamples &operator=(const NoSamples &) = delete;

 private:
  sigset_t saved_;
};

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int dl_iterate_phdr(
    int (*callback)(dl_phdr_info *, size_t, void *), void *data) {
  if (!real_iterate) find_real();
  NoSamples guard;
  return real_iterate(callback, data);
}

__attribute__((visibility("default"))) void *dlopen(const char *file, int mode) {
  if (!real_open) find_real();
  NoSamples guard;
  return real_open(file, mode);
}

__attribute__((visibility("default"))) void *dlmopen(Lmid_t ns, const char *file, int mode) {
  if (!real_mopen) find_real();
  NoSamples guard;
  return real_mopen(ns, file, mode);
}

__attribute__((visibility("default"))) int dlclose(void *handle) {
  if (!real_close) find_real();
  NoSamples guard;
  return real_close(handle);
}

}  // extern "C"
