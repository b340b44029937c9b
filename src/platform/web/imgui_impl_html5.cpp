// Browser platform backend for Dear ImGui 1.86 (see imgui_impl_html5.h).
#include "platform/web/imgui_impl_html5.h"

#include <emscripten.h>
#include <emscripten/html5.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "imgui.h"

static std::string g_canvas;
static bool g_dirty = true;
static double g_last_time = 0;
static float g_ratio = 1;
static std::string g_clipboard;
static bool g_last_input_touch = false;  // the last press was a finger: a phone's keyboard rules apply

// [SECTION] input queue
// Browser events arrive between frames, often several per frame (a test's click is a move, a
// press and a release within a millisecond; so is a fast tap). ImGui 1.86 samples state once per
// frame, so a press and release in one frame would vanish. Events are queued, and each frame
// takes them in order until one would change a button or key a second time (or move the mouse
// after a button changed): the rest waits for the next frame, which is then drawn.
enum input_kind { IN_MOVE, IN_BUTTON, IN_KEY, IN_TEXT, IN_WHEEL };
struct input_event {
  input_kind kind;
  int code;       // button 0..2 or keyCode
  bool down;      // press or release (IN_BUTTON, IN_KEY)
  float x, y;     // position, or wheel deltas
  std::string text;
  bool ctrl, shift, alt, super;
  bool double_press = false;  // IN_BUTTON down: the second press of a double click or tap
};
static std::vector<input_event> g_queue;

// ImGui 1.86 times double clicks by frames; on a slow phone two taps can be several frames and
// more than ImGui's 0.3 s apart though the finger was quick. Double clicks are therefore timed
// by the events themselves, and handed to ImGui after NewFrame (ImGui_ImplHtml5_AfterNewFrame).
static const double DOUBLE_CLICK_SECONDS = 0.35;
static bool g_double_pending[3];
struct press_memory { double time = -1; float x = 0, y = 0; };
static press_memory g_last_press[3];

// `event_ms`: the event's own timeStamp, when the finger touched, not when a busy page got to it.
static bool is_double_press(int b, double event_ms, float x, float y, float max_dist) {
  double now = event_ms / 1000.0;
  press_memory& last = g_last_press[b];
  bool dbl = last.time >= 0 && now - last.time < DOUBLE_CLICK_SECONDS &&
             std::fabs(x - last.x) <= max_dist && std::fabs(y - last.y) <= max_dist;
  last = dbl ? press_memory{} : press_memory{now, x, y};  // a third press starts over
  return dbl;
}

static void push(const input_event& e) {
  g_queue.push_back(e);
  g_dirty = true;
}

// A pinch is handed to ImGui as Ctrl+wheel (as browsers report a trackpad's pinch): ImGui then
// scrolls nothing, and a zoomable view under the fingers zooms. Ctrl is held for that frame only.
static bool g_key_ctrl = false, g_wheel_ctrl = false;

static void drain_queue(ImGuiIO& io) {
  if (g_wheel_ctrl) io.KeyCtrl = g_key_ctrl, g_wheel_ctrl = false;
  bool button_changed[3] = {false, false, false}, any_button = false;
  std::vector<int> keys_changed;
  size_t i = 0;
  for (; i < g_queue.size(); ++i) {
    const input_event& e = g_queue[i];
    if (e.kind == IN_MOVE) {
      if (any_button) break;
      io.MousePos = ImVec2(e.x, e.y);
    } else if (e.kind == IN_BUTTON) {
      if (button_changed[e.code]) break;
      io.MouseDown[e.code] = e.down;
      if (e.double_press) g_double_pending[e.code] = true;
      button_changed[e.code] = any_button = true;
    } else if (e.kind == IN_KEY) {
      bool seen = false;
      for (int k : keys_changed) seen |= k == e.code;
      if (seen) break;
      io.KeysDown[e.code] = e.down;
      io.KeyCtrl = g_key_ctrl = e.ctrl, io.KeyShift = e.shift, io.KeyAlt = e.alt, io.KeySuper = e.super;
      keys_changed.push_back(e.code);
    } else if (e.kind == IN_TEXT) {
      io.AddInputCharactersUTF8(e.text.c_str());
    } else if (e.kind == IN_WHEEL) {
      io.MouseWheelH += e.x;
      io.MouseWheel += e.y;
      if (e.ctrl) io.KeyCtrl = g_wheel_ctrl = true;
    }
  }
  g_queue.erase(g_queue.begin(), g_queue.begin() + long(i));
  if (!g_queue.empty()) g_dirty = true;
}

static input_event move_event(float x, float y) { return input_event{IN_MOVE, 0, false, x, y, {}, false, false, false, false}; }
static input_event button_event(int b, bool down, bool double_press = false) {
  input_event e{IN_BUTTON, b, down, 0, 0, {}, false, false, false, false};
  e.double_press = double_press;
  return e;
}

// DOM keyCodes double as ImGui key indices (ImGui 1.86 reads io.KeysDown through io.KeyMap).
enum { KC_BACKSPACE = 8, KC_TAB = 9, KC_ENTER = 13, KC_SHIFT = 16, KC_CTRL = 17, KC_ALT = 18,
       KC_ESCAPE = 27, KC_SPACE = 32, KC_PAGEUP = 33, KC_PAGEDOWN = 34, KC_END = 35, KC_HOME = 36,
       KC_LEFT = 37, KC_UP = 38, KC_RIGHT = 39, KC_DOWN = 40, KC_INSERT = 45, KC_DELETE = 46,
       KC_A = 65, KC_C = 67, KC_V = 86, KC_X = 88, KC_Y = 89, KC_Z = 90, KC_META = 91 };

static void mark_dirty() { g_dirty = true; }

static int dom_button_to_imgui(unsigned short b) { return b == 0 ? 0 : b == 2 ? 1 : b == 1 ? 2 : -1; }

static EM_BOOL on_mouse(int type, const EmscriptenMouseEvent* e, void*) {
  if (type == EMSCRIPTEN_EVENT_MOUSEDOWN) g_last_input_touch = false;
  push(move_event(float(e->targetX), float(e->targetY)));
  int b = dom_button_to_imgui(e->button);
  if (type == EMSCRIPTEN_EVENT_MOUSEDOWN && b >= 0)
    push(button_event(b, true, is_double_press(b, e->timestamp, float(e->targetX), float(e->targetY), 6)));
  if (type == EMSCRIPTEN_EVENT_MOUSEUP && b >= 0) push(button_event(b, false));
  return type != EMSCRIPTEN_EVENT_MOUSEMOVE;  // let moves through; keep clicks from selecting text
}

static EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void*) {
  double scale = e->deltaMode == DOM_DELTA_PIXEL ? 1.0 / 100 : e->deltaMode == DOM_DELTA_LINE ? 1.0 / 3 : 1.0;
  push(input_event{IN_WHEEL, 0, false, -float(e->deltaX * scale), -float(e->deltaY * scale), {}, false, false, false, false});
  return EM_TRUE;
}

// [SECTION] the page's text field: a phone's keyboard and a desktop's input method
// A canvas cannot summon a phone's on-screen keyboard, nor take a desktop's input method (pinyin):
// only a focused text field can. A hidden <input> (#lab-keyboard, created here) is that field;
// its text is forwarded to ImGui, and it lets go once ImGui no longer wants text.
// - A phone shows its keyboard only for a field focused inside the touch handler itself: a double
//   tap (what starts typing into an ImGui number) focuses it.
// - A desktop focuses it as soon as an ImGui text field is active, and keeps it at ImGui's caret
//   (io.ImeSetInputScreenPosFn), so the input method's candidate window opens at the field. While
//   the input method composes, the field shows the composition over the caret and nothing goes to
//   ImGui; at compositionend the committed text does.
EM_JS(void, js_keyboard_create, (void), {
  const el = document.createElement("input");
  el.id = "lab-keyboard";
  el.type = "text";
  el.autocomplete = "off";
  el.setAttribute("autocapitalize", "off");
  el.setAttribute("aria-hidden", "true");
  el.style.cssText = "position:fixed;left:0;bottom:0;width:1px;height:1px;opacity:0;border:0;padding:0;margin:0;" +
                     "font-size:16px;outline:none;background:#fff;color:#111;z-index:10;pointer-events:none";
  el.labComposing = false;
  const send = () => {
    const t = el.value;
    el.value = "";
    if (!t) return;
    const n = lengthBytesUTF8(t) + 1, p = _malloc(n);
    stringToUTF8(t, p, n);
    Module._lab_on_text(p);
    _free(p);
  };
  // Shown while composing (only at a desktop's caret: a phone's field stays out of sight), as wide
  // as the composition, so the rest of the line (the box's button) stays in view.
  const measure = document.createElement("canvas").getContext("2d");
  const fit = () => {
    measure.font = getComputedStyle(el).font;
    const room = Math.max(1, window.innerWidth - el.getBoundingClientRect().left);
    el.style.width = Math.min(room, Math.ceil(measure.measureText(el.value).width) + 6) + "px";
  };
  const show = (on) => { el.style.opacity = on && el.labAtCaret ? "1" : "0"; };
  el.addEventListener("compositionstart", () => { el.labComposing = true; show(true); });
  el.addEventListener("compositionend", () => { el.labComposing = false; show(false); el.style.width = "1px"; send(); });
  // A phone's keyboard (Gboard, iOS) edits the text it believes the field holds: its Backspace
  // comes as keyCode 229 (skipped by on_key) and then a deletion of the field's text, its Enter
  // as a line break to insert. Outside a composition the field holds nothing, so these are
  // ImGui's keys: pressed there (keyCode, Ctrl for a word), the field left as it was (empty).
  // A key whose own keydown went to ImGui (Alt+Backspace, not 229) is not pressed twice.
  const keys = { deleteContentBackward: [8, 0], deleteContentForward: [46, 0], deleteWordBackward: [8, 1],
                 deleteWordForward: [46, 1], insertLineBreak: [13, 0], insertParagraph: [13, 0] };
  el.labKey = 0;
  el.addEventListener("keydown", (e) => { el.labKey = e.keyCode; });
  el.addEventListener("keyup", () => { el.labKey = 0; });
  el.addEventListener("blur", () => { el.labKey = 0; });
  el.addEventListener("beforeinput", (e) => {
    const k = keys[e.inputType];
    if (!k || el.labComposing || e.isComposing || el.value) return;  // the composition's own edit
    if (e.cancelable) e.preventDefault();
    if (!el.labKey || el.labKey === 229) Module._lab_on_key_press(k[0], k[1]);
  });
  el.addEventListener("input", (e) => {
    if (el.labComposing || e.isComposing) { if (el.labAtCaret) fit(); }
    else if (keys[e.inputType]) el.value = "";  // not cancelable on Android: a key, never text
    else send();
  });
  document.body.appendChild(el);
});
EM_JS(void, js_keyboard_focus, (void), {
  const el = document.getElementById("lab-keyboard");
  if (el) el.focus({ preventScroll: true });
});
// A desktop's field sits at ImGui's caret (CSS pixels of the canvas, which fills the window), one
// line high; a composition widens it.
EM_JS(void, js_keyboard_place, (float x, float y, float line), {
  const el = document.getElementById("lab-keyboard");
  if (!el) return;
  el.labAtCaret = true;
  const left = Math.max(0, x), top = Math.max(0, y);
  Object.assign(el.style, { left: left + "px", top: top + "px", bottom: "auto", height: line + "px",
                            fontSize: (line * 0.9) + "px" });
});
EM_JS(void, js_keyboard_blur, (void), {
  const el = document.getElementById("lab-keyboard");
  if (el && document.activeElement === el) el.blur();
  if (el) el.value = "", el.style.opacity = "0";
});
EM_JS(int, js_keyboard_focused, (void), {
  const el = document.getElementById("lab-keyboard");
  return el && document.activeElement === el ? 1 : 0;
});
EM_JS(int, js_keyboard_composing, (void), {
  const el = document.getElementById("lab-keyboard");
  return el && el.labComposing ? 1 : 0;
});

static double g_keyboard_since = -1;
static bool g_keyboard_desktop = false;     // focused for a desktop's typing (not by a tap)
static float g_caret_x = 0, g_caret_y = 0;  // ImGui's caret, top-left of its line (CSS pixels)
static bool g_keyboard_on_release = false;  // set by a double tap's touchstart, acted on at its touchend
static const double KEYBOARD_GRACE_SECONDS = 0.6;
static const float DOUBLE_TAP_PIXELS = 24;

// Called inside touchend, where a browser lets a page focus a field and show the keyboard.
static void keyboard_on_tap_end() {
  if (g_keyboard_on_release || ImGui::GetIO().WantTextInput) {
    js_keyboard_focus();
    g_keyboard_since = emscripten_get_now() / 1000.0;
  }
  g_keyboard_on_release = false;
}

// ImGui's caret moved (called from ImGui::EndFrame): a desktop's field follows it.
static void set_caret(int x, int y) {
  g_caret_x = float(x), g_caret_y = float(y);
  if (g_keyboard_desktop) js_keyboard_place(g_caret_x, g_caret_y, ImGui::GetFontSize() * 1.2f);
}

// Once per frame: on a desktop, the field takes the focus when an ImGui text field starts (keys
// typed before then came as key events, in order) and lets go when it ends. On a phone, the
// keyboard goes when ImGui stopped wanting text (after a grace period, since ImGui only starts its
// text field a frame after the double tap that asked for it).
static void keyboard_update(bool want_text) {
  if (want_text && !g_last_input_touch && !g_keyboard_desktop && g_keyboard_since < 0) {
    g_keyboard_desktop = true;
    js_keyboard_place(g_caret_x, g_caret_y, ImGui::GetFontSize() * 1.2f);
    js_keyboard_focus();
    return;
  }
  if (g_keyboard_desktop && !want_text) {
    g_keyboard_desktop = false;
    js_keyboard_blur();
    return;
  }
  if (g_keyboard_since < 0 || want_text) return;
  if (emscripten_get_now() / 1000.0 - g_keyboard_since > KEYBOARD_GRACE_SECONDS) {
    js_keyboard_blur();
    g_keyboard_since = -1;
  }
}

// Two fingers pinch: the mouse is let go (its press picks nothing: it is released far away) and
// then sits between the fingers, and each change of their distance is a Ctrl+wheel step of
// 1.25x (what one wheel notch zooms), so a pinch zooms the heatmap by exactly the fingers' ratio.
static bool g_pinching = false;
static double g_pinch_distance = 0;
static const float FAR_AWAY = -100000;

static bool pinch(int type, const EmscriptenTouchEvent* e) {
  const EmscriptenTouchPoint* down[2];
  int n = 0;
  for (int i = 0; i < e->numTouches && n < 2; ++i) {
    bool lifted = (type == EMSCRIPTEN_EVENT_TOUCHEND || type == EMSCRIPTEN_EVENT_TOUCHCANCEL) && e->touches[i].isChanged;
    if (!lifted) down[n++] = &e->touches[i];
  }
  if (n < 2) {
    if (g_pinching && n == 0) g_pinching = false;  // every finger up: the next touch is a tap again
    return g_pinching;
  }
  double dx = down[1]->targetX - down[0]->targetX, dy = down[1]->targetY - down[0]->targetY;
  double distance = std::sqrt(dx * dx + dy * dy);
  float mx = float(down[0]->targetX + down[1]->targetX) / 2, my = float(down[0]->targetY + down[1]->targetY) / 2;
  if (!g_pinching) {
    g_pinching = true;
    g_keyboard_on_release = false;
    push(move_event(FAR_AWAY, FAR_AWAY));
    push(button_event(0, false));
  } else if (distance > 0 && g_pinch_distance > 0 && distance != g_pinch_distance) {
    input_event wheel{IN_WHEEL, 0, false, 0, float(std::log(distance / g_pinch_distance) / std::log(1.25)), {}, true, false, false, false};
    push(move_event(mx, my));
    push(wheel);
  }
  g_pinch_distance = distance;
  return true;
}

// One finger is the mouse.
static EM_BOOL on_touch(int type, const EmscriptenTouchEvent* e, void*) {
  g_last_input_touch = true;
  if (pinch(type, e)) return EM_TRUE;
  if (e->numTouches > 0) push(move_event(float(e->touches[0].targetX), float(e->touches[0].targetY)));
  if (type == EMSCRIPTEN_EVENT_TOUCHSTART && e->numTouches > 0) {
    bool dbl = is_double_press(0, e->timestamp, float(e->touches[0].targetX), float(e->touches[0].targetY), DOUBLE_TAP_PIXELS);
    push(button_event(0, true, dbl));
    g_keyboard_on_release = dbl;  // a double tap is how typing into a number starts
  }
  if (type == EMSCRIPTEN_EVENT_TOUCHEND || type == EMSCRIPTEN_EVENT_TOUCHCANCEL) push(button_event(0, false));
  if (type == EMSCRIPTEN_EVENT_TOUCHEND) keyboard_on_tap_end();
  return EM_TRUE;  // no synthetic mouse events, no page scroll while dragging a value
}

static EM_BOOL on_key(int type, const EmscriptenKeyboardEvent* e, void*) {
  ImGuiIO& io = ImGui::GetIO();
  bool down = type == EMSCRIPTEN_EVENT_KEYDOWN;
  bool field = js_keyboard_focused();
  // While an input method composes, its keys are its own (Enter picks a word, Backspace edits the
  // pinyin); a browser reports them as keyCode 229 ("Process"). Only the committed text comes in.
  if (field && (e->keyCode == 229 || js_keyboard_composing())) return EM_FALSE;
  if (e->keyCode < 512) push(input_event{IN_KEY, int(e->keyCode), down, 0, 0, {}, bool(e->ctrlKey), bool(e->shiftKey), bool(e->altKey), bool(e->metaKey)});
  bool command = e->ctrlKey || e->metaKey;
  // `key` is the character itself for printable keys ("a", "7", "-"), a name otherwise ("Enter").
  size_t n = std::strlen(e->key);
  bool single_char = n > 0 && n <= 4 && (n == 1 || (unsigned char)e->key[0] >= 0x80);
  bool arrows = e->keyCode >= KC_LEFT && e->keyCode <= KC_DOWN;
  if (field) {
    // The field takes characters (its input event brings them) and pastes; the keys ImGui acts on
    // (Tab, Enter, Escape, arrows, editing, Ctrl+A/C/X/Z) do nothing else; browser shortcuts work.
    if (!command && single_char) return EM_FALSE;
    if (command) return io.WantTextInput && e->keyCode != KC_V ? EM_TRUE : EM_FALSE;
    bool editing = e->keyCode == KC_TAB || e->keyCode == KC_ENTER || e->keyCode == KC_ESCAPE || arrows ||
                   e->keyCode == KC_BACKSPACE || e->keyCode == KC_DELETE || (e->keyCode >= KC_PAGEUP && e->keyCode <= KC_HOME);
    return editing && !e->altKey ? EM_TRUE : EM_FALSE;
  }
  if (down && !command && single_char) push(input_event{IN_TEXT, 0, false, 0, 0, e->key, false, false, false, false});
  if (command && e->keyCode == KC_V) return EM_FALSE;  // let the browser fire its paste event
  if (command && !io.WantTextInput) return EM_FALSE;   // browser shortcuts keep working
  // Tab and Space move and press the page's own focus (src/ui/focus.h), not the browser's.
  bool page_keys = (e->keyCode == KC_TAB && !e->altKey) || e->keyCode == KC_SPACE;
  return io.WantCaptureKeyboard || io.WantTextInput || arrows || page_keys;  // arrows step; don't scroll
}

static EM_BOOL on_blur(int, const EmscriptenFocusEvent* e, void*) {
  // The page's own text field letting go (a click elsewhere ended the typing) is no lost focus:
  // the press that ended it is still held.
  if (std::strcmp(e->id, "lab-keyboard") == 0) return EM_FALSE;
  ImGuiIO& io = ImGui::GetIO();
  for (int k = 0; k < 512; ++k)
    if (io.KeysDown[k]) push(input_event{IN_KEY, k, false, 0, 0, {}, false, false, false, false});
  for (int b = 0; b < 3; ++b)
    if (io.MouseDown[b]) push(button_event(b, false));
  return EM_FALSE;
}

static EM_BOOL on_resize(int, const EmscriptenUiEvent*, void*) {
  mark_dirty();
  return EM_FALSE;
}

EM_JS(void, js_set_clipboard, (const char* text), {
  const t = UTF8ToString(text);
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(t).catch(() => {});
});

EM_JS(void, js_set_cursor, (const char* canvas, const char* cursor), {
  const el = document.querySelector(UTF8ToString(canvas));
  if (el) el.style.cursor = UTF8ToString(cursor);
});

// Device pixels per CSS pixel. Page zoom (Ctrl +, a browser's text size) changes
// devicePixelRatio; a pinch zoom of the page (allowed: index.html's viewport) magnifies the
// canvas instead, so its backing store grows by the zoom too, in half steps (each step rebuilds
// the fonts) and within 4096 pixels a side (what phones' GPUs take).
EM_JS(double, js_pixel_ratio, (void), {
  const dpr = window.devicePixelRatio || 1;
  const vv = window.visualViewport;
  let zoom = vv && vv.scale > 1 ? Math.floor(vv.scale * 2) / 2 : 1;
  const side = Math.max(window.innerWidth, window.innerHeight, 1) * dpr;
  zoom = Math.max(1, Math.min(zoom, 4096 / side));
  return dpr * zoom;
});

static void set_clipboard(void*, const char* text) {
  g_clipboard = text;
  js_set_clipboard(text);
}
static const char* get_clipboard(void*) { return g_clipboard.c_str(); }

void ImGui_ImplHtml5_AddText(const char* utf8) { push(input_event{IN_TEXT, 0, false, 0, 0, utf8, false, false, false, false}); }

// A key pressed and released (down in one frame, up in the next: drain_queue splits them), with
// Ctrl held around it when `ctrl` (a word at a time).
void ImGui_ImplHtml5_AddKeyPress(int key_code, bool ctrl) {
  if (key_code <= 0 || key_code >= 512) return;
  const auto key = [&](int code, bool down, bool held) { push(input_event{IN_KEY, code, down, 0, 0, {}, held, false, false, false}); };
  if (ctrl) key(KC_CTRL, true, true);
  key(key_code, true, ctrl);
  key(key_code, false, ctrl);
  if (ctrl) key(KC_CTRL, false, false);
}

void ImGui_ImplHtml5_AddPastedText(const char* utf8) {
  ImGui_ImplHtml5_AddText(utf8);
  g_clipboard = utf8;
}

void ImGui_ImplHtml5_Init(const char* canvas) {
  g_canvas = canvas;
  ImGuiIO& io = ImGui::GetIO();
  io.BackendPlatformName = "imgui_impl_html5";
  io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
  const int keys[][2] = {
      {ImGuiKey_Tab, KC_TAB},         {ImGuiKey_LeftArrow, KC_LEFT},  {ImGuiKey_RightArrow, KC_RIGHT},
      {ImGuiKey_UpArrow, KC_UP},      {ImGuiKey_DownArrow, KC_DOWN},  {ImGuiKey_PageUp, KC_PAGEUP},
      {ImGuiKey_PageDown, KC_PAGEDOWN}, {ImGuiKey_Home, KC_HOME},     {ImGuiKey_End, KC_END},
      {ImGuiKey_Insert, KC_INSERT},   {ImGuiKey_Delete, KC_DELETE},   {ImGuiKey_Backspace, KC_BACKSPACE},
      {ImGuiKey_Space, KC_SPACE},     {ImGuiKey_Enter, KC_ENTER},     {ImGuiKey_Escape, KC_ESCAPE},
      {ImGuiKey_KeyPadEnter, KC_ENTER}, {ImGuiKey_A, KC_A},           {ImGuiKey_C, KC_C},
      {ImGuiKey_V, KC_V},             {ImGuiKey_X, KC_X},             {ImGuiKey_Y, KC_Y},
      {ImGuiKey_Z, KC_Z}};
  for (const auto& k : keys) io.KeyMap[k[0]] = k[1];
  io.SetClipboardTextFn = set_clipboard;
  io.GetClipboardTextFn = get_clipboard;
  io.ImeSetInputScreenPosFn = set_caret;

  const char* target = g_canvas.c_str();
  emscripten_set_mousedown_callback(target, nullptr, true, on_mouse);
  emscripten_set_mouseup_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, true, on_mouse);
  emscripten_set_mousemove_callback(target, nullptr, true, on_mouse);
  emscripten_set_wheel_callback(target, nullptr, true, on_wheel);
  emscripten_set_touchstart_callback(target, nullptr, true, on_touch);
  emscripten_set_touchmove_callback(target, nullptr, true, on_touch);
  emscripten_set_touchend_callback(target, nullptr, true, on_touch);
  emscripten_set_touchcancel_callback(target, nullptr, true, on_touch);
  emscripten_set_keydown_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, true, on_key);
  emscripten_set_keyup_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, true, on_key);
  emscripten_set_blur_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, true, on_blur);
  emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, true, on_resize);
  g_ratio = float(js_pixel_ratio());
  js_keyboard_create();
}

float ImGui_ImplHtml5_PixelRatio() { return g_ratio; }

void ImGui_ImplHtml5_AfterNewFrame() {
  ImGuiIO& io = ImGui::GetIO();
  for (int b = 0; b < 3; ++b) {
    if (g_double_pending[b] && io.MouseClicked[b]) {
      io.MouseDoubleClicked[b] = true;  // read by most widgets in 1.86,
      io.MouseClickedCount[b] = 2;      // and by Drag/Slider (typing into a number)
    }
    g_double_pending[b] = false;
  }
}

static const char* css_cursor(ImGuiMouseCursor c) {
  switch (c) {
    case ImGuiMouseCursor_TextInput: return "text";
    case ImGuiMouseCursor_ResizeAll: return "move";
    case ImGuiMouseCursor_ResizeNS: return "ns-resize";
    case ImGuiMouseCursor_ResizeEW: return "ew-resize";
    case ImGuiMouseCursor_ResizeNESW: return "nesw-resize";
    case ImGuiMouseCursor_ResizeNWSE: return "nwse-resize";
    case ImGuiMouseCursor_Hand: return "pointer";
    case ImGuiMouseCursor_NotAllowed: return "not-allowed";
    default: return "default";
  }
}

bool ImGui_ImplHtml5_InputPending() { return g_dirty || !g_queue.empty(); }

bool ImGui_ImplHtml5_NewFrame() {
  ImGuiIO& io = ImGui::GetIO();
  // The canvas fills the window in CSS pixels; its backing store has ratio x as many pixels.
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(g_canvas.c_str(), &css_w, &css_h);
  float ratio = float(js_pixel_ratio());
  int fb_w = int(css_w * ratio + 0.5), fb_h = int(css_h * ratio + 0.5), cur_w = 0, cur_h = 0;
  emscripten_get_canvas_element_size(g_canvas.c_str(), &cur_w, &cur_h);
  if (fb_w != cur_w || fb_h != cur_h) {
    emscripten_set_canvas_element_size(g_canvas.c_str(), fb_w, fb_h);
    g_dirty = true;
  }
  if (ratio != g_ratio) g_ratio = ratio, g_dirty = true;
  io.DisplaySize = ImVec2(float(css_w), float(css_h));
  io.DisplayFramebufferScale = ImVec2(ratio, ratio);

  double now = emscripten_get_now() / 1000.0;
  io.DeltaTime = g_last_time > 0 && now > g_last_time ? float(now - g_last_time) : 1.0f / 60;
  g_last_time = now;

  drain_queue(io);
  keyboard_update(io.WantTextInput);
  static ImGuiMouseCursor last_cursor = -1;
  ImGuiMouseCursor cursor = io.MouseDrawCursor ? ImGuiMouseCursor_None : ImGui::GetMouseCursor();
  if (cursor != last_cursor) js_set_cursor(g_canvas.c_str(), css_cursor(cursor)), last_cursor = cursor;

  bool was_dirty = g_dirty;
  g_dirty = false;
  return was_dirty;
}
