// A class link too fine for a QR code read from the back of a room: the same link with fewer of
// its answers (ans=). A teacher who added the rule book, three switch-offs and the flow gets a
// code of version 35 or more, under 6 px a module on a 1080-line projector; the first answers
// alone make a coarser code. The QR card (ui/qr_panel.cpp) offers it, says what it leaves out,
// and Copy link still sends every answer.
//
// This file only trims the link and names the answers: whether a link's code is coarse enough is
// the caller's to say (it knows the encoder and the screen).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/views/class_answers.h"

struct lighter_link {
  std::string link;                   // the page's address with the first `kept` answers ("": none offered)
  size_t kept = 0, total = 0;
  bool coarse_enough = false;         // its code reaches the caller's aim (else: the one-answer link, the coarsest there is)
  std::vector<std::string> left_out;  // answers kept + 1 … total, named as class_answer_title names them
};

// The link `url` (an address with its #fragment, as the page shows it) with the most of its
// answers, in their order, whose code `coarse_enough` accepts, found in a few encodes (a shorter
// link makes a code as coarse or coarser, but for the switch from level M to L near 1 KB). None
// accepted: the first answer alone. Nothing offered (link empty) when the link carries fewer than
// two answers, or answers this page refuses.
lighter_link class_link_lighter(const std::string& url, const std::function<bool(const std::string&)>& coarse_enough);

// An answer as the page names it in a list: its views, its prompt, what it switches off or picks,
// e.g. "Rule book: '中国' '的' '首都' '是', switched off: Layer 23, unit 75".
std::string class_answer_title(const carried_answer& a);

// The QR card's words for it, in the page's language: the offer (`shown` false) or what the
// lighter code leaves out (`shown` true); `px`: the lighter code's pixels a module as drawn.
std::vector<std::string> class_link_lighter_lines(const lighter_link& l, bool shown, float px);
// The card's button: "Show the lighter code (2 of 5 answers)", or back to the whole link.
std::string class_link_lighter_button(const lighter_link& l, bool shown);
