// The class link's wire pieces (ans=, class_answers.h): a number as the page printed it, as a small
// integer code and back; base64url, the link's own characters; a token's piece, packed so that a
// Chinese character takes two bytes. class_answers_io.h writes and reads the format with them.
#pragma once

#include <cstdint>
#include <string>

#include "core/views/class_answers.h"
#include "core/views/gates_figure.h"  // GATES_SHOWN_BINS

namespace answers_wire {

// Bounds of the format: what a page's question and reply hold at most (a prompt is at most
// MODEL_MAX_TOKENS tokens; the lists are 10, 5 and 8 long), with room to spare, and what keeps a
// hostile link from asking for more memory than its own length justifies.
enum {
  kMaxList = 64,          // next tokens, units, tokens a unit writes toward, gate layers
  kMaxTokens = 4096,      // the token table
  kMaxPiece = 256,        // bytes of one token's piece
  kMaxRevision = 128,     // hex digits or bytes of the revision
  kMaxFormat = 32,
  kMaxName = 256,
  kMaxThresholdText = 32,
  kShownBins = GATES_SHOWN_BINS + 1,  // the histogram as drawn: 30 bins and the overflow bar
};
constexpr int64_t kMaxCount = int64_t(1) << 40;  // a gate count: T * intermediate, far below
constexpr int64_t kMaxSix = 1000000000000000;     // |value| * 1e6 below 1e15: exact in a double
constexpr int kMaxPercentDecimals = 50;           // a probability's "0.00…67 %": p down to about 1e-51
constexpr int kPercentMantissas = 91;             // the two significant digits: 10 … 100

// [SECTION] numbers as the page printed them
// A probability as fmt_percent1 prints it ("20.9 %", "0.0067 %") and back: false for a value or a
// code outside the format.
bool percent_code(double p, uint64_t* code);
bool percent_value(uint64_t code, double* p);
// A value as fmt6 prints it ("-12.345678") and back.
bool six_code(float v, uint64_t* code);
bool six_value(uint64_t code, float* v);

// [SECTION] base64url (RFC 4648 §5, no padding)
std::string b64_encode(const std::string& bytes);
// Appends the bytes to *bytes: ANSWERS_ALPHABET or ANSWERS_TRUNCATED when the text is not base64url.
answers_refusal_code b64_decode(const std::string& text, std::string* bytes);

// [SECTION] text
bool utf8_ok(const std::string& s);
// A token's piece, packed (see the .cpp) and back: false when the packed bytes do not decode.
std::string piece_pack(const std::string& utf8);
bool piece_unpack(const std::string& packed, std::string* utf8);

}  // namespace answers_wire
