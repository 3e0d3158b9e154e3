/* One row per name of compat_list.h, as the including unit's header
 * defines it. Included once under LLVM's header, once under Kite's. */
#include <stddef.h>

#include "compat_list.h"

struct kite_compat_row {
  const char* name;
  long long value; /* enumerator value, or size, or offset */
  long long extra; /* enum types: signedness of the underlying type */
};

#define KITE_ROW_ENUMERATOR(e) {#e, (long long)(e), 0},
#define KITE_ROW_TYPE(t) {"sizeof " #t, (long long)sizeof(t), (long long)_Alignof(t)},
#define KITE_ROW_MEMBER(s, m) {#s "." #m, (long long)offsetof(s, m), (long long)sizeof(((s*)0)->m)},

#define KITE_COMPAT_TABLE(table, count)                                             \
  const struct kite_compat_row table[] = {KITE_COMPAT_ENUMERATORS(KITE_ROW_ENUMERATOR) \
                                              KITE_COMPAT_TYPES(KITE_ROW_TYPE)         \
                                                  KITE_COMPAT_MEMBERS(KITE_ROW_MEMBER)}; \
  const int count = sizeof table / sizeof table[0];
