// libFuzzer target for a whole pack read from bytes: manifest, q8 blobs and probes.bin through a
// byte source, then everything the CLI and the page do with them (gate stats on the kernels,
// precomputed results, the per-token experiments). Built by tools/fuzz.sh with clang, ASan and
// UBSan; ctest replays the committed corpus (tests/fuzz/corpus/pack/).
//
// One input is a whole pack: the manifest's text, then each file as "\n#file NAME\n" + its bytes
// (fuzz_pack_split). The first byte picks a mode: odd means the target rewrites every blob's
// checksum to match the bytes it names, as a hostile pack's author would, so that the q8 parser,
// the loaders and the kernels see bytes that pass verification; even leaves the checksums alone.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/pack/mlp_experiments.h"
#include "core/pack/pack_read.h"
#include "core/pack/pack_stats.h"

static const char kFileMark[] = "\n#file ";

// The manifest and the files of one input.
static void fuzz_pack_split(const std::string& in, mem_files* out) {
  size_t at = in.find(kFileMark);
  out->files[PACK_MANIFEST_FILE] = in.substr(0, at);
  while (at != std::string::npos) {
    const size_t name_at = at + sizeof kFileMark - 1, name_end = in.find('\n', name_at);
    if (name_end == std::string::npos) return;
    at = in.find(kFileMark, name_end + 1);
    out->files[in.substr(name_at, name_end - name_at)] = in.substr(name_end + 1, at == std::string::npos ? at : at - name_end - 1);
  }
}

static void fuzz_pack_rehash(mem_files& files, pack_blob* b) {
  auto f = files.files.find(b->file);
  if (f != files.files.end() && b->offset <= f->second.size() && b->bytes <= f->second.size() - b->offset)
    b->xxh3 = hash64(f->second.data() + b->offset, (size_t)b->bytes);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool rehash = data[0] & 1;
  mem_files files;
  fuzz_pack_split(std::string((const char*)data + 1, size - 1), &files);
  pack_manifest m;
  std::string err;
  if (!pack_open(&files, &m, &err)) return 0;
  if (rehash)
    for (pack_layer& l : m.layers)
      for (pack_blob& b : l.part) fuzz_pack_rehash(files, &b);
  if (rehash)
    for (pack_probe& p : m.probes) {
      fuzz_pack_rehash(files, &p.input);
      for (pack_probe_layer& pl : p.layers) fuzz_pack_rehash(files, &pl.silu_gate);
    }

  for (const pack_layer& l : m.layers) {
    mlp_gate_counts c;
    if (pack_gate_stats(&files, m, l.layer, PACK_THRESHOLD, &c, &err) && c.open + c.negative > c.total) __builtin_trap();
    pack_layer_data d;
    if (!pack_load_layer(&files, m, l.layer, /*gate_only=*/false, &d, &err)) continue;
    if (!d.complete()) __builtin_trap();
    const swiglu_q8_layer view = d.view((int)m.hidden, (int)m.intermediate);
    for (const pack_probe& p : m.probes) {
      std::vector<float> x;
      if (!pack_load_probe_input(&files, p, &x, &err)) continue;
      const int T = (int)p.tokens.size();
      if (x.size() != (size_t)T * m.hidden) __builtin_trap();  // the manifest's shape, verified
      mlp_permutation_test(&view, x.data(), T, mlp_default_perm(T));
      mlp_token_change(&view, x.data(), T, T - 1, -2.5f);
    }
  }
  for (const pack_probe& p : m.probes)
    for (const pack_probe_layer& pl : p.layers) {
      std::vector<float> sg;
      if (pack_load_precomputed(&files, pl, &sg, &err) && sg.size() != p.tokens.size() * (size_t)m.intermediate)
        __builtin_trap();
    }
  return 0;
}
