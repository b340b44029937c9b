// The built-in whole model served by the fetch twin beside a headless page, and the same model run
// directly for the values a page must print: shared by the whole-model views' tests.
#pragma once

#include "ui_harness.h"

#include "core/checkpoint/synthetic_model.h"
#include "core/experiments/model_session.h"
#include "core/model/forward.h"
#include "core/model/model_weights.h"
#include "core/views/model_view.h"
#include "packs/pack_test_util.h"
#include "platform/native/fetch_native.h"
#include "platform/native/platform_native.h"

struct model_site {
  mem_files files;
  model_site() {
    for (const auto& f : synth_model_planted_make()) files.files[f.first] = f.second;
    native_fetch* net = platform_native_fetch();
    *net = native_fetch();
    net->files = &files;
    net->base = MODEL_DEFAULT_LOCATION;
    platform_native_model_reset();  // nothing an earlier test's page opened on other files
  }
  // Frames and answers until the mirror holds `part` (the model loads, then answers, a frame later).
  static bool settle_until(headless_page& page, const std::string& part) {
    for (int i = 0; i < 3000; i++) {
      if (i == 2999) UNSCOPED_INFO("the mirror never showed \"" << part << "\":\n" << page.mirror());
      page.frame();
      platform_native_fetch()->deliver(page.now);
      if (contains(page.mirror(), part)) {
        for (int k = 0; k < 3; k++) page.frame();
        return true;
      }
    }
    return false;
  }
};

inline const char* lang_name(lab_lang l) { return l == LAB_LANG_EN ? "en" : "zh"; }

// Frames and answers until the page has answered the link as it is now (the model loaded, the
// last change run).
inline bool model_answered(headless_page& page) {
  for (int i = 0; i < 3000; i++) {
    if (model_view_ready(page.app.live.model, page.app.state)) {
      for (int k = 0; k < 3; k++) page.frame();
      return true;
    }
    page.frame();
    platform_native_fetch()->deliver(page.now);
  }
  return false;
}

// The same model run directly, for the values the page must print.
struct direct_run {
  model_weights w;
  explicit direct_run(const mem_files& files) {
    std::string err;
    mem_files copy = files;
    REQUIRE(model_load(&copy, model_formats(), &w, &err));
  }
  forward_trace forward(const std::vector<int64_t>& ids, const std::vector<unit_ref>& off = {}) const {
    forward_trace run;
    model_forward(w, ids, off, &run);
    return run;
  }
};

// The layer whose MLP adds the most at `token` in a direct run: the largest |MLP| / |layer out|.
inline int direct_largest_flow(const forward_trace& run, size_t token) {
  int largest = 0;
  for (size_t l = 1; l < run.mlp_l2.size(); l++)
    if (run.mlp_l2[l][token] / run.out_l2[l][token] > run.mlp_l2[(size_t)largest][token] / run.out_l2[(size_t)largest][token]) largest = (int)l;
  return largest;
}
