// A tiny "--key value" reader shared by the CLI's commands: repeated keys keep every value, flags
// take none, and anything unknown or missing its value is an error (exit status 2).
#pragma once

#include <map>
#include <string>
#include <vector>

struct cli_args {
  std::map<std::string, std::vector<std::string>> values;
  std::map<std::string, bool> flags;
  bool has(const std::string& k) const { return values.count(k) != 0; }
  const std::string& get(const std::string& k) const { return values.at(k).back(); }
  std::string get_or(const std::string& k, const std::string& fallback) const { return has(k) ? get(k) : fallback; }
  bool flag(const std::string& k) const { return flags.count(k) != 0; }
};

// keys: options that take a value; flag_keys: options that take none. Prints its own errors.
bool cli_parse_args(const char* cmd, int argc, char** argv, const std::vector<std::string>& keys,
                    const std::vector<std::string>& flag_keys, cli_args* out);
