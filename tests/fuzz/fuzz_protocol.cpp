// libFuzzer target for the whole model's messages between the page and its model worker
// (core/model/model_protocol.h, one row per field in model_messages.inc): the bytes read as a
// question, a reply and a status. Checked on every input:
//   - nothing crashes, and nothing allocates past the rows' bounds (ASan's own limit);
//   - a message that reads writes JSON that reads back as the same message, and the same JSON:
//     the reader takes nothing the writer cannot say (a value out of bounds, an unknown name);
//   - the verdict is one of three, and only "read" touches the message.
// Each input is read as given, and again with its first "v": set to this build's version, so a
// corpus written at an older version still reaches every row, not only the version check.
// Built by tools/fuzz.sh with clang, ASan and UBSan; ctest replays the committed corpus
// (tests/fuzz/corpus/protocol/: a question, replies and statuses as the host writes them).
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/model/model_protocol.h"

template <class T>
static void check(const std::string& text, std::string (*write)(const T&),
                  bool (*read)(const std::string&, T*, model_read_fault*)) {
  T x;
  model_read_fault fault = MODEL_READ_OK;
  const bool ok = read(text, &x, &fault);
  if (ok != (fault == MODEL_READ_OK)) __builtin_trap();
  if (fault != MODEL_READ_OK && fault != MODEL_READ_UNREADABLE && fault != MODEL_READ_OTHER_VERSION) __builtin_trap();
  if (!ok) {
    if (write(x) != write(T())) __builtin_trap();  // untouched
    return;
  }
  const std::string json = write(x);
  T y;
  if (!read(json, &y, &fault) || !(y == x) || write(y) != json) __builtin_trap();
}

static void check_all(const std::string& text) {
  check<model_question>(text, model_question_json, model_question_parse);
  check<model_reply>(text, model_reply_json, model_reply_parse);
  check<model_status>(text, model_status_json, model_status_parse);
}

// The text with the digits after its first "v": replaced by this build's version ("" if none).
static std::string at_this_version(const std::string& text) {
  const size_t key = text.find("\"v\":");
  if (key == std::string::npos) return "";
  size_t end = key + 4;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') end++;
  return text.substr(0, key + 4) + std::to_string(MODEL_MESSAGES_VERSION) + text.substr(end);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text((const char*)data, size);
  check_all(text);
  const std::string current = at_this_version(text);
  if (!current.empty() && current != text) check_all(current);
  return 0;
}
