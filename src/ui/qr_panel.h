// The QR code of the page's link: a "QR code" button in the top bar shows the current address
// (platform_page_url) as a QR code over the page, black on white with its quiet zone, as large as
// the screen allows (on a projector's ui=present, nearly its whole height), so a class scans the
// view with their phones. Close, Escape or a tap outside the card closes it. The code itself comes
// from the core (core/link/qr_code.h), its words from core/link/qr_text.h; the mirror says what is
// shown. A class link (ans=) whose code is finer than QR_FAR_PX a module gets the offer of a
// lighter code, the same link with its first answers (core/views/class_link_lighter.h).
// Tests find the button as "qr-code", the drawn code as "qr-image", Close as "qr-close", the
// lighter code's toggle as "qr-lighter".
#pragma once

#include <string>

#include "core/link/qr_code.h"
#include "core/views/class_link_lighter.h"

struct qr_panel {
  bool open = false;
  bool just_opened = false;   // the click that opened it is not a tap outside
  bool needs_frame = false;   // the link changed after this frame's drawing: draw it again
  std::string url;            // the link encoded in `code`
  qr_code code;
  float px_per_module = 0;    // CSS pixels, as last drawn
  // The same link with fewer answers, worked out for the square the code last had (`side` CSS
  // pixels at `scale`); `light`: it is the code shown.
  lighter_link lighter;
  qr_code lighter_code;
  float lighter_side = -1, lighter_scale = 0;
  bool light = false;
  // A lighter link was offered for this link: its lines keep their room in the layout, so the
  // code's square does not shrink and grow with the offer (which depends on the square) frame
  // after frame.
  bool offered = false;
};

// The top bar's button (after "Copy link"; on a projector too, where there is no link to copy).
void qr_panel_button(qr_panel* p);
// The code over the page while open: call once per frame after the page's window.
void qr_panel_draw(qr_panel* p);
// What the mirror adds while it is open ("" when closed); re-reads the link, which the frame may
// have rewritten after drawing.
std::string qr_panel_text(qr_panel* p);
// True while a frame must follow (the link changed since the code was drawn).
bool qr_panel_animating(const qr_panel* p);
