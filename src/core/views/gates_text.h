// The gates view's rows as words and as a light SVG, from gate rows however they were counted:
// the app's mirror (live_view.cpp, from the session) and the page's early text (src/early/, from
// the default pack's manifest alone) both print through here, so they cannot drift.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/link/lab_state.h"
#include "core/experiments/gate_activity.h"
#include "core/views/view_rows.h"

struct pack_manifest;

// Which layers the histograms show for the link's `pl` list: the listed ones the source has (no
// repeats, at most `max`), else every layer when they fit, else the first, middle and last.
// `dropped`: a listed value was refused (the page says so).
std::vector<int> gates_shown_layers(const std::vector<int64_t>& asked, const std::vector<int>& model_layers, size_t max,
                                    bool* dropped);

// The sentence under the histograms: what the numbers shown say, and the lesson's real figures
// beside them when the weights are synthetic.
std::vector<std::string> live_gate_summary(const std::vector<gate_row>& rows, double thr, bool synthetic);

// The legend over the histograms: "open: silu(gate) > 0.1", "negative: silu(gate) < -0.1".
std::vector<std::string> gates_legend_lines(double thr);

// One layer's column as the panel draws it and the mirror prints it: "Layer 0", its state (live,
// precomputed, waiting) and its three shares (above +thr, below -thr, between).
view_row gates_layer_row(const gate_row& r, double thr);

// "Computed on: the lessons' recipe (...)" or "...: the residual stream each layer really reads (...)" (in=).
std::string gates_input_line(const lab_state& s);

// The gates view's mirror below the header: what the counts are computed on, the threshold line, `token_line` (the one token
// shown, "" for all), a line per layer with its shares, the summary.
std::string gates_rows_text(const lab_state& s, const std::vector<gate_row>& rows, bool synthetic,
                            const std::string& token_line);

// The histograms, one <svg class="gates-svg"> per row holding a <g class="gates-layer"
// data-layer="N"> with its title and bars: the panel's bins, colours and ticks (gates_figure.h)
// against `thr`.
std::string gates_histogram_svg(const std::vector<gate_row>& rows, double thr);

// The rows the page shows the moment the default pack's manifest is in (its own counts, at the
// lessons' threshold, over every token): false when the link asks for what the manifest cannot
// answer (another threshold, one token) or names another source.
bool gates_rows_from_manifest(const lab_state& s, const pack_manifest& m, size_t max_layers, std::vector<gate_row>* rows);
