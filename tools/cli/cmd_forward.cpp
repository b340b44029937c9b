// swiglu forward: the whole model on a prompt, through the same host the page's model worker runs
// (core/model/model_host.h), reading a checkpoint directory through the fetch twin as the page
// reads a host: the next tokens, the most active MLP units and what each layer's MLP adds.
//
//   swiglu forward DIR --text "中国的首都是"           the prompt through DIR/tokenizer.json
//   swiglu forward DIR --ids 1,2,3 [--off 23:275,18:65] [--top 5] [--json]
//                  [--position T] [--unit L:U] [--gates 0,11,23 [--thr 0.1]]
//
// --off switches units off (layer:unit): every probability is then given before and after.
// --position picks the token the units and the flow are read at (the rule book's and the flow's
// tok=; default the last), --unit a unit to follow over the prompt (layer=, unit=), --gates the
// layers whose gate shares are counted on the stream and on the lessons' shortcut (in=stream).
// Exit status: 0 ok, 1 a checkpoint or prompt the model cannot run (the reason printed), 2 bad
// arguments.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_args.h"
#include "cli_commands.h"
#include "cli_model.h"
#include "core/views/live_view.h"
#include "core/model/model_host.h"
#include "core/base/number_format.h"
#include "core/base/read_error.h"

static int forward_usage() {
  std::fprintf(stderr,
               "usage: swiglu forward DIR (--text TEXT | --ids ID,ID,...) [--off LAYER:UNIT,...] [--top K] [--json]\n"
      "                      [--position T] [--unit LAYER:UNIT] [--gates LAYER,... [--thr X]]\n");
  return 2;
}

static bool parse_ints(const std::string& s, std::vector<int64_t>* out) {
  out->clear();
  size_t i = 0;
  while (i < s.size()) {
    char* end = nullptr;
    const long long v = std::strtoll(s.c_str() + i, &end, 10);
    if (end == s.c_str() + i) return false;
    out->push_back(v);
    i = size_t(end - s.c_str());
    if (i < s.size() && s[i] != ',') return false;
    i += i < s.size();
  }
  return !out->empty();
}

static bool parse_units(const std::string& s, std::vector<unit_ref>* out) {
  size_t i = 0;
  while (i < s.size()) {
    size_t comma = s.find(',', i);
    if (comma == std::string::npos) comma = s.size();
    const std::string pair = s.substr(i, comma - i);
    const size_t colon = pair.find(':');
    std::vector<int64_t> l, u;
    if (colon == std::string::npos || !parse_ints(pair.substr(0, colon), &l) || !parse_ints(pair.substr(colon + 1), &u) ||
        l.size() != 1 || u.size() != 1 || l[0] < 0 || u[0] < 0 || l[0] > 1000 || u[0] > 1000000)
      return false;
    out->push_back({(int)l[0], (int)u[0]});
    i = comma + 1;
  }
  return !out->empty();
}

// A token as its text in quotes, control characters escaped (a piece may be a newline), or its id.
static std::string piece(const token_text& t) {
  if (t.piece.empty()) return fmt_token_id(t.id);
  std::string out = "'";
  for (unsigned char c : t.piece) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) out += strf("\\x%02x", c);
    else out += char(c);
  }
  return out + "'";
}

int cli_forward(int argc, char** argv) {
  if (argc < 1 || argv[0][0] == '-') return forward_usage();
  const std::string dir = argv[0];
  cli_args a;
  if (!cli_parse_args("forward", argc - 1, argv + 1, {"text", "ids", "off", "top", "position", "unit", "gates", "thr"}, {"json"}, &a)) return forward_usage();
  if (a.has("text") == a.has("ids")) return forward_usage();
  model_question q;
  if (a.has("ids") && !parse_ints(a.get("ids"), &q.ids)) {
    std::fprintf(stderr, "swiglu forward: --ids wants token ids separated by commas\n");
    return 2;
  }
  if (a.has("text")) q.text = a.get("text");
  if (a.has("off") && !parse_units(a.get("off"), &q.off)) {
    std::fprintf(stderr, "swiglu forward: --off wants LAYER:UNIT pairs separated by commas (23:275,18:65)\n");
    return 2;
  }
  if (a.has("position")) q.position = std::atoi(a.get("position").c_str());
  std::vector<unit_ref> picked;
  if (a.has("unit") && (!parse_units(a.get("unit"), &picked) || picked.size() != 1)) {
    std::fprintf(stderr, "swiglu forward: --unit wants one LAYER:UNIT pair (23:275)\n");
    return 2;
  }
  if (!picked.empty()) q.unit = picked[0];
  std::vector<int64_t> gate_layers;
  if (a.has("gates") && !parse_ints(a.get("gates"), &gate_layers)) {
    std::fprintf(stderr, "swiglu forward: --gates wants layers separated by commas (0,11,23)\n");
    return 2;
  }
  for (int64_t l : gate_layers) q.gate_layers.push_back((int)l);
  if (a.has("thr")) q.threshold = std::atof(a.get("thr").c_str());
  const int top = a.has("top") ? std::atoi(a.get("top").c_str()) : 5;
  if (top < 1 || top > MODEL_TOP_TOKENS) {
    std::fprintf(stderr, "swiglu forward: --top is 1 to %d\n", (int)MODEL_TOP_TOKENS);
    return 2;
  }

  // The directory served as a host serves it: the page's reader, limits and checks, unchanged.
  cli_model m(dir);
  if (!cli_model_load("forward", &m)) return 1;
  model_host& host = m.host;
  const model_reply r = host.answer(q);
  if (r.error.fault != STREAM_OK) {  // the prompt: its ids, or the tokenizer's reason
    std::fprintf(stderr, "swiglu forward: %s\n", r.error.reason.set() ? read_error_text(r.error.reason).c_str() : live_fault_text(r.error).c_str());
    return 1;
  }
  if (a.flag("json")) {
    std::printf("%s\n", model_reply_json(r).c_str());
    return 0;
  }
  const model_status s = host.status();
  std::printf("%s: %d layers (%d linear attention), hidden %d, intermediate %d, vocabulary %d\n", s.name.c_str(), s.layers,
              s.linear_layers, s.hidden, s.intermediate, s.vocab);
  std::printf("prompt (%zu tokens):", r.prompt.size());
  for (const token_text& t : r.prompt) std::printf(" %s", piece(t).c_str());
  std::printf("\n\nnext token after position %d%s\n", r.position, q.off.empty() ? "" : " (before -> with the units off)");
  for (int i = 0; i < top && i < (int)r.top.size(); i++) {
    const model_next_token& t = r.top[(size_t)i];
    if (q.off.empty())
      std::printf("  %-24s %s\n", piece(t.token).c_str(), fmt_percent1(t.p).c_str());
    else
      std::printf("  %-24s %s\n", piece(t.token).c_str(), fmt_before_after(fmt_percent1(t.p_before), fmt_percent1(t.p)).c_str());
  }
  if (!q.off.empty() && !r.before_top.empty()) {
    std::printf("\nthe top before the switch-off -> with it\n");
    for (int i = 0; i < top && i < (int)r.before_top.size(); i++) {
      const model_next_token& t = r.before_top[(size_t)i];
      std::printf("  %-24s %s\n", piece(t.token).c_str(), fmt_before_after(fmt_percent1(t.p_before), fmt_percent1(t.p)).c_str());
    }
  }
  std::printf("\nmost active MLP units at position %d (silu(gate)*up), and the tokens each writes toward\n", r.position);
  for (const model_unit_row& u : r.units) {
    std::printf("  L%d:%-6d %10s ", u.unit.layer, u.unit.unit, fmt6(u.value).c_str());
    for (const token_text& t : u.toward) std::printf(" %s", piece(t).c_str());
    std::printf("\n");
  }
  std::printf("\nwhat each layer's MLP adds to the residual stream at position %d (L2 norms)\n", r.position);
  std::printf("  layer  |MLP out|    |stream after|\n");
  for (size_t l = 0; l < r.flow.size(); l++)
    std::printf("  %5zu  %10s  %14s\n", l, fmt6(r.flow[l].mlp_l2).c_str(), fmt6(r.flow[l].out_l2).c_str());
  if (r.picked.unit.layer >= 0) {
    std::printf("\nunit L%d:%d at each token: silu(gate), up, silu(gate)*up\n", r.picked.unit.layer, r.picked.unit.unit);
    for (size_t t = 0; t < r.prompt.size() && t < r.picked_per_token.size(); t++)
      std::printf("  %-24s %10s %10s %10s\n", piece(r.prompt[t]).c_str(), fmt6(r.picked_gate[t]).c_str(), fmt6(r.picked_up[t]).c_str(),
                  fmt6(r.picked_per_token[t]).c_str());
    std::printf("  writes toward:");
    for (const token_text& t : r.picked.toward) std::printf(" %s", piece(t).c_str());
    std::printf("\n");
  }
  if (!r.gate_layers.empty()) {
    std::printf("\nshare of silu(gate) > %s and < -%s: on the stream each layer reads | on the lessons' shortcut\n",
                fmt_short(q.threshold).c_str(), fmt_short(q.threshold).c_str());
    for (size_t i = 0; i < r.gate_layers.size(); i++)
      std::printf("  layer %3d  %9s %9s | %9s %9s\n", r.gate_layers[i], fmt_percent(r.gates_stream[i].open_share()).c_str(),
                  fmt_percent(r.gates_stream[i].negative_share()).c_str(), fmt_percent(r.gates_shortcut[i].open_share()).c_str(),
                  fmt_percent(r.gates_shortcut[i].negative_share()).c_str());
  }
  return 0;
}
