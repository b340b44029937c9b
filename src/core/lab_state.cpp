// Default view state (see lab_state.h).
#include "core/lab_state.h"

#include "core/url_state.h"

// One source of the defaults: each URL key's row carries its own (url_state.cpp).
lab_state lab_state_default() { return url_state_defaults(); }

// Two states are equal when their links are: one definition of what a view is (url_keys.cpp).
bool lab_state_equal(const lab_state& a, const lab_state& b) { return url_encode(a) == url_encode(b); }
