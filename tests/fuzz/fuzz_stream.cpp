// libFuzzer target for the streaming state machine: a pack source driven by the fuzzer's bytes as
// a sequence of events from the frame and the network (pumps, answers, wants, Cancel, Retry, time
// passing, faults injected per file, going offline, a raced cancel, a corrupted cache entry), with
// the lesson's gate results computed from the frame as the page does. Built by tools/fuzz.sh with
// clang, ASan and UBSan; ctest replays the committed corpus (tests/fuzz/corpus/stream/).
//
// Checked after every event: the source never counts a matrix twice (resident bytes within the
// pack's own), a failure always names a file and a fault; at the end, live gate results only come
// from gate matrices that passed verification (the pack's own: their counts equal `stats`').
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint.h"
#include "core/experiments/gate_activity.h"
#include "core/pack/pack_build.h"
#include "core/pack/pack_stats.h"
#include "core/source/pack_source.h"
#include "platform/native/fetch_native.h"
#include "../packs/pack_test_util.h"

static const char* kBase = "https://packs.example/p/";

// One small pack for every input (5 layers of which 0, 2, 4 are in it; two probes).
static const mem_files& fuzz_stream_pack() {
  static mem_files pack = [] {
    mem_files ckf = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
    checkpoint ck;
    std::string err;
    if (!ckpt_open(&ckf, &ck, &err)) std::abort();
    pack_build_options o;
    o.layers = {0, 2, 4};
    o.probes = {{"p0", {1, 2, 3, 4, 5, 6}, {}}, {"p1", {9, 8, 7}, {}}};
    mem_files out;
    pack_build_result res;
    if (!pack_build(ck, o, &out, &res, &err)) std::abort();
    return out;
  }();
  return pack;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mem_files pack = fuzz_stream_pack();
  std::vector<std::string> files;
  for (const auto& kv : pack.files) files.push_back(kv.first);
  native_fetch net;
  net.files = &pack;
  net.base = kBase;
  double now = 0;
  pack_source_options o;
  o.stall_seconds = 2;
  uint64_t pack_weight_bytes = 0;
  for (const auto& kv : pack.files)
    if (kv.first.find(".q8") != std::string::npos) pack_weight_bytes += kv.second.size();
  o.resident_bytes = (uint64_t)(size ? data[0] % 4 + 1 : 2) * pack_weight_bytes / 4;  // room for about one to three layers
  std::unique_ptr<pack_source> src(new pack_source(&net, kBase, now, o));
  gate_activity g;
  std::vector<int> shown = {0, 2, 4};
  int whole = -1;
  const int layers[] = {0, 1, 2, 3, 4};
  for (size_t i = 1; i + 1 < size; i += 2) {
    const uint8_t op = data[i] % 12, arg = data[i + 1];
    switch (op) {
      case 0: src->want(gate_activity_update(&g, src.get(), shown), whole); src->pump(now); break;
      case 1: net.deliver(now); break;
      case 2: shown = {layers[arg % 5]}; if (arg & 8) shown.push_back(layers[(arg >> 4) % 5]); break;
      case 3: whole = arg % 6 == 5 ? -1 : layers[arg % 5]; break;
      case 4: src->cancel(); break;
      case 5: src->retry(now); break;
      case 6: now += (arg % 8) * 0.5; break;
      case 7: {
        fetch_fault& f = net.faults[files[arg % files.size()]];
        f = fetch_fault();
        const int kind = (arg >> 4) % 8;
        if (kind == 0) f.status = 404;
        if (kind == 1) f.status = 500;
        if (kind == 2) f.truncate = true;
        if (kind == 3) f.corrupt = true;
        if (kind == 4) f.drop = true;
        if (kind == 5) f.stall = true;
        if (kind == 6) f.ignore_range = true;
        f.times = 1 + arg % 3;
        break;
      }
      case 8: net.offline = arg & 1; break;
      case 9: net.answer_after_cancel = arg & 1; break;
      case 10:
        for (auto& kv : net.cache)
          if (!kv.second.empty() && arg % 3 == 0) kv.second[arg % kv.second.size()] ^= 1;
        break;
      case 11:  // a reload: a new source over the same cache
        src.reset();
        src.reset(new pack_source(&net, kBase, now, o));
        g = gate_activity();
        break;
    }
    if (src->resident_bytes() > pack_weight_bytes) std::abort();
    for (const source_failure& f : src->failures())
      if (f.file.empty() || !f.error.failed()) std::abort();
  }
  // Whatever happened, what went live is the pack's own: its counts equal stats' on that layer.
  for (const gate_activity::layer_values& v : g.live) {
    mlp_gate_counts ref, got;
    std::string err;
    if (!pack_gate_stats(&pack, src->manifest(), v.layer, 0.1, &ref, &err)) std::abort();
    for (const std::vector<float>& p : v.silu) mlp_gate_count(p.data(), p.size(), 0.1, &got);
    if (got.open != ref.open || got.negative != ref.negative) std::abort();
  }
  return 0;
}
