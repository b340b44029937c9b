// Rows of a view as the mirror prints them (see view_rows.h).
#include "core/views/view_rows.h"

#include "core/base/strings.h"

std::string view_cell_text(const view_cell& c) {
  return c.label.empty() ? c.value : c.label + tr(STR_MIRROR_COLON) + c.value;
}

std::string view_row_note(const view_row& r) { return r.note.empty() ? "" : "(" + r.note + ")"; }

std::string view_row_line(const view_row& r) {
  std::string out = r.label;
  if (!r.label.empty() && (!r.cells.empty() || !r.note.empty())) out += tr(STR_MIRROR_COLON);
  // A row with no numbers yet says its note alone ("Layer 2: waiting for data").
  if (!r.note.empty()) out += r.cells.empty() ? r.note : view_row_note(r) + " ";
  for (size_t i = 0; i < r.cells.size(); i++) out += (i ? tr(STR_MIRROR_SEP) : "") + view_cell_text(r.cells[i]);
  return out;
}
