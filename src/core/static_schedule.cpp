// Static schedule without shared state (see static_schedule.h).
#include "static_schedule.h"

namespace kite {

StaticPart static_part(unsigned long long total, unsigned long long count,
                       unsigned long long index, unsigned long long chunk) {
  using ull = unsigned long long;
  StaticPart p{0, 0, total, false};
  if (count == 0) count = 1;
  if (total == 0 || index >= count) return p;
  if (chunk == 0) {
    ull q = total / count, r = total % count;
    p.first = index * q + (index < r ? index : r);
    p.size = q + (index < r ? 1 : 0);
    p.last = p.size != 0 && total - p.first == p.size;
    return p;
  }
  ull first;
  if (__builtin_mul_overflow(index, chunk, &first) || first >= total) return p;
  p.first = first;
  p.size = total - first < chunk ? total - first : chunk;
  // A stride past the 64-bit range means the participant has one chunk.
  if (__builtin_mul_overflow(count, chunk, &p.stride)) p.stride = ~0ull;
  p.last = ((total - 1) / chunk) % count == index;
  return p;
}

}  // namespace kite
