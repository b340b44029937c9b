// Where named widgets were drawn last frame, so tests can click them as a person would
// (the browser tests through window.labItemRect, the native tests directly). Positions are in
// CSS pixels, the coordinates a mouse event carries.
#pragma once

#include <string>

// Records the rectangle of the item just submitted under `name`.
void item_probe(const char* name);

struct item_rect { float x0, y0, x1, y1; };
// False if no item of that name was drawn in the last frame.
bool item_probe_find(const std::string& name, item_rect* out);
// Forgets all items; called at the start of each frame so stale positions never linger.
void item_probe_clear();
