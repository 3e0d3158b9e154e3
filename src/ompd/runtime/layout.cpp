// kite_ompd_layout and kite_ompd_addresses: the runtime's structures and
// globals, evaluated by the compiler from the real definitions (see
// src/ompd/layout.h for what each entry means and who reads it).
#include "ompd/layout.h"

#include "core/icv.h"
#include "core/place_list.h"
#include "core/team.h"
#include "core/version.h"
#include "ompd/runtime/debug.h"

// The clang ABI's wrappers (abi/kmpc/fork.cpp, task.cpp).
extern "C" KITE_HIDDEN const uintptr_t kite_ompd_kmpc_fork[3];
extern "C" KITE_HIDDEN const uintptr_t kite_ompd_kmpc_task[2];

namespace kite {
namespace ompd {
extern int g_tracking;
extern DebugThread* g_threads;
}  // namespace ompd
}  // namespace kite

namespace {

using namespace kite;
using ompd::DebugThread;

// The OpenMP version Kite states everywhere (core/version.h says why).
constexpr unsigned kOmpdOpenmpVersion = kOpenmpVersion;

#define KITE_FIELD_COUNT(name, type, member) +1
#define KITE_CONST_COUNT(name, expr) +1
constexpr unsigned kEntries = 0 KITE_OMPD_FIELDS(KITE_FIELD_COUNT)
    KITE_OMPD_CONSTANTS(KITE_CONST_COUNT);

}  // namespace

// offsetof on a record with std::atomic members is conditionally
// supported; GCC and clang compute it exactly as for a C struct.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
#define KITE_FIELD_ENTRY(name, type, member) \
  offsetof(type, member), sizeof(static_cast<type*>(nullptr)->member),
#define KITE_CONST_ENTRY(name, expr) static_cast<uint64_t>(expr), 0,
extern "C" KITE_EXPORT const uint64_t kite_ompd_layout[3 + 2 * kEntries] = {
    KITE_OMPD_LAYOUT_MAGIC, kEntries, kKiteOmpdNamesHash,
    KITE_OMPD_FIELDS(KITE_FIELD_ENTRY) KITE_OMPD_CONSTANTS(KITE_CONST_ENTRY)};
#pragma GCC diagnostic pop

const char kite_ompd_version_string[] = "Kite " KITE_VERSION_STRING;

extern "C" KITE_EXPORT const void* const kite_ompd_addresses[] = {
    &g_icv, &ompd::g_threads, &ompd::g_tracking, &ompd::g_debugging,
    kite_ompd_kmpc_fork, kite_ompd_kmpc_task, kite_ompd_version_string, &g_place_list};

#define KITE_ADDRESS_COUNT(name) +1
static_assert(sizeof kite_ompd_addresses / sizeof(void*) ==
              0 KITE_OMPD_ADDRESSES(KITE_ADDRESS_COUNT));
