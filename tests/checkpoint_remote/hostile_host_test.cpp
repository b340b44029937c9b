// Hosts that misbehave on purpose, below the browser: through the fetch
// seam's twin, which sends what such a host sends (claimed sizes it never holds, a replaced file,
// endless files, listings of 10,000 shards, a byte a second, 429s, redirects the browser refuses).
// Each case failed before the reader's split and hardening: memory corruption or an allocation of
// a host's claim, a stall with no message, a changed file mixed into a matrix, a whole file read
// before its limit, unbounded requests or parse work, a trickle never counted as stalled.
#include <catch2/catch.hpp>

#include "checkpoint_remote/ckpt_fixture.h"
#include "core/checkpoint_remote/checkpoint_limits.h"
#include "core/checkpoint_remote/range_check.h"
#include "core/views/live_view.h"
#include "core/base/number_format.h"
#include "core/pack/pack_format.h"
#include "core/source/pack_source.h"
#include "core/base/strings.h"

static const source_probe kSixIds = {"six", {1, 2, 3, 4, 5, 6}, {}};

static std::string words_en(const source_failure& f) {
  strings_set_lang(LAB_LANG_EN);
  return live_failure_text(f);
}

// [SECTION] item 19: a claim past what the page holds

TEST_CASE("hostile host: dims claimed past what the page holds fail at once, saying how much, and allocate nothing",
          "[checkpoint_remote][hostile]") {
  // 65536 x 65536: a q8 blob of 4 GiB, which a 32-bit size_t (wasm) took for 262,208 bytes, and the
  // page then wrote real rows past that allocation.
  CHECK(q8_matrix_blob_bytes(65536, 65536) == 4295229504ull);
  ckpt_fixture f(claimed_checkpoint(65536, 65536, 1));
  f.opt.probes = {kSixIds};
  f.open();
  f.settle();
  REQUIRE(f.src->phase() == SOURCE_FAILED);
  const source_failure e = f.only_failure();
  CHECK(e.error.fault == STREAM_NO_ROOM);
  CHECK(e.file == "model.layers.0.mlp.gate_proj.weight");
  const uint64_t need = 4295229504ull + (1 + 6 + 6) * 65536ull * 4;  // the gate in q8, the norm, 6 rows, 6 inputs
  CHECK(e.error.want == need);
  CHECK(e.error.got == SOURCE_RESIDENT_BYTES);
  CHECK(words_en(e) == "model.layers.0.mlp.gate_proj.weight: needs " + fmt_mib(need) + " MiB at once; this page keeps at most 64.0 MiB of weights in memory");
  // Only the config, the index (404) and the header's first request went out: no weight range.
  CHECK(f.net.requested == std::vector<std::string>{"config.json", "model.safetensors.index.json", "model.safetensors"});
  CHECK(f.net.largest_body <= CKPT_HEADER_PREFETCH);
  CHECK(f.src->resident_bytes() == 0);
}

// [SECTION] item 20: over the budget, said at once instead of a stall

TEST_CASE("hostile host: a gate or a whole layer over the budget says at once what it needs, and never stalls",
          "[checkpoint_remote][hostile]") {
  const uint64_t M = q8_matrix_blob_bytes(1022, 252);
  SECTION("a gate larger than the budget: the model fails on opening, with its size") {
    ckpt_fixture f(pack_test_checkpoint(ckpt_test_spec(SYNTH_NAMING_LLAMA, ST_DTYPE_BF16, 1)));
    f.opt.resident_bytes = M / 2;
    f.open();
    f.settle();
    REQUIRE(f.src->phase() == SOURCE_FAILED);
    CHECK(f.only_failure().error.fault == STREAM_NO_ROOM);
    CHECK(f.only_failure().error.want > M);
    CHECK(f.net.network_bytes < (64u << 10) + 4096);  // the config and header only
  }
  SECTION("a layer wanted whole over the budget: a failure now, the gates still work, nothing past the budget") {
    ckpt_fixture f(pack_test_checkpoint(ckpt_test_spec(SYNTH_NAMING_LLAMA, ST_DTYPE_BF16, 1)));
    f.opt.resident_bytes = M * 5 / 2;  // two matrices and a half: a gate fits, a layer's three do not
    f.opt.chunk_bytes = 40000;
    f.open();
    f.settle();
    REQUIRE(f.src->phase() == SOURCE_READY);
    f.src->want({0}, -1);
    f.settle();
    REQUIRE(f.src->matrix(0, MLP_GATE));
    f.src->want({}, 2);  // the per-token view: gate, up and down of layer 2 at once
    const source_failure e = f.only_failure();  // said before a single pump: no stall to wait out
    CHECK(e.error.fault == STREAM_NO_ROOM);
    CHECK(e.file == "model.layers.2.mlp");
    CHECK(e.error.want == 2 * M + q8_matrix_blob_bytes(252, 1022));  // gate, up, and down (padded otherwise)
    CHECK(e.error.got == M * 5 / 2);
    const size_t asked = f.net.requested.size();
    f.settle();
    CHECK(f.net.requested.size() == asked);  // nothing of layer 2 was asked for
    const source_progress p = f.src->progress(-1);
    CHECK(p.loaded == p.total);  // and nothing shows as "loading 0 %"
    CHECK(f.src->resident_bytes() <= M * 5 / 2);
    f.src->want({2}, -1);  // its gate alone fits
    f.settle();
    CHECK(f.src->failures().empty());
    CHECK(f.src->matrix(2, MLP_GATE));
  }
  SECTION("the pack source keeps the same rule (one piece of code)") {
    mem_files ckf = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1)), pack;
    std::string err;
    REQUIRE(pack_test_build(ckf, {0, 2, 4}, {pack_test_lesson_probe("p")}, &pack, &err));
    native_fetch net;
    net.files = &pack;
    net.base = "https://packs.example/p/";
    pack_source_options o;
    const uint64_t m = q8_matrix_blob_bytes(170, 60);
    o.resident_bytes = m * 5 / 2;
    pack_source src(&net, net.base, 0, o);
    for (int i = 0; i < 20; i++) src.pump(0), net.deliver(0);
    REQUIRE(src.phase() == SOURCE_READY);
    src.want({}, 2);
    REQUIRE(src.failures().size() == 1);
    CHECK(src.failures()[0].error.fault == STREAM_NO_ROOM);
    CHECK(src.failures()[0].error.want == 2 * m + q8_matrix_blob_bytes(60, 170));
  }
}

// [SECTION] item 21: a file replaced on the host

TEST_CASE("hostile host: a file replaced mid-matrix: its converted chunks go, its header is read again, nothing is mixed",
          "[checkpoint_remote][hostile]") {
  synth_spec a = ckpt_test_spec(SYNTH_NAMING_LLAMA, ST_DTYPE_BF16, 1), b = a;
  a.index = b.index = false;
  b.seed = a.seed + 1;  // other weights, the same sizes: only the ETag tells them apart
  mem_files fa = pack_test_checkpoint(a), fb = pack_test_checkpoint(b);
  REQUIRE(fa.files["model.safetensors"].size() == fb.files["model.safetensors"].size());
  ckpt_fixture f(fa);
  f.net.etags["model.safetensors"] = "\"v1\"";
  f.opt.chunk_bytes = 40000;  // 13 chunks of a gate, a chunk a request, one at a time
  f.opt.range_bytes = 40000;
  f.opt.max_in_flight = 1;
  f.open();
  f.settle();
  f.src->want({2}, -1);
  for (int i = 0; i < 4; i++) f.src->pump(f.now), f.net.deliver(f.now);  // a few chunks in
  REQUIRE(f.src->progress(2).loaded > 0);
  REQUIRE(f.src->matrix(2, MLP_GATE) == nullptr);
  f.files.files["model.safetensors"] = fb.files["model.safetensors"];
  f.net.etags["model.safetensors"] = "W/\"v2\"";
  f.settle();
  CHECK(f.src->failures().empty());
  REQUIRE(f.src->notices().size() == 1);
  CHECK(f.src->notices()[0].error.fault == STREAM_FILE_CHANGED);
  CHECK(words_en(f.src->notices()[0]).find("changed on the host") != std::string::npos);
  REQUIRE(f.src->matrix(2, MLP_GATE));
  checkpoint ck;
  std::string err;
  REQUIRE(ckpt_open(&fb, &ck, &err));
  CHECK(view_bytes(f.src->matrix(2, MLP_GATE)) == converter_q8(ck, ckpt_mlp_name(ck, 2, MLP_GATE), 1022, 252));
  CHECK(std::count(f.net.requested.begin(), f.net.requested.end(), "model.safetensors") > 13);
  // The probe's rows came from the old file too: they are the new file's now.
  std::vector<float> emb, norm;
  REQUIRE(ckpt_read_rows_f32(ck, ckpt_embed_name(ck), 300, 252, test_probe().tokens, &emb, &err));
  REQUIRE(ckpt_read_f32(ck, ckpt_post_norm_name(ck, 0), {252}, &norm, &err));
  std::vector<float> x(emb.size());
  pack_probe_input(emb.data(), 16, 252, norm.data(), ck.config.norm, ck.config.rms_norm_eps, x.data());
  REQUIRE(f.src->probe_input(0));
  CHECK(*f.src->probe_input(0) == x);
  // A reload keeps the new version's records only (they are keyed by the ETag): no weight byte.
  f.net.network_bytes = 0;
  f.open();
  f.settle();
  f.src->want({2}, -1);
  f.settle();
  CHECK(view_bytes(f.src->matrix(2, MLP_GATE)) == converter_q8(ck, ckpt_mlp_name(ck, 2, MLP_GATE), 1022, 252));
  CHECK(f.net.network_bytes < (64u << 10) + 4096);
}

TEST_CASE("hostile host: a host that keeps replacing its file is told to try later", "[checkpoint_remote][hostile]") {
  synth_spec a = ckpt_test_spec(SYNTH_NAMING_LLAMA, ST_DTYPE_BF16, 1);
  a.index = false;
  ckpt_fixture f(pack_test_checkpoint(a));
  f.net.etags["model.safetensors"] = "\"v0\"";
  f.opt.chunk_bytes = 40000;  // a chunk a request, one at a time: the file changes between them
  f.opt.range_bytes = 40000;
  f.opt.max_in_flight = 1;
  f.open();
  f.settle();
  f.src->want({2}, -1);
  for (int v = 1; v < 60 && f.src->phase() == SOURCE_READY; v++) {
    f.src->pump(f.now), f.net.deliver(f.now);
    f.net.etags["model.safetensors"] = "\"v" + std::to_string(v) + "\"";  // a new version each time round
  }
  f.settle();
  REQUIRE(f.src->phase() == SOURCE_FAILED);
  CHECK(f.only_failure().error.fault == STREAM_FILE_CHANGED);
  CHECK(words_en(f.only_failure()).find("keeps changing") != std::string::npos);
}

TEST_CASE("range check: each answer against its request and the file's identity, both statuses", "[checkpoint_remote][hostile]") {
  file_identity id{"model.safetensors", "u", "\"abc\"", 1000};
  fetch_request q;
  q.begin = 100;
  q.length = 50;
  std::string body(1000, 'x');
  auto answer = [&](int status, uint64_t start, size_t n, uint64_t total, const std::string& etag) {
    fetch_response r;
    r.status = status;
    r.body = body.data();
    r.n = n;
    r.content_range_start = start;
    r.total_size = total;
    r.etag = etag;
    return r;
  };
  stream_error e;
  CHECK(range_answer_bytes(q, id, answer(206, 100, 50, 1000, "\"abc\""), &e) == (const unsigned char*)body.data());
  CHECK(range_answer_bytes(q, id, answer(206, 100, 50, 1000, "W/\"abc\""), &e));  // weak and strong: the same version
  CHECK(!range_answer_bytes(q, id, answer(206, 101, 50, 1000, "\"abc\""), &e));
  CHECK(e.fault == STREAM_WRONG_RANGE);
  CHECK(!range_answer_bytes(q, id, answer(206, 100, 49, 1000, "\"abc\""), &e));
  CHECK(e.fault == STREAM_TRUNCATED);
  // The same strong ETag at another size: the host contradicts itself (reading again would not help);
  // a weak one may stay while the bytes change: another version, read again.
  CHECK(!range_answer_bytes(q, id, answer(206, 100, 50, 1001, "\"abc\""), &e));
  CHECK(e.fault == STREAM_SIZE_CONFLICT);
  CHECK((e.got == 1001 && e.want == 1000));
  CHECK(!range_answer_bytes(q, id, answer(206, 100, 50, 1001, "W/\"abc\""), &e));
  CHECK(e.fault == STREAM_FILE_CHANGED);
  CHECK(!range_answer_bytes(q, id, answer(206, 100, 50, 1000, "\"abd\""), &e));
  CHECK(e.fault == STREAM_FILE_CHANGED);
  CHECK(!range_answer_bytes(q, id, answer(206, 100, 50, 1000, ""), &e));  // the ETag the server sent, or none: not the header's
  CHECK(e.fault == STREAM_FILE_CHANGED);
  // A 200 (a host that ignores Range) is the whole file: its ETag is checked too, not only its size.
  CHECK(range_answer_bytes(q, id, answer(200, 0, 1000, 1000, "\"abc\""), &e) == (const unsigned char*)body.data() + 100);
  CHECK(!range_answer_bytes(q, id, answer(200, 0, 1000, 1000, "\"new\""), &e));
  CHECK(e.fault == STREAM_FILE_CHANGED);
  CHECK(!range_answer_bytes(q, id, answer(200, 0, 999, 999, "\"abc\""), &e));
  CHECK(e.fault == STREAM_TRUNCATED);
  CHECK(!range_answer_bytes(q, id, answer(200, 0, 1001, 1001, "\"abc\""), &e));  // more than the file, same version
  CHECK(e.fault == STREAM_SIZE_CONFLICT);
  CHECK(!range_answer_bytes(q, id, answer(200, 0, 1001, 1001, "W/\"abc\""), &e));
  CHECK(e.fault == STREAM_FILE_CHANGED);
  fetch_response cut = answer(200, 0, 70000, 0, "");
  cut.cut = true;
  CHECK(!range_answer_bytes(q, id, cut, &e));
  CHECK(e.fault == STREAM_NO_RANGE);
  // Asked for whole (length 0): any slice of the file; a compressed answer named with an
  // encoding's suffix (Apache, Caddy) is the same version, any other name is not.
  fetch_request whole;
  CHECK(range_answer_slice(whole, id, answer(200, 0, 1000, 1000, "\"abc\""), 990, 10, &e) == (const unsigned char*)body.data() + 990);
  CHECK(!range_answer_slice(whole, id, answer(200, 0, 1000, 1000, "\"abc\""), 991, 10, &e));
  CHECK(e.fault == STREAM_WRONG_RANGE);
  for (const char* same : {"\"abc-gzip\"", "W/\"abc-br\"", "\"abc-zstd\"", "\"abc-deflate\""})
    CHECK(range_answer_slice(whole, id, answer(200, 0, 1000, 1000, same), 0, 1000, &e));
  for (const char* other : {"\"abc-gz\"", "\"abcd-gzip\"", "\"ab-gzip\"", "\"abc\"-gzip", "\"-gzip\"", ""}) {
    INFO(other);
    CHECK(!range_answer_slice(whole, id, answer(200, 0, 1000, 1000, other), 0, 1000, &e));
    CHECK(e.fault == STREAM_FILE_CHANGED);
  }
  CHECK(!range_answer_bytes(q, id, answer(200, 0, 1000, 1000, "\"abc-gzip\""), &e));  // (a range's answer: its own name only)
  CHECK(!etag_same_encoded("\"x-gzip\"", ""));
  CHECK(etag_same_encoded("", ""));
}

// [SECTION] item 22: every file is cut at its limit as it arrives

struct no_tokenizer_yet : tokenizer_service {  // knows no file: the fetch of tokenizer.json is what is tested
  bool tokenizer_known(const std::string&) override { return false; }
  uint32_t tokenize_start(const std::string&, const char*, size_t, const std::string&) override { return 1; }
  bool tokenize_poll(uint32_t, tokenize_answer*) override { return false; }
};

TEST_CASE("hostile host: config.json, the index, tokenizer.json and a pack's manifest are cut at their limits as they come",
          "[checkpoint_remote][hostile]") {
  const uint64_t huge = 3ull << 30;
  SECTION("a 3 GiB config.json") {
    claimed_files c = claimed_checkpoint(60, 170, 1);
    c.files["config.json"].size = huge;
    ckpt_fixture f(c);
    f.open();
    f.settle();
    const source_failure e = f.only_failure();
    CHECK(e.file == "config.json");
    CHECK(e.error.fault == STREAM_TOO_LARGE);
    CHECK(e.error.want == CKPT_CONFIG_MAX_BYTES);
    CHECK(words_en(e) == "config.json: larger than the 4.0 MiB this page reads for this file: stopped as it arrived");
    CHECK(f.net.largest_body == 0);  // nothing of it was kept
    CHECK(f.net.network_bytes <= CKPT_CONFIG_MAX_BYTES + 1);
  }
  SECTION("config.json trickling in while the index and the weights are 404s: the config is what is named") {
    claimed_files c;
    c.files["config.json"] = {"{", huge};
    ckpt_fixture f(c);
    f.net.faults["config.json"].trickle = 16;  // the 404s answer first; the config is still coming
    f.open();
    f.settle();
    CHECK(f.src->failures().empty());  // the 404s wait for what config.json says
    for (int i = 0; i < 40 && f.src->failures().empty(); i++) {
      f.now += 1;
      f.settle();
    }
    const source_failure e = f.only_failure();
    CHECK(e.file == "config.json");
    CHECK(e.error.fault != STREAM_HTTP);
  }
  SECTION("a 1 GiB index") {
    claimed_files c = claimed_checkpoint(60, 170, 1);
    c.files[CKPT_INDEX_FILE] = {"{", 1ull << 30};
    ckpt_fixture f(c);
    f.open();
    f.settle();
    CHECK(f.only_failure().error.fault == STREAM_TOO_LARGE);
    CHECK(f.only_failure().error.want == CKPT_INDEX_PAGE_MAX_BYTES);
    CHECK(f.net.network_bytes <= CKPT_INDEX_PAGE_MAX_BYTES + 1 + 4096);
  }
  SECTION("a 1 GiB tokenizer.json") {
    claimed_files c = claimed_checkpoint(60, 170, 1);
    c.files["config.json"].head.replace(c.files["config.json"].head.find(",\"swiglu_lab_synthetic\":true"), 28, "");
    c.files["config.json"].size = c.files["config.json"].head.size();
    c.files["tokenizer.json"] = {"{", 1ull << 30};
    ckpt_fixture f(c);
    no_tokenizer_yet service;
    f.opt.probes.clear();
    f.opt.tokenizer = &service;
    f.opt.lesson_sentence = "今天天气不错，我们去公园";
    f.open();
    f.settle();
    const source_failure e = f.only_failure();
    CHECK(e.file == "tokenizer.json");
    CHECK(e.error.fault == STREAM_NEEDS_IDS);
    CHECK(e.error.cause == STREAM_TOO_LARGE);
    CHECK(e.error.want == SENTENCE_TOKENIZER_MAX_BYTES);
    CHECK(f.net.largest_body <= CKPT_HEADER_PREFETCH);  // the header's first request: nothing of tokenizer.json
  }
  SECTION("a pack's 1 GiB manifest") {
    claimed_files c;
    c.files["manifest.json"] = {"{", 1ull << 30};
    native_fetch net;
    net.files = &c;
    net.base = "https://packs.example/p/";
    pack_source src(&net, net.base, 0);
    for (int i = 0; i < 5; i++) src.pump(0), net.deliver(0);
    REQUIRE(src.phase() == SOURCE_FAILED);
    CHECK(src.failures().at(0).error.fault == STREAM_TOO_LARGE);
    CHECK(src.failures().at(0).error.want == PACK_MANIFEST_MAX_BYTES);
    CHECK(net.largest_body == 0);
  }
}

// [SECTION] item 23: bounded work from a listing or a header

static std::string index_of(int tensors, int shards) {
  std::string j = "{\"weight_map\":{";
  for (int i = 0; i < tensors; i++)
    j += (i ? "," : "") + std::string("\"t") + std::to_string(i) + "\":\"s" + std::to_string(i % shards) + ".safetensors\"";
  return j + "}}";
}

TEST_CASE("hostile host: a listing of 10,000 shards, 40,000 tensors or a header of millions of values is refused before the work",
          "[checkpoint_remote][hostile]") {
  SECTION("10,000 shards: refused before a single header is asked for") {
    claimed_files c = claimed_checkpoint(60, 170, 1);
    const std::string idx = index_of(10000, 10000);
    c.files[CKPT_INDEX_FILE] = {idx, idx.size()};
    ckpt_fixture f(c);
    f.open();
    f.settle();
    const source_failure e = f.only_failure();
    CHECK(e.file == CKPT_INDEX_FILE);
    CHECK(read_error_text_in(LAB_LANG_EN, e.error.reason) == "the index names 10000 shards; this page reads at most 256");
    CHECK(f.net.requested == std::vector<std::string>{"config.json", CKPT_INDEX_FILE});
  }
  SECTION("40,000 tensors") {
    claimed_files c = claimed_checkpoint(60, 170, 1);
    const std::string idx = index_of(40000, 2);
    c.files[CKPT_INDEX_FILE] = {idx, idx.size()};
    ckpt_fixture f(c);
    f.open();
    f.settle();
    CHECK(read_error_text_in(LAB_LANG_EN, f.only_failure().error.reason) == "40000 tensors; this page reads at most 32768");
  }
  SECTION("a header claiming 98 MB: refused on its length, the rest never asked for") {
    claimed_files c = claimed_checkpoint(60, 170, 1);
    claimed_files::file& st = c.files["model.safetensors"];
    const uint64_t n = 98000000;
    for (int i = 0; i < 8; i++) st.head[i] = (char)(n >> (8 * i));
    st.size = 8 + n + 100;
    ckpt_fixture f(c);
    f.open();
    f.settle();
    CHECK(read_error_text_in(LAB_LANG_EN, f.only_failure().error.reason) ==
          "safetensors header of 98000000 bytes; this page reads headers of at most 16777216 bytes");
    CHECK(std::count(f.net.requested.begin(), f.net.requested.end(), "model.safetensors") == 1);
  }
  SECTION("a header of \"0,0,0,...\" within the byte bound: refused by its count of values, before the parse") {
    std::string json = "{\"x\":[";
    for (int i = 0; i < 400000; i++) json += "0,";
    json += "0]}";
    while (json.size() % 8) json += ' ';
    claimed_files c = claimed_checkpoint(60, 170, 1);
    claimed_files::file& st = c.files["model.safetensors"];
    st.head.clear();
    for (int i = 0; i < 8; i++) st.head.push_back((char)((uint64_t)json.size() >> (8 * i)));
    st.head += json;
    st.size = st.head.size();
    ckpt_fixture f(c);
    f.open();
    f.settle();
    CHECK(read_error_text_in(LAB_LANG_EN, f.only_failure().error.reason) ==
          "more than 262144 JSON values: this page does not parse a file this large");
  }
}

// [SECTION] item 24: a trickle, a 429, a redirect the browser will not follow

TEST_CASE("hostile host: a byte a second stalls, a 429's Retry-After is honoured once, a refused redirect is named",
          "[checkpoint_remote][hostile]") {
  SECTION("a host trickling a byte a second counts as stalled after the window") {
    ckpt_fixture f(pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1)));
    f.net.faults["config.json"].trickle = 1;
    f.open();
    for (int s = 0; s <= 6 && f.src->phase() == SOURCE_OPENING; s++) {
      f.now = s;
      f.src->pump(f.now);
      f.net.deliver(f.now);
    }
    REQUIRE(f.src->phase() == SOURCE_FAILED);
    const source_failure e = f.only_failure();
    CHECK(e.error.fault == STREAM_STALLED);
    CHECK(e.error.got > 0);  // bytes did come: "no byte for N s" would not say it
    CHECK(words_en(e) == "config.json: only " + std::to_string(e.error.got) + " bytes in 5 s: too slow (stalled)");
  }
  SECTION("config.json's 429 waits 30 s while the index failed and stalled past its limit: the config is asked again and read") {
    ckpt_fixture f(pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1)));
    f.opt.probes.clear();
    f.net.faults["config.json"].status = 429;
    f.net.faults["config.json"].retry_after = 30;
    f.net.faults["config.json"].times = 1;
    f.net.faults[CKPT_INDEX_FILE].stall = true;  // it fails by the stall limit while the config waits
    f.open();
    f.settle();
    for (int i = 0; i < 40; i++) {
      f.now += 1;
      f.settle();
    }
    // Not stuck: the config came at its time, and the index's failure is what is named now.
    CHECK(std::count(f.net.requested.begin(), f.net.requested.end(), "config.json") == 2);
    CHECK(f.src->phase() == SOURCE_FAILED);
    CHECK(f.only_failure().file == CKPT_INDEX_FILE);
  }
  SECTION("429 with Retry-After: asked again once it has passed; a second 429 says how long it waited") {
    ckpt_fixture f(pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1)));
    f.opt.probes.clear();
    f.net.faults["config.json"].status = 429;
    f.net.faults["config.json"].retry_after = 2;
    f.net.faults["config.json"].times = 1;
    f.open();
    f.settle();
    CHECK(f.src->phase() == SOURCE_OPENING);
    f.now = 1;
    f.settle();
    CHECK(std::count(f.net.requested.begin(), f.net.requested.end(), "config.json") == 1);  // not before its time
    f.now = 2.5;
    f.settle();
    CHECK(f.src->phase() == SOURCE_READY);
    ckpt_fixture g(pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1)));
    g.net.faults["config.json"].status = 429;
    g.net.faults["config.json"].retry_after = 2;
    g.open();
    g.settle();
    g.now = 3;
    g.settle();
    REQUIRE(g.src->phase() == SOURCE_FAILED);
    CHECK(g.only_failure().error.fault == STREAM_TOO_MANY_REQUESTS);
    CHECK(words_en(g.only_failure()) == "config.json: HTTP 429: the page waited 2 s, and the host refused again (too many requests)");
  }
  SECTION("429 whose Retry-After cannot be read (CORS hides it): a short wait once, then the refusal is said") {
    ckpt_fixture f(pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1)));
    f.opt.probes.clear();
    f.net.faults["config.json"].status = 429;  // retry_after -1: none the page can read
    f.net.faults["config.json"].times = 1;
    f.open();
    f.settle();
    CHECK(f.src->phase() == SOURCE_OPENING);  // not failed at once
    f.now = 1;
    f.settle();
    CHECK(std::count(f.net.requested.begin(), f.net.requested.end(), "config.json") == 1);
    f.now = FETCH_QUEUE_RETRY_AFTER_UNREAD + 0.5;
    f.settle();
    CHECK(f.src->phase() == SOURCE_READY);
    ckpt_fixture g(pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1)));
    g.net.faults["config.json"].status = 429;
    g.open();
    g.settle();
    g.now = FETCH_QUEUE_RETRY_AFTER_UNREAD + 1;
    g.settle();
    REQUIRE(g.src->phase() == SOURCE_FAILED);
    CHECK(std::count(g.net.requested.begin(), g.net.requested.end(), "config.json") == 2);  // once more, not again and again
    // The wait was the page's own: not said to be the host's.
    CHECK(words_en(g.only_failure()) == "config.json: HTTP 429: the page waited 2 s, and the host refused again (too many requests)");
  }
  SECTION("a redirect the browser would not follow is named, not taken for offline or CORS") {
    ckpt_fixture f(pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1)));
    f.net.faults["config.json"].redirect_failed = true;
    f.open();
    f.settle();
    CHECK(f.only_failure().error.fault == STREAM_REDIRECT);
    CHECK(words_en(f.only_failure()).find("too many redirects") != std::string::npos);
  }
}
