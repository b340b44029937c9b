// Is this answer the bytes that were asked for, of the file whose header was read? Every answer
// for a checkpoint's bytes is checked here against its request (a 206 starts where asked and
// brings at least the range) and against the file's identity as its header came (the size from
// Content-Range's total, or a 200's length, and the ETag the host itself sent: weak and strong
// compare equal). A file replaced on the host shows as STREAM_FILE_CHANGED, whatever the answer's
// status: the caller drops what it made of that file and reads its header again.
#pragma once

#include <cstdint>
#include <string>

#include "core/stream/fetch_seam.h"
#include "core/stream/stream_error.h"

// One file of a checkpoint as its header came: where, how large, and which version.
struct file_identity {
  std::string file;  // "model-00001-of-00002.safetensors"
  std::string url;
  std::string etag;  // as the host sent it; "" when it sends none (then the size alone tells)
  uint64_t size = 0;
};

// "W/\"x\"" and "\"x\"" name the same version (a proxy may weaken a strong ETag).
bool etag_same(const std::string& a, const std::string& b);
// The same, or the file's ETag with an encoding's suffix ("\"x-gzip\"", -br, -zstd, -deflate): how
// Apache and Caddy name a compressed answer of the file "\"x\"" (a whole file asked without Range).
bool etag_same_encoded(const std::string& answer, const std::string& file);
// The answer's file is the identity's file: same size, same ETag (both sent, or neither).
bool range_same_file(const file_identity& id, uint64_t size, const std::string& etag);
// Why not: STREAM_FILE_CHANGED (another version: read it again), or STREAM_SIZE_CONFLICT (the
// same strong ETag at another size: the host contradicts itself, and reading again would not help).
// STREAM_OK when it is the same file.
stream_error range_file_mismatch(const file_identity& id, uint64_t size, const std::string& etag);

// The requested bytes [q.begin, q.begin + q.length) out of a network answer (not a cached one):
// the range itself (206) or a slice of the whole file (200, from a host that ignores Range and
// sent a small file whole). Null with *e set: the status's fault, STREAM_NO_RANGE (the transport
// cut a whole large file), STREAM_WRONG_RANGE, STREAM_TRUNCATED or STREAM_FILE_CHANGED.
const unsigned char* range_answer_bytes(const fetch_request& q, const file_identity& id, const fetch_response& r,
                                        stream_error* e);
// One slice [begin, begin + length) of a ranged answer that asked for more (several tensors in one
// range, or the whole file: q.length 0): the same checks, and each slice on its own, so a body cut
// short still gives the slices that came whole (the others: STREAM_TRUNCATED). A slice outside the
// request is STREAM_WRONG_RANGE.
const unsigned char* range_answer_slice(const fetch_request& q, const file_identity& id, const fetch_response& r, uint64_t begin,
                                        uint64_t length, stream_error* e);

// The most a ranged request may bring before the transport stops it: a host that ignores Range
// sends a small file whole (sliced here), a large one is cut after a chunk's worth.
uint64_t range_max_bytes(uint64_t length, uint64_t chunk_bytes);
