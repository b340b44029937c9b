// Which source of weights a link's state names, and opening it: model= (a checkpoint read by
// byte ranges, checkpoint_source.h) wins over pack= (pack_source.h), and the page says so.
// live_session opens the source through here, so a pack and a checkpoint are one swap of object.
#pragma once

#include <string>
#include <vector>

#include "core/link/lab_state.h"
#include "core/source/layer_source.h"
#include "core/stream/fetch_seam.h"

struct source_choice {
  bool checkpoint = false;           // model= is set: a checkpoint_source
  std::string location;              // the model= or pack= value (default_pack when both are empty)
  std::string key;                   // changes exactly when another source must be opened
  bool model_over_pack = false;      // both were given: the page shows the model, and says so
  std::vector<source_probe> probes;  // a teacher's sentence from ids= / text= (empty: the source's own)
};

source_choice source_choice_for(const lab_state& s, const std::string& default_pack);
// A new source for the choice (the caller owns it), opened at `now`. `tokenizer`: the platform's,
// for a checkpoint without ids= (the lesson's sentence through its tokenizer.json); may be null.
struct tokenizer_service;
layer_source* source_choice_open(const source_choice& c, fetch_client* client, double now, double stall_seconds,
                                 tokenizer_service* tokenizer = nullptr);
