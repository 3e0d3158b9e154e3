// The runtime's side of OMPD, seen from inside the program: ompd_dll_locations
// names an existing libkite-ompd.so by absolute path, in the directory of the
// file the runtime really is; the breakpoint functions are distinct exported
// functions; the layout table starts with its magic; an invalid OMP_DEBUG gets
// one warning and means disabled.
// kite-test-threads: 2
// kite-test-env: OMP_DEBUG=bogus
// kite-test-expect-stderr: OMP_DEBUG='bogus' is invalid.*PASS
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kite_test.h"

extern const char** ompd_dll_locations;
extern const uint64_t kite_ompd_layout[];

int main(void) {
  KITE_TEST_BEGIN();
  int threads = 0;
#pragma omp parallel
#pragma omp atomic
  threads++;
  CHECK(threads == omp_get_max_threads());

  CHECK(ompd_dll_locations != NULL);
  if (ompd_dll_locations) {
    const char* path = ompd_dll_locations[0];
    CHECK(path != NULL && path[0] == '/');
    CHECK(ompd_dll_locations[1] == NULL);
    if (path) {
      size_t n = strlen(path);
      CHECK(n > 16 && strcmp(path + n - 16, "/libkite-ompd.so") == 0);
      CHECK(access(path, R_OK) == 0);
      // Next to the file the runtime is, whatever name it was loaded by.
      Dl_info info;
      char real[PATH_MAX];
      CHECK(dladdr((void*)&omp_get_thread_num, &info) && realpath(info.dli_fname, real));
      char* slash = strrchr(real, '/');
      if (slash) {
        slash[1] = '\0';
        CHECK(strncmp(path, real, strlen(real)) == 0 && strchr(path + strlen(real), '/') == NULL);
      }
    }
  }

  static const char* const names[] = {
      "ompd_dll_locations_valid", "ompd_bp_parallel_begin", "ompd_bp_parallel_end",
      "ompd_bp_task_begin", "ompd_bp_task_end", "ompd_bp_thread_begin",
      "ompd_bp_thread_end", "ompd_bp_device_begin", "ompd_bp_device_end"};
  void* fns[9];
  for (int i = 0; i < 9; ++i) {
    fns[i] = dlsym(RTLD_DEFAULT, names[i]);
    CHECK(fns[i] != NULL);
    for (int j = 0; j < i; ++j) CHECK(fns[i] != fns[j]);
  }
  CHECK(kite_ompd_layout[0] == 0x4b6974654f4d5044ull);
  CHECK(kite_ompd_layout[1] > 0);
  KITE_TEST_END();
}
