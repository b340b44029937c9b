// What the page says with the QR code of its link (ui/qr_panel.cpp), and the same lines in the
// text mirror: what to do with it, what the code is, and when it cannot be made or is too fine
// to scan from afar. Every number is printed here (number_format.h), never by the panel.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/link/qr_code.h"

// Below this many CSS pixels a module (about as many physical pixels on a laptop or a projector),
// a phone a few metres away no longer resolves the code: the page says so.
#define QR_SMALL_PX 4.0f
// The aim for a class at the back of a room: a class link whose code is finer than this offers
// the same link with fewer answers (core/views/class_link_lighter.h).
#define QR_FAR_PX 6.0f

// The lines under (or beside) the code, in the page's language: for a code drawn at
// `px_per_module` CSS pixels, or why there is none (`text_bytes`: the link's length).
std::vector<std::string> qr_text_lines(const qr_code& code, size_t text_bytes, float px_per_module);
