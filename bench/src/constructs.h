/* The test kernels, one per construct (see the .c file of each family). */
#ifndef BENCH_CONSTRUCTS_H
#define BENCH_CONSTRUCTS_H

#include "harness.h"

#define BENCH_KERNEL(name) void name(const bench_params* p, long inner, long arg)

BENCH_KERNEL(k_parallel);
BENCH_KERNEL(k_barrier);
BENCH_KERNEL(k_single);
BENCH_KERNEL(k_critical);
BENCH_KERNEL(k_lock);
BENCH_KERNEL(k_atomic);
BENCH_KERNEL(k_atomic_runtime);
BENCH_KERNEL(k_reduction);

BENCH_KERNEL(k_for_static);
BENCH_KERNEL(k_for_static_chunk);
BENCH_KERNEL(k_for_dynamic);
BENCH_KERNEL(k_for_guided);
BENCH_KERNEL(k_parallel_for);
BENCH_KERNEL(k_ordered);

BENCH_KERNEL(ref_sched);
BENCH_KERNEL(k_sched_static);
BENCH_KERNEL(k_sched_dynamic);
BENCH_KERNEL(k_sched_guided);

BENCH_KERNEL(k_task_one_producer);
BENCH_KERNEL(k_task_all_producers);
BENCH_KERNEL(k_taskwait);
BENCH_KERNEL(k_taskgroup);
BENCH_KERNEL(k_taskloop);
BENCH_KERNEL(k_task_dep_chain);

#endif
