// Which chunks of one file go into one request. A checkpoint's small tensors (norms of a few
// hundred bytes, biases, a DeltaNet's A_log) lie between its large ones, and one request each cost
// a round trip each: the built-in 2.3 MiB model was about 330 requests. Neighbouring chunks are
// asked for in one range instead, up to range_bytes, and the answer is cut back into chunks, each
// verified on its own (range_check.h) and converted and cached as if it had come alone.
//
// A range may read through bytes nobody asked for (a chunk already in, or not wanted now) when
// they are few: at most gap_bytes in all, or an eighth of the range, whichever is more. It never
// reads through the bytes of a tensor its reader was not told to read (the vision tower's
// model.visual.*, the mtp.* head, whatever else a checkpoint carries), of any size: those are
// `never_read` extents, and a range stops at them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

// The most one request asks for: a few round trips' worth on a fast link, and what the page holds
// of raw bytes at a time stays a few of them (tensor_fetch_options::raw_budget).
#define CKPT_RANGE_BYTES (4ull << 20)
// Bytes nobody asked for that one range may read through regardless of its size: less than a
// round trip costs on most links (fast 3G's 150 ms is 30 KB of its 1.6 Mbit/s; 4G's 60 ms, 67 KB).
#define CKPT_RANGE_GAP_BYTES (64ull << 10)

// One chunk that may be asked for now, in file order.
struct range_candidate {
  uint64_t begin = 0, bytes = 0;
};

// Byte extents of a file that are never read through, sorted by begin and not overlapping.
struct range_never_read {
  std::vector<std::pair<uint64_t, uint64_t>> extents;  // [begin, end)
  // [begin, end), added in the order of their begins (a header lists its tensors in data order);
  // one that touches the last is merged with it.
  void add(uint64_t begin, uint64_t end);
  bool clear(uint64_t begin, uint64_t end) const;  // [begin, end) touches none of them
};

// The candidates [first, last] one request asks for, and its bytes [begin, end).
struct range_span {
  size_t first = 0, last = 0;
  uint64_t begin = 0, end = 0;
  uint64_t gap = 0;  // bytes in it that no candidate of it asked for
};

// The range around candidates[seed] (which it always holds, whatever its size): the following
// candidates first (the order a reader reads in), then the preceding ones, while the range stays
// within max_bytes, its gaps within max(gap_bytes, an eighth of the range), and no gap touches a
// never-read extent. Candidates must be sorted by begin and not overlap.
range_span range_grow(const std::vector<range_candidate>& candidates, size_t seed, uint64_t max_bytes, uint64_t gap_bytes,
                      const range_never_read& never);
