// The sentence box (see sentence_box.h).
#include "ui/sentence_box.h"

#include <algorithm>
#include <cstring>

#include "core/checkpoint_remote/model_location.h"
#include "core/views/live_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "platform/platform.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

static char g_typed[LAB_TEXT_MAX + 1];
static bool g_applied = false;  // the last answer went into the link already
static std::string g_typed_from;  // the link's sentence (text, ids, pieces) the box last started from

const char* sentence_box_typed() { return g_typed; }

// The box shows the sentence that is computed: the link's text, or its pieces joined; ids= alone
// shows none, rather than the lesson's sentence, which is not what the page computes. Again
// whenever the link's sentence changes by itself (refused ids= fall back to the lesson's).
static void follow_sentence(const lab_state& s) {
  std::string from = s.text + "\n" + s.pieces + "\n";
  for (int64_t id : s.ids) from += std::to_string(id) + ",";
  if (from == g_typed_from) return;
  g_typed_from = from;
  std::vector<std::string> pieces;
  std::string joined;
  if (!s.ids.empty() && sentence_pieces_split(s.pieces, &pieces) && pieces.size() == s.ids.size())
    for (const std::string& p : pieces) joined += p;
  const std::string start = !s.text.empty() ? s.text : s.ids.empty() ? std::string(tr(STR_LESSON_SENTENCE)) : joined;
  std::strncpy(g_typed, start.c_str(), LAB_TEXT_MAX);
  g_typed[LAB_TEXT_MAX] = 0;
}

// A new checkpoint: a new tokenizer for its file, and the box starts from the link's sentence.
static void follow_model(const lab_state& s, live_session* ls) {
  if (ls->typing && ls->typing_model == s.model) return;
  model_location where;
  std::string why;
  ls->typing.reset();
  ls->typing_model = s.model;
  ls->sentence_note.clear();
  g_typed_from = "\x01";  // (never a link's): start from the link's sentence
  if (!model_location_parse(s.model, &where, &why)) return;
  ls->typing.reset(new sentence_tokenizer(platform_fetch_client(), platform_tokenizer(), where));
  g_applied = true;
}

// The hint, the field and Apply; true when the typed sentence is to be tokenized.
static bool sentence_box_field() {
  const float fs = ImGui::GetFontSize();
  widget_text_wrapped(tr(STR_TOK_HINT));
  ImGui::AlignTextToFramePadding();
  widget_text(tr(STR_TOK_LABEL));
  // The field and Apply beside the label if both fit, else below it; Apply goes under the field
  // only where even a 10-em field and the button do not fit one line.
  const float button = widget_button_width(tr(STR_TOK_APPLY)), gap = ImGui::GetStyle().ItemSpacing.x;
  widget_same_line_if_fits(fs * 10 + gap + button);
  ImGui::SetNextItemWidth(std::max(fs * 10, ImGui::GetContentRegionAvail().x - button - gap));
  bool go = ImGui::InputText("##sentence", g_typed, sizeof g_typed, ImGuiInputTextFlags_EnterReturnsTrue);
  item_probe("sentence-input");
  widget_same_line_if_fits(button);
  go |= ImGui::Button(tr(STR_TOK_APPLY));
  item_probe("sentence-apply");
  return go && g_typed[0];
}

void sentence_box_draw(lab_state* s, live_session* ls, bool shown) {
  if (s->model.empty()) return;
  follow_model(*s, ls);
  sentence_tokenizer* t = ls->typing.get();
  if (!t) return;
  if (!ImGui::GetIO().WantTextInput) follow_sentence(*s);  // (never under a student's typing)
  if (shown && sentence_box_field()) {
    t->request(g_typed, SENTENCE_MAX_TOKENS);
    g_applied = false;
    ls->sentence_note.clear();
  }
  t->pump();
  if (t->state() == SENTENCE_DONE && !g_applied) {
    g_applied = true;
    const tokenize_answer& a = t->answer();
    s->ids = a.ids;
    s->text = t->text();
    // Too long for the link: the student's chips read "#id" (the ids and numbers are the same).
    s->pieces = sentence_pieces_join(a.pieces);
    if (s->pieces.size() > LAB_TEXT_MAX) s->pieces.clear();
    s->probe = 0;
    // A shorter sentence moves the changed token quietly, and says so in words about the sentence.
    if (live_fit_sentence(s, (int)a.ids.size()))
      ls->sentence_note = strf(tr(STR_TOK_REFIT), std::to_string(a.ids.size()).c_str(), std::to_string(s->token).c_str());
  }
  const std::string line = sentence_status_line(ls);
  if (shown && !line.empty()) {
    if (t->state() == SENTENCE_FAILED) widget_text_colored(IM_COL32(170, 30, 30, 255), line);
    else widget_text_wrapped(line);
  }
}
