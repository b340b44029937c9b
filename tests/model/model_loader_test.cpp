// The whole model by byte ranges (core/model/model_loader.h) through the fetch seam's twin: the
// same weights as the file reader's, a large download waiting for the go that names its size, a
// reload from the cache with no weight byte and no question (also when the cache's index comes
// after the host's answers), the memory budget refusing before anything is allocated, an
// unsupported mixer and a missing tensor named, Cancel and Retry fetching only what is missing, a
// file replaced mid-load read again.
#include <catch2/catch.hpp>

#include <cstring>

#include "core/checkpoint/synthetic_model.h"
#include "core/live_view.h"
#include "core/model/forward.h"
#include "core/model/model_loader.h"
#include "core/number_format.h"
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
  model_weights from_files;
  std::string err;
  REQUIRE(model_load(&f.files, {}, &from_files, &err));
  const std::vector<int64_t> ids = {3, 17, 150, 9};
  forward_trace a, b;
  model_forward(f.loader->weights(), ids, {}, &a);
  model_forward(from_files, ids, {}, &b);
  CHECK(a.logits == b.logits);
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
  // A reload: the same host, the verified cache from the first visit.
  const uint64_t first = f.net.network_bytes;
  f.open();
  f.settle();
  CHECK(f.loader->phase() == MODEL_READY);  // never MODEL_ASKING: nothing to download
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
  f.open();
  for (int i = 0; i < 30; i++) {
    f.now += 0.01;
    f.loader->pump(f.now);
    f.net.deliver(f.now);
  }
  // The host replaces both shards (new values, same layout) and their ETags.
  for (const char* shard : {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"}) {
    f.files.files[shard] = new_files[shard];
    f.net.etags[shard] = "\"v2\"";
  }
  f.settle();
  REQUIRE(f.loader->phase() == MODEL_READY);
  mem_files fresh;
  fresh.files = new_files;
  model_weights expect;
  std::string err;
  REQUIRE(model_load(&fresh, {}, &expect, &err));
  forward_trace a, b;
  model_forward(f.loader->weights(), {1, 2, 3}, {}, &a);
  model_forward(expect, {1, 2, 3}, {}, &b);
  CHECK(a.logits == b.logits);
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
