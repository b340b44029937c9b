// A text as a QR code through libqrencode (see qr_code.h for the choices).
#include "core/link/qr_code.h"

#include <algorithm>
#include <cerrno>
#include <cmath>

#include "qrencode.h"

const char* qr_level_name(qr_level level) { return level == QR_LEVEL_L ? "L" : "M"; }

// The smallest version that holds the text at `level` (libqrencode picks it when asked for 0).
static qr_code encode_at(const std::string& text, qr_level level) {
  qr_code out;
  out.level = level;
  errno = 0;
  QRcode* c = QRcode_encodeData(int(text.size()), reinterpret_cast<const unsigned char*>(text.data()), 0,
                                level == QR_LEVEL_L ? QR_ECLEVEL_L : QR_ECLEVEL_M);
  if (!c) {
    out.status = errno == ERANGE ? QR_TOO_LONG : QR_FAILED;
    return out;
  }
  out.status = QR_OK;
  out.version = c->version;
  out.size = c->width;
  out.dark.resize(size_t(c->width) * size_t(c->width));
  for (size_t i = 0; i < out.dark.size(); ++i) out.dark[i] = c->data[i] & 1;  // bit 0: dark; the rest says which part
  QRcode_free(c);
  return out;
}

qr_code qr_encode_text(const std::string& text) {
  qr_code out;
  if (text.empty()) return out;
  if (text.size() > QR_MAX_BYTES) {  // before the encoder: a huge text costs nothing
    out.status = QR_TOO_LONG;
    out.level = QR_LEVEL_L;
    return out;
  }
  out = encode_at(text, QR_LEVEL_M);
  if (out.status == QR_FAILED || (out.status == QR_OK && out.version <= QR_M_MAX_VERSION)) return out;
  return encode_at(text, QR_LEVEL_L);
}

float qr_px_per_module(const qr_code& code, float side, float scale) {
  if (code.status != QR_OK || scale <= 0) return 0;
  const float modules = float(code.size + 2 * QR_QUIET_ZONE);
  return std::max(1.0f, std::floor(std::max(side, 0.0f) * scale / modules)) / scale;
}
