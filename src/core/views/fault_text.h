// Download and read faults in words, in the current language: one table of words for every
// fault, read by the live header, the whole-model views and the CLI's errors.
#pragma once

#include <string>

#include "core/source/layer_source.h"
#include "core/stream/stream_error.h"

// "HTTP 404: not on the server"
std::string live_fault_text(const stream_error& e);
// "layer-011-gate.q8: HTTP 404: not on the server"
std::string live_failure_text(const source_failure& f);
// Why a sentence has no ids: the tokenizer's reason, or the fault that kept tokenizer.json from
// coming ("" when there is none).
std::string fault_needs_ids_why(const stream_error& e);
