// libgomp ABI: critical and atomic regions (GOMP_critical*, GOMP_atomic*).
#include "abi/gomp/gomp.h"
#include "core/lock.h"

using namespace kite;

// Each entry passes its return address into the program, for tools.
#define KITE_RA __builtin_return_address(0)

extern "C" {

KITE_EXPORT void GOMP_critical_start(void) { critical_enter(KITE_RA); }

KITE_EXPORT void GOMP_critical_end(void) { critical_exit(KITE_RA); }

// gcc passes the address of .gomp_critical_user_<name>, a zeroed pointer-sized
// common symbol shared by every object that names the same critical.
KITE_EXPORT void GOMP_critical_name_start(void** pptr) { critical_name_enter(pptr, KITE_RA); }

KITE_EXPORT void GOMP_critical_name_end(void** pptr) { critical_name_exit(pptr, KITE_RA); }

KITE_EXPORT void GOMP_atomic_start(void) { atomic_enter(KITE_RA); }

KITE_EXPORT void GOMP_atomic_end(void) { atomic_exit(KITE_RA); }

}  // extern "C"
