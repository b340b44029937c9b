// Why a request for bytes failed, as data: the page and the CLI turn it into words through the
// string table (both languages), so no message is built in English and shown in Chinese.
#pragma once

#include <cstdint>
#include <string>

#include "core/read_error.h"

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
  STREAM_FAULT_COUNT
};

struct stream_error {
  stream_fault fault = STREAM_OK;
  int status = 0;       // the HTTP status, when there was one
  uint64_t got = 0, want = 0;  // bytes, for truncations
  double seconds = 0;          // the stall limit, for stalls
  read_error reason;    // STREAM_FORMAT: why the bytes could not be read, as data (worded by the page)
  std::string detail;   // what is no language: a dtype's name, a tensor name; or the platform's words
  bool failed() const { return fault != STREAM_OK; }
};

// The fault an HTTP status (0: none) stands for.
stream_error stream_error_from_status(int status, const std::string& platform_words);
