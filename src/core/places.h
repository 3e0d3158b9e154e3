// Places and thread affinity (OMP_PLACES, OMP_PROC_BIND, OMP_DISPLAY_AFFINITY).
// The place list is parsed from the environment at load time; abstract names
// that need the machine topology (cores, ll_caches, numa_domains, sockets)
// are expanded with hwloc the first time places are asked for, so programs
// that never bind never pay for topology discovery.
#pragma once

#include <stddef.h>

#include "team.h"

namespace kite {

// --- set up from the environment (env.cpp) -------------------------------
// Processors the process may run on (sched_getaffinity); remembers the mask.
int places_process_cpus();
// Parses OMP_PLACES; warns once and returns false when it cannot be used.
// `fallback_threads` says what an unusable value falls back to, for the
// warning text: the "threads" list (binding on) or no list.
bool places_from_env(const char* value, bool fallback_threads);
// No OMP_PLACES, but binding requested: one place per processor.
void places_use_default_threads();

// --- queries -------------------------------------------------------------
// Number of places in place-partition-var of the initial task (0 = none).
int places_count();
// Whether the process may run on processor `cpu` (its mask at startup).
bool places_process_allows(int cpu);
// One past the highest processor id the process mask names.
int places_process_cpu_end();
// Processor ids of a place; returns how many, fills up to `cap` of them.
int place_procs(int place, int* ids, int cap);
// Writes the place list as OMP_DISPLAY_ENV shows it ("{0:2},{2}"); returns
// the length it needs, like snprintf.
size_t places_format(char* buf, size_t cap);

// --- binding -------------------------------------------------------------
// Computes Team::places for a new team per OpenMP 5.2 §10.1.3 from the
// binding policy and the primary thread's place and partition. Leaves
// team->bound false when threads are not to be bound.
void places_assign(Team* team, int bind, Thread* primary);
// Binds the calling thread to a place (-1: back to the process's mask).
void places_bind_self(Thread* self, int place);
// Binds an initial thread when bind-var is not false and places exist.
void places_init_initial_thread(Thread* self);

// --- affinity format (affinity_format.cpp) -------------------------------
// Expands an affinity format for thread t (the caller); returns the length
// of the full expansion, writing at most cap bytes including the NUL.
size_t affinity_format_expand(char* buf, size_t cap, const char* format, Thread* t);
// Checks a format for unknown fields; fills why on failure.
bool affinity_format_valid(const char* format, const char** why);
// Prints the calling thread's affinity line (format null = affinity-format-var).
void affinity_display(const char* format, Thread* t);
// OMP_DISPLAY_AFFINITY: called by each thread as it starts an implicit task.
void affinity_display_if_changed(Thread* me);
inline void affinity_on_region_start(Thread* me) {
  if (KITE_UNLIKELY(g_icv.display_affinity)) affinity_display_if_changed(me);
}

}  // namespace kite
