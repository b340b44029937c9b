// Checking an answer against its request and its file's identity (see range_check.h).
#include "core/checkpoint_remote/range_check.h"

#include <algorithm>

#include "core/checkpoint_remote/checkpoint_limits.h"

static std::string etag_core(const std::string& e) { return e.rfind("W/", 0) == 0 ? e.substr(2) : e; }

bool etag_same(const std::string& a, const std::string& b) { return etag_core(a) == etag_core(b); }

bool etag_same_encoded(const std::string& answer, const std::string& file) {
  const std::string a = etag_core(answer), f = etag_core(file);
  if (etag_same(a, f)) return true;
  if (f.size() < 2 || f.back() != '"' || a.size() < f.size() || a.compare(0, f.size() - 1, f, 0, f.size() - 1) != 0) return false;
  for (const char* suffix : {"-gzip\"", "-br\"", "-zstd\"", "-deflate\""})
    if (a.compare(f.size() - 1, std::string::npos, suffix) == 0) return true;
  return false;
}

bool range_same_file(const file_identity& id, uint64_t size, const std::string& etag) {
  return size == id.size && etag_same(etag, id.etag);
}

stream_error range_file_mismatch(const file_identity& id, uint64_t size, const std::string& etag) {
  if (range_same_file(id, size, etag)) return stream_error();
  // A strong ETag names one sequence of bytes; a weak one ("W/") may stay while they change.
  const bool strong = id.etag.rfind("W/", 0) != 0 && etag.rfind("W/", 0) != 0;
  if (!id.etag.empty() && strong && etag == id.etag && size != 0 && id.size != 0) return stream_error_sizes(STREAM_SIZE_CONFLICT, size, id.size);
  return stream_error_of(STREAM_FILE_CHANGED);
}

uint64_t range_max_bytes(uint64_t length, uint64_t chunk_bytes) { return std::max(length, chunk_bytes) + CKPT_RANGE_SLACK; }

const unsigned char* range_answer_slice(const fetch_request& q, const file_identity& id, const fetch_response& r, uint64_t begin,
                                        uint64_t length, stream_error* e) {
  const unsigned char* body = (const unsigned char*)r.body;
  if (r.status != 200 && r.status != 206) return *e = fetch_answer_error(r), nullptr;
  if (r.cut) return *e = stream_error_of(STREAM_NO_RANGE), nullptr;  // more than a range: the host ignores Range
  const uint64_t asked = q.length ? q.length : id.size;  // length 0: the whole file was asked for
  if (begin < q.begin || length > asked || begin - q.begin > asked - length)
    return *e = stream_error_of(STREAM_WRONG_RANGE), nullptr;  // not a slice of what was asked: the caller's mistake
  if (r.status == 206) {
    // The identity first: a replaced file's range is no use wherever it starts.
    const stream_error other = range_file_mismatch(id, r.total_size, r.etag);
    if (other.failed()) return *e = other, nullptr;
    if (r.content_range_start != q.begin) return *e = stream_error_of(STREAM_WRONG_RANGE), nullptr;
    const uint64_t at = begin - q.begin;  // a body cut short still holds the slices before the cut
    if (r.n < at + length) return *e = stream_error_sizes(STREAM_TRUNCATED, r.n > at ? r.n - at : 0, length), nullptr;
    return body + at;
  }
  // 200, the whole file: a shorter body than the file's size is a cut-short answer of the same
  // file only if the host says the same version; otherwise it is another file. Asked for whole (no
  // Range), the answer may be a compressed form of the file, which some hosts name with a suffix.
  const bool same_version = q.length == 0 ? etag_same_encoded(r.etag, id.etag) : etag_same(r.etag, id.etag);
  if (!same_version || r.n > id.size) return *e = range_file_mismatch(id, r.n, r.etag), nullptr;
  if (r.n < id.size) return *e = stream_error_sizes(STREAM_TRUNCATED, r.n, id.size), nullptr;
  if (begin > r.n || length > r.n - begin) return *e = stream_error_sizes(STREAM_TRUNCATED, r.n, begin + length), nullptr;
  return body + begin;
}

const unsigned char* range_answer_bytes(const fetch_request& q, const file_identity& id, const fetch_response& r,
                                        stream_error* e) {
  return range_answer_slice(q, id, r, q.begin, q.length, e);
}
