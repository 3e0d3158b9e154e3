// The OMPD library alone, over a core file: this program is the debugger.
// It implements the callbacks of OpenMP 5.2 §20.4 on an ELF core written by
// gdb's generate-core-file: memory from the core's PT_LOAD segments, and
// for what the core leaves out (read-only file mappings), from the runtime
// library's file at the address the core shows its ELF header at; symbols
// from that file's dynamic symbol table; thread ids from the NT_PRSTATUS
// notes. It calls every ompd_* routine of libkite-ompd.so, compares the
// answers with the facts scene.c recorded, and passes NULL arguments and
// bad handles everywhere: each must give an error code, never a crash (a
// null or unknown handle: ompd_rc_stale_handle; a handle of the wrong
// kind or another bad argument: ompd_rc_bad_input).
//
// usage: ompd_harness libkite-ompd.so scene.core facts.txt libkite.so [--no-debug]
// --no-debug: the core is of a run without OMP_DEBUG: thread queries must
// answer ompd_rc_needs_state_tracking, the rest work.
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <omp-tools.h>

static int failures;
#define CHECK(cond)                                                        \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "harness:%d: CHECK failed: %s\n", __LINE__, #cond); \
      failures++;                                                          \
    }                                                                      \
  } while (0)
#define RC(call, want)                                                              \
  do {                                                                              \
    ompd_rc_t rc_ = (call);                                                         \
    if (rc_ != (want)) {                                                            \
      fprintf(stderr, "harness:%d: %s returned %d, expected %d\n", __LINE__, #call, \
              (int)rc_, (int)(want));                                               \
      failures++;                                                                   \
    }                                                                               \
  } while (0)

// --- the core file ---------------------------------------------------------------
static unsigned char* core;
static size_t core_size;
static Elf64_Ehdr* eh;
static unsigned char* runtime;  // libkite.so's file
static size_t runtime_size;
static uint64_t runtime_base;   // where the core has it loaded
static long lwps[64];
static int nlwps;

static void* map_file(const char* path, size_t* size) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return NULL;
  struct stat st;
  fstat(fd, &st);
  void* p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  *size = st.st_size;
  return p == MAP_FAILED ? NULL : p;
}

static void read_notes(void) {
  Elf64_Phdr* ph = (Elf64_Phdr*)(core + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; ++i) {
    if (ph[i].p_type != PT_NOTE) continue;
    unsigned char* p = core + ph[i].p_offset;
    unsigned char* end = p + ph[i].p_filesz;
    while (p + sizeof(Elf64_Nhdr) <= end) {
      Elf64_Nhdr* n = (Elf64_Nhdr*)p;
      unsigned char* desc = p + sizeof *n + ((n->n_namesz + 3) & ~3u);
      if (n->n_type == NT_PRSTATUS && nlwps < 64) {
        lwps[nlwps++] = *(int32_t*)(desc + 32);  // elf_prstatus.pr_pid
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
}

// The segment of the core that starts with the runtime's first page.
static void find_runtime(void) {
  Elf64_Phdr* ph = (Elf64_Phdr*)(core + eh->e_phoff);
  size_t page = runtime_size < 4096 ? runtime_size : 4096;
  for (int i = 0; i < eh->e_phnum; ++i)
    if (ph[i].p_type == PT_LOAD && ph[i].p_filesz >= page &&
        memcmp(core + ph[i].p_offset, runtime, page) == 0)
      runtime_base = ph[i].p_vaddr;
}

static int read_piece(uint64_t addr, uint64_t n, void* out);

// A read may span segments (adjacent mappings): piece by piece.
static int core_read(uint64_t addr, uint64_t n, void* out) {
  while (n) {
    uint64_t piece = 4096 - (addr & 4095);
    if (piece > n) piece = n;
    if (read_piece(addr, piece, out) != 0) return -1;
    addr += piece;
    out = (char*)out + piece;
    n -= piece;
  }
  return 0;
}

static int read_piece(uint64_t addr, uint64_t n, void* out) {
  Elf64_Phdr* ph = (Elf64_Phdr*)(core + eh->e_phoff);
  for (int i = 0; i < eh->e_phnum; ++i) {
    if (ph[i].p_type != PT_LOAD) continue;
    if (addr >= ph[i].p_vaddr && addr + n <= ph[i].p_vaddr + ph[i].p_filesz) {
      memcpy(out, core + ph[i].p_offset + (addr - ph[i].p_vaddr), n);
      return 0;
    }
  }
  // Not in the core: a read-only page of the runtime, as its file has it.
  if (!runtime_base || addr < runtime_base) return -1;
  Elf64_Ehdr* h = (Elf64_Ehdr*)runtime;
  Elf64_Phdr* rp = (Elf64_Phdr*)(runtime + h->e_phoff);
  uint64_t rel = addr - runtime_base;
  for (int i = 0; i < h->e_phnum; ++i) {
    if (rp[i].p_type != PT_LOAD || (rp[i].p_flags & PF_W)) continue;
    if (rel >= rp[i].p_vaddr && rel + n <= rp[i].p_vaddr + rp[i].p_filesz) {
      memcpy(out, runtime + rp[i].p_offset + (rel - rp[i].p_vaddr), n);
      return 0;
    }
  }
  return -1;
}

// The address of a symbol of the runtime: its load address plus the
// symbol's value in the file's .dynsym.
static uint64_t runtime_symbol(const char* sym) {
  if (!runtime_base) return 0;
  Elf64_Ehdr* h = (Elf64_Ehdr*)runtime;
  Elf64_Shdr* sh = (Elf64_Shdr*)(runtime + h->e_shoff);
  for (int s = 0; s < h->e_shnum; ++s) {
    if (sh[s].sh_type != SHT_DYNSYM) continue;
    Elf64_Sym* syms = (Elf64_Sym*)(runtime + sh[s].sh_offset);
    const char* strs = (const char*)(runtime + sh[sh[s].sh_link].sh_offset);
    for (uint64_t k = 0; k < sh[s].sh_size / sizeof(Elf64_Sym); ++k)
      if (syms[k].st_value && strcmp(strs + syms[k].st_name, sym) == 0)
        return runtime_base + syms[k].st_value;
  }
  return 0;
}

// --- the callbacks ---------------------------------------------------------------
// Faults the tests inject: a symbol the debugger cannot find, a word of the
// target that reads differently (as from another build of the runtime).
static int hide_symbols;
static uint64_t corrupt_at;
struct _ompd_aspace_cont { int id; };
static struct _ompd_aspace_cont context = {1};

static ompd_rc_t cb_alloc(ompd_size_t n, void** p) {
  if (!p) return ompd_rc_bad_input;
  *p = malloc(n ? n : 1);
  return *p ? ompd_rc_ok : ompd_rc_nomem;
}
static ompd_rc_t cb_free(void* p) { free(p); return ompd_rc_ok; }
static ompd_rc_t cb_print(const char* s, int category) { printf("ompd says: %s\n", s); return ompd_rc_ok; }
static ompd_rc_t cb_sizes(ompd_address_space_context_t* c, ompd_device_type_sizes_t* s) {
  ompd_device_type_sizes_t v = {1, 2, 4, 8, 8, 8};
  *s = v;
  return ompd_rc_ok;
}
static ompd_rc_t cb_symbol(ompd_address_space_context_t* c, ompd_thread_context_t* t, const char* name,
                           ompd_address_t* addr, const char* file) {
  uint64_t a = hide_symbols ? 0 : runtime_symbol(name);
  if (!a) return ompd_rc_error;
  addr->segment = OMPD_SEGMENT_UNSPECIFIED;
  addr->address = a;
  return ompd_rc_ok;
}
static ompd_rc_t cb_read(ompd_address_space_context_t* c, ompd_thread_context_t* t,
                         const ompd_address_t* a, ompd_size_t n, void* buf) {
  if (core_read(a->address, n, buf) != 0) return ompd_rc_error;
  if (corrupt_at && corrupt_at >= a->address && corrupt_at < a->address + n)
    ((unsigned char*)buf)[corrupt_at - a->address] ^= 0x5a;
  return ompd_rc_ok;
}
static ompd_rc_t cb_read_string(ompd_address_space_context_t* c, ompd_thread_context_t* t,
                                const ompd_address_t* a, ompd_size_t n, void* buf) {
  char* out = buf;
  for (ompd_size_t i = 0; i < n; ++i) {
    if (core_read(a->address + i, 1, out + i) != 0) return ompd_rc_error;
    if (!out[i]) return ompd_rc_ok;
  }
  return ompd_rc_incomplete;
}
static ompd_rc_t cb_write(ompd_address_space_context_t* c, ompd_thread_context_t* t,
                          const ompd_address_t* a, ompd_size_t n, const void* buf) {
  return ompd_rc_unsupported;  // a core file is read-only
}
static ompd_rc_t cb_convert(ompd_address_space_context_t* c, const void* in, ompd_size_t unit,
                            ompd_size_t count, void* out) {
  memmove(out, in, unit * count);
  return ompd_rc_ok;
}
static ompd_rc_t cb_thread_context(ompd_address_space_context_t* c, ompd_thread_id_t kind,
                                   ompd_size_t size, const void* id, ompd_thread_context_t** out) {
  return ompd_rc_unsupported;
}
static const ompd_callbacks_t callbacks = {cb_alloc, cb_free, cb_print, cb_sizes, cb_symbol,
                                           cb_read, cb_write, cb_read_string, cb_convert,
                                           cb_convert, cb_thread_context};

// --- the library's routines ------------------------------------------------------
#define ROUTINES(X)                                                                               \
  X(ompd_initialize) X(ompd_get_api_version) X(ompd_get_version_string) X(ompd_finalize)         \
  X(ompd_process_initialize) X(ompd_device_initialize) X(ompd_rel_address_space_handle)          \
  X(ompd_get_omp_version) X(ompd_get_omp_version_string) X(ompd_get_thread_in_parallel)          \
  X(ompd_get_thread_handle) X(ompd_rel_thread_handle) X(ompd_thread_handle_compare)              \
  X(ompd_get_thread_id) X(ompd_get_curr_parallel_handle) X(ompd_get_enclosing_parallel_handle)   \
  X(ompd_get_task_parallel_handle) X(ompd_rel_parallel_handle) X(ompd_parallel_handle_compare)   \
  X(ompd_get_curr_task_handle) X(ompd_get_generating_task_handle)                                \
  X(ompd_get_scheduling_task_handle) X(ompd_get_task_in_parallel) X(ompd_rel_task_handle)        \
  X(ompd_task_handle_compare) X(ompd_get_task_function) X(ompd_get_task_frame)                   \
  X(ompd_enumerate_states) X(ompd_get_state) X(ompd_get_display_control_vars)                    \
  X(ompd_rel_display_control_vars) X(ompd_enumerate_icvs) X(ompd_get_icv_from_scope)             \
  X(ompd_get_icv_string_from_scope) X(ompd_get_tool_data)
#define DECLARE(name) static __typeof__(name)* p_##name;
ROUTINES(DECLARE)

static long fact(const char* path, const char* key, int nth) {
  FILE* f = fopen(path, "r");
  char line[256], k[64];
  long v;
  int seen = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "%63s %ld", k, &v) == 2 && strcmp(k, key) == 0 && seen++ == nth) {
      fclose(f);
      return v;
    }
  if (f) fclose(f);
  return -1;
}

// A fact's whole value as text ("" when the line has none).
static int fact_text(const char* path, const char* key, char* out, size_t cap) {
  FILE* f = fopen(path, "r");
  char line[4200];
  size_t klen = strlen(key);
  int found = 0;
  while (f && !found && fgets(line, sizeof line, f)) {
    if (strncmp(line, key, klen) != 0 || (line[klen] != ' ' && line[klen] != '\n')) continue;
    const char* v = line[klen] == ' ' ? line + klen + 1 : line + klen;
    size_t n = strcspn(v, "\n");
    if (n >= cap) n = cap - 1;
    memcpy(out, v, n);
    out[n] = '\0';
    found = 1;
  }
  if (f) fclose(f);
  return found;
}

// Every ICV of OpenMP 5.2 (§2.1, §2.2) and the scope Kite answers it from.
static const struct {
  const char* name;
  ompd_scope_t scope;
} spec_icvs[] = {
    {"active-levels-var", ompd_scope_parallel},       {"affinity-format-var", ompd_scope_address_space},
    {"bind-var", ompd_scope_task},                    {"cancel-var", ompd_scope_address_space},
    {"debug-var", ompd_scope_address_space},          {"def-allocator-var", ompd_scope_task},
    {"default-device-var", ompd_scope_task},          {"display-affinity-var", ompd_scope_address_space},
    {"dyn-var", ompd_scope_task},                     {"explicit-task-var", ompd_scope_task},
    {"final-task-var", ompd_scope_task},              {"levels-var", ompd_scope_parallel},
    {"max-active-levels-var", ompd_scope_task},       {"max-task-priority-var", ompd_scope_address_space},
    {"nteams-var", ompd_scope_address_space},         {"nthreads-var", ompd_scope_task},
    {"num-procs-var", ompd_scope_address_space},      {"place-partition-var", ompd_scope_thread},
    {"run-sched-var", ompd_scope_task},               {"stacksize-var", ompd_scope_address_space},
    {"target-offload-var", ompd_scope_address_space}, {"team-size-var", ompd_scope_parallel},
    {"teams-thread-limit-var", ompd_scope_address_space}, {"thread-limit-var", ompd_scope_task},
    {"thread-num-var", ompd_scope_thread},            {"tool-libraries-var", ompd_scope_address_space},
    {"tool-var", ompd_scope_address_space},           {"tool-verbose-init-var", ompd_scope_address_space},
    {"wait-policy-var", ompd_scope_address_space},
};

static ompd_icv_id_t icv_id(ompd_address_space_handle_t* as, const char* want, ompd_scope_t* scope) {
  ompd_icv_id_t cur = ompd_icv_undefined, next;
  const char* name;
  int more = 1;
  while (more && p_ompd_enumerate_icvs(as, cur, &next, &name, scope, &more) == ompd_rc_ok) {
    if (strcmp(name, want) == 0) return next;
    cur = next;
  }
  return 0;
}

static int no_debug(long main_lwp) {
  ompd_word_t v;
  RC(p_ompd_get_api_version(&v), ompd_rc_ok);
  RC(p_ompd_initialize(v, &callbacks), ompd_rc_ok);
  ompd_address_space_handle_t* as = NULL;
  RC(p_ompd_process_initialize(&context, &as), ompd_rc_ok);
  if (!as) return 1;
  uint64_t id = (uint64_t)main_lwp;
  ompd_thread_handle_t* th = NULL;
  RC(p_ompd_get_thread_handle(as, ompd_thread_id_lwp, 8, &id, &th), ompd_rc_needs_state_tracking);
  ompd_scope_t scope;
  ompd_icv_id_t debug = icv_id(as, "debug-var", &scope);
  RC(p_ompd_get_icv_from_scope(as, ompd_scope_address_space, debug, &v), ompd_rc_ok);
  CHECK(v == 0);
  RC(p_ompd_rel_address_space_handle(as), ompd_rc_ok);
  RC(p_ompd_finalize(), ompd_rc_ok);
  printf("harness (no OMP_DEBUG): %d failure(s)\n", failures);
  return failures ? 1 : 0;
}

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) return 2;
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 1; }
#define RESOLVE(name)                                           \
  p_##name = (__typeof__(name)*)dlsym(lib, #name);              \
  if (!p_##name) { fprintf(stderr, "missing %s\n", #name); return 1; }
  ROUTINES(RESOLVE)
  core = map_file(argv[2], &core_size);
  if (!core) { perror(argv[2]); return 1; }
  eh = (Elf64_Ehdr*)core;
  read_notes();
  runtime = map_file(argv[4], &runtime_size);
  if (!runtime) { perror(argv[4]); return 1; }
  find_runtime();
  if (!runtime_base) { fprintf(stderr, "the core does not hold %s\n", argv[4]); return 1; }
  const char* facts = argv[3];
  long main_lwp = fact(facts, "main_lwp", 0), native_lwp = fact(facts, "native_lwp", 0);
  long locked_lwp = fact(facts, "locked_lwp", 0), lock_addr = fact(facts, "lock_addr", 0);
  CHECK(nlwps >= 6);
  if (argc == 6) return no_debug(main_lwp);

  // Initialization, versions.
  ompd_word_t v;
  const char* s;
  RC(p_ompd_get_api_version(NULL), ompd_rc_bad_input);
  RC(p_ompd_get_api_version(&v), ompd_rc_ok);
  RC(p_ompd_get_version_string(NULL), ompd_rc_bad_input);
  RC(p_ompd_get_version_string(&s), ompd_rc_ok);
  RC(p_ompd_finalize(), ompd_rc_unsupported);  // not initialized yet
  RC(p_ompd_initialize(v, NULL), ompd_rc_bad_input);
  RC(p_ompd_initialize(1, &callbacks), ompd_rc_unsupported);
  RC(p_ompd_initialize(v, &callbacks), ompd_rc_ok);
  ompd_address_space_handle_t* as = NULL;
  // Not a Kite (no layout symbols), or a Kite whose layout table was built
  // from another list of entries: incompatible.
  hide_symbols = 1;
  RC(p_ompd_process_initialize(&context, &as), ompd_rc_incompatible);
  hide_symbols = 0;
  corrupt_at = runtime_symbol("kite_ompd_layout") + 16;
  RC(p_ompd_process_initialize(&context, &as), ompd_rc_incompatible);
  corrupt_at = runtime_symbol("kite_ompd_layout") + 8;
  RC(p_ompd_process_initialize(&context, &as), ompd_rc_incompatible);
  corrupt_at = 0;
  RC(p_ompd_process_initialize(NULL, &as), ompd_rc_bad_input);
  RC(p_ompd_process_initialize(&context, NULL), ompd_rc_bad_input);
  RC(p_ompd_process_initialize(&context, &as), ompd_rc_ok);
  if (!as) return 1;
  RC(p_ompd_get_omp_version(as, &v), ompd_rc_ok);
  CHECK(v == 202111);
  RC(p_ompd_get_omp_version(as, NULL), ompd_rc_bad_input);
  RC(p_ompd_get_omp_version_string(as, &s), ompd_rc_ok);
  CHECK(strstr(s, "Kite") != NULL);
  free((void*)s);
  uint64_t dev_id = 1;
  ompd_address_space_handle_t* dev;
  RC(p_ompd_device_initialize(as, &context, ompd_device_kind_host, 8, &dev_id, &dev), ompd_rc_unsupported);
  RC(p_ompd_device_initialize(NULL, &context, ompd_device_kind_host, 8, &dev_id, &dev), ompd_rc_stale_handle);

  // Threads: every LWP of the core.
  ompd_thread_handle_t* main_th = NULL;
  int openmp_threads = 0;
  for (int i = 0; i < nlwps; ++i) {
    uint64_t id = (uint64_t)lwps[i];
    ompd_thread_handle_t* th = NULL;
    ompd_rc_t rc = p_ompd_get_thread_handle(as, ompd_thread_id_lwp, 8, &id, &th);
    if (lwps[i] == native_lwp) { CHECK(rc == ompd_rc_unavailable); continue; }
    CHECK(rc == ompd_rc_ok);
    if (rc != ompd_rc_ok) continue;
    openmp_threads++;
    uint64_t back = 0, pt = 0;
    RC(p_ompd_get_thread_id(th, ompd_thread_id_lwp, 8, &back), ompd_rc_ok);
    CHECK(back == id);
    RC(p_ompd_get_thread_id(th, ompd_thread_id_pthread, 8, &pt), ompd_rc_ok);
    ompd_thread_handle_t* th2 = NULL;
    RC(p_ompd_get_thread_handle(as, ompd_thread_id_pthread, 8, &pt, &th2), ompd_rc_ok);
    int cmp = 9;
    RC(p_ompd_thread_handle_compare(th, th2, &cmp), ompd_rc_ok);
    CHECK(cmp == 0);
    RC(p_ompd_rel_thread_handle(th2), ompd_rc_ok);
    ompd_word_t st;
    ompd_wait_id_t wait;
    RC(p_ompd_get_state(th, &st, &wait), ompd_rc_ok);
    if (lwps[i] == locked_lwp) CHECK(st == ompt_state_wait_lock && (long)wait == lock_addr);
    if (lwps[i] == main_lwp) CHECK(st == ompt_state_work_parallel);
    if (lwps[i] == fact(facts, "serial_lwp", 0)) CHECK(st == ompt_state_work_serial);
    if (lwps[i] == fact(facts, "critical_lwp", 0)) CHECK(st == ompt_state_wait_critical && wait != 0);
    if (lwps[i] == fact(facts, "taskwait_lwp", 0)) CHECK(st == ompt_state_wait_taskwait);
    for (int b = 0; b < 2; ++b)
      if (lwps[i] == fact(facts, "barrier_lwp", b)) CHECK(st == ompt_state_wait_barrier_explicit && wait != 0);
    ompd_word_t value;
    ompd_address_t ptr;
    RC(p_ompd_get_tool_data(th, ompd_scope_thread, &value, &ptr), ompd_rc_ok);
    CHECK(value == 0);
    if (lwps[i] == main_lwp) main_th = th; else RC(p_ompd_rel_thread_handle(th), ompd_rc_ok);
  }
  CHECK(openmp_threads == nlwps - 1);
  uint64_t bad_id = 1;
  ompd_thread_handle_t* th = NULL;
  RC(p_ompd_get_thread_handle(as, ompd_thread_id_lwp, 8, &bad_id, &th), ompd_rc_unavailable);
  RC(p_ompd_get_thread_handle(as, ompd_thread_id_lwp, 3, &bad_id, &th), ompd_rc_bad_input);
  RC(p_ompd_get_thread_handle(as, 7, 8, &bad_id, &th), ompd_rc_unsupported);
  RC(p_ompd_get_thread_handle(as, ompd_thread_id_lwp, 8, NULL, &th), ompd_rc_bad_input);
  RC(p_ompd_get_thread_handle(as, ompd_thread_id_lwp, 8, &bad_id, NULL), ompd_rc_bad_input);
  if (!main_th) { fprintf(stderr, "no handle for the initial thread\n"); return 1; }

  // States.
  ompd_word_t state = ompt_state_undefined, more = 1;
  int nstates = 0;
  while (more) {
    RC(p_ompd_enumerate_states(as, state, &state, &s, &more), ompd_rc_ok);
    nstates++;
    if (nstates > 100) break;
  }
  CHECK(nstates == 20);
  RC(p_ompd_enumerate_states(as, 0x7777, &state, &s, &more), ompd_rc_bad_input);
  RC(p_ompd_enumerate_states(as, ompt_state_undefined, NULL, &s, &more), ompd_rc_bad_input);

  // Parallel regions: inner (2, 3 threads), outer (1, 2), the initial task's.
  ompd_scope_t scope;
  ompd_icv_id_t levels = icv_id(as, "levels-var", &scope), size = icv_id(as, "team-size-var", &scope);
  CHECK(levels && size);
  ompd_parallel_handle_t *inner = NULL, *outer = NULL, *top = NULL, *none = NULL;
  RC(p_ompd_get_curr_parallel_handle(main_th, &inner), ompd_rc_ok);
  RC(p_ompd_get_enclosing_parallel_handle(inner, &outer), ompd_rc_ok);
  RC(p_ompd_get_enclosing_parallel_handle(outer, &top), ompd_rc_ok);
  RC(p_ompd_get_enclosing_parallel_handle(top, &none), ompd_rc_unavailable);
  ompd_parallel_handle_t* regions[3] = {inner, outer, top};
  const long want_level[3] = {2, 1, 0},
             want_size[3] = {fact(facts, "team_size", 0), fact(facts, "outer_team_size", 0), 1};
  for (int i = 0; i < 3; ++i) {
    RC(p_ompd_get_icv_from_scope(regions[i], ompd_scope_parallel, levels, &v), ompd_rc_ok);
    CHECK(v == want_level[i]);
    RC(p_ompd_get_icv_from_scope(regions[i], ompd_scope_parallel, size, &v), ompd_rc_ok);
    CHECK(v == want_size[i]);
  }
  ompd_thread_handle_t* t0;
  RC(p_ompd_get_thread_in_parallel(inner, 0, &t0), ompd_rc_ok);
  int cmp = 9;
  RC(p_ompd_thread_handle_compare(t0, main_th, &cmp), ompd_rc_ok);
  CHECK(cmp == 0);
  RC(p_ompd_get_thread_in_parallel(inner, 3, &th), ompd_rc_bad_input);
  RC(p_ompd_get_thread_in_parallel(inner, -1, &th), ompd_rc_bad_input);
  RC(p_ompd_parallel_handle_compare(inner, outer, &cmp), ompd_rc_ok);
  CHECK(cmp != 0);

  // Tasks: C, B, A, inner implicit 0, outer implicit 0, initial.
  ompd_task_handle_t* chain[7] = {0};
  RC(p_ompd_get_curr_task_handle(main_th, &chain[0]), ompd_rc_ok);
  int n = 1;
  while (n < 7 && p_ompd_get_generating_task_handle(chain[n - 1], &chain[n]) == ompd_rc_ok) n++;
  CHECK(n == 6);
  ompd_task_handle_t* in0;
  RC(p_ompd_get_task_in_parallel(inner, 0, &in0), ompd_rc_ok);
  RC(p_ompd_task_handle_compare(in0, chain[3], &cmp), ompd_rc_ok);
  CHECK(cmp == 0);
  RC(p_ompd_get_task_in_parallel(inner, 5, &in0), ompd_rc_bad_input);
  ompd_task_handle_t* sched;
  RC(p_ompd_get_scheduling_task_handle(chain[0], &sched), ompd_rc_ok);
  RC(p_ompd_task_handle_compare(sched, chain[1], &cmp), ompd_rc_ok);
  CHECK(cmp == 0);
  RC(p_ompd_get_scheduling_task_handle(chain[5], &sched), ompd_rc_unavailable);
  ompd_parallel_handle_t* tp;
  RC(p_ompd_get_task_parallel_handle(chain[0], &tp), ompd_rc_ok);
  RC(p_ompd_parallel_handle_compare(tp, inner, &cmp), ompd_rc_ok);
  CHECK(cmp == 0);
  RC(p_ompd_rel_parallel_handle(tp), ompd_rc_ok);
  ompd_icv_id_t final = icv_id(as, "final-task-var", &scope), expl = icv_id(as, "explicit-task-var", &scope);
  const long want_final[6] = {1, 1, 0, 0, 0, 0}, want_expl[6] = {1, 1, 1, 0, 0, 0};
  for (int i = 0; i < n && i < 6; ++i) {
    ompd_address_t entry;
    RC(p_ompd_get_task_function(chain[i], &entry), i < 5 ? ompd_rc_ok : ompd_rc_unavailable);
    ompd_frame_info_t exit_f, enter_f;
    RC(p_ompd_get_task_frame(chain[i], &exit_f, &enter_f), ompd_rc_ok);
    CHECK((exit_f.frame_address.address != 0) == (i < 5));
    CHECK((enter_f.frame_address.address != 0) == (i > 0));
    RC(p_ompd_get_icv_from_scope(chain[i], ompd_scope_task, final, &v), ompd_rc_ok);
    CHECK(v == want_final[i]);
    RC(p_ompd_get_icv_from_scope(chain[i], ompd_scope_task, expl, &v), ompd_rc_ok);
    CHECK(v == want_expl[i]);
    ompd_word_t value;
    ompd_address_t ptr;
    RC(p_ompd_get_tool_data(chain[i], ompd_scope_task, &value, &ptr), ompd_rc_ok);
  }
  ompd_word_t value;
  ompd_address_t ptr;
  RC(p_ompd_get_tool_data(inner, ompd_scope_parallel, &value, &ptr), ompd_rc_ok);
  RC(p_ompd_get_tool_data(as, ompd_scope_address_space, &value, &ptr), ompd_rc_bad_input);

  // ICVs: every one of the specification is there, with its scope.
  for (size_t i = 0; i < sizeof spec_icvs / sizeof spec_icvs[0]; ++i) {
    scope = (ompd_scope_t)0;
    if (!icv_id(as, spec_icvs[i].name, &scope)) fprintf(stderr, "harness: no ICV %s\n", spec_icvs[i].name);
    CHECK(scope == spec_icvs[i].scope);
  }
  // num-procs-var and place-partition-var as the program's thread saw them.
  {
    ompd_icv_id_t procs = icv_id(as, "num-procs-var", &scope);
    RC(p_ompd_get_icv_from_scope(as, ompd_scope_address_space, procs, &v), ompd_rc_ok);
    CHECK(v == fact(facts, "num_procs", 0));
    ompd_icv_id_t part = icv_id(as, "place-partition-var", &scope);
    RC(p_ompd_get_icv_from_scope(main_th, ompd_scope_thread, part, &v), ompd_rc_ok);
    CHECK(v == fact(facts, "partition_num_places", 0));
    char want[4096];
    const char* text = NULL;
    CHECK(fact_text(facts, "partition", want, sizeof want));
    RC(p_ompd_get_icv_string_from_scope(main_th, ompd_scope_thread, part, &text), ompd_rc_ok);
    CHECK(text && strcmp(text, want) == 0);
    if (text) printf("harness: place-partition-var %ld places: %s\n", (long)v, text);
    free((void*)text);
    RC(p_ompd_get_icv_from_scope(chain[0], ompd_scope_task, part, &v), ompd_rc_bad_input);
  }

  // ICVs: every one, from its own scope; strings; wrong scopes.
  ompd_icv_id_t cur = ompd_icv_undefined, next;
  int more_icvs = 1, nicvs = 0;
  while (more_icvs) {
    RC(p_ompd_enumerate_icvs(as, cur, &next, &s, &scope, &more_icvs), ompd_rc_ok);
    void* h = scope == ompd_scope_address_space ? (void*)as
            : scope == ompd_scope_thread        ? (void*)main_th
            : scope == ompd_scope_parallel      ? (void*)inner
                                                : (void*)chain[0];
    const char* text = NULL;
    RC(p_ompd_get_icv_string_from_scope(h, scope, next, &text), ompd_rc_ok);
    ompd_rc_t rc = p_ompd_get_icv_from_scope(h, scope, next, &v);
    CHECK(rc == ompd_rc_ok || rc == ompd_rc_incompatible);
    // Lists: the number is the current element (nthreads-var, bind-var) or
    // the number of places (place-partition-var), the text the whole list.
    if (rc == ompd_rc_ok && strcmp(s, "bind-var") && strcmp(s, "nthreads-var") &&
        strcmp(s, "place-partition-var")) {
      char buf[32];
      snprintf(buf, sizeof buf, "%ld", (long)v);
      CHECK(strcmp(buf, text) == 0);
    }
    if (strcmp(s, "max-active-levels-var") == 0) CHECK(v == fact(facts, "max_active_levels", 0));
    if (strcmp(s, "run-sched-var") == 0) CHECK(strcmp(text, "dynamic,3") == 0);
    RC(p_ompd_get_icv_from_scope(h, scope == ompd_scope_thread ? ompd_scope_task : ompd_scope_thread, next, &v),
       ompd_rc_bad_input);
    free((void*)text);
    cur = next;
    if (++nicvs > 100) break;
  }
  CHECK(nicvs == (int)(sizeof spec_icvs / sizeof spec_icvs[0]) + 1);  // and implicit-task-var
  RC(p_ompd_enumerate_icvs(as, cur, &next, &s, &scope, &more_icvs), ompd_rc_bad_input);
  RC(p_ompd_get_icv_from_scope(as, ompd_scope_address_space, 9999, &v), ompd_rc_bad_input);
  RC(p_ompd_get_icv_from_scope(as, ompd_scope_address_space, levels, &v), ompd_rc_bad_input);
  const char* const* vars = NULL;
  RC(p_ompd_get_display_control_vars(as, &vars), ompd_rc_ok);
  int nvars = 0;
  for (; vars && vars[nvars]; ++nvars) CHECK(strchr(vars[nvars], '=') != NULL);
  CHECK(nvars >= 10);
  RC(p_ompd_rel_display_control_vars(&vars), ompd_rc_ok);
  RC(p_ompd_rel_display_control_vars(NULL), ompd_rc_bad_input);

  // Bad handles: NULL, released, a pointer that never was a handle, the
  // wrong kind. Each is an error code.
  int junk[16] = {0};
  void* bogus = junk;
  ompd_thread_handle_t* released;
  RC(p_ompd_get_thread_in_parallel(inner, 1, &released), ompd_rc_ok);
  RC(p_ompd_rel_thread_handle(released), ompd_rc_ok);
  ompd_word_t st;
  ompd_wait_id_t wait;
  RC(p_ompd_get_state(NULL, &st, &wait), ompd_rc_stale_handle);
  RC(p_ompd_get_state(released, &st, &wait), ompd_rc_stale_handle);
  RC(p_ompd_get_state((ompd_thread_handle_t*)bogus, &st, &wait), ompd_rc_stale_handle);
  RC(p_ompd_get_state((ompd_thread_handle_t*)chain[0], &st, &wait), ompd_rc_bad_input);
  RC(p_ompd_get_state(main_th, NULL, &wait), ompd_rc_bad_input);
  RC(p_ompd_rel_thread_handle(released), ompd_rc_stale_handle);
  RC(p_ompd_get_curr_parallel_handle(bogus, &tp), ompd_rc_stale_handle);
  RC(p_ompd_get_curr_parallel_handle(main_th, NULL), ompd_rc_bad_input);
  RC(p_ompd_get_curr_task_handle(NULL, &in0), ompd_rc_stale_handle);
  RC(p_ompd_get_enclosing_parallel_handle(bogus, &tp), ompd_rc_stale_handle);
  RC(p_ompd_get_task_parallel_handle((ompd_task_handle_t*)inner, &tp), ompd_rc_bad_input);
  RC(p_ompd_get_generating_task_handle(bogus, &in0), ompd_rc_stale_handle);
  RC(p_ompd_get_scheduling_task_handle(NULL, &in0), ompd_rc_stale_handle);
  RC(p_ompd_get_task_in_parallel(bogus, 0, &in0), ompd_rc_stale_handle);
  RC(p_ompd_get_task_function(bogus, &ptr), ompd_rc_stale_handle);
  RC(p_ompd_get_task_function(chain[0], NULL), ompd_rc_bad_input);
  ompd_frame_info_t f1, f2;
  RC(p_ompd_get_task_frame(bogus, &f1, &f2), ompd_rc_stale_handle);
  RC(p_ompd_get_task_frame(chain[0], NULL, &f2), ompd_rc_bad_input);
  RC(p_ompd_task_handle_compare(chain[0], bogus, &cmp), ompd_rc_stale_handle);
  RC(p_ompd_task_handle_compare(chain[0], chain[1], NULL), ompd_rc_bad_input);
  RC(p_ompd_thread_handle_compare(main_th, NULL, &cmp), ompd_rc_stale_handle);
  RC(p_ompd_parallel_handle_compare(bogus, inner, &cmp), ompd_rc_stale_handle);
  RC(p_ompd_get_thread_id(bogus, ompd_thread_id_lwp, 8, &bad_id), ompd_rc_stale_handle);
  RC(p_ompd_get_thread_id(main_th, ompd_thread_id_lwp, 8, NULL), ompd_rc_bad_input);
  RC(p_ompd_get_thread_id(main_th, ompd_thread_id_pthread, 4, &bad_id), ompd_rc_bad_input);
  RC(p_ompd_get_icv_from_scope(bogus, ompd_scope_task, final, &v), ompd_rc_stale_handle);
  RC(p_ompd_get_icv_from_scope(NULL, ompd_scope_task, final, &v), ompd_rc_stale_handle);
  RC(p_ompd_get_icv_from_scope(chain[0], ompd_scope_task, final, NULL), ompd_rc_bad_input);
  RC(p_ompd_get_icv_string_from_scope(chain[0], ompd_scope_task, final, NULL), ompd_rc_bad_input);
  RC(p_ompd_get_icv_from_scope(chain[0], (ompd_scope_t)42, final, &v), ompd_rc_bad_input);
  RC(p_ompd_get_tool_data(bogus, ompd_scope_task, &value, &ptr), ompd_rc_stale_handle);
  RC(p_ompd_get_tool_data(chain[0], ompd_scope_task, NULL, &ptr), ompd_rc_bad_input);
  RC(p_ompd_enumerate_icvs(bogus, 0, &next, &s, &scope, &more_icvs), ompd_rc_stale_handle);
  RC(p_ompd_enumerate_states(NULL, ompt_state_undefined, &state, &s, &more), ompd_rc_stale_handle);
  RC(p_ompd_get_display_control_vars(bogus, &vars), ompd_rc_stale_handle);
  RC(p_ompd_get_omp_version(bogus, &v), ompd_rc_stale_handle);
  RC(p_ompd_get_omp_version_string(NULL, &s), ompd_rc_stale_handle);
  RC(p_ompd_get_thread_handle(bogus, ompd_thread_id_lwp, 8, &bad_id, &th), ompd_rc_stale_handle);
  RC(p_ompd_rel_task_handle(bogus), ompd_rc_stale_handle);
  RC(p_ompd_rel_parallel_handle(NULL), ompd_rc_stale_handle);
  RC(p_ompd_rel_address_space_handle(bogus), ompd_rc_stale_handle);

  // Releasing the address space makes every handle of it stale.
  RC(p_ompd_rel_address_space_handle(as), ompd_rc_ok);
  RC(p_ompd_get_state(main_th, &st, &wait), ompd_rc_stale_handle);
  RC(p_ompd_get_curr_task_handle(main_th, &in0), ompd_rc_stale_handle);
  RC(p_ompd_rel_address_space_handle(as), ompd_rc_stale_handle);
  RC(p_ompd_finalize(), ompd_rc_ok);
  RC(p_ompd_finalize(), ompd_rc_unsupported);

  printf("harness: %d OpenMP threads, %d states, %d ICVs, %d tasks, %d control variables; %d failure(s)\n",
         openmp_threads, nstates, nicvs, n, nvars, failures);
  return failures ? 1 : 0;
}
