// Why a request for bytes failed, as data: the page and the CLI turn it into words through the
// string table (both languages), so no message is built in English and shown in Chinese.
#pragma once

#include <cstdint>
#include <string>

#include "core/base/read_error.h"
#include "core/stream/fetch_seam.h"

enum stream_fault {
  STREAM_OK,
  STREAM_NETWORK,        // no HTTP answer: offline, refused, or blocked by CORS
  STREAM_NOT_FOUND,      // 404
  STREAM_DENIED,         // 401 / 403: gated or private
  STREAM_RANGE,          // 416: the file is shorter than listed
  STREAM_SERVER,         // 5xx
  STREAM_HTTP,           // any other status
  STREAM_TRUNCATED,      // fewer bytes than asked
  STREAM_WRONG_RANGE,    // a 206 for another range than asked
  STREAM_NO_RANGE,       // the host ignores Range and sends a whole large file
  STREAM_CHECKSUM,       // the bytes are not the ones listed (xxh3, or the file changed: ETag)
  STREAM_FORMAT,         // the bytes are there but unreadable (detail says why)
  STREAM_STALLED,        // no byte for the stall limit
  STREAM_CANCELLED,      // the user pressed Cancel
  STREAM_OFFLINE_UNCACHED,  // offline, and never fetched here before
  // A checkpoint read by byte ranges (checkpoint_source) that is there but not for this page:
  STREAM_NO_SAFETENSORS,     // only pytorch_model.bin (pickle): no safetensors to read by ranges
  STREAM_UNREADABLE_DTYPE,   // FP8, GPTQ/AWQ int4, bitsandbytes, ...: detail names it
  STREAM_NOT_SWIGLU,         // no gate_proj, or hidden_act is not silu
  STREAM_MIXTURE_OF_EXPERTS, // many MLPs per layer, not the lesson's one
  STREAM_NEEDS_IDS,          // no tokenizer we know for this model: the link must carry ids=
  // What a hostile or careless host can do:
  STREAM_TOO_LARGE,          // the file is larger than the page reads for it (want: the limit); stopped as it came
  STREAM_FILE_CHANGED,       // the file's ETag or size is not its header's: what came from it is dropped, read again
  STREAM_NO_ROOM,            // more than the page holds at once (want: bytes needed, got: the page's budget)
  STREAM_TOO_MANY_REQUESTS,  // 429 again after waiting the Retry-After once (seconds: how long it waited)
  STREAM_REDIRECT,           // a redirect the browser would not follow: a loop, another scheme, or CORS at its target
  STREAM_SIZE_CONFLICT,      // the same version (ETag) of a file at two sizes (got, want): reading again would not help
  // The whole model (core/model/):
  STREAM_UNSUPPORTED,        // a layer type, window or RoPE the forward pass cannot run (reason names it)
  STREAM_WORKER_STOPPED,     // the page's model worker died (out of memory, a crash): detail is the browser's words
  STREAM_FAULT_COUNT
};

struct stream_error {
  stream_fault fault = STREAM_OK;
  int status = 0;       // the HTTP status, when there was one
  uint64_t got = 0, want = 0;  // bytes, for truncations
  double seconds = 0;          // the stall window, for stalls (got: the bytes that came in it, when any)
  read_error reason;    // STREAM_FORMAT: why the bytes could not be read, as data (worded by the page)
  std::string detail;   // what is no language: a dtype's name, a tensor name; or the platform's words
  // STREAM_NEEDS_IDS because the checkpoint's tokenizer.json could not be fetched: that fetch's
  // fault (its status, sizes and words are this error's own fields).
  stream_fault cause = STREAM_OK;
  bool failed() const { return fault != STREAM_OK; }
};

// A fault with its reason as data (worded by the page, in its language), or with a detail that
// is no language (a dtype's name).
stream_error stream_error_of(stream_fault f, read_error why = read_error());
stream_error stream_error_detail(stream_fault f, const std::string& detail);
// Sizes: STREAM_TOO_LARGE (got: what came, want: the limit), STREAM_NO_ROOM (want: needed, got: budget),
// STREAM_TRUNCATED (got of want).
stream_error stream_error_sizes(stream_fault f, uint64_t got, uint64_t want);

// The fault an HTTP status (0: none) stands for.
stream_error stream_error_from_status(int status, const std::string& platform_words);
// The fault of a network answer with no usable body: its status's, or a redirect the browser
// would not follow (STREAM_REDIRECT). A 206 where a whole file was asked counts as no answer.
stream_error fetch_answer_error(const fetch_response& r);
