// libFuzzer targets for the parsers that read hostile bytes: the safetensors header, config.json,
// the shard index (through ckpt_open) and the pack manifest. One source, one target per parser
// (FUZZ_TARGET picks it at compile time). Built by tools/fuzz.sh with clang, ASan and UBSan;
// ctest replays the committed corpus (tests/fuzz/corpus/<target>/) through each.
//   tools/fuzz.sh                 build, then replay the corpus
//   tools/fuzz.sh 600             build, then fuzz each target for 600 s, growing the corpus
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint/model_config.h"
#include "core/checkpoint/safetensors.h"
#include "core/pack/pack_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes((const char*)data, size);
  std::string err;
#if FUZZ_TARGET == 1  // safetensors: the bytes are a whole file
  mem_files m;
  m.files["x.safetensors"] = bytes;
  st_file f;
  if (st_read_header(&m, "x.safetensors", &f, &err))
    for (const st_tensor& t : f.tensors)
      if (t.end > size || t.begin > t.end) __builtin_trap();  // every range inside the file
#elif FUZZ_TARGET == 2  // config.json
  model_config c;
  if (model_config_parse(bytes, "config.json", &c, &err) && (c.hidden < 1 || c.intermediate < 1)) __builtin_trap();
#elif FUZZ_TARGET == 3  // the shard index, with a valid config and one small shard beside it
  mem_files m;
  m.files["config.json"] = R"({"hidden_size":2,"intermediate_size":2,"num_hidden_layers":1,"vocab_size":2})";
  m.files["model.safetensors.index.json"] = bytes;
  m.files["a.safetensors"] = st_write({{"model.embed_tokens.weight", ST_DTYPE_F32, {2, 2}, std::string(16, '\0')}}, {});
  checkpoint ck;
  ckpt_open(&m, &ck, &err);
#elif FUZZ_TARGET == 4  // the pack manifest; what parses must write back and parse the same
  pack_manifest m;
  if (pack_manifest_parse(bytes, &m, &err)) {
    pack_manifest again;
    const std::string text = pack_manifest_to_json(m);
    if (!pack_manifest_parse(text, &again, &err) || pack_manifest_to_json(again) != text) __builtin_trap();
  }
#else
#error "define FUZZ_TARGET"
#endif
  return 0;
}
