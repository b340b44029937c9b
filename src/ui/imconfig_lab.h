// ImGui configuration for the native builds (headless UI tests): a failed ImGui assertion reports
// through lab_imgui_assert_failed, which the tests turn into a test failure, even in Release.
#pragma once

void lab_imgui_assert_failed(const char* expr, const char* file, int line);
#define IM_ASSERT(_EXPR) ((_EXPR) ? (void)0 : lab_imgui_assert_failed(#_EXPR, __FILE__, __LINE__))
