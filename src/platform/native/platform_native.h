// Native twin of the browser platform (see platform.h), plus what tests read back.
#pragma once

#include "platform/platform.h"

void platform_native_set_fragment(const std::string& fragment);  // as if the user edited the URL
const std::string& platform_native_mirror();
const std::string& platform_native_notice();
const std::string& platform_native_clipboard();
const std::string& platform_native_lang();
struct native_fetch;
native_fetch* platform_native_fetch();  // the fetch twin behind platform_fetch_client
