// A checkpoint directory opened by the whole model's host as the page's worker opens a host's
// files (the same reader, limits and checks), loaded until it is ready: swiglu forward and swiglu
// answers share it.
#pragma once

#include <string>

#include "core/model/model_host.h"
#include "platform/native/dir_files.h"
#include "platform/native/fetch_native.h"

struct cli_model {
  dir_source files;
  native_fetch net;
  model_host host;
  explicit cli_model(const std::string& dir);
};

// Loads the model; false with the reason printed after "swiglu COMMAND: " (no config.json, a file
// the reader refused, a load that never finished).
bool cli_model_load(const char* command, cli_model* m);
