// A text (the page's link) as a QR code, so a class scans the projected view with their phones.
// The encoder is Debian's libqrencode (cmake/qrencode.cmake); this file only chooses how to call
// it and hands back the module grid, which the page draws (ui/qr_panel.cpp) and the tests decode
// with zbarimg (tests/core/qr_code_test.cpp).
//
// Byte mode, whatever the text: a link is percent-encoded ASCII with lower-case letters, which
// QR's alphanumeric mode cannot hold, and byte mode keeps any UTF-8 exactly.
//
// The error-correction level, for a projector: a projected code is flat and clean, so what stops a
// phone at the back of a room is a module too small to resolve, not damage. Short texts take M
// (15 % of the code may be lost: glare, a keystoned image, a head in the way) while the code stays
// at most version QR_M_MAX_VERSION; longer ones take L (7 %), which holds the most per module and so
// keeps them as coarse as they can be (a 1,500-byte link: version 28 at L, 32 at M; on 1,080 lines
// that is 7 px a module instead of 6). Above QR_MAX_BYTES no version holds the text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#define QR_QUIET_ZONE 4       // modules of white around the code that readers need (ISO/IEC 18004)
#define QR_MAX_BYTES 2953     // byte mode at version 40, level L
#define QR_M_MAX_VERSION 25   // 117 modules: beyond this the text is long, and L keeps it coarser

enum qr_level { QR_LEVEL_L, QR_LEVEL_M };
enum qr_status {
  QR_OK,
  QR_EMPTY,     // nothing to encode
  QR_TOO_LONG,  // more than QR_MAX_BYTES: no version holds it
  QR_FAILED,    // the encoder failed otherwise (out of memory)
};

struct qr_code {
  qr_status status = QR_EMPTY;
  int version = 0;             // 1 … 40
  int size = 0;                // modules a side, 17 + 4 * version (the quiet zone not included)
  qr_level level = QR_LEVEL_M;
  std::vector<uint8_t> dark;   // size * size, row by row: 1 = a dark module
  bool at(int x, int y) const { return dark[size_t(y) * size_t(size) + size_t(x)] != 0; }
};

// The text's bytes as a QR code: the smallest version at the chosen level (see above).
qr_code qr_encode_text(const std::string& text);
// The CSS pixels a module gets when the code, quiet zone included, is drawn as large as fits a
// square of `side` CSS pixels at `scale` device pixels each, every module a whole number of
// device pixels (at least one).
float qr_px_per_module(const qr_code& code, float side, float scale);
// "L", "M": the level as printed.
const char* qr_level_name(qr_level level);
