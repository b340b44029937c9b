// The whole model by byte ranges (core/model/model_loader.h) through the fetch seam's twin: the
// same weights as the file reader's, a large download waiting for the go that names its size, a
// reload from the cache with no weight byte and no question (also when the cache's index comes
// after the host's answers), the memory budget refusing before anything is allocated, an
// unsupported mixer and a missing tensor named, Cancel and Retry fetching only what is missing, a
// file replaced mid-load read again; the built-in model's weights in a few large ranges (not a
// request per tensor) that never touch its decoys, a tensor holding NaN in the middle of a range
// failing alone, a host that ignores Range.
#include <catch2/catch.hpp>

#include <cstring>

#include "core/checkpoint/safetensors.h"
#include "core/checkpoint/synthetic_model.h"
#include "core/experiments/model_session.h"
#include "core/views/live_view.h"
#include "core/model/forward.h"
#include "core/model/model_loader.h"
#include "core/base/number_format.h"
#include "platform/native/fetch_native.h"

static const char* kHub = "https://hub.example/o/whole/resolve/main/";

struct loader_fixture {
  mem_files files;
  native_fetch net;
  model_loader_options opt;
  std::unique_ptr<model_loader> loader;
  double now = 0;
  explicit loader_fixture(std::map<std::string, std::string> f) {
    files.files = std::move(f);
    net.files = &files;
    net.base = kHub;
    opt.fetch.clock = nullptr;  // one conversion slice per pump: the same steps everywhere
    opt.fetch.chunk_bytes = 64 << 10;
  }
  void open() {
    model_location loc;
    std::string err;
    REQUIRE(model_location_parse(kHub, &loc, &err));
    loader.reset(new model_loader(&net, loc, now, opt));
  }
  // The next-token logits of `ids` on the loader's weights.
  std::vector<float> loader_logits(const std::vector<int64_t>& ids) const {
    forward_trace t;
    model_forward(loader->weights(), ids, {}, &t);
    return t.logits;
  }
  // Pumps and delivers until nothing moves (or `steps` runs out).
  void settle(int steps = 100000) {
    for (int i = 0; i < steps; i++) {
      now += 0.01;
      loader->pump(now);
      if (net.deliver(now) == 0 && loader->phase() != MODEL_LOADING && loader->phase() != MODEL_OPENING) break;
      if (loader->phase() == MODEL_READY || loader->phase() == MODEL_FAILED) break;
      if (net.pending() == 0 && loader->paused()) break;
    }
  }
};

// The same on the weights the file reader makes of `files`: what every load is held to.
static std::vector<float> file_logits(byte_source* files, const std::vector<int64_t>& ids) {
  model_weights w;
  std::string err;
  REQUIRE(model_load(files, {}, &w, &err));
  forward_trace t;
  model_forward(w, ids, {}, &t);
  return t.logits;
}

static synth_model_spec small_model() {
  synth_model_spec s;
  s.hidden = 64, s.intermediate = 160, s.num_layers = 4, s.vocab = 200;
  s.shards = 2;
  return s;
}

TEST_CASE("the whole model by ranges: the same weights and the same run as the file reader", "[model][loader]") {
  loader_fixture f(synth_model_make(small_model()));
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  const std::vector<int64_t> ids = {3, 17, 150, 9};
  CHECK(f.loader_logits(ids) == file_logits(&f.files, ids));
  // Only the language model's tensors were fetched: the file bytes of the plan, plus headers.
  CHECK(f.loader->download_bytes() > 0);
  CHECK(f.net.network_bytes <= f.loader->download_bytes() + 4 * (64 << 10) + 8192);
  for (const std::string& name : f.net.requested) CHECK(name.find("visual") == std::string::npos);
  const std::vector<model_file_progress> p = f.loader->progress();
  REQUIRE(p.size() == 2);
  for (const model_file_progress& fp : p) CHECK(fp.loaded == fp.total);
  // Nothing of the raw chunks stays beside the weights once they are recorded.
  CHECK(f.loader->raw_bytes_held() == 0);
}

TEST_CASE("a large download waits for the go; a cached model neither asks nor downloads", "[model][loader]") {
  loader_fixture f(synth_model_make(small_model()));
  f.opt.ask_above_bytes = 1000;  // the small model stands for a large one
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_ASKING);
  const uint64_t before_go = f.net.network_bytes;
  f.settle(50);
  CHECK(f.net.network_bytes == before_go);  // nothing more until the tap
  f.loader->go();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  // A reload: the same host, the verified cache from the first visit. Its records are read many
  // at once (a storage's open latency hidden), more than the network's ranges.
  const uint64_t first = f.net.network_bytes;
  f.open();
  size_t most = 0;
  for (int i = 0; i < 100000 && f.loader->phase() != MODEL_READY && f.loader->phase() != MODEL_FAILED; i++) {
    f.now += 0.01;
    f.loader->pump(f.now);
    most = std::max(most, f.net.pending());
    f.net.deliver(f.now);
  }
  CHECK(f.loader->phase() == MODEL_READY);  // never MODEL_ASKING: nothing to download
  CHECK(most > CKPT_RANGES_IN_FLIGHT);
  CHECK(most <= CKPT_CACHE_READS_IN_FLIGHT + 1);  // (and the tokenizer or an index beside them)
  CHECK(f.loader->cached_bytes() == f.loader->download_bytes());
  CHECK(f.net.network_bytes - first < 3 * (64 << 10));  // config, index, the two headers' first 64 KiB
  // A reload whose cache index is still being read (the page's IndexedDB, slower than a loopback
  // host): the loader waits for it, then neither asks nor downloads.
  f.net.cache_index_known = false;
  f.open();
  f.settle(200);
  CHECK(f.loader->phase() == MODEL_OPENING);
  f.net.cache_index_known = true;
  const uint64_t second = f.net.network_bytes;
  f.settle();
  CHECK(f.loader->phase() == MODEL_READY);
  CHECK(f.net.network_bytes == second);
}

// A reload reads each BF16 matrix's cached records straight into the weights (the record's
// payload is the chunk as the weights hold it), checks them there, and copies nothing; a record
// damaged in its payload or its checksum is fetched again and never used; a read whose request was
// cancelled writes nothing.
TEST_CASE("a reload reads BF16 records straight into the weights, checked there; a damaged one is fetched again",
          "[model][loader]") {
  loader_fixture f(synth_model_make(small_model()));
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  const std::vector<int64_t> ids = {3, 17, 150, 9};
  const std::vector<float> want = file_logits(&f.files, ids);
  CHECK(f.loader_logits(ids) == want);
  CHECK(f.net.in_place_reads == 0);  // a cold load: nothing was cached

  // The reload: every matrix chunk straight in, the vectors (converted to f32) through a body.
  const uint64_t cold_bytes = f.net.network_bytes;
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  CHECK(f.net.in_place_reads > 0);
  CHECK(f.net.in_place_reads < f.net.cache_hits);
  CHECK(f.loader_logits(ids) == want);
  CHECK(f.net.network_bytes - cold_bytes < 3 * (64 << 10));  // config, index, headers

  // The largest record (a matrix chunk's), damaged in its payload, then in its checksum.
  std::string largest;
  for (const auto& kv : f.net.cache)
    if (largest.empty() || kv.second.size() > f.net.cache[largest].size()) largest = kv.first;
  for (size_t at : {size_t(100), f.net.cache[largest].size() - 3}) {
    INFO(at);
    const std::string good = f.net.cache[largest];
    f.net.cache[largest][at] ^= 0x40;
    const uint64_t before = f.net.network_bytes;
    f.open();
    f.settle();
    REQUIRE(f.loader->phase() == MODEL_READY);
    CHECK(f.loader_logits(ids) == want);  // the damaged bytes were not used
    CHECK(f.net.network_bytes - before >= good.size() - 8);     // its chunk came from the host again
    CHECK(f.net.cache[largest] == good);                         // and its good record replaced it
  }

  // Reads whose requests were cancelled before they were answered write nothing.
  f.net.answer_after_cancel = true;
  f.open();
  for (int i = 0; i < 1000 && f.net.pending_into() == 0; i++) {
    f.now += 0.01;
    f.loader->pump(f.now);
    if (f.net.pending_into() == 0) f.net.deliver(f.now);
  }
  REQUIRE(f.net.pending_into() > 0);
  f.loader->cancel();
  const int in_place = f.net.in_place_reads;
  f.net.deliver(f.now);
  CHECK(f.net.in_place_reads == in_place);
  f.loader->retry(f.now);  // and the rest comes, straight in
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  CHECK(f.net.in_place_reads > in_place);
  CHECK(f.loader_logits(ids) == want);
}

// A reload with part of the cache gone (evicted, or Clear then a partial load): the records left
// are read while the network brings the rest, not after it, though the missing chunks are the
// more urgent and the network's one request is out.
TEST_CASE("a partly cached reload reads its records while the network's requests are full", "[model][loader]") {
  loader_fixture f(synth_model_make(small_model()));
  f.opt.fetch.range_bytes = 1;  // a chunk a request
  f.opt.fetch.max_in_flight = 1;
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  const std::vector<int64_t> ids = {3, 17, 150, 9};
  const std::vector<float> want = f.loader_logits(ids);
  // Only the last layer's records stay: every more urgent chunk must come from the network.
  size_t kept = 0;
  for (auto it = f.net.cache.begin(); it != f.net.cache.end();) {
    const bool keep = it->first.find("layers.3.") != std::string::npos;
    if (!keep) f.net.lru.erase(it->first);
    it = keep ? std::next(it) : f.net.cache.erase(it);
    kept += keep;
  }
  REQUIRE(kept > 0);
  const int hits = f.net.cache_hits, requests = f.net.network_requests;
  f.open();
  int weights_requests_before_a_hit = -1, loading_from = -1;
  for (int i = 0; i < 100000 && f.loader->phase() != MODEL_READY && f.loader->phase() != MODEL_FAILED; i++) {
    f.now += 0.01;
    f.loader->pump(f.now);
    if (loading_from < 0 && f.loader->phase() == MODEL_LOADING) loading_from = f.net.network_requests;
    f.net.deliver(f.now);
    if (weights_requests_before_a_hit < 0 && f.net.cache_hits > hits) weights_requests_before_a_hit = f.net.network_requests - loading_from;
  }
  REQUIRE(f.loader->phase() == MODEL_READY);
  CHECK(f.loader_logits(ids) == want);
  const int weights_requests = f.net.network_requests - loading_from;
  INFO("weight requests " << weights_requests << ", before the first record was read " << weights_requests_before_a_hit);
  REQUIRE(weights_requests > 4);  // the case is a real one: many chunks come from the network
  CHECK(weights_requests_before_a_hit >= 0);
  CHECK(weights_requests_before_a_hit <= 1);  // the first pump starts both kinds
  CHECK(f.net.network_requests - requests > weights_requests);  // (config, index and headers again)
}

TEST_CASE("a model larger than the memory budget is refused before anything is allocated, saying how much", "[model][loader]") {
  loader_fixture f(synth_model_make(small_model()));
  f.opt.memory_budget = 100000;
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_FAILED);
  CHECK(f.loader->failure().error.fault == STREAM_NO_ROOM);
  CHECK(f.loader->failure().error.want > 100000);
  CHECK(f.loader->failure().error.got == 100000);
  CHECK(f.loader->weights().layers.empty());
  const std::string words = live_failure_text({f.loader->failure().file, f.loader->failure().url, f.loader->failure().error});
  CHECK(words.find("MiB") != std::string::npos);
}

TEST_CASE("a mixer the page cannot run and a missing tensor are named", "[model][loader]") {
  std::map<std::string, std::string> files = synth_model_make(small_model());
  std::string& cfg = files["config.json"];
  const size_t at = cfg.find("\"linear_attention\"");
  REQUIRE(at != std::string::npos);
  cfg.replace(at, std::strlen("\"linear_attention\""), "\"sliding_attention\"");
  loader_fixture f(files);
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_FAILED);
  CHECK(f.loader->failure().error.fault == STREAM_UNSUPPORTED);
  CHECK(read_error_text_in(LAB_LANG_EN, f.loader->failure().error.reason).find("sliding_attention") != std::string::npos);

  // A tensor renamed in the index and its shard's header alike is a tensor the model lacks.
  std::map<std::string, std::string> g = synth_model_make(small_model());
  for (auto& kv : g) {
    const size_t p = kv.second.find("layers.1.linear_attn.A_log");
    if (p != std::string::npos) kv.second.replace(p, 26, "layers.1.linear_attn.A_lxg");
  }
  loader_fixture h(g);
  h.open();
  h.settle();
  REQUIRE(h.loader->phase() == MODEL_FAILED);
  CHECK(h.loader->failure().error.fault == STREAM_FORMAT);
  CHECK(read_error_text_in(LAB_LANG_EN, h.loader->failure().error.reason).find("layers.1.linear_attn.A_log") != std::string::npos);
  // Blamed on the file that lists the tensors (the shard index), not on config.json.
  CHECK(h.loader->failure().file == "model.safetensors.index.json");
}

TEST_CASE("a model whose weights fit but whose one-token pass does not is refused at load, naming both sizes", "[model][loader]") {
  loader_fixture probe(synth_model_make(small_model()));
  probe.open();
  probe.settle();
  REQUIRE(probe.loader->phase() == MODEL_READY);
  const uint64_t weights = probe.loader->memory_bytes(), pass = model_answer_bytes(probe.loader->spec(), 1);
  CHECK(pass > 0);

  loader_fixture f(synth_model_make(small_model()));
  f.opt.memory_budget = weights + pass - 1;  // the weights alone fit
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_FAILED);
  CHECK(f.loader->failure().error.fault == STREAM_UNSUPPORTED);
  CHECK(f.loader->failure().error.reason.what == STR_MODEL_PASS_TOO_BIG);
  CHECK(f.loader->weights().layers.empty());  // nothing was allocated
  CHECK(f.net.requested.size() <= 4);         // config, index, two headers: no weight byte asked for
  const std::string en = read_error_text_in(LAB_LANG_EN, f.loader->failure().error.reason);
  CHECK(en == "its weights (" + fmt_mib(weights) + " MiB) and a forward pass over 1 token (" + fmt_mib(pass) + " MiB) need " +
                  fmt_mib(weights + pass) + " MiB; this page holds at most " + fmt_mib(weights + pass - 1) + " MiB");
  CHECK(read_error_text_in(LAB_LANG_ZH, f.loader->failure().error.reason).find("前向计算") != std::string::npos);

  loader_fixture g(synth_model_make(small_model()));
  g.opt.memory_budget = weights + pass;  // exactly room for both
  g.open();
  g.settle();
  CHECK(g.loader->phase() == MODEL_READY);
}

TEST_CASE("Cancel mid-download, then Retry fetches only what is missing", "[model][loader]") {
  loader_fixture f(synth_model_make(small_model()));
  f.opt.fetch.range_bytes = 64 << 10;  // a chunk a request, two at a time: Cancel comes mid-download
  f.opt.fetch.max_in_flight = 2;
  f.open();
  for (int i = 0; i < 40; i++) {
    f.now += 0.01;
    f.loader->pump(f.now);
    f.net.deliver(f.now);
  }
  REQUIRE(f.loader->phase() == MODEL_LOADING);
  f.loader->cancel();
  f.net.deliver(f.now);
  const uint64_t at_cancel = f.net.network_bytes;
  f.settle(200);
  CHECK(f.net.network_bytes == at_cancel);  // nothing starts while cancelled
  CHECK(f.loader->phase() == MODEL_LOADING);
  f.loader->retry(f.now);
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  // Everything came once (a chunk cancelled in flight comes again: at most one chunk per file).
  CHECK(f.net.network_bytes <= f.loader->download_bytes() + 2 * (64 << 10) + 65536 * 2);
}

TEST_CASE("a shard replaced on the host mid-load is read again, and no old byte is mixed in", "[model][loader]") {
  std::map<std::string, std::string> old_files = synth_model_make(small_model());
  synth_model_spec s2 = small_model();
  s2.seed = 99;  // the same shapes, other values
  std::map<std::string, std::string> new_files = synth_model_make(s2);
  loader_fixture f(old_files);
  f.net.etags["model-00001-of-00002.safetensors"] = "\"v1\"";
  f.net.etags["model-00002-of-00002.safetensors"] = "\"v1\"";
  f.opt.fetch.range_bytes = 64 << 10;  // ranges of a chunk: the host replaces its files between them
  f.opt.fetch.max_in_flight = 1;
  f.open();
  auto loaded = [&] {
    uint64_t n = 0;
    for (const model_file_progress& p : f.loader->progress()) n += p.loaded;
    return n;
  };
  for (int i = 0; i < 1000 && loaded() == 0; i++) {  // until the first weights are in
    f.now += 0.01;
    f.loader->pump(f.now);
    f.net.deliver(f.now);
  }
  REQUIRE(f.loader->phase() == MODEL_LOADING);
  for (const model_file_progress& p : f.loader->progress()) REQUIRE(p.loaded < p.total);
  // The host replaces both shards (new values, same layout) and their ETags.
  for (const char* shard : {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"}) {
    f.files.files[shard] = new_files[shard];
    f.net.etags[shard] = "\"v2\"";
  }
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  mem_files fresh;
  fresh.files = new_files;
  CHECK(f.loader_logits({1, 2, 3}) == file_logits(&fresh, {1, 2, 3}));
}

TEST_CASE("Qwen3.5-0.8B in BF16 and its longest prompt fit the budget together", "[model][loader]") {
  model_spec s;
  REQUIRE(model_spec_parse(synth_model_config_json(synth_model_qwen35_0p8b()), &s, nullptr, nullptr));
  const std::vector<model_tensor> plan = model_tensor_list(s, "model.language_model.", "");
  stream_error e;
  uint64_t weights = 0;
  CHECK(model_memory_check(s, plan, {}, MODEL_MEMORY_BUDGET, &e, &weights));
  CHECK(fmt_mib(weights) == "1436.0");  // as model_weights_bytes counts them (vectors as f32)
  const uint64_t answer = model_answer_bytes(s, MODEL_MAX_TOKENS);
  CHECK(fmt_mib(answer) == "170.1");
  CHECK(weights + answer <= MODEL_MEMORY_BUDGET);
}

// [SECTION] ranges that fill the link

// The file's [begin, end) of each tensor whose name starts with `prefix`.
static std::vector<std::pair<uint64_t, uint64_t>> tensor_extents(const std::string& file, const std::string& prefix) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; i--) n = (n << 8) | (unsigned char)file[i];
  st_file h;
  std::string err;
  const std::string json = file.substr(8, (size_t)n);
  REQUIRE(st_parse_header(json.data(), json.size(), file.size(), "shard", &h, &err));
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const st_tensor& t : h.tensors)
    if (t.name.rfind(prefix, 0) == 0) out.push_back({t.begin, t.end});
  return out;
}

TEST_CASE("the built-in model's weights: its small file whole, in one request; a larger one in a few ranges, never touching its decoys",
          "[model][loader]") {
  // The page's default model (2.4 MB, 320 tensors, 152 of them 256 bytes or less) was a request
  // per tensor, one at a time: 17-21 s on loopback, 49 s behind a host answering after 100 ms.
  // Now it goes whole (no Range: a host may send it compressed); a file larger than that limit
  // goes in ranges, which stop at the tensors nobody reads.
  for (const bool small_file : {true, false}) {
    INFO("asked for whole: " << small_file);
    loader_fixture f(synth_model_planted_make());
    f.opt.fetch.chunk_bytes = CKPT_CHUNK_BYTES;  // the page's own sizes
    if (!small_file) f.opt.fetch.whole_file_bytes = 1 << 20;  // the 2.4 MB file is over it
    f.open();
    f.settle();
    REQUIRE(f.loader->phase() == MODEL_READY);
    const std::string shard = "model.safetensors-00001-of-00001.safetensors";
    REQUIRE(f.files.files.count(shard));
    int weight_requests = 0, whole_requests = 0;
    uint64_t asked = 0;
    for (size_t i = 0; i < f.net.requested.size(); i++) {
      if (f.net.requested[i] != shard) continue;
      const auto range = f.net.requested_ranges[i];
      if (range.first == 0 && range.second == 0) {
        whole_requests++;
        continue;
      }
      if (range.first == 0) continue;  // (the header starts at 0)
      weight_requests++;
      asked += range.second - range.first;
      for (const char* decoy : {"mtp.", "model.visual."})
        for (const auto& d : tensor_extents(f.files.files[shard], decoy)) {
          INFO(decoy << " at " << d.first);
          CHECK((range.second <= d.first || range.first >= d.second));
        }
    }
    INFO("weight requests " << weight_requests << ", whole " << whole_requests);
    if (small_file) {
      CHECK(whole_requests == 1);
      CHECK(weight_requests == 0);
    } else {
      CHECK(whole_requests == 0);
      CHECK(weight_requests >= 1);
      CHECK(weight_requests <= 10);
      CHECK(asked == f.loader->download_bytes());  // the language model's bytes, each once
    }
    // The same weights as the file reader's.
    CHECK(f.loader_logits({1, 2, 3}) == file_logits(&f.files, {1, 2, 3}));
    // A reload reads the cache's records back one by one: no weight byte from the host.
    const uint64_t first = f.net.network_bytes;
    f.open();
    f.settle();
    CHECK(f.loader->phase() == MODEL_READY);
    CHECK(f.net.network_bytes - first < (64u << 10) + 40000);  // the config, the index, the header
  }
}

TEST_CASE("a small file asked for whole: an answer that is not the file as its header came is not used; its ranges tell",
          "[model][loader]") {
  const std::string shard = "model.safetensors-00001-of-00001.safetensors";
  const std::map<std::string, std::string> good = synth_model_planted_make();
  struct whole_case {
    const char* name;
    int whole, header_reads;  // requests of the shard: without Range, and for its header
    bool ranges;              // its weights then came by ranges
  };
  // suffixed: Apache and Caddy name a compressed answer "v1-gzip": the same file, used.
  // renamed: a whole answer under another ETag (a twin's own): not used; its ranges say "v1".
  // truncate: a short body: not used. grown: the file grew past the whole answer's limit after its
  // header came (the answer is cut as it comes); changed: new values and a new ETag. For these two
  // the first whole request is answered 503 first, and the host changes before Retry.
  for (const whole_case& c : {whole_case{"suffixed", 1, 1, false}, whole_case{"renamed", 1, 1, true}, whole_case{"truncate", 1, 1, true},
                              whole_case{"grown", 2, 2, true}, whole_case{"changed", 2, 2, true}}) {
    const std::string name = c.name;
    INFO(name);
    loader_fixture f(good);
    f.opt.fetch.chunk_bytes = CKPT_CHUNK_BYTES;
    f.net.etags[shard] = "\"v1\"";
    if (name == "suffixed") f.net.whole_etags[shard] = "\"v1-gzip\"";
    if (name == "renamed") f.net.whole_etags[shard] = "\"5f3a-twin\"";
    fetch_fault& first = f.net.faults[shard];
    first.times = 1, first.from_byte = 1;  // the whole file's first answer, not the header's
    if (name == "truncate") first.truncate = true;
    else if (name == "grown" || name == "changed") first.status = 503;
    else first.times = 0;
    f.open();
    f.settle();
    if (name == "grown" || name == "changed") {
      REQUIRE(f.loader->phase() == MODEL_LOADING);
      REQUIRE_FALSE(f.loader->chunk_failures().empty());
      CHECK(f.loader->chunk_failures()[0].error.fault == STREAM_SERVER);
      if (name == "grown") f.files.files[shard] += std::string(100 << 10, '\0');  // bytes past the tensors
      else REQUIRE(synth_model_fill_bf16(&f.files.files, "model.language_model.norm.weight", 0x3F80));
      f.net.etags[shard] = "\"v2\"";
      f.loader->retry(f.now);
      f.settle();
    }
    REQUIRE(f.loader->phase() == MODEL_READY);
    CHECK(f.loader->chunk_failures().empty());
    CHECK(f.loader_logits({1, 2, 3}) == file_logits(&f.files, {1, 2, 3}));  // the host's file as it is now
    int whole = 0, header_reads = 0, ranges = 0;
    for (size_t i = 0; i < f.net.requested.size(); i++) {
      if (f.net.requested[i] != shard) continue;
      const auto range = f.net.requested_ranges[i];
      (range.second == 0 ? whole : range.first == 0 ? header_reads : ranges)++;
    }
    CHECK(whole == c.whole);
    CHECK(header_reads == c.header_reads);  // a file that changed: its header read again
    CHECK((ranges > 0) == c.ranges);
  }
}

// One range that fails does not stop the others: the load keeps moving (the views say "Loading"
// and keep Cancel) until all that is left has failed; then it has stopped, and waits for Retry.
TEST_CASE("a part that fails while the rest loads: moving until nothing else comes, then stopped", "[model][loader]") {
  loader_fixture f(synth_model_make(small_model()));
  f.opt.fetch.range_bytes = 1;  // a chunk a request, one at a time: many come after the failure
  f.opt.fetch.max_in_flight = 1;
  fetch_fault& fault = f.net.faults["model-00001-of-00002.safetensors"];
  fault.status = 500, fault.from_byte = 1, fault.times = 1;
  f.open();
  for (int i = 0; i < 100000 && f.loader->chunk_failures().empty(); i++) {
    f.now += 0.01;
    f.loader->pump(f.now);
    f.net.deliver(f.now);
  }
  REQUIRE(f.loader->chunk_failures().size() == 1);
  f.loader->pump(f.now);
  CHECK(f.loader->moving());
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_LOADING);
  CHECK_FALSE(f.loader->moving());
  CHECK(f.loader->chunk_failures().size() == 1);
  f.loader->retry(f.now);
  f.settle();
  CHECK(f.loader->phase() == MODEL_READY);
  CHECK_FALSE(f.loader->moving());

  // As the views read it from the status.
  model_status st;
  st.phase = MODEL_STATUS_LOADING;
  st.error = stream_error_of(STREAM_HTTP);
  st.error.status = 500;
  st.moving = true;
  CHECK(model_status_chunk_failed(st));
  CHECK_FALSE(model_status_stopped(st));  // the rest still comes: "Loading", with Cancel
  st.moving = false;
  CHECK(model_status_stopped(st));  // all that is left failed: "stopped at", Retry
  st.error = stream_error(), st.paused = true;
  CHECK(model_status_stopped(st));  // cancelled
  st.paused = false, st.moving = true;
  CHECK_FALSE(model_status_stopped(st));
}

// A model whose tensor `name` holds NaN (BF16 0x7FC0) in every value.
static std::map<std::string, std::string> with_nan(std::map<std::string, std::string> files, const std::string& name) {
  REQUIRE(synth_model_fill_bf16(&files, name, 0x7FC0));
  return files;
}

TEST_CASE("a tensor holding NaN in the middle of a range fails alone; its neighbours are used, Retry asks only for it",
          "[model][loader]") {
  const std::map<std::string, std::string> good = synth_model_make(small_model());
  const std::string bad_name = "model.language_model.layers.1.mlp.down_proj.weight";
  loader_fixture f(with_nan(good, bad_name));
  f.open();
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_LOADING);
  const std::vector<opener_failure> failures = f.loader->chunk_failures();
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].error.fault == STREAM_FORMAT);
  CHECK(read_error_text_in(LAB_LANG_EN, failures[0].error.reason).find(bad_name) != std::string::npos);
  // Its neighbours in the same range are in; each shard came in one request.
  int failed = 0;
  for (const model_file_progress& p : f.loader->progress()) failed += p.failed;
  CHECK(failed == 1);
  int weight_requests = 0;
  for (size_t i = 0; i < f.net.requested.size(); i++)
    weight_requests += f.net.requested[i].find(".safetensors") != std::string::npos &&
                       f.net.requested[i].find(".json") == std::string::npos &&
                       (f.net.requested_ranges[i].first > 0 || f.net.requested_ranges[i].second == 0);  // (past the header, or whole)
  CHECK(weight_requests == 2);
  // The host is fixed (the same size, no ETag: the same file to the page); Retry asks for that tensor alone.
  f.files.files = good;
  const size_t asked_before = f.net.requested.size();
  f.loader->retry(f.now);
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  CHECK(f.net.requested.size() == asked_before + 1);
  const auto range = f.net.requested_ranges.back();
  CHECK(range.second - range.first == 64ull * 160 * 2);  // down_proj: (hidden 64, intermediate 160) BF16
  mem_files g;
  g.files = good;
  CHECK(f.loader_logits({1, 2, 3}) == file_logits(&g, {1, 2, 3}));
}

TEST_CASE("a host that ignores Range: a small file sent whole is sliced; a large one is stopped and named", "[model][loader]") {
  const std::string shard = "model-00001-of-00002.safetensors";
  for (bool small_ranges : {false, true}) {
    INFO("ranges of a chunk: " << small_ranges);
    loader_fixture f(synth_model_make(small_model()));
    if (small_ranges) f.opt.fetch.range_bytes = 64 << 10;  // the whole file is far more than a range
    f.open();
    for (int i = 0; i < 1000 && f.loader->phase() == MODEL_OPENING; i++) f.loader->pump(f.now), f.net.deliver(f.now);
    REQUIRE(f.loader->phase() == MODEL_LOADING);
    f.net.faults[shard].ignore_range = true;  // (its header came ranged)
    f.settle();
    if (!small_ranges) {
      // Its weights were one range of nearly the whole file: the whole file, sliced, is as good.
      REQUIRE(f.loader->phase() == MODEL_READY);
      CHECK(f.loader_logits({4, 5}) == file_logits(&f.files, {4, 5}));
    } else {
      CHECK(f.loader->phase() == MODEL_LOADING);
      const std::vector<opener_failure> e = f.loader->chunk_failures();
      REQUIRE(e.size() == 1);
      CHECK(e[0].file == shard);
      CHECK(e[0].error.fault == STREAM_NO_RANGE);
      CHECK(f.net.largest_body <= (64u << 10) * 2 + 1);  // stopped as it came, nothing kept
    }
  }
}
