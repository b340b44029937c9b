// The whole model's host (core/model/model_host.h) over the fetch twin, on the page's default whole
// model: its status while it loads, the answers the rule book, the flow and the gates view read
// (checked against the forward pass run here directly), and what it says of bad prompts. (The
// messages' JSON: model_protocol_test.cpp.)
#include <catch2/catch.hpp>

#include <map>

#include "core/checkpoint/synthetic_model.h"
#include "core/checkpoint/synthetic_tokenizer.h"
#include "core/checkpoint/safetensors.h"
#include "core/model/model_host.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "core/views/fault_text.h"
#include "model/forward_reference.h"
#include "platform/native/fetch_native.h"

static const char* kSite = "https://lab.example/models/synthetic/";

struct host_fixture {
  mem_files files;
  native_fetch net;
  std::unique_ptr<model_host> host;
  double now = 0;
  std::map<std::string, int> ids;
  host_fixture() : host_fixture(synth_model_planted_make()) {}
  explicit host_fixture(std::map<std::string, std::string> f, model_loader_options o = {}) {
    files.files = std::move(f);
    net.files = &files;
    net.base = kSite;
    synth_tokenizer_json_for(synth_planted_tokens(), &ids);
    o.fetch.clock = nullptr;
    host.reset(new model_host(&net, o));
  }
  void settle() {
    for (int i = 0; i < 100000 && !host->ready(); i++) {
      now += 0.01;
      host->pump(now);
      net.deliver(now);
      if (host->status().phase == MODEL_STATUS_FAILED) break;
    }
  }
  bool open_ready() {
    host->open(kSite, 0);
    settle();
    return host->ready();
  }
};

// The rule book's lesson question: the city sentence, the city unit picked.
static model_question city_question(uint32_t id) {
  const synth_planted p;
  model_question q;
  q.id = id;
  q.text = "中国的首都是";
  q.unit = {p.city_layer, p.city_unit};
  return q;
}

TEST_CASE("the host loads the default whole model and says where it stands", "[model][host]") {
  host_fixture f;
  CHECK(f.host->status().phase == MODEL_STATUS_IDLE);
  f.host->open(kSite, 0);
  f.host->pump(0);
  CHECK(f.host->status().phase == MODEL_STATUS_OPENING);
  f.settle();
  REQUIRE(f.host->ready());
  const model_status s = f.host->status();
  CHECK(s.phase == MODEL_STATUS_READY);
  CHECK(s.synthetic);
  CHECK(s.layers == 24);
  CHECK(s.linear_layers == 18);
  CHECK(s.tokenizer);
  CHECK(s.download_bytes > 1000000);
  CHECK(s.download_bytes < 50000000);  // small enough that it never asks first
  REQUIRE(s.files.size() == 1);
  CHECK(s.files[0].loaded == s.files[0].total);
}

TEST_CASE("the rule book's answer: the prompt's words, the next tokens before and after, the units, the flow", "[model][host]") {
  host_fixture f;
  REQUIRE(f.open_ready());
  const synth_planted p;
  model_question q = city_question(7);
  model_reply r = f.host->answer(q);
  CHECK(r.id == 7);
  CHECK(!r.error.failed());
  REQUIRE(r.prompt.size() == 4);
  CHECK(r.prompt[0].piece == "中国");
  CHECK(r.prompt[3].piece == "是");
  CHECK(r.position == 3);
  REQUIRE(r.top.size() == 10);
  CHECK(r.top[0].token.piece == "北京");
  CHECK(r.top[0].p == r.top[0].p_before);  // nothing switched off
  CHECK(r.before_top.empty());
  REQUIRE(r.units.size() == 10);
  CHECK(r.units[0].toward.size() == 8);
  CHECK(r.picked.unit == (unit_ref{p.city_layer, p.city_unit}));
  REQUIRE(r.picked_per_token.size() == 4);
  CHECK(r.picked.value == r.picked_per_token[3]);
  // Its condition: silu(gate) and up at each token, whose product is the activation.
  REQUIRE(r.picked_gate.size() == 4);
  REQUIRE(r.picked_up.size() == 4);
  for (int t = 0; t < 4; t++) CHECK(r.picked_gate[t] * r.picked_up[t] == Approx(r.picked_per_token[t]).epsilon(1e-4).margin(1e-6));
  CHECK(r.picked.toward[0].piece == "北京");
  REQUIRE(r.flow.size() == 24);
  // The same numbers as the forward pass run here on the same ids.
  forward_trace direct;
  model_forward(*f.host->weights(), {f.ids["中国"], f.ids["的"], f.ids["首都"], f.ids["是"]}, {}, &direct);
  CHECK(r.top[0].p == forward_top_tokens(direct, 1)[0].p);
  for (int l = 0; l < 24; l++) {
    CHECK(r.flow[l].mlp_l2 == direct.mlp_l2[l][3]);
    CHECK(r.flow[l].out_l2 == direct.out_l2[l][3]);
  }

  // The city unit off: every probability before and after, 哪个 rising to the top.
  q.off = {{p.city_layer, p.city_unit}};
  r = f.host->answer(q);
  CHECK(r.top[0].token.piece == "哪个");
  CHECK(r.top[0].p > r.top[0].p_before);
  REQUIRE(!r.before_top.empty());
  CHECK(r.before_top[0].token.piece == "北京");
  CHECK(r.before_top[0].p < r.before_top[0].p_before / 4);
  REQUIRE(!r.rising.empty());
  CHECK(r.rising[0].token.piece == "哪个");
  // A switched-off unit still computes silu(gate) * up (the model uses 0 in its place).
  REQUIRE(r.picked_per_token.size() == 4);
  CHECK(r.picked.value == r.picked_per_token[(size_t)r.position]);
  CHECK(r.picked.value == r.picked_gate[(size_t)r.position] * r.picked_up[(size_t)r.position]);
  forward_trace off;
  model_forward_switch_off(*f.host->weights(), direct, {{p.city_layer, p.city_unit}}, &off);
  CHECK(r.top[0].p == forward_top_tokens(off, 1)[0].p);

  // A prompt given as ids, and the units read at another token.
  model_question q2;
  q2.ids = {f.ids["I"], f.ids[" flew"], f.ids[" from"], f.ids[" Paris"]};
  q2.position = 3;
  r = f.host->answer(q2);
  CHECK(r.prompt[3].piece == " Paris");
  CHECK(r.units[0].unit == (unit_ref{p.city_name_layer, p.city_name_unit}));
}

// The page's worker answers a new question twice under its id where the units' "writes toward"
// lists are long to compute (one pass over the unembedding): first without the unknown ones, then
// whole. (The bound 0 splits on this small model, which the worker answers whole at once.)
TEST_CASE("a quick answer leaves out only the unknown toward lists, and the whole one follows with the same numbers", "[model][host]") {
  host_fixture f;
  REQUIRE(f.open_ready());
  const synth_planted p;
  model_question q = city_question(3);
  const model_reply quick = f.host->answer(q, 0);
  CHECK(quick.toward_pending);
  CHECK(quick.forward_ms > 0);  // the pass runs in the quick answer
  REQUIRE(quick.units.size() == 10);
  for (const model_unit_row& u : quick.units) CHECK(u.toward.empty());
  CHECK(quick.picked.toward.empty());
  CHECK(f.host->answer(q, 0).toward_pending);  // asked quick again before the whole one: still pending
  const model_reply full = f.host->answer(q);
  CHECK(!full.toward_pending);
  CHECK(full.forward_ms == 0);  // the pass was kept
  CHECK(full.picked.toward[0].piece == "北京");
  // Everything but the lists (and the pass's time) is the quick answer's, as a fresh host computes it whole.
  model_reply same = full;
  same.toward_pending = true;
  same.forward_ms = quick.forward_ms;
  for (model_unit_row& u : same.units) u.toward.clear();
  same.picked.toward.clear();
  CHECK(same == quick);
  // The worker's bound: this model's lists are cheap, so its first answer is already whole.
  host_fixture h;
  REQUIRE(h.open_ready());
  model_reply at_once = h.host->answer(q, MODEL_TOWARD_SPLIT_MACS);
  CHECK(!at_once.toward_pending);
  at_once.forward_ms = 0;
  CHECK(at_once == full);
  host_fixture g;
  REQUIRE(g.open_ready());
  model_reply fresh = g.host->answer(q);
  fresh.forward_ms = 0;
  CHECK(fresh == full);
  // Known lists come at once: a switch-off keeps the units (of the run without it), nothing pending.
  q.off = {{p.city_layer, p.city_unit}};
  const model_reply off = f.host->answer(q, 0);
  CHECK(!off.toward_pending);
  REQUIRE(off.units.size() == 10);
  CHECK(off.units[0].toward == full.units[0].toward);
}

TEST_CASE("the gates view's in=stream: counts on the stream each layer reads, and on the lessons' shortcut", "[model][host]") {
  host_fixture f;
  f.host->open(kSite, 0);
  f.settle();
  REQUIRE(f.host->ready());
  model_question q;
  q.text = "今天天气不错，我们去公园";
  q.gate_layers = {0, 11, 23};
  const model_reply r = f.host->answer(q);
  REQUIRE(r.gates_stream.size() == 3);
  REQUIRE(r.gates_shortcut.size() == 3);
  const int T = (int)r.prompt.size(), F = 192;
  for (int i = 0; i < 3; i++) {
    CHECK(r.gates_stream[i].total == (int64_t)T * F);
    CHECK(r.gates_shortcut[i].total == (int64_t)T * F);
  }
  // Layer 0 reads exactly the shortcut's input at position 0 only (its stream is the embedding
  // there, before any mixer): so the shares may differ, but the first layer's first token agrees.
  model_question one = q;
  one.gate_token = 0;
  one.gate_layers = {0};
  const model_reply r0 = f.host->answer(one);
  CHECK(r0.gates_stream[0].total == F);
  // Independent count of layer 11's stream shares from the forward pass.
  forward_trace direct;
  std::vector<int64_t> ids;
  for (const token_text& t : r.prompt) ids.push_back(t.id);
  model_forward(*f.host->weights(), ids, {}, &direct);
  int64_t open = 0, neg = 0;
  for (float v : direct.silu_gate[11]) open += v > 0.1f, neg += v < -0.1f;
  CHECK(r.gates_stream[1].open == open);
  CHECK(r.gates_stream[1].negative == neg);
}

// The share of values above +thr and below -thr, counted in double.
static std::pair<double, double> shares(const std::vector<double>& v, size_t at, size_t n, double thr) {
  size_t open = 0, neg = 0;
  for (size_t i = at; i < at + n; i++) open += v[i] > thr, neg += v[i] < -thr;
  return {(double)open / n, (double)neg / n};
}

TEST_CASE("in=stream: every layer's shares on the stream and on the shortcut within 0.2 points of the double reference", "[model][host]") {
  host_fixture f;
  f.host->open(kSite, 0);
  f.settle();
  REQUIRE(f.host->ready());
  const std::vector<int64_t> ids = {f.ids["中国"], f.ids["的"], f.ids["首都"], f.ids["是"]};
  ref_result ref;
  std::string err;
  REQUIRE(ref_forward(&f.files, ids, {}, &ref, &err));
  const int T = (int)ids.size(), F = (int)ref.silu_gate[0].size() / T;
  for (double thr : {0.1, 0.05, 0.3})
    for (int token : {-1, 0, T - 1}) {
      model_question q;
      q.ids = ids;
      q.threshold = thr;
      q.gate_token = token;
      for (int l = 0; l < 24; l++) q.gate_layers.push_back(l);
      const model_reply r = f.host->answer(q);
      REQUIRE(r.gates_stream.size() == 24);
      for (int l = 0; l < 24; l++) {
        INFO("layer " << l << ", thr " << thr << ", token " << token);
        const size_t at = token < 0 ? 0 : (size_t)token * F, n = token < 0 ? (size_t)T * F : (size_t)F;
        const auto stream = shares(ref.silu_gate[l], at, n, thr), shortcut = shares(ref.shortcut_silu_gate[l], at, n, thr);
        CHECK(std::fabs(r.gates_stream[l].open_share() - stream.first) <= 0.002);
        CHECK(std::fabs(r.gates_stream[l].negative_share() - stream.second) <= 0.002);
        CHECK(std::fabs(r.gates_shortcut[l].open_share() - shortcut.first) <= 0.002);
        CHECK(std::fabs(r.gates_shortcut[l].negative_share() - shortcut.second) <= 0.002);
      }
    }
  // Units outside the model are not "off": the counts are the plain run's, after another prompt too.
  model_question outside;
  outside.ids = {ids[0], ids[1]};
  outside.off = {{23, 999999}, {99, 0}};
  outside.gate_layers = {5};
  const model_reply ro = f.host->answer(outside);
  REQUIRE(ro.gates_stream.size() == 1);
  ref_result ref2;
  REQUIRE(ref_forward(&f.files, outside.ids, {}, &ref2, &err));
  const auto two = shares(ref2.silu_gate[5], 0, ref2.silu_gate[5].size(), 0.1);
  CHECK(ro.gates_stream[0].total == (int64_t)ref2.silu_gate[5].size());
  CHECK(std::fabs(ro.gates_stream[0].open_share() - two.first) <= 0.002);
  // The two inputs differ: past layer 0 the stream is not the embedding.
  int differ = 0;
  for (int l = 1; l < 24; l++) differ += shares(ref.silu_gate[l], 0, ref.silu_gate[l].size(), 0.1) != shares(ref.shortcut_silu_gate[l], 0, ref.silu_gate[l].size(), 0.1);
  CHECK(differ > 12);
}

TEST_CASE("bad prompts are said as such, and the host keeps answering", "[model][host]") {
  host_fixture f;
  f.host->open(kSite, 0);
  f.settle();
  REQUIRE(f.host->ready());
  model_question q;
  q.ids = {5, 99999, 7};
  model_reply r = f.host->answer(q);
  CHECK(r.error.fault == STREAM_NEEDS_IDS);
  CHECK(read_error_text_in(LAB_LANG_EN, r.error.reason).find("99999") != std::string::npos);
  q.ids.assign(65, 3);
  r = f.host->answer(q);
  CHECK(r.error.fault == STREAM_NEEDS_IDS);
  q.ids = {3, 4};
  r = f.host->answer(q);
  CHECK(!r.error.failed());
}

// A prompt as text needs the model's tokenizer.json: when it cannot be used, the reply says why
// (what the MLP views' sentence says of the same file), not that the checkpoint has none.
TEST_CASE("a tokenizer.json that cannot be used is named with its reason; a missing one as missing", "[model][host]") {
  struct tried {
    const char* what;
    std::string file;  // tokenizer.json's bytes ("" : none on the host)
    int status;        // the host's answer to it (200: the file)
    std::string en;    // the reason, as the page says it
  };
  const std::vector<tried> cases = {
      {"an array", "[]", 200, "its tokenizer.json is not a JSON object"},
      {"a number", "42", 200, "its tokenizer.json is not a JSON object"},
      {"too deep", std::string(100, '[') + std::string(100, ']'), 200, "its tokenizer.json nests deeper than 64 levels: this page does not parse it"},
      {"not JSON", "{\"model\": ", 200, "its tokenizer.json is not valid JSON"},
      {"a server error", "{}", 500, "its tokenizer.json could not be fetched: HTTP 500: server error"},
      {"none", "", 404, "the checkpoint has no tokenizer.json"},
  };
  for (const tried& t : cases) {
    INFO(t.what);
    std::map<std::string, std::string> files = synth_model_planted_make();
    files.erase("tokenizer.json");
    if (!t.file.empty()) files["tokenizer.json"] = t.file;
    host_fixture f(files);
    if (t.status != 200 && t.status != 404) f.net.faults["tokenizer.json"].status = t.status;
    f.host->open(kSite, 0);
    f.settle();
    REQUIRE(f.host->ready());
    model_question q;
    q.text = "中国的首都是";
    const model_reply r = f.host->answer(q);
    CHECK(r.error.fault == STREAM_NEEDS_IDS);
    const std::string en = live_fault_text(r.error), zh = [&] { strings_lang_scope zh(LAB_LANG_ZH); return live_fault_text(r.error); }();
    INFO(en);
    CHECK(en.find(t.en) != std::string::npos);
    CHECK(zh != en);
    CHECK(zh.find("tokenizer.json") != std::string::npos);
    q.text.clear(), q.ids = {3, 4};  // ids alone still run
    CHECK(!f.host->answer(q).error.failed());
  }
}

// [SECTION] inputs inside every limit that the pass itself cannot take

TEST_CASE("a prompt whose pass does not fit beside the weights is refused before it runs, naming the sizes", "[model][host]") {
  // Hidden 4, intermediate 2^20, 3 layers: 72 MiB of weights, well inside the budget; a 64-token
  // prompt's records (T x F floats per layer, twice) would need gigabytes.
  synth_model_spec sp;
  sp.naming = SYNTH_NAMING_LLAMA;
  sp.hidden = 4, sp.intermediate = 1 << 20, sp.num_layers = 3, sp.vocab = 64;
  sp.heads = 2, sp.kv_heads = 1, sp.head_dim = 2, sp.partial_rotary_factor = 1.0;
  model_loader_options o;
  o.ask_above_bytes = 1ull << 40;  // no tap to wait for
  host_fixture f(synth_model_make(sp), o);
  f.host->open(kSite, 0);
  f.settle();
  REQUIRE(f.host->ready());
  const model_weights& w = *f.host->weights();
  const uint64_t weights = f.host->status().memory_bytes;
  CHECK(weights >= 72ull << 20);  // gate, up, down: 3 x 3 x 2^20 x 4 BF16 values, and a few small tensors
  CHECK(weights < (72ull << 20) + 4096);
  // The longest prompt that fits, found from the same count the host uses.
  int fit = MODEL_MAX_TOKENS;
  while (weights + model_answer_bytes(w.spec, fit) > MODEL_MEMORY_BUDGET) fit--;
  REQUIRE(fit >= 1);
  REQUIRE(fit < 64);
  model_question q;
  q.ids.assign(64, 3);
  model_reply r = f.host->answer(q);
  REQUIRE(r.error.fault == STREAM_UNSUPPORTED);
  CHECK(r.error.reason.what == STR_MODEL_PROMPT_NO_ROOM);
  const std::string need = fmt_mib(model_answer_bytes(w.spec, 64));
  CHECK(read_error_text_in(LAB_LANG_EN, r.error.reason) ==
        "A prompt of 64 tokens needs " + need + " MiB for the forward pass beside the weights' " + fmt_mib(weights) +
            " MiB; this page holds at most 1792.0 MiB in all: shorten it to " + std::to_string(fit) + " tokens or fewer.");
  CHECK(read_error_text_in(LAB_LANG_ZH, r.error.reason).find("请缩短到 " + std::to_string(fit) + " 个 token 以内") != std::string::npos);
  CHECK(r.top.empty());
  // The longest that fits is answered; the host keeps answering.
  q.ids.assign((size_t)fit, 3);
  r = f.host->answer(q);
  CHECK(!r.error.failed());
  CHECK(r.top.size() == MODEL_TOP_TOKENS);
}

// The page's default whole model with every value of layer `layer`'s down_proj set to `bf16`.
static std::map<std::string, std::string> planted_with_down(int layer, uint16_t bf16) {
  std::map<std::string, std::string> files = synth_model_planted_make();
  REQUIRE(synth_model_fill_bf16(&files, "model.language_model.layers." + std::to_string(layer) + ".mlp.down_proj.weight", bf16));
  return files;
}

TEST_CASE("huge finite weights that overflow the pass are said, naming the first layer that went non-finite", "[model][host]") {
  // BF16 0x7F7F is 3.39e38: finite, so the load takes it; the MLP's sum over 192 units is not.
  host_fixture f(planted_with_down(0, 0x7F7F));
  f.host->open(kSite, 0);
  f.settle();
  REQUIRE(f.host->ready());
  model_question q;
  q.ids = {3, 4, 5};
  model_reply r = f.host->answer(q);
  REQUIRE(r.error.fault == STREAM_UNSUPPORTED);
  CHECK(r.error.reason.what == STR_MODEL_NOT_FINITE);
  CHECK(read_error_text_in(LAB_LANG_EN, r.error.reason).find("the residual stream after layer 0 is NaN or infinity") != std::string::npos);
  CHECK(read_error_text_in(LAB_LANG_ZH, r.error.reason).find("第 0 层之后的残差流是 NaN 或无穷大") != std::string::npos);
  CHECK(r.top.empty());  // no "P: 0.0 %" made of NaN
  // A unit switched off later does not hide it.
  q.off = {{23, 75}};
  r = f.host->answer(q);
  CHECK(r.error.reason.what == STR_MODEL_NOT_FINITE);

  // Layer 5's: named as layer 5.
  host_fixture g(planted_with_down(5, 0x7F7F));
  g.host->open(kSite, 0);
  g.settle();
  REQUIRE(g.host->ready());
  q.off.clear();
  r = g.host->answer(q);
  CHECK(read_error_text_in(LAB_LANG_EN, r.error.reason).find("after layer 5 ") != std::string::npos);

  // Large but ordinary weights (BF16 0x4000 is 2) leave the pass finite: answered.
  host_fixture h(planted_with_down(0, 0x4000));
  h.host->open(kSite, 0);
  h.settle();
  REQUIRE(h.host->ready());
  r = h.host->answer(q);
  CHECK(!r.error.failed());
}
