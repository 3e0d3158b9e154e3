/* The comparison table under LLVM's omp-tools.h (see header_compat.c). */
#include KITE_LLVM_OMP_TOOLS_H

#define KITE_WORK_TYPE_MEMBER wstype
#include "compat_table.h"

KITE_COMPAT_TABLE(kite_llvm_rows, kite_llvm_row_count)
