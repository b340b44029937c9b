// Dear ImGui platform backend for the browser, straight on Emscripten's html5.h: mouse, touch,
// wheel, keyboard, text, paste, cursor shapes, and a canvas kept at the device's pixel ratio so
// text stays sharp on high-DPI screens. (GLFW's Emscripten port knows nothing of devicePixelRatio.)
#pragma once

// Installs the event callbacks on `canvas_selector` (e.g. "#canvas") and the window.
void ImGui_ImplHtml5_Init(const char* canvas_selector);
// Updates display size, scale, time and input for the coming frame. Returns true when something
// happened since the last call (input, resize), i.e. when the page should be drawn again.
bool ImGui_ImplHtml5_NewFrame();
// True while input waits for the next frame (what it changes is not drawn yet).
bool ImGui_ImplHtml5_InputPending();
// Call right after ImGui::NewFrame(): passes on double clicks timed by the events (see .cpp).
void ImGui_ImplHtml5_AfterNewFrame();
// The pixel ratio the canvas was last sized for (1 on ordinary screens, 2 or 3 on phones).
float ImGui_ImplHtml5_PixelRatio();
// Text pasted into the page (forwarded from the JS paste event).
void ImGui_ImplHtml5_AddPastedText(const char* utf8);
// Text typed into the page's hidden #lab-keyboard field: a phone's keyboard, a desktop's keys while
// an ImGui text field is active, an input method's committed text.
void ImGui_ImplHtml5_AddText(const char* utf8);
// A key pressed on the page's hidden field by a phone's keyboard, which sends no key of its own
// (keyCode 229) but an edit: Backspace (8), Delete (46), Enter (13); `ctrl` for a word at a time.
void ImGui_ImplHtml5_AddKeyPress(int key_code, bool ctrl);
