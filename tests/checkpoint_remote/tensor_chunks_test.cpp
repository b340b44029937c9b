// Chunked conversion: a matrix converted a chunk of rows at a time (in any order, from any
// dtype) is byte for byte the converter's q8 blob, and the cache records round-trip and refuse
// damage. Which chunks go into one request (chunk_ranges.h): neighbours up to the range's size,
// small gaps read through, never a tensor nobody planned.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <new>
#include <random>

#include "core/checkpoint_remote/chunk_ranges.h"
#include "core/checkpoint_remote/tensor_chunks.h"
#include "core/quant/q8_format.h"

namespace {
struct aligned_blob {
  void* p;
  size_t n;
  explicit aligned_blob(size_t bytes) : p(::operator new(bytes, std::align_val_t(Q8_ALIGN))), n(bytes) {}
  ~aligned_blob() { ::operator delete(p, std::align_val_t(Q8_ALIGN)); }
};
}  // namespace

TEST_CASE("tensor chunks: the plan covers the rows in panel multiples within the byte cap", "[checkpoint_remote]") {
  // gate_proj of Qwen3.5-0.8B: (3584, 1024) BF16 = 7,340,032 bytes -> four 2 MiB chunks.
  std::vector<tensor_chunk> p = tensor_chunk_plan(1000, 3584, 1024, 2, 2u << 20);
  REQUIRE(p.size() == 4);
  CHECK(p[0].rows == 1024);
  CHECK(p[0].begin == 1000);
  CHECK(p[3].row0 == 3072);
  CHECK(p[3].rows == 512);
  CHECK(p[3].begin + p[3].bytes == 1000 + 3584ull * 1024 * 2);
  for (int rows : {1, 3, 4, 5, 17, 170})
    for (uint64_t cap : {1ull, 100ull, 1000ull, 1ull << 30}) {
      std::vector<tensor_chunk> q = tensor_chunk_plan(8, rows, 60, 2, cap);
      int next = 0;
      uint64_t at = 8;
      for (size_t i = 0; i < q.size(); i++) {
        CHECK(q[i].row0 == next);
        CHECK(q[i].begin == at);
        CHECK(q[i].bytes == (uint64_t)q[i].rows * 120);
        if (i + 1 < q.size()) CHECK(q[i].rows % Q8_PANEL_ROWS == 0);
        CHECK((q[i].bytes <= cap || q[i].rows <= Q8_PANEL_ROWS));
        next += q[i].rows;
        at += q[i].bytes;
      }
      CHECK(next == rows);
    }
}

TEST_CASE("tensor chunks: converted in pieces == the converter's whole-matrix q8", "[checkpoint_remote]") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd(0.0f, 0.05f);
  for (st_dtype t : {ST_DTYPE_BF16, ST_DTYPE_F16, ST_DTYPE_F32}) {
    const int rows = 170, cols = 60;  // not multiples of the panel sizes
    std::vector<float> w((size_t)rows * cols);
    for (float& v : w) v = nd(rng);
    w[5] = 0;  // a zero row entry; and one whole zero row
    for (int k = 0; k < cols; k++) w[(size_t)33 * cols + k] = 0;
    const size_t eb = st_dtype_bytes(t);
    std::string raw(w.size() * eb, '\0');
    dtype_from_f32(t, w.data(), w.size(), &raw[0]);
    std::vector<float> wf(w.size());
    dtype_to_f32(t, raw.data(), w.size(), wf.data());  // what the converter quantizes
    q8_matrix_owned ref{};
    REQUIRE(q8_matrix_owned_init(&ref, wf.data(), rows, cols) == Q8_OK);
    for (uint64_t cap : {1ull, 1000ull, 5000ull, 1ull << 20}) {
      std::vector<tensor_chunk> plan = tensor_chunk_plan(0, rows, cols, eb, cap);
      aligned_blob blob(q8_matrix_blob_bytes(rows, cols));
      REQUIRE(q8_matrix_begin(rows, cols, blob.p) == Q8_OK);
      std::vector<float> scratch;
      std::string err;
      for (size_t i = plan.size(); i-- > 0;)  // any order: last chunk first
        REQUIRE(tensor_chunk_convert(t, raw.data() + plan[i].begin, plan[i], rows, cols, blob.p, &scratch, &err));
      REQUIRE(blob.n == ref.bytes);
      CHECK(std::memcmp(blob.p, ref.blob, ref.bytes) == 0);
      // Records of each chunk rebuild the same blob in a fresh one.
      aligned_blob again(blob.n);
      REQUIRE(q8_matrix_begin(rows, cols, again.p) == Q8_OK);
      for (const tensor_chunk& c : plan) {
        const std::string rec = tensor_chunk_record(blob.p, c, rows, cols);
        REQUIRE(tensor_chunk_from_record(rec.data(), rec.size(), c, rows, cols, again.p));
      }
      CHECK(std::memcmp(again.p, ref.blob, ref.bytes) == 0);
    }
    q8_matrix_owned_free(&ref);
  }
}

TEST_CASE("tensor chunks: a chunk converted in slices of rows == converted at once, bit for bit", "[checkpoint_remote]") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed << " (pass it back with --rng-seed)");
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd(0.0f, 0.05f);
  CHECK(tensor_chunk_slice_rows(1024, CKPT_SLICE_ELEMENTS) == 64);
  CHECK(tensor_chunk_slice_rows(4096, CKPT_SLICE_ELEMENTS) == 16);
  CHECK(tensor_chunk_slice_rows(100000, 1000) == 1);  // never less than a row
  CHECK(tensor_chunk_slice_rows(60, 179) == 2);
  for (int round = 0; round < 12; round++)
    for (st_dtype t : {ST_DTYPE_BF16, ST_DTYPE_F16, ST_DTYPE_F32}) {
      const int rows = 1 + 2 * (int)(rng() % 60), cols = 1 + (int)(rng() % 70);  // odd row counts, any width
      INFO("round " << round << " dtype " << st_dtype_name(t) << " rows " << rows << " cols " << cols);
      std::vector<float> w((size_t)rows * cols);
      for (float& v : w) v = nd(rng) * (rng() % 8 == 0 ? 40.0f : 1.0f);  // a few rows with a far larger scale
      const size_t eb = st_dtype_bytes(t);
      std::string raw(w.size() * eb, '\0');
      dtype_from_f32(t, w.data(), w.size(), &raw[0]);
      const std::vector<tensor_chunk> plan = tensor_chunk_plan(0, rows, cols, eb, 1 + rng() % (rows * cols * eb));
      aligned_blob whole(q8_matrix_blob_bytes(rows, cols)), sliced(q8_matrix_blob_bytes(rows, cols));
      REQUIRE(q8_matrix_begin(rows, cols, whole.p) == Q8_OK);
      REQUIRE(q8_matrix_begin(rows, cols, sliced.p) == Q8_OK);
      std::vector<float> scratch;
      std::string err;
      for (const tensor_chunk& c : plan) {
        REQUIRE(tensor_chunk_convert(t, raw.data() + c.begin, c, rows, cols, whole.p, &scratch, &err));
        // Slices of random sizes (1 row up to the whole chunk), as the page's budget would cut them.
        for (int first = 0; first < c.rows;) {
          const int n = std::min(c.rows - first, 1 + (int)(rng() % 9));
          REQUIRE(tensor_chunk_convert_rows(t, raw.data() + c.begin, c, first, n, rows, cols, sliced.p, &scratch, &err));
          first += n;
        }
      }
      CHECK(std::memcmp(whole.p, sliced.p, whole.n) == 0);
    }
  // Rows outside the chunk are refused, not written.
  const int rows = 9, cols = 8;
  std::vector<float> w((size_t)rows * cols, 0.5f);
  aligned_blob blob(q8_matrix_blob_bytes(rows, cols));
  q8_matrix_begin(rows, cols, blob.p);
  std::vector<float> scratch;
  std::string err;
  const std::vector<tensor_chunk> plan = tensor_chunk_plan(0, rows, cols, 4, 4 * 32);
  CHECK_FALSE(tensor_chunk_convert_rows(ST_DTYPE_F32, w.data(), plan[0], 3, 2, rows, cols, blob.p, &scratch, &err));
  CHECK_FALSE(tensor_chunk_convert_rows(ST_DTYPE_F32, w.data(), plan[0], -1, 1, rows, cols, blob.p, &scratch, &err));
}

TEST_CASE("tensor chunks: damaged records and non-finite values are refused", "[checkpoint_remote]") {
  const int rows = 9, cols = 8;
  std::vector<float> w((size_t)rows * cols, 0.25f);
  std::string raw(w.size() * 4, '\0');
  std::memcpy(&raw[0], w.data(), raw.size());
  std::vector<tensor_chunk> plan = tensor_chunk_plan(0, rows, cols, 4, 4 * 32);
  REQUIRE(plan.size() == 3);
  aligned_blob blob(q8_matrix_blob_bytes(rows, cols));
  q8_matrix_begin(rows, cols, blob.p);
  std::vector<float> scratch;
  std::string err;
  REQUIRE(tensor_chunk_convert(ST_DTYPE_F32, raw.data(), plan[0], rows, cols, blob.p, &scratch, &err));
  std::string rec = tensor_chunk_record(blob.p, plan[0], rows, cols);
  std::string flipped = rec;
  flipped[3] ^= 1;
  CHECK_FALSE(tensor_chunk_from_record(flipped.data(), flipped.size(), plan[0], rows, cols, blob.p));
  CHECK_FALSE(tensor_chunk_from_record(rec.data(), rec.size() - 1, plan[0], rows, cols, blob.p));
  CHECK_FALSE(tensor_chunk_from_record(rec.data(), rec.size(), plan[2], rows, cols, blob.p));  // another chunk's size
  const float bad[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
  for (float b : bad) {
    std::string r2 = raw;
    std::memcpy(&r2[4 * (cols * 5 + 2)], &b, 4);
    CHECK_FALSE(tensor_chunk_convert(ST_DTYPE_F32, r2.data() + plan[1].begin, plan[1], rows, cols, blob.p, &scratch, &err));
    CHECK(err.find("row 5") != std::string::npos);
  }
  const unsigned char* p;
  const std::string ok = checked_record("abc", 3);
  CHECK(checked_record_open(ok.data(), ok.size(), 3, &p));
  CHECK(std::memcmp(p, "abc", 3) == 0);
  CHECK_FALSE(checked_record_open(ok.data(), ok.size(), 2, &p));
}

// [SECTION] which chunks go into one request

static const uint64_t KiB = 1024, MiB = 1024 * 1024;

TEST_CASE("chunk ranges: neighbours ride along up to the range's size, forwards first", "[checkpoint_remote]") {
  // A matrix's 2 MiB chunks with 256-byte norms between them, back to back.
  std::vector<range_candidate> c;
  uint64_t at = 4096;
  for (int i = 0; i < 6; i++) {
    c.push_back({at, i % 2 ? 256 : 2 * MiB});
    at += c.back().bytes;
  }
  const range_never_read none;
  range_span s = range_grow(c, 0, 4 * MiB + 256, 64 * KiB, none);
  CHECK(s.first == 0);
  CHECK(s.last == 2);  // 2 MiB + 256 + 2 MiB: the next norm would pass 4 MiB + 256
  CHECK(s.begin == 4096);
  CHECK(s.end == 4096 + 4 * MiB + 256);
  CHECK(s.gap == 0);
  s = range_grow(c, 3, 4 * MiB + 256, 64 * KiB, none);  // forwards first (a norm, a matrix, a norm); back would pass it
  CHECK(s.first == 3);
  CHECK(s.last == 5);
  s = range_grow(c, 4, 4 * MiB + 256, 64 * KiB, none);  // then back
  CHECK(s.first == 3);
  CHECK(s.last == 5);
  s = range_grow(c, 5, 4 * MiB + 256, 64 * KiB, none);
  CHECK(s.first == 3);
  CHECK(s.last == 5);
  s = range_grow(c, 2, 1 * MiB, 64 * KiB, none);  // a seed larger than the range is asked for alone
  CHECK(s.first == 2);
  CHECK(s.last == 2);
}

TEST_CASE("chunk ranges: a gap is read through when it is at most 64 KiB or an eighth of the range, in all", "[checkpoint_remote]") {
  const range_never_read none;
  // 1 KiB wanted, 63 KiB not, 1 KiB wanted: the gap goes along.
  range_span s = range_grow({{0, KiB}, {64 * KiB, KiB}}, 0, 8 * MiB, 64 * KiB, none);
  CHECK(s.last == 1);
  CHECK(s.gap == 63 * KiB);
  // 100 KiB of gap between 1 KiB pieces: neither 64 KiB nor an eighth. Split.
  s = range_grow({{0, KiB}, {101 * KiB, KiB}}, 0, 8 * MiB, 64 * KiB, none);
  CHECK(s.last == 0);
  // The same gap between 1 MiB pieces is under an eighth of the range: read through.
  s = range_grow({{0, MiB}, {MiB + 100 * KiB, MiB}}, 0, 8 * MiB, 64 * KiB, none);
  CHECK(s.last == 1);
  CHECK(s.gap == 100 * KiB);
  // Gaps add up: three of 40 KiB between 1 KiB pieces pass 64 KiB at the second.
  s = range_grow({{0, KiB}, {41 * KiB, KiB}, {82 * KiB, KiB}, {123 * KiB, KiB}}, 0, 8 * MiB, 64 * KiB, none);
  CHECK(s.last == 1);
  CHECK(s.gap == 40 * KiB);
  // No gap bytes at all when gap_bytes is 0 and the pieces are small.
  s = range_grow({{0, KiB}, {2 * KiB, KiB}}, 0, 8 * MiB, 0, none);
  CHECK(s.last == 0);
}

TEST_CASE("chunk ranges: a tensor nobody planned is never read through, whatever its size", "[checkpoint_remote]") {
  range_never_read decoy;
  decoy.add(10 * KiB, 10 * KiB + 96);  // a 96-byte model.visual.* norm between two wanted tensors
  decoy.add(50 * KiB, 60 * KiB);
  decoy.add(55 * KiB, 58 * KiB);  // (overlapping extents merge)
  REQUIRE(decoy.extents.size() == 2);
  CHECK(decoy.clear(0, 10 * KiB));
  CHECK(!decoy.clear(0, 10 * KiB + 1));
  CHECK(!decoy.clear(10 * KiB + 95, 20 * KiB));
  CHECK(decoy.clear(10 * KiB + 96, 50 * KiB));
  CHECK(!decoy.clear(59 * KiB, 70 * KiB));
  CHECK(decoy.clear(60 * KiB, 70 * KiB));
  CHECK(decoy.clear(5, 5));  // an empty gap touches nothing
  const std::vector<range_candidate> c = {{0, 10 * KiB}, {10 * KiB + 96, 4 * KiB}, {14 * KiB + 96, KiB}};
  range_span s = range_grow(c, 0, 8 * MiB, 64 * KiB, decoy);
  CHECK(s.last == 0);
  s = range_grow(c, 2, 8 * MiB, 64 * KiB, decoy);  // backwards it stops at the decoy too
  CHECK(s.first == 1);
  CHECK(s.last == 2);
}
