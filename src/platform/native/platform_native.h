// Native twin of the browser platform (see platform.h), plus what tests read back.
#pragma once

#include <cstddef>

#include "platform/platform.h"

void platform_native_set_fragment(const std::string& fragment);  // as if a link was opened afresh
// The browser's Back: the entry before (pushState), false when there is none (Back leaves the page).
// The app is then told as the page tells it (lab_app_load_fragment).
bool platform_native_back();
size_t platform_native_history_length();
const std::string& platform_native_mirror();
const std::string& platform_native_notice();
const std::string& platform_native_clipboard();
const std::string& platform_native_lang();
struct native_fetch;
native_fetch* platform_native_fetch();  // the fetch twin behind platform_fetch_client
// A fresh in-process model service for platform_model() (a test's page starts with no model open).
void platform_native_model_reset();
