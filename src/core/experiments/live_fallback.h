// A link's value that does not fit the weights it opened (a pack, a checkpoint, the whole model),
// and what is shown instead: the page says it in #lab-notice and rewrites the link to what is shown.
#pragma once

#include <string>

// For "ids": the id the model refused, and the vocabulary's last id (the lesson's sentence is shown).
struct live_fallback {
  const char* key;
  std::string value, shown;
};
