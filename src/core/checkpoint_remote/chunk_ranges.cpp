// Which chunks of one file go into one request (see chunk_ranges.h).
#include "core/checkpoint_remote/chunk_ranges.h"

#include <algorithm>

void range_never_read::add(uint64_t begin, uint64_t end) {
  if (end <= begin) return;
  if (!extents.empty() && begin <= extents.back().second) extents.back().second = std::max(extents.back().second, end);
  else extents.push_back({begin, end});
}

bool range_never_read::clear(uint64_t begin, uint64_t end) const {
  if (end <= begin) return true;
  // The first extent that ends after `begin`: the only one that can overlap [begin, end).
  auto it = std::upper_bound(extents.begin(), extents.end(), begin,
                             [](uint64_t at, const std::pair<uint64_t, uint64_t>& e) { return at < e.second; });
  return it == extents.end() || it->first >= end;
}

// A range of [begin, end) holding `gap` bytes nobody asked for: within the request's size, and
// its waste within the larger of gap_bytes and an eighth of it.
static bool range_fits(uint64_t begin, uint64_t end, uint64_t gap, uint64_t max_bytes, uint64_t gap_bytes) {
  return end - begin <= max_bytes && gap <= std::max(gap_bytes, (end - begin) / 8);
}

range_span range_grow(const std::vector<range_candidate>& c, size_t seed, uint64_t max_bytes, uint64_t gap_bytes,
                      const range_never_read& never) {
  range_span s;
  s.first = s.last = seed;
  s.begin = c[seed].begin;
  s.end = c[seed].begin + c[seed].bytes;
  for (size_t i = seed + 1; i < c.size(); i++) {
    const uint64_t end = c[i].begin + c[i].bytes, gap = c[i].begin - s.end;
    if (!never.clear(s.end, c[i].begin) || !range_fits(s.begin, end, s.gap + gap, max_bytes, gap_bytes)) break;
    s.last = i, s.end = end, s.gap += gap;
  }
  for (size_t i = seed; i-- > 0;) {
    const uint64_t end = c[i].begin + c[i].bytes, gap = s.begin - end;
    if (!never.clear(end, s.begin) || !range_fits(c[i].begin, s.end, s.gap + gap, max_bytes, gap_bytes)) break;
    s.first = i, s.begin = c[i].begin, s.gap += gap;
  }
  return s;
}
