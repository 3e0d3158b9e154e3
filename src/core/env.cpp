// Environment variables -> ICVs.
#include <unistd.h>

#include "icv.h"
#include "wait.h"

namespace kite {

GlobalIcvs g_icv;
extern int g_num_procs_for_spin;

void icv_init_from_environment() {
  long np = sysconf(_SC_NPROCESSORS_ONLN);
  g_icv.num_procs = np > 0 ? int(np) : 1;
  g_num_procs_for_spin = g_icv.num_procs;
  TaskIcvs& i = g_icv.initial;
  i.nthreads = g_icv.num_procs;
  i.dyn = 0;
  i.sched = int(Sched::kDynamic);
  i.sched_chunk = 0;
  i.bind = int(ProcBind::kFalse);
  i.thread_limit = 0x7fffffff;
  i.max_active_levels = 0x7fffffff;
  i.default_device = 0;
  i.def_allocator = 1;
  g_icv.tool = 1;
  spin_set_budget_us(300);
}

}  // namespace kite
