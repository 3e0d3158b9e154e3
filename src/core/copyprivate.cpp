// copyprivate broadcast (see copyprivate.h). The pointer travels in
// Team::reduction_data, which the barriers on both sides keep from being
// reused while anyone still reads it.
#include "copyprivate.h"

namespace kite {

void* copyprivate_broadcast(Thread* self, void* data, bool source) {
  Team* team = self->team;
  if (!team || team->nthreads == 1) return data;
  if (source) team->reduction_data = data;
  team_barrier(self);
  return team->reduction_data;
}

void copyprivate_done(Thread* self) {
  Team* team = self->team;
  if (!team || team->nthreads == 1) return;
  team_barrier(self);
}

}  // namespace kite
