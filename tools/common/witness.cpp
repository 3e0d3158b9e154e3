// libkite-witness.so: the `kite` commands preload it (LD_PRELOAD) into the
// program they run, so that when their tool recorded nothing they can say
// why instead of guessing. At process start, and again at exit (a runtime
// or a tool may have been loaded since), it writes what the process had
// loaded into $KITE_WITNESS_DIR/pid<P>.witness:
//
//   exe=<path>
//   omp_tool=<OMP_TOOL as the process saw it>
//   omp_tool_libraries=<OMP_TOOL_LIBRARIES as the process saw it>
//   runtime=<path>\t<ompt|gnu>   each OpenMP runtime loaded
//   tool=<path>                  each object defining ompt_start_tool
//
// "Which tool did the runtime start" is answered from facts every runtime
// shares, not from one runtime's log: a runtime calls the first
// ompt_start_tool of the process's objects (the program, the preloaded and
// linked libraries) and then those of the OMP_TOOL_LIBRARIES it opened, so
// the objects that define one, in load order, are the candidates; the
// runtimes' own (libomp's weak fallback) are left out. A runtime that
// exports the GNU entry points (GOMP_parallel) but not the LLVM ones
// (__kmpc_fork_call) is GNU libgomp, which has no OMPT.
//
// It defines no symbol of its own and does nothing between start and exit:
// the program runs as it would without it. A process that ends by a signal,
// _exit or exec leaves what it had at its start (an exec'd program writes
// its own).
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace {

// Whether address p lies in one of the object's loaded segments.
bool inside(const dl_phdr_info *info, const void *p) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    if (a >= lo && a < lo + ph.p_memsz) return true;
  }
  return false;
}

// Whether the object itself (not one of its dependencies) defines name.
bool defines(void *handle, const dl_phdr_info *info, const char *name) {
  void *sym = dlsym(handle, name);
  return sym && inside(info, sym);
}

bool printable(const char *s) { return !strchr(s, '\n') && !strchr(s, '\t'); }

struct Scan {
  FILE *out;
  char exe[4096];
};

int visit(dl_phdr_info *info, size_t, void *data) {
  Scan *scan = static_cast<Scan *>(data);
  const bool main_program = !info->dlpi_name || !info->dlpi_name[0];
  const char *path = main_program ? scan->exe : info->dlpi_name;
  if (!main_program && strncmp(path, "linux-vdso", 10) == 0) return 0;
  void *h = dlopen(main_program ? nullptr : path, RTLD_LAZY | RTLD_NOLOAD);
  if (!h) return 0;
  if (printable(path)) {
    bool runtime = defines(h, info, "omp_get_num_threads");
    if (runtime) {
      bool gnu = defines(h, info, "GOMP_parallel") && !defines(h, info, "__kmpc_fork_call");
      fprintf(scan->out, "runtime=%s\t%s\n", path, gnu ? "gnu" : "ompt");
    } else if (defines(h, info, "ompt_start_tool")) {
      fprintf(scan->out, "tool=%s\n", path);
    }
  }
  dlclose(h);
  return 0;
}

void write_witness() {
  const char *dir = getenv("KITE_WITNESS_DIR");
  if (!dir || !*dir) return;
  char path[4200], tmp[4300];
  // Under an MPI launcher, rank<R>.pid<P>.witness: each rank's kite reads
  // and removes its own (the variables recorder.cpp names its files by).
  const char *rank = nullptr;
  static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                         "MV2_COMM_WORLD_RANK", "SLURM_PROCID", "KITE_TRACE_RANK"};
  for (const char *v : rank_vars) {
    const char *value = getenv(v);
    if (value && *value && strlen(value) < 16 && strspn(value, "0123456789") == strlen(value)) {
      rank = value;
      break;
    }
  }
  if (rank)
    snprintf(path, sizeof path, "%s/rank%s.pid%d.witness", dir, rank, int(getpid()));
  else
    snprintf(path, sizeof path, "%s/pid%d.witness", dir, int(getpid()));
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  Scan scan;
  ssize_t n = readlink("/proc/self/exe", scan.exe, sizeof scan.exe - 1);
  scan.exe[n > 0 ? n : 0] = 0;
  scan.out = fopen(tmp, "we");
  if (!scan.out) return;  // the directory is gone: nobody will ask
  const char *tool = getenv("OMP_TOOL"), *libs = getenv("OMP_TOOL_LIBRARIES");
  fprintf(scan.out, "exe=%s\nomp_tool=%s\nomp_tool_libraries=%s\n",
          printable(scan.exe) ? scan.exe : "?", tool && printable(tool) ? tool : "",
          libs && printable(libs) ? libs : "");
  dl_iterate_phdr(visit, &scan);
  // Whole or absent: the reader never sees half a file.
  if (fclose(scan.out) == 0) rename(tmp, path);
  else unlink(tmp);
}

__attribute__((constructor)) void at_start() { write_witness(); }
__attribute__((destructor)) void at_exit() { write_witness(); }

}  // namespace
