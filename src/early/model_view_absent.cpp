// The modules without the whole model's answers (all but swiglu_text_class_LANG.wasm): lab_text()
// calls these views' rows only with a session, which these modules never have (see live_view_absent.cpp).
#include "core/views/live_view.h"
#include "core/views/model_view.h"

std::string gates_view_text(const lab_state&, live_session*, const live_choice&) { __builtin_trap(); }
std::string rules_view_text(const lab_state&, live_session*, const live_choice&) { __builtin_trap(); }
std::string flow_view_text(const lab_state&, live_session*, const live_choice&) { __builtin_trap(); }
