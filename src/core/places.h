// Places and thread affinity (OMP_PLACES, OMP_PROC_BIND). The place list is
// built once from the environment and the machine topology (places.cpp).
#pragma once

#include "team.h"

namespace kite {

// Number of places in place-partition-var of the initial task (0 = none).
int places_count();
// Processor ids of a place; returns how many, fills up to `cap` of them.
int place_procs(int place, int* ids, int cap);
// Computes Team::places for a new team per OpenMP 5.2 §10.1.3 from the
// binding policy and the primary thread's place and partition. Leaves
// team->places null when threads are not to be bound.
void places_assign(Team* team, int bind, const Thread* primary);
// Binds the calling thread to a place (pthread_setaffinity_np).
void places_bind_self(Thread* self, int place);
// Place of the initial thread once bound (-1 when unbound).
void places_init_initial_thread(Thread* self);

}  // namespace kite
