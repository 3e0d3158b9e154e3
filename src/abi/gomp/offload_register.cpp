// libgomp ABI: GOMP_offload_register* and gcc's host variable tables, which name the declare target
// globals that the emulated devices map onto themselves
// (core/declare_target.h).
//
// gcc lists every `declare target` global of an executable or shared
// object in section .gnu.offload_vars, as (address, size) pairs; the top
// bit of the size marks a `declare target link` global (gcc 12 sets it;
// both kinds are treated alike here). crtoffloadbegin.o / crtoffloadend.o
// bracket the section, and a program built with an offload compiler hands
// it to GOMP_offload_register_ver (host_table[2] and [3]). A program built
// without one (Debian's gcc 12 has no offload compiler configured) never
// calls that, but still carries the section, so the loaded objects'
// section headers are read too, once, at library load when emulated
// devices are asked for.
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "abi/gomp/gomp.h"
#include "core/base.h"
#include "core/declare_target.h"
#include "core/device.h"

using namespace kite;

namespace {

constexpr uintptr_t kLinkBit = uintptr_t(1) << (sizeof(uintptr_t) * 8 - 1);

// Tables already handed over (registration and section may name the same
// one; each registered device type registers it again).
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
const uintptr_t* g_seen[256];
size_t g_nseen;

void for_each_var(const uintptr_t* start, const uintptr_t* end, bool add) {
  for (const uintptr_t* p = start; p + 2 <= end; p += 2) {
    size_t size = p[1] & ~kLinkBit;
    if (add)
      declare_target_global_add(p[0], size);
    else
      declare_target_global_remove(p[0], size);
  }
}

void add_table(const uintptr_t* start, const uintptr_t* end) {
  if (!start || end <= start) return;
  pthread_mutex_lock(&g_lock);
  bool seen = false;
  for (size_t i = 0; i < g_nseen && !seen; ++i) seen = g_seen[i] == start;
  if (!seen && g_nseen < sizeof g_seen / sizeof g_seen[0]) g_seen[g_nseen++] = start;
  pthread_mutex_unlock(&g_lock);
  if (!seen) for_each_var(start, end, true);
}

void remove_table(const uintptr_t* start, const uintptr_t* end) {
  pthread_mutex_lock(&g_lock);
  bool seen = false;
  for (size_t i = 0; i < g_nseen && !seen; ++i)
    if (g_seen[i] == start) {
      seen = true;
      g_seen[i] = g_seen[--g_nseen];
    }
  pthread_mutex_unlock(&g_lock);
  if (seen) for_each_var(start, end, false);
}

bool read_at(int fd, void* buf, size_t n, off_t off) {
  char* p = static_cast<char*>(buf);
  while (n) {
    ssize_t r = pread(fd, p, n, off);
    if (r <= 0) return false;
    p += r;
    n -= size_t(r);
    off += r;
  }
  return true;
}

// Where section .gnu.offload_vars of the object loaded at `bias` from
// `path` lies in memory; false when it has none or cannot be read.
bool find_offload_vars(const char* path, uintptr_t bias, uintptr_t* addr, size_t* size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool found = false;
  ElfW(Shdr)* sh = nullptr;
  char* names = nullptr;
  ElfW(Ehdr) eh;
  if (read_at(fd, &eh, sizeof eh, 0) && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32) &&
      eh.e_shentsize == sizeof(ElfW(Shdr)) && eh.e_shnum > 0 && eh.e_shnum < SHN_LORESERVE &&
      eh.e_shstrndx < eh.e_shnum) {
    sh = static_cast<ElfW(Shdr)*>(xmalloc(eh.e_shnum * sizeof(ElfW(Shdr))));
    if (read_at(fd, sh, eh.e_shnum * sizeof(ElfW(Shdr)), off_t(eh.e_shoff))) {
      const ElfW(Shdr)& str = sh[eh.e_shstrndx];
      if (str.sh_size > 0 && str.sh_size < (size_t(1) << 24)) {
        names = static_cast<char*>(xmalloc(str.sh_size + 1));
        if (read_at(fd, names, str.sh_size, off_t(str.sh_offset))) {
          names[str.sh_size] = 0;
          for (unsigned i = 0; i < eh.e_shnum && !found; ++i) {
            if (sh[i].sh_name >= str.sh_size || sh[i].sh_type != SHT_PROGBITS || !sh[i].sh_addr)
              continue;
            if (strcmp(names + sh[i].sh_name, ".gnu.offload_vars") != 0) continue;
            *addr = bias + sh[i].sh_addr;
            *size = sh[i].sh_size;
            found = true;
          }
        }
      }
    }
  }
  xfree(names);
  xfree(sh);
  close(fd);
  return found;
}

int scan_object(struct dl_phdr_info* info, size_t, void*) {
  // The executable is the object without a name; the vDSO has a name but
  // no file, and does not open.
  const char* path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
  uintptr_t addr;
  size_t size;
  if (find_offload_vars(path, uintptr_t(info->dlpi_addr), &addr, &size)) {
    auto* start = reinterpret_cast<const uintptr_t*>(addr);
    add_table(start, start + size / sizeof(uintptr_t));
  }
  return 0;
}

// After KITE_DEVICES is read (core/device.cpp, priority 102); every object
// the program was linked with is loaded by then.
__attribute__((constructor(103))) void scan_loaded_objects() {
  if (emulated_device_count() > 0) dl_iterate_phdr(scan_object, nullptr);
}

// A host table is {function table start, end, variable table start, end}.
void host_table_vars(const void* host_table, bool add) {
  if (!host_table) return;
  auto* t = static_cast<const uintptr_t* const*>(host_table);
  if (add)
    add_table(t[2], t[3]);
  else
    remove_table(t[2], t[3]);
}

}  // namespace

extern "C" {

// Offload images are registered by programs built with an offload compiler.
// With no device to load them on, every target region of theirs takes the
// host version compiled alongside, so the images are not needed; the host
// table names the declare target globals. Each device type registers the same host table.
KITE_EXPORT void GOMP_offload_register_ver(unsigned, const void* host_table, int, const void*) {
  host_table_vars(host_table, true);
}

KITE_EXPORT void GOMP_offload_register(const void* host_table, int target_type,
                                       const void* target_data) {
  GOMP_offload_register_ver(0, host_table, target_type, target_data);
}

KITE_EXPORT void GOMP_offload_unregister_ver(unsigned, const void* host_table, int, const void*) {
  host_table_vars(host_table, false);
}

KITE_EXPORT void GOMP_offload_unregister(const void* host_table, int target_type,
                                         const void* target_data) {
  GOMP_offload_unregister_ver(0, host_table, target_type, target_data);
}

}  // extern "C"
