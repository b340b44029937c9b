// A checkpoint's probe sentence and its input (see checkpoint_probe.h).
#include "core/source/checkpoint_probe.h"

#include <algorithm>

#include "core/pack/pack_build.h"
#include "core/pack/pack_format.h"

static const char kConfigFile[] = "config.json";

source_probe checkpoint_default_synthetic_probe() {
  return {"今天天气不错，我们去公园", {1, 2, 3, 4, 5, 6}, {"今天", "天气", "不错", "，", "我们", "去公园"}};
}

probe_state checkpoint_probe::choose(fetch_client* client, tokenizer_service* tokenizer, const model_location& where,
                                     const std::vector<source_probe>& given, const std::string& lesson_sentence,
                                     const model_config& c, source_failure* failure) {
  probes = given;
  if (probes.empty() && c.synthetic) probes.push_back(checkpoint_default_synthetic_probe());
  if (probes.empty()) {  // a real model and no ids=: the lesson's sentence through its own tokenizer.json
    if (!sentence_) {
      sentence_.reset(new sentence_tokenizer(client, tokenizer, where));
      sentence_->request(lesson_sentence, SENTENCE_MAX_TOKENS);
    }
    sentence_->pump();
    if (sentence_->state() == SENTENCE_FAILED) {
      *failure = {SENTENCE_TOKENIZER_FILE, sentence_->file_url(), sentence_failure_error(*sentence_)};
      sentence_.reset();  // Retry asks again
      return PROBE_FAILED;
    }
    if (sentence_->state() != SENTENCE_DONE) return PROBE_WAITING;
    probes.push_back({lesson_sentence, sentence_->answer().ids, sentence_->answer().pieces});
    sentence_.reset();
  }
  const std::string config_url = model_location_file_url(where, kConfigFile);
  for (const source_probe& p : probes) {
    if (p.tokens.empty() || p.tokens.size() > PACK_MAX_TOKENS) {
      *failure = {kConfigFile, config_url,
                  stream_error_of(STREAM_NEEDS_IDS, read_error_at("", STR_READ_PROBE_TOKENS, {std::to_string((int)PACK_MAX_TOKENS)}))};
      return PROBE_FAILED;
    }
    for (int64_t id : p.tokens)
      if (id < 0 || id >= c.vocab) {
        *failure = {kConfigFile, config_url,
                    stream_error_of(STREAM_NEEDS_IDS, read_error_at("", STR_READ_TOKEN_OUTSIDE, {std::to_string(id), std::to_string(c.vocab - 1)}))};
        return PROBE_FAILED;
      }
  }
  inputs.assign(probes.size(), {});
  return PROBE_READY;
}

std::vector<std::pair<int64_t, int>> checkpoint_probe::id_runs() const {
  std::vector<int64_t> ids;
  for (const source_probe& p : probes) ids.insert(ids.end(), p.tokens.begin(), p.tokens.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<std::pair<int64_t, int>> runs;  // the synthetic default's 1..6, a repeated word: one range
  for (size_t i = 0; i < ids.size();) {
    size_t j = i + 1;
    while (j < ids.size() && ids[j] == ids[j - 1] + 1) j++;
    runs.push_back({ids[i], (int)(j - i)});
    i = j;
  }
  return runs;
}

uint64_t checkpoint_probe::bytes(int64_t hidden) const {
  uint64_t rows = 1;  // the norm
  for (const auto& r : id_runs()) rows += (uint64_t)r.second;
  for (const source_probe& p : probes) rows += p.tokens.size();
  return rows * (uint64_t)hidden * 4;
}

void checkpoint_probe::compute_inputs(const model_config& c) {
  if (norm.empty()) return;
  for (size_t p = 0; p < probes.size(); p++) {
    if (!inputs[p].empty()) continue;
    const std::vector<int64_t>& ids = probes[p].tokens;
    std::vector<float> emb(ids.size() * (size_t)c.hidden);
    bool all = true;
    for (size_t t = 0; t < ids.size() && all; t++) {
      auto row = embed_rows.find(ids[t]);
      if (row == embed_rows.end()) all = false;
      else std::copy(row->second.begin(), row->second.end(), emb.begin() + t * (size_t)c.hidden);
    }
    if (!all) continue;
    inputs[p].resize(emb.size());
    pack_probe_input(emb.data(), (int)ids.size(), (int)c.hidden, norm.data(), c.norm, c.rms_norm_eps, inputs[p].data());
  }
}

void checkpoint_probe::drop_rows() {
  embed_rows.clear();
  norm.clear();
  inputs.assign(probes.size(), {});
}
