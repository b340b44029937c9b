// The page (see app.h).
#include "ui/app.h"

#include "core/source/source_choice.h"
#include "core/lesson/glossary.h"
#include "core/views/lab_text.h"
#include "core/views/live_view.h"
#include "core/base/strings.h"
#include "core/link/url_state.h"
#include "imgui.h"
#include "platform/platform.h"
#include "ui/model_status.h"
#include "core/views/view_table.h"
#include "ui/focus.h"
#include "ui/item_probe.h"
#include "ui/live_header.h"
#include "ui/glossary_panel.h"
#include "ui/panel.h"
#include "ui/qr_panel.h"
#include "ui/widgets.h"

static const double COPY_FEEDBACK_SECONDS = 4.0;

// [SECTION] panels: one row per view, from ui/panels.inc (the views themselves: core/link/views.inc)
struct panel_row {
  lab_view view;
  void* (*init)();
  void (*keys)(void*, panel_frame*);
  void (*draw)(void*, panel_frame*);
  bool (*animating)(const void*, double);
  std::string (*text)(const void*, panel_frame*);
  void (*free)(void*);
};
static const panel_row PANELS[] = {
#define PANEL(view, prefix) {view, prefix##_init, prefix##_keys, prefix##_draw, prefix##_animating, prefix##_text, prefix##_free},
#include "ui/panels.inc"
#undef PANEL
};
static_assert(sizeof PANELS / sizeof PANELS[0] == LAB_VIEW_COUNT, "ui/panels.inc needs one row per view of core/link/views.inc");
static const char* const STORAGE_LAST_VIEW = "swiglu-lab.last-view";

static void panels_reset(lab_app* app);

void lab_app_load_fragment(lab_app* app, const std::string& fragment) {
  url_decoded d = url_decode(fragment);
  app->state = d.state;
  app->notices.clear();
  strings_set_lang(app->state.lang);
  for (const url_notice& n : d.notices) app->notices.push_back(lab_notice_text(n));
  widget_term_close();
  app->explored = false;
  panels_reset(app);  // a hand-edited link starts the panels afresh (the hand calculation stops playing)
  app->written_fragment.clear();  // rewrite the canonical form of what was read
}

static void panels_free(lab_app* app) {
  for (int v = 0; v < LAB_VIEW_COUNT; v++)
    if (app->panels[v]) PANELS[v].free(app->panels[v]), app->panels[v] = nullptr;
}

static void panels_reset(lab_app* app) {
  panels_free(app);
  for (int v = 0; v < LAB_VIEW_COUNT; v++) {
    IM_ASSERT(PANELS[v].view == v && "ui/panels.inc lists the views in the order of core/link/views.inc");
    app->panels[v] = PANELS[v].init();
  }
}

void lab_app_free(lab_app* app) {
  panels_free(app);
  live_session_close(&app->live);
}

void lab_app_init(lab_app* app) {
  lab_app_free(app);
  *app = lab_app{};
  focus_install();
  // A link's view always wins. The bare address (a bookmark, a reload after the fragment was
  // lost) brings back where this browser left off, so nobody loses their place.
  std::string fragment = platform_url_fragment();
  if (fragment.size() <= 1) fragment = platform_storage_get(STORAGE_LAST_VIEW);
  lab_app_load_fragment(app, fragment);
}

bool lab_app_panel_animating(const lab_app* app, lab_view view, double now) {
  return app->panels[view] && PANELS[view].animating(app->panels[view], now);
}

bool lab_app_animating(const lab_app* app, double now) {
  // The copy feedback also needs a frame once it is due to disappear, hence the margin. While
  // bytes arrive, frames keep the progress moving and let the source notice a stall.
  const layer_source* src = app->live.source.get();
  // (A checkpoint's chunks are converted in frames after their bytes are in: "converting".)
  const source_progress p = src ? src->progress(-1) : source_progress();
  const bool streaming = src && (src->phase() == SOURCE_OPENING || source_progress_moving(p));
  // A typed sentence: frames poll the tokenizer worker's answer (it wakes nothing by itself).
  const sentence_tokenizer* typed = app->live.typing.get();
  const bool tokenizing = typed && (typed->state() == SENTENCE_FETCHING || typed->state() == SENTENCE_TOKENIZING);
  // The Clear button's bytes held back while the caches filled (progress_pace) still show.
  return lab_app_panel_animating(app, app->state.view, now) || now < app->copy_feedback_until + 0.2 ||
         app->layout_settling || streaming || tokenizing || app->live.cache_shown.pending(now) ||
         qr_panel_animating(&app->qr);
}

static void view_button(lab_state* s, const lab_view_info& v) {
  if (v.view != LAB_VIEW_HAND) widget_same_line_if_fits(widget_button_width(tr(v.label)));
  bool selected = s->view == v.view;
  if (selected) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  if (ImGui::Button(tr(v.label))) s->view = v.view;
  item_probe((std::string("view-") + v.name).c_str());
  if (selected) ImGui::PopStyleColor();
}

bool lab_app_phone(const lab_app*) { return ImGui::GetIO().DisplaySize.x < LAB_PRESENT_MIN_WIDTH; }

bool lab_app_presenting(const lab_app* app) {
  return app->state.ui == LAB_UI_PRESENT && ImGui::GetIO().DisplaySize.x >= LAB_PRESENT_MIN_WIDTH;
}

// lock=1 keeps the student on the path (draw_lesson_path); a projector on a path (ui=present)
// moves by the lesson bar too, until "Explore freely".
static bool view_buttons_hidden(const lab_app* app) {
  const lab_state& s = app->state;
  return s.lock || (lab_app_presenting(app) && !s.path.empty() && !app->explored);
}

// ui=present on a live view: the live header shows what a class reads (model, status, progress);
// its controls (probe, layers, Retry, the real model, the cache, the sentence box) wait under
// "Explore freely", as the view buttons do. The whole model's views keep their lesson's controls
// and hide only the real model's offer and Clear: with neither on screen, nothing waits there.
static bool live_controls_hidden(const lab_app* app) {
  if (!lab_app_presenting(app) || app->explored || !lab_view_get(app->state.view).live()) return false;
  return !lab_view_on_whole_model(app->state) || model_status_extras_shown(app->live, app->state);
}

static void explore_button(lab_app* app) {
  widget_same_line_if_fits(widget_button_width(tr(STR_PATH_EXPLORE)));
  if (ImGui::Button(tr(STR_PATH_EXPLORE))) app->state.lock = 0, app->explored = true;
  item_probe("path-explore");
}

static void draw_top_bar(lab_app* app, double now) {
  lab_state* s = &app->state;
  ImGui::TextColored(ImVec4(0.1f, 0.2f, 0.45f, 1), "%s", tr(STR_APP_TITLE));
  widget_same_line_if_fits(ImGui::CalcTextSize(tr(STR_APP_SUBTITLE)).x);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_APP_SUBTITLE));
  ImGui::PopStyleColor();
  const bool present = lab_app_presenting(app);  // and a projector shows no link to copy
  if (!view_buttons_hidden(app))
    for (const lab_view_info& info : LAB_VIEWS) view_button(s, info);
  if (!present) {
    widget_same_line_if_fits(widget_button_width(tr(STR_COPY_LINK)) + ImGui::GetFontSize());
    if (ImGui::Button(tr(STR_COPY_LINK))) {
      platform_copy_text(platform_page_url());
      app->copy_feedback_until = now + COPY_FEEDBACK_SECONDS;
    }
    item_probe("copy-link");
  }
  qr_panel_button(&app->qr);  // a projector too: there the class scans the link instead
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

// What the lesson adds to the mirror: the open common questions, and what the view's panel
// holds in its own memory (the quiz's checked answer).
static std::string lesson_mirror_text(lab_app* app) {
  const strings_lang_scope words(app->state.lang);
  std::string out = faq_text(app->state.view, app->faq_open);
  panel_frame f = {&app->state, &app->live, &app->choice, 0, false};
  out += PANELS[app->state.view].text(app->panels[app->state.view], &f);
  if (widget_term_open() >= 0) out += glossary_mirror_text(glossary_id(widget_term_open())) + "\n";
  return out;
}

// [SECTION] lesson path (path=, lock=1): Previous / Next across the teacher's views, "3 of 6",
// and while locked, "Explore freely" to unlock the same view in place.
static void draw_lesson_path(lab_app* app) {
  lab_state* s = &app->state;
  const bool explore = view_buttons_hidden(app) || live_controls_hidden(app);
  if (s->path.empty() && !s->lock) {
    if (explore) explore_button(app);
    return;
  }
  const int at = lab_path_index(*s), n = int(s->path.size());
  ImGui::AlignTextToFramePadding();
  widget_text_disabled(tr(STR_PATH_LESSON));
  if (n > 0) {
    widget_same_line_if_fits(widget_button_width(tr(STR_PATH_PREV)));
    const bool back = at < 0 && s->path_at >= 0 && s->path_at < n;  // off the path: both return to where it was left
    ImGui::BeginDisabled(at <= 0 && !back);
    if (ImGui::Button(tr(STR_PATH_PREV))) lab_path_step(s, -1);
    ImGui::EndDisabled();
    item_probe("path-prev");
    if (at >= 0) {
      const std::string step = lab_path_text(*s);
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
  if (explore) explore_button(app);
  if (n > 0 && at < 0) widget_text_wrapped(lab_path_text(*s));
}

// After the frame's edits: one URL write and one mirror write per actual change. A change of view
// (or of the place on a lesson path) is a history entry, so Back returns to the view before;
// everything else (a drag, a typed value, a fallback) rewrites the entry in place.
static void sync_outputs(lab_app* app) {
  lab_path_follow(&app->state);
  std::string fragment = "#" + url_encode(app->state);
  if (fragment != app->written_fragment) {
    const bool new_view = !app->written_fragment.empty() &&
                          (app->written_view != app->state.view || app->written_at != app->state.path_at ||
                           app->written_model != app->state.model);
    if (new_view) platform_push_url_fragment(fragment);
    else platform_replace_url_fragment(fragment);
    app->written_fragment = fragment;
    app->written_view = app->state.view, app->written_at = app->state.path_at;
    app->written_model = app->state.model;
  }
  // The bare address reopens this view, but never a model or pack that failed to open: the same
  // view on the built-in weights instead (the link itself still names what failed, with Retry).
  std::string stored = fragment;
  if (live_source_failed(app->live, app->state) ||
      (lab_view_on_whole_model(app->state) && model_session_failed(app->live.model, app->state))) {
    lab_state back = app->state;
    live_use_builtin(&back);
    stored = "#" + url_encode(back);
  }
  if (stored != app->written_storage) {
    platform_storage_set(STORAGE_LAST_VIEW, stored);
    app->written_storage = stored;
  }
  const bool live = lab_view_get(app->state.view).live();
  std::string mirror = lab_text(app->state, &app->live, live ? &app->choice : nullptr);
  mirror += lesson_mirror_text(app);
  mirror += qr_panel_text(&app->qr);
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

// A live view: the session opens the source the link names, asks it for what this view needs
// and computes the lesson's results; link values that do not fit these weights become notices
// and the link is rewritten to what is shown.
static live_choice live_prepare(lab_app* app, double now) {
  const lab_view_info& v = lab_view_get(app->state.view);
  const std::string before = app->live.location;
  app->live.tokenizer = platform_tokenizer();
  live_choice c = live_session_frame(&app->live, app->state, v.needs, platform_fetch_client(), now, app->stall_seconds);
  if (app->live.location != before && source_choice_for(app->state, LIVE_DEFAULT_PACK).model_over_pack)
    app->notices.push_back(tr(STR_NOTICE_MODEL_OVER_PACK));
  if (!c.fallbacks.empty()) {
    for (const live_fallback& f : c.fallbacks) app->notices.push_back(live_fallback_text(f));
    live_apply_fallbacks(&app->state, c);
    // The open source already shows what the rewritten link means (refused ids=: the lesson's
    // sentence), so the link's new key must not open it again.
    app->live.location = live_location(app->state);
    c = live_resolve(app->state, app->live.source.get());
  }
  const layer_source* src = app->live.source.get();
  if (src && src->phase() == SOURCE_READY && !app->live.fonts_asked) {
    std::string text = src->model().model_id;
    for (const source_probe& p : src->model().probes) {
      text += p.label;
      for (const std::string& piece : p.pieces) text += piece;
    }
    platform_fonts_need(text);
    app->live.fonts_asked = true;
  }
  return c;
}

void lab_app_open_sources(lab_app* app, double now) {
  const lab_view_info& v = lab_view_get(app->state.view);
  if (v.live() && !lab_view_on_whole_model(app->state)) app->choice = live_prepare(app, now);
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
    const bool on = lab_app_presenting(app);
    // The platform sets the fonts' own scale again whenever it rebuilds them (the whole model's
    // tokens fetch glyphs the page lacked): the factor goes on top of that scale, not of itself.
    if (io.FontGlobalScale != app->font_scale_written) app->font_scale_base = io.FontGlobalScale;
    io.FontGlobalScale = app->font_scale_base * (on ? LAB_PRESENT_TYPE_SCALE : 1.0f);
    app->font_scale_written = io.FontGlobalScale;
    widget_set_present(on);  // thicker lines, no editing chrome, the formula big
  }
  draw_top_bar(app, now);
  draw_notices(app);
  draw_lesson_path(app);
  ImGui::Separator();
  const lab_view_info& v = lab_view_get(app->state.view);
  app->choice = live_choice();
  const bool whole_model = lab_view_on_whole_model(app->state);  // its own session and status, no MLP source
  lab_state quiz_asked;
  if (quiz_asks_whole_model(app->state, &quiz_asked)) model_views_frame(&app->live, quiz_asked, now);
  if (whole_model) {
    model_views_frame(&app->live, app->state, now);
    // Link values this model does not have: said once in the notice, the link rewritten to what is shown.
    const std::vector<live_fallback> fallbacks = model_session_fallbacks(app->live.model, app->state);
    for (const live_fallback& f : fallbacks) app->notices.push_back(live_fallback_text(f));
    model_session_apply_fallbacks(&app->state, fallbacks, app->live.model);
    // A pack= the whole model does not read: said once; the link keeps it for the views that do.
    if (!app->state.pack.empty() && app->state.pack != app->pack_said) app->notices.push_back(lab_pack_unused_text(app->state.pack));
    app->pack_said = app->state.pack;
    // A link's answers that cannot be read: said once, and the view asks the model instead.
    answers_refusal& refused = app->live.model.carried.refusal;
    if (refused.code != ANSWERS_OK) {
      app->notices.push_back(class_answers_refusal_text(refused));
      refused = answers_refusal();
      app->state.answers.clear();
    }
  } else if (v.live()) app->choice = live_prepare(app, now);
  // On a phone the gates view's figure comes first, as in the early text (its histograms at the
  // top), and the live header under the view: at the first frame the figures stay on screen. A
  // failure (what failed, Retry) goes back on top, where it is seen.
  // On the stream (in=stream) the figure comes first too, once the whole model has answered.
  const bool figure_first = v.live() && (v.needs & LIVE_GATE_HISTOGRAMS) && lab_app_phone(app) &&
                            (whole_model || (app->choice.ready && !live_source_has_failure(app->live.source.get())));
  const bool pick_layers = (v.needs & LIVE_GATE_HISTOGRAMS) != 0;
  if (v.live() && !whole_model && !figure_first) {
    live_header_draw(&app->state, &app->live, app->choice, pick_layers, now, !live_controls_hidden(app));
    ImGui::Separator();
  }
  panel_frame f = {&app->state, &app->live, &app->choice, now, figure_first, !live_controls_hidden(app)};
  const panel_row& row = PANELS[app->state.view];
  if (!app->qr.open) row.keys(app->panels[app->state.view], &f);  // the keys are the code's while it shows
  row.draw(app->panels[app->state.view], &f);
  if (figure_first && !whole_model) {
    ImGui::Separator();
    live_header_draw(&app->state, &app->live, app->choice, pick_layers, now, !live_controls_hidden(app));
  }
  faq_panel_draw(app->state.view, &app->faq_open);
  widget_drag_to_scroll();
  ImGui::End();
  widget_term_popup_draw();
  qr_panel_draw(&app->qr);
  item_probe_end_frame();
  app->layout_settling = widget_layout_changed();
  sync_outputs(app);
}
