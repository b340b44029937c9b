// swiglu convert | stats | permute: weight packs from the command line, over the same core the
// page runs (src/core/pack/, src/core/checkpoint/).
//
//   swiglu convert --checkpoint DIR --out PACKDIR --layers 0,11,23|all --text "sentence" [--text ...]
//                  [--tokens ID,ID,... [--label TEXT] [--pieces "a|b|c"]] [--model-id ID]
// --text tokenizes with the checkpoint's tokenizer.json; --tokens gives ids directly (for a
// checkpoint without one). Probes from --tokens come first, then those from --text.
//   swiglu stats --pack PACKDIR [--json] [--threshold 0.1]
//   swiglu permute --pack PACKDIR --layer L [--probe I] [--perm 5,3,1,0,2,4] [--token 2] [--delta 1.0] [--json]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli_args.h"
#include "cli_commands.h"
#include "core/checkpoint/checkpoint.h"
#include "core/views/live_view.h"
#include "core/base/number_format.h"
#include "core/pack/mlp_experiments.h"
#include "core/pack/pack_build.h"
#include "core/pack/pack_read.h"
#include "core/pack/pack_stats.h"
#include "core/tokenizer/bpe_tokenizer.h"
#include "core/base/number_parse.h"
#include "core/link/url_state.h"
#include "platform/native/dir_files.h"

static int fail(const char* cmd, int status, const std::string& msg) {
  std::fprintf(stderr, "swiglu %s: %s\n", cmd, msg.c_str());
  return status;
}

static bool parse_double(const std::string& text, double* out) { return parse_number(text, out) && std::isfinite(*out); }

// [SECTION] convert
// --text probes: tokenized with the checkpoint's own tokenizer.json, exactly as the model does.
static bool add_text_probes(byte_source* src, const std::vector<std::string>& texts, std::vector<pack_probe_spec>* probes,
                            std::string* error) {
  std::string json;
  if (!src->exists("tokenizer.json")) return *error = "missing: give --tokens instead for a checkpoint without a tokenizer", false;
  if (!byte_source_read_all(src, "tokenizer.json", 256u << 20, &json, error)) return false;
  bpe_tokenizer tok;
  if (!bpe_tokenizer_load(json, &tok, error)) return false;
  for (const std::string& text : texts) {
    bpe_encoding e = bpe_encode(&tok, text);
    if (!e.error.empty()) return *error = e.error, false;
    if (e.ids.empty()) return *error = "'" + text + "' gives no tokens", false;
    pack_probe_spec p;
    p.label = text;
    p.tokens.assign(e.ids.begin(), e.ids.end());
    p.pieces = e.pieces;
    std::string ids;
    for (int id : e.ids) ids += (ids.empty() ? "" : ",") + std::to_string(id);
    std::fprintf(stderr, "[convert] \"%s\": %zu tokens: %s\n", text.c_str(), e.ids.size(), ids.c_str());
    probes->push_back(p);
  }
  return true;
}

int cli_convert(int argc, char** argv) {
  cli_args a;
  if (!cli_parse_args("convert", argc, argv, {"checkpoint", "out", "layers", "tokens", "label", "pieces", "text", "model-id"}, {}, &a))
    return 2;
  if (!a.has("checkpoint") || !a.has("out") || (!a.has("tokens") && !a.has("text")))
    return fail("convert", 2, "needs --checkpoint DIR --out PACKDIR and --text \"sentence\" or --tokens ID,ID,... (and --layers 0,11,23 or all)");
  pack_build_options opt;
  const std::vector<std::string> toks = a.has("tokens") ? a.values.at("tokens") : std::vector<std::string>();
  const std::vector<std::string> labels = a.has("label") ? a.values.at("label") : std::vector<std::string>();
  const std::vector<std::string> pieces = a.has("pieces") ? a.values.at("pieces") : std::vector<std::string>();
  if (labels.size() > toks.size()) return fail("convert", 2, "more --label than --tokens");
  if (pieces.size() > toks.size()) return fail("convert", 2, "more --pieces than --tokens");
  for (size_t i = 0; i < toks.size(); i++) {
    pack_probe_spec p;
    if (!parse_index_list(toks[i], &p.tokens)) return fail("convert", 2, "--tokens '" + toks[i] + "' is not a list of token ids");
    p.label = i < labels.size() ? labels[i] : "tokens " + toks[i];
    if (i < pieces.size()) {  // "今天|天气|...": each token's text, for checkpoints without a tokenizer
      size_t at = 0;
      for (size_t bar; (bar = pieces[i].find('|', at)) != std::string::npos; at = bar + 1) p.pieces.push_back(pieces[i].substr(at, bar - at));
      p.pieces.push_back(pieces[i].substr(at));
      if (p.pieces.size() != p.tokens.size())
        return fail("convert", 2, "--pieces '" + pieces[i] + "' has " + std::to_string(p.pieces.size()) + " pieces for " +
                                      std::to_string(p.tokens.size()) + " tokens");
    }
    opt.probes.push_back(p);
  }
  opt.model_id = a.get_or("model-id", "");
  opt.progress = [](const std::string& s) { std::fprintf(stderr, "[convert] %s\n", s.c_str()); };

  dir_source src(a.get("checkpoint"));
  checkpoint ck;
  std::string err;
  if (!ckpt_open(&src, &ck, &err)) return fail("convert", 1, a.get("checkpoint") + ": " + err);
  if (a.has("text") && !add_text_probes(&src, a.values.at("text"), &opt.probes, &err))
    return fail("convert", 1, a.get("checkpoint") + "/tokenizer.json: " + err);
  if (!pack_parse_layers(a.get_or("layers", "all"), ck.config.layers, &opt.layers, &err)) return fail("convert", 2, err);
  std::fprintf(stderr, "[convert] %s: %s, hidden %lld, intermediate %lld, %lld layers, RMSNorm x %s, tensors under '%s'%s\n",
               a.get("checkpoint").c_str(), ck.config.model_type.c_str(), (long long)ck.config.hidden,
               (long long)ck.config.intermediate, (long long)ck.config.layers, model_norm_name(ck.config.norm),
               ck.prefix.c_str(), ck.config.synthetic ? " (SYNTHETIC weights)" : "");

  dir_sink sink(a.get("out"));
  if (!sink.prepare(&err)) return fail("convert", 1, err);
  pack_build_result res;
  if (!pack_build(ck, opt, &sink, &res, &err)) return fail("convert", 1, err);

  for (const std::string& w : res.warnings) std::fprintf(stderr, "swiglu convert: warning: %s\n", w.c_str());
  std::printf("%-58s %12s %12s\n", "quantization error (q8, per-row scales)", "max abs", "relative RMS");
  for (const pack_quant_report& q : res.quant) std::printf("%-58s %12.3e %12.3e\n", q.tensor.c_str(), q.max_abs, q.rel_rms);
  if (!res.quant.empty())
    std::printf("worst: %s (relative RMS %.3e)\n", res.quant[res.worst].tensor.c_str(), res.quant[res.worst].rel_rms);
  std::printf("wrote %s: %zu layer(s), %zu probe(s)%s\n", a.get("out").c_str(), res.manifest.layers.size(),
              res.manifest.probes.size(), res.manifest.synthetic ? ", SYNTHETIC weights" : "");
  return 0;
}

// [SECTION] stats
static bool open_pack(const char* cmd, const cli_args& a, dir_source* src, pack_manifest* m, int* status) {
  std::string err;
  if (!pack_open(src, m, &err)) {
    *status = fail(cmd, 1, a.get("pack") + ": " + err);
    return false;
  }
  return true;
}

int cli_stats(int argc, char** argv) {
  cli_args a;
  if (!cli_parse_args("stats", argc, argv, {"pack", "threshold"}, {"json"}, &a)) return 2;
  if (!a.has("pack")) return fail("stats", 2, "needs --pack PACKDIR");
  double thr = PACK_THRESHOLD;
  if (a.has("threshold") && (!parse_double(a.get("threshold"), &thr) || thr < 0 || thr > 100))
    return fail("stats", 2, "--threshold '" + a.get("threshold") + "' is not a number in [0, 100]");
  dir_source src(a.get("pack"));
  pack_manifest m;
  int status = 0;
  if (!open_pack("stats", a, &src, &m, &status)) return status;
  std::string json = "{\"layers\":[", table;
  int64_t tokens = 0;
  for (const pack_probe& p : m.probes) tokens += (int64_t)p.tokens.size();
  char line[256];
  for (size_t i = 0; i < m.layers.size(); i++) {
    mlp_gate_counts c;
    std::string err;
    if (!pack_gate_stats(&src, m, m.layers[i].layer, thr, &c, &err)) return fail("stats", 1, a.get("pack") + ": " + err);
    json += (i ? "," : "") + std::string("{\"layer\":") + std::to_string(m.layers[i].layer) +
            ",\"open\":" + url_format_number(c.open_share()) + ",\"negative\":" + url_format_number(c.negative_share()) + "}";
    // The page's own formatting (fmt_percent), so the table and the page print the same digits.
    std::snprintf(line, sizeof line, "%5d  %17s  %17s  %12s\n", m.layers[i].layer, fmt_percent(c.open_share()).c_str(),
                  fmt_percent(c.negative_share()).c_str(), fmt_percent(1 - c.open_share() - c.negative_share()).c_str());
    table += line;
  }
  if (a.flag("json")) {
    std::printf("%s]}\n", json.c_str());
    return 0;
  }
  std::printf("%s%s: hidden %lld, intermediate %lld, %zu of %lld layers; %zu probe(s), %lld tokens\n", m.model_id.c_str(),
              m.synthetic ? " (SYNTHETIC weights, not a trained model)" : "", (long long)m.hidden,
              (long long)m.intermediate, m.layers.size(), (long long)m.num_layers, m.probes.size(), (long long)tokens);
  std::snprintf(line, sizeof line, "%5s  %17s  %17s  %12s\n", "layer", ("silu(g) > " + url_format_number(thr)).c_str(),
                ("silu(g) < -" + url_format_number(thr)).c_str(), "in between");
  std::printf("%s%s", line, table.c_str());
  return 0;
}

// [SECTION] permute
int cli_permute(int argc, char** argv) {
  cli_args a;
  if (!cli_parse_args("permute", argc, argv, {"pack", "layer", "probe", "perm", "token", "delta"}, {"json"}, &a)) return 2;
  if (!a.has("pack") || !a.has("layer")) return fail("permute", 2, "needs --pack PACKDIR --layer L");
  dir_source src(a.get("pack"));
  pack_manifest m;
  int status = 0;
  if (!open_pack("permute", a, &src, &m, &status)) return status;
  std::vector<int64_t> one;
  if (!parse_index_list(a.get("layer"), &one) || one.size() != 1 || m.find_layer((int)one[0]) < 0)
    return fail("permute", 2, "--layer '" + a.get("layer") + "' is not a layer of this pack");
  const int layer = (int)one[0];
  std::vector<int64_t> pi = {0};
  if (a.has("probe") && (!parse_index_list(a.get("probe"), &pi) || pi.size() != 1 || pi[0] >= (int64_t)m.probes.size()))
    return fail("permute", 2, "--probe '" + a.get("probe") + "' is not a probe of this pack (0.." + std::to_string(m.probes.size() - 1) + ")");
  const pack_probe& probe = m.probes[(size_t)pi[0]];
  const int T = (int)probe.tokens.size();
  std::vector<int> perm = mlp_default_perm(T);
  std::string err;
  if (a.has("perm") && !mlp_parse_perm(a.get("perm"), T, &perm, &err)) return fail("permute", 2, err);
  std::vector<int64_t> tk = {T > 2 ? 2 : T - 1};
  if (a.has("token") && (!parse_index_list(a.get("token"), &tk) || tk.size() != 1 || tk[0] >= T))
    return fail("permute", 2, "--token '" + a.get("token") + "' is not a position 0.." + std::to_string(T - 1));
  double delta = 1.0;
  if (a.has("delta") && (!parse_double(a.get("delta"), &delta) || std::fabs(delta) > 1e6))
    return fail("permute", 2, "--delta '" + a.get("delta") + "' is not a number in [-1e6, 1e6]");

  pack_layer_data d;
  std::vector<float> x;
  if (!pack_load_layer(&src, m, layer, false, &d, &err) || !pack_load_probe_input(&src, probe, &x, &err))
    return fail("permute", 1, a.get("pack") + ": " + err);
  const swiglu_q8_layer L = d.view((int)m.hidden, (int)m.intermediate);
  const mlp_perm_result pr = mlp_permutation_test(&L, x.data(), T, perm);
  const std::vector<double> change = mlp_token_change(&L, x.data(), T, (int)tk[0], (float)delta);

  std::string perm_text, change_json;
  for (int i = 0; i < T; i++) perm_text += (i ? "," : "") + std::to_string(perm[i]);
  for (int i = 0; i < T; i++) change_json += (i ? "," : "") + url_format_number(change[i]);
  if (a.flag("json")) {
    std::printf("{\"layer\":%d,\"probe\":%lld,\"perm\":[%s],\"max_abs_diff\":%s,\"max_abs_output\":%s,\"token\":%lld,"
                "\"delta\":%s,\"change\":[%s]}\n",
                layer, (long long)pi[0], perm_text.c_str(), url_format_number(pr.max_abs_diff).c_str(),
                url_format_number(pr.max_abs_output).c_str(), (long long)tk[0], url_format_number(delta).c_str(),
                change_json.c_str());
    return 0;
  }
  std::printf("%s%s, layer %d, probe \"%s\" (%d tokens)\n", m.model_id.c_str(), m.synthetic ? " (SYNTHETIC weights)" : "",
              layer, probe.label.c_str(), T);
  std::printf("shuffle the tokens, perm [%s]:\n  max |MLP(x[perm]) - MLP(x)[perm]| = %s   (largest |output| %s)\n",
              perm_text.c_str(), pr.max_abs_diff == 0 ? "0 exactly" : fmt6(pr.max_abs_diff).c_str(),
              fmt6(pr.max_abs_output).c_str());
  std::printf("change token %lld by %s (every input component):\n  max |change| of the output at each position:\n",
              (long long)tk[0], url_format_number(delta).c_str());
  for (int i = 0; i < T; i++) {
    const std::string piece = i < (int)probe.pieces.size() ? " " + probe.pieces[i] : "";
    std::printf("  %3d%-10s %s\n", i, piece.c_str(), change[i] == 0 ? "0 exactly" : fmt6(change[i]).c_str());
  }
  return 0;
}
