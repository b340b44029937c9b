// The live header's offer on the synthetic default: "the real Qwen3.5-0.8B from Hugging Face",
// with what it will download, computed from the model's dims and the layers the view shows (the
// checkpoint is BF16: the shown layers' gate matrices, up and down for a layer shown whole, the
// probe's embedding rows and one norm vector; docs/checkpoint.md "What is fetched"). Also the
// words of the cache's Clear button. Pure core: numbers and strings.
#pragma once

#include <cstdint>
#include <string>

#include "core/link/lab_state.h"
#include "core/experiments/live_session.h"

#define MODEL_OFFER_LOCATION "hf:Qwen/Qwen3.5-0.8B"

// Weight bytes a checkpoint read by ranges fetches for a view: `gate_layers` gate matrices,
// `whole_layers` of them also with up and down, `tokens` embedding rows and one norm vector,
// each value `bytes_per_value` bytes (2: BF16).
uint64_t checkpoint_view_bytes(int64_t hidden, int64_t intermediate, int gate_layers, int whole_layers, int tokens,
                               int bytes_per_value = 2);
// The offer shows on a synthetic source opened from a pack (no model=), once it is open, and
// never on a locked link (lock=1): a student keeps the teacher's source.
bool model_offer_shown(const live_session& ls, const lab_state& s);
// Its bytes for the view now: the source's dims, the layers the view shows (the histograms'
// gate matrices, or one layer whole for the per-token and weights views), the probe's tokens.
uint64_t model_offer_bytes(const live_session& ls, const live_choice& c);
// "The real Qwen3.5-0.8B from Hugging Face (21.0 MiB)"; on a phone without "from Hugging Face"
// (the tooltip and the mirror say where from).
std::string model_offer_button(uint64_t bytes, bool narrow = false);
std::string model_offer_detail(uint64_t bytes);  // the tooltip and the mirror: what it costs, and from where
// The whole model's offer (the rule book, the flow, the gates view on the stream): the real model's
// download before its index is read, from its parameter count (lesson/model_budget.h, BF16); the
// worker names the exact bytes once it has read the headers.
uint64_t model_offer_whole_bytes();
std::string model_offer_whole_button(bool narrow = false);  // "The real Qwen3.5-0.8B from Hugging Face (about 1.5 GB)"
// Shown on the built-in model, never on a locked link (a student keeps the teacher's model).
bool model_offer_whole_shown(const model_session& ms, const lab_state& s);
// The state with model= set to the real model, every other setting kept.
void model_offer_apply(lab_state* s);

std::string cache_clear_button(uint64_t bytes);   // "Clear cached weights (21.0 MiB)"
std::string cache_cleared_text(uint64_t freed);   // the confirmation of what it freed
