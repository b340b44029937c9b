// Two controls of the live header about downloads rather than the lesson (beside live_header.h,
// so each stays small): on the synthetic default, one tap to the real Qwen3.5-0.8B from Hugging
// Face with what it will download; and Clear for the verified weight cache, which says what it freed.
#pragma once

#include "core/link/lab_state.h"
#include "core/experiments/live_session.h"

void model_offer_draw(lab_state* s, live_session* ls, const live_choice& c);
// `now`: the frame's clock, which paces the bytes it names while the caches fill.
void cache_clear_draw(live_session* ls, double now);
// What both caches hold now, in bytes (Clear is drawn when it is more than 0).
uint64_t cache_bytes_held();
