// The page (see app.h).
#include "ui/app.h"

#include "core/lab_text.h"
#include "core/strings.h"
#include "core/url_state.h"
#include "imgui.h"
#include "platform/platform.h"
#include "core/view_table.h"
#include "ui/budget_panel.h"
#include "ui/focus.h"
#include "ui/gates_panel.h"
#include "ui/glossary_panel.h"
#include "ui/item_probe.h"
#include "ui/live_header.h"
#include "ui/perm_panel.h"
#include "ui/quiz_panel.h"
#include "ui/silu_panel.h"
#include "ui/widgets.h"

static const double COPY_FEEDBACK_SECONDS = 4.0;
static const char* const STORAGE_LAST_VIEW = "swiglu-lab.last-view";

void lab_app_load_fragment(lab_app* app, const std::string& fragment) {
  url_decoded d = url_decode(fragment);
  app->state = d.state;
  app->notices.clear();
  strings_set_lang(app->state.lang);
  for (const url_notice& n : d.notices) app->notices.push_back(lab_notice_text(n));
  app->hand.playing = false;
  app->written_fragment.clear();  // rewrite the canonical form of what was read
}

void lab_app_init(lab_app* app) {
  weights_panel_free(&app->weights);
  *app = lab_app{};
  focus_install();
  hand_panel_init(&app->hand);
  quiz_panel_init(&app->quiz);
  // A link's view always wins. The bare address (a bookmark, a reload after the fragment was
  // lost) brings back where this browser left off, so nobody loses their place.
  std::string fragment = platform_url_fragment();
  if (fragment.size() <= 1) fragment = platform_storage_get(STORAGE_LAST_VIEW);
  lab_app_load_fragment(app, fragment);
}

bool lab_app_animating(const lab_app* app, double now) {
  // The copy feedback also needs a frame once it is due to disappear, hence the margin. While
  // bytes arrive, frames keep the progress moving and let the streamer notice a stall.
  const bool streaming = app->stream.phase == PACK_STREAM_MANIFEST || pack_stream_progress_of(&app->stream, -1).loading > 0;
  return app->hand.playing || now < app->copy_feedback_until + 0.2 || app->layout_settling || streaming;
}

static void view_button(lab_state* s, const lab_view_info& v) {
  if (v.view != LAB_VIEW_HAND) widget_same_line_if_fits(widget_button_width(tr(v.label)));
  bool selected = s->view == v.view;
  if (selected) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  if (ImGui::Button(tr(v.label))) s->view = v.view;
  item_probe((std::string("view-") + v.name).c_str());
  if (selected) ImGui::PopStyleColor();
}

static void draw_top_bar(lab_app* app, double now) {
  lab_state* s = &app->state;
  ImGui::TextColored(ImVec4(0.1f, 0.2f, 0.45f, 1), "%s", tr(STR_APP_TITLE));
  widget_same_line_if_fits(ImGui::CalcTextSize(tr(STR_APP_SUBTITLE)).x);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_APP_SUBTITLE));
  ImGui::PopStyleColor();
  if (!s->lock)  // lock=1: the student follows the lesson path (draw_lesson_path)
    for (const lab_view_info& v : LAB_VIEWS) view_button(s, v);
  widget_same_line_if_fits(widget_button_width(tr(STR_COPY_LINK)) + ImGui::GetFontSize());
  if (ImGui::Button(tr(STR_COPY_LINK))) {
    platform_copy_text(platform_page_url());
    app->copy_feedback_until = now + COPY_FEEDBACK_SECONDS;
  }
  item_probe("copy-link");
  widget_same_line_if_fits(widget_button_width(tr(STR_LANGUAGE)));
  if (ImGui::Button(tr(STR_LANGUAGE))) {
    s->lang = s->lang == LAB_LANG_EN ? LAB_LANG_ZH : LAB_LANG_EN;
    strings_set_lang(s->lang);
  }
  item_probe("lang");
  if (now < app->copy_feedback_until) {
    int status = platform_copy_status();
    const char* message = tr(status > 0 ? STR_LINK_COPIED : STR_LINK_COPY_FAILED);
    if (status != 0) {
      widget_same_line_if_fits(ImGui::CalcTextSize(message).x);
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(message);
    }
  }
}

static void draw_notices(lab_app* app) {
  if (app->notices.empty()) return;
  // As tall as its text: however long the notices, Dismiss is inside the box, never under a scroll.
  widget_fit_box_begin("notices", COLOR_NOTICE_BG, true);
  for (const std::string& n : app->notices) widget_text_wrapped(n);
  if (ImGui::Button(tr(STR_DISMISS))) app->notices.clear();
  item_probe("dismiss");
  widget_fit_box_end();
}

// What the lesson adds to the mirror: the open common questions, the quiz's checked answer.
static std::string lesson_mirror_text(const lab_app* app) {
  std::string out = faq_text(app->state.view, app->faq_open);
  if (app->state.view == LAB_VIEW_QUIZ) {
    lab_lang saved = strings_lang();
    strings_set_lang(app->state.lang);
    out += quiz_panel_text(&app->quiz, app->state, quiz_live_from(app->state, &app->stream, &app->perm));
    strings_set_lang(saved);
  }
  return out;
}

// [SECTION] lesson path (path=, lock=1): Previous / Next across the teacher's views, "3 of 6",
// and while locked, "Explore freely" to unlock the same view in place.
static void draw_lesson_path(lab_app* app) {
  lab_state* s = &app->state;
  if (s->path.empty() && !s->lock) return;
  const int at = lab_path_index(*s), n = int(s->path.size());
  ImGui::AlignTextToFramePadding();
  widget_text_disabled(tr(STR_PATH_LESSON));
  if (n > 0) {
    widget_same_line_if_fits(widget_button_width(tr(STR_PATH_PREV)));
    ImGui::BeginDisabled(at <= 0);
    if (ImGui::Button(tr(STR_PATH_PREV))) lab_path_step(s, -1);
    ImGui::EndDisabled();
    item_probe("path-prev");
    if (at >= 0) {
      const std::string step = strf(tr(STR_PATH_STEP), std::to_string(at + 1).c_str(), std::to_string(n).c_str());
      widget_same_line_if_fits(ImGui::CalcTextSize(step.c_str()).x);
      ImGui::AlignTextToFramePadding();
      widget_text(step);
      item_probe("path-step");
    }
    widget_same_line_if_fits(widget_button_width(tr(STR_PATH_NEXT)));
    ImGui::BeginDisabled(at >= n - 1);
    if (ImGui::Button(tr(STR_PATH_NEXT))) lab_path_step(s, +1);
    ImGui::EndDisabled();
    item_probe("path-next");
  }
  if (s->lock) {
    widget_same_line_if_fits(widget_button_width(tr(STR_PATH_EXPLORE)));
    if (ImGui::Button(tr(STR_PATH_EXPLORE))) s->lock = 0;
    item_probe("path-explore");
  }
  if (n > 0 && at < 0) widget_text_wrapped(tr(STR_PATH_OFF_PATH));
}

// After the frame's edits: one URL write and one mirror write per actual change.
static void sync_outputs(lab_app* app) {
  std::string fragment = "#" + url_encode(app->state);
  if (fragment != app->written_fragment) {
    platform_replace_url_fragment(fragment);
    platform_storage_set(STORAGE_LAST_VIEW, fragment);
    app->written_fragment = fragment;
  }
  const bool live = lab_view_get(app->state.view).live;
  std::string mirror = lab_text(app->state, live ? &app->stream : nullptr, live ? &app->perm : nullptr);
  mirror += lesson_mirror_text(app);
  if (mirror != app->written_mirror) {
    platform_set_text_mirror(mirror);
    platform_set_document_lang(app->state.lang == LAB_LANG_ZH ? "zh-CN" : "en");
    app->written_mirror = mirror;
  }
  std::string notice;
  for (const std::string& n : app->notices) notice += (notice.empty() ? "" : "\n") + n;
  if (notice != app->written_notice) {
    platform_set_notice(notice);
    app->written_notice = notice;
  }
}

// [SECTION] panels: one row per view (the views themselves are in core/view_table.h)
static void draw_hand(lab_app* app, const live_choice&, double now) {
  hand_panel_keys(&app->hand, &app->state);
  hand_panel_draw(&app->hand, &app->state, now);
}
static void draw_silu(lab_app* app, const live_choice&, double) {
  silu_panel_keys(&app->state);
  silu_panel_draw(&app->state);
}
static void draw_budget(lab_app* app, const live_choice&, double) { budget_panel_draw(&app->state); }
static void draw_gates(lab_app* app, const live_choice& c, double) { gates_panel_draw(&app->state, &app->stream, c); }
static void draw_perm(lab_app* app, const live_choice& c, double now) {
  perm_panel_draw(&app->state, &app->stream, c, &app->perm, now);
}
static void draw_weights(lab_app* app, const live_choice& c, double) {
  weights_panel_draw(&app->weights, &app->state, &app->stream, c);
}

static void draw_quiz(lab_app* app, const live_choice&, double) {
  quiz_panel_draw(&app->quiz, &app->state, quiz_live_from(app->state, &app->stream, &app->perm));
}
static void draw_glossary(lab_app* app, const live_choice&, double) { glossary_panel_draw(&app->state); }

static void (*const PANELS[LAB_VIEW_COUNT])(lab_app*, const live_choice&, double) = {
    draw_hand, draw_silu, draw_budget, draw_gates, draw_perm, draw_weights, draw_quiz, draw_glossary,
};

// A live view needs the pack: open it (again, if the link names another), tell the streamer
// what this view needs, and let it start requests.
static live_choice live_prepare(lab_app* app, double now) {
  const std::string location = live_pack_location(app->state);
  if (app->stream_location != location) {
    pack_stream_open(&app->stream, platform_fetch_client(&app->stream), location, now);
    app->stream_location = location;
    app->perm = live_perm_cache();
    app->pack_fonts_asked = false;
    weights_panel_free(&app->weights);
  }
  if (app->stream.phase == PACK_STREAM_READY && !app->pack_fonts_asked) {
    std::string text = app->stream.manifest.model_id;
    for (const pack_probe& p : app->stream.manifest.probes) {
      text += p.label;
      for (const std::string& piece : p.pieces) text += piece;
    }
    platform_fonts_need(text);
    app->pack_fonts_asked = true;
  }
  live_choice c = live_resolve(app->state, &app->stream);
  if (c.ready) {
    switch (app->state.view) {
      case LAB_VIEW_GATES: pack_stream_want(&app->stream, c.layers, -1); break;
      case LAB_VIEW_PERM: pack_stream_want(&app->stream, {}, c.layer); break;
      default: pack_stream_want(&app->stream, {c.layer}, c.layer); break;
    }
  }
  pack_stream_pump(&app->stream, now);  // never changes a ready stream's phase: c stays right
  return c;
}

void lab_app_frame(lab_app* app, double now) {
  item_probe_clear();
  ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::Begin("SwiGLU Lab", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_HorizontalScrollbar);
  {  // ui=present: larger type for a projector, on top of the fonts' own high-DPI scale (page_style.cpp)
    ImGuiIO& io = ImGui::GetIO();
    const float present = app->state.ui == LAB_UI_PRESENT ? 1.4f : 1.0f;
    io.FontGlobalScale = io.FontGlobalScale / app->ui_scale_applied * present;
    app->ui_scale_applied = present;
  }
  draw_top_bar(app, now);
  draw_notices(app);
  draw_lesson_path(app);
  ImGui::Separator();
  live_choice choice;
  if (lab_view_get(app->state.view).live) {
    choice = live_prepare(app, now);
    live_header_draw(&app->state, &app->stream, choice, app->state.view == LAB_VIEW_GATES, now);
    ImGui::Separator();
  }
  PANELS[app->state.view](app, choice, now);
  faq_panel_draw(app->state.view, &app->faq_open);
  widget_drag_to_scroll();
  ImGui::End();
  item_probe_end_frame();
  app->layout_settling = widget_layout_changed();
  sync_outputs(app);
}
