// Output rows split over a pool of threads: the whole model's matrix products on every core.
// The split is by output rows, never by the summation, and every part but the last is a multiple
// of `align` rows (the kernels' row tile), so each row is computed by the same instructions in
// the same order as on one thread: the results are identical bit for bit whatever the number of
// threads. Where the build has no threads (the page's wasm without pthreads) it is the caller
// alone, always.
#pragma once

#include <cstdint>
#include <functional>

#define PARALLEL_ROWS_MAX 8  // threads at most: a phone's or a laptop's cores, not a server's
// Work (multiply-adds) below which a product runs on the caller alone: handing a few thousand
// multiply-adds to other threads costs more than it saves (a wake-up is some microseconds).
#define PARALLEL_ROWS_MIN_WORK (1ll << 18)

// Threads the next calls use (clamped to 1..PARALLEL_ROWS_MAX; 1 where the build has none), and
// the least work a call splits (tests: 0, so every product is split).
void parallel_rows_configure(int threads, int64_t min_work = PARALLEL_ROWS_MIN_WORK);
int parallel_rows_threads();
// Whether this build can start threads at all (false: the page's wasm without pthreads).
bool parallel_rows_built();
// The cores the platform reports (1 where the build has no threads), at most PARALLEL_ROWS_MAX.
int parallel_rows_cores();

// fn(r0, r1) over [0, rows), in as many parts as there are threads (fewer when rows are few or
// `work` is under the least), each a multiple of `align` rows but the last. The caller's thread
// does the first part; returns when every part is done. Not reentrant: one call at a time.
void parallel_rows(int rows, int align, int64_t work, const std::function<void(int r0, int r1)>& fn);
