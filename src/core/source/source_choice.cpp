// Choosing and opening the live views' source (see source_choice.h).
#include "core/source/source_choice.h"

#include "core/source/checkpoint_source.h"
#include "core/source/pack_source.h"
#include "core/base/strings.h"
#include "core/link/url_state.h"

source_choice source_choice_for(const lab_state& s, const std::string& default_pack) {
  source_choice c;
  c.checkpoint = !s.model.empty() && url_model_location_ok(s.model);  // (the link's decoder refused bad ones)
  c.model_over_pack = c.checkpoint && !s.pack.empty();
  c.location = c.checkpoint ? s.model : s.pack.empty() ? default_pack : s.pack;
  c.key = (c.checkpoint ? "model " : "pack ") + c.location;
  if (c.checkpoint && !s.ids.empty()) {
    source_probe p;
    p.tokens = s.ids;
    p.label = s.text;
    // The teacher's pieces when they fit the ids; otherwise the chips read "#id".
    if (!s.pieces.empty() && (!sentence_pieces_split(s.pieces, &p.pieces) || p.pieces.size() != s.ids.size())) p.pieces.clear();
    c.probes.push_back(p);
    for (int64_t id : s.ids) c.key += " " + std::to_string(id);
  }
  return c;
}

layer_source* source_choice_open(const source_choice& c, fetch_client* client, double now, double stall_seconds,
                                 tokenizer_service* tokenizer) {
  if (c.checkpoint) {
    model_location loc;
    std::string why;
    if (model_location_parse(c.location, &loc, &why)) {
      checkpoint_source_options o;
      o.stall_seconds = stall_seconds;
      o.probes = c.probes;
      o.tokenizer = tokenizer;
      o.lesson_sentence = tr(STR_LESSON_SENTENCE);  // the reader takes the sentence as data (the same in both languages)
      return new checkpoint_source(client, loc, now, o);
    }
  }
  pack_source_options o;
  o.stall_seconds = stall_seconds;
  return new pack_source(client, c.location, now, o);
}
