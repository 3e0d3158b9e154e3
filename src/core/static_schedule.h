// The static schedule computed by each thread on its own, with no shared
// construct state: for ABIs where the compiler asks "which iterations are
// mine?" once and loops over them itself (the LLVM ABI's static loops and
// distribute).
#pragma once

#include "base.h"

namespace kite {

// The part of `total` logical iterations (0..total-1) that participant
// `index` of `count` gets. With chunk == 0, one contiguous block (sizes
// differ by at most one, the larger blocks first); with chunk > 0, chunks
// dealt round robin: the first one is [first, first + size), the next ones
// follow every `stride` iterations.
struct StaticPart {
  unsigned long long first;
  unsigned long long size;    // 0: nothing for this participant
  unsigned long long stride;  // logical distance between its chunks
  bool last;                  // its part holds iteration total-1
};

StaticPart static_part(unsigned long long total, unsigned long long count,
                       unsigned long long index, unsigned long long chunk);

}  // namespace kite
