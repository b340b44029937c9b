// The CLI's option reader (see cli_args.h).
#include "cli_args.h"

#include <algorithm>
#include <cstdio>

bool cli_parse_args(const char* cmd, int argc, char** argv, const std::vector<std::string>& keys,
                    const std::vector<std::string>& flag_keys, cli_args* out) {
  for (int i = 0; i < argc; i++) {
    std::string a = argv[i];
    std::string k = a.rfind("--", 0) == 0 ? a.substr(2) : std::string();
    if (std::find(flag_keys.begin(), flag_keys.end(), k) != flag_keys.end()) {
      out->flags[k] = true;
    } else if (std::find(keys.begin(), keys.end(), k) != keys.end()) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "swiglu %s: %s needs a value\n", cmd, a.c_str());
        return false;
      }
      out->values[k].push_back(argv[++i]);
    } else {
      std::fprintf(stderr, "swiglu %s: unknown option '%s'\n", cmd, a.c_str());
      return false;
    }
  }
  return true;
}
