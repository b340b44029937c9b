// The QR code's words (see qr_text.h).
#include "core/link/qr_text.h"

#include "core/base/number_format.h"
#include "core/base/strings.h"

std::vector<std::string> qr_text_lines(const qr_code& code, size_t text_bytes, float px_per_module) {
  if (code.status == QR_TOO_LONG)
    return {strf(tr(STR_QR_TOO_LONG), fmt_count(int64_t(text_bytes)).c_str(), fmt_count(QR_MAX_BYTES).c_str())};
  if (code.status != QR_OK) return {tr(STR_QR_FAILED)};
  const std::string size = fmt_count(code.size), px = fmt_sig3(px_per_module);
  std::vector<std::string> lines = {
      tr(STR_QR_SCAN),
      strf(tr(STR_QR_DETAILS), fmt_count(code.version).c_str(), size.c_str(), size.c_str(), qr_level_name(code.level), px.c_str())};
  if (px_per_module < QR_SMALL_PX) lines.push_back(strf(tr(STR_QR_SMALL), px.c_str()));
  return lines;
}
