// copyprivate broadcast (see copyprivate.h). The pointer travels in
// Team::reduction_data, which the barriers on both sides keep from being
// reused while anyone still reads it.
#include "copyprivate.h"

#include "loop.h"

namespace kite {

void* copyprivate_broadcast(Thread* self, void* data, bool source, const void* codeptr_ra,
                            void* enter_frame) {
  Team* team = self->team;
  if (!team || team->nthreads == 1) return data;
  if (source) team->reduction_data = data;
  workshare_barrier(self, codeptr_ra, enter_frame);
  return team->reduction_data;
}

void copyprivate_done(Thread* self) {
  Team* team = self->team;
  if (!team || team->nthreads == 1) return;
  team_barrier(self);
}

}  // namespace kite
