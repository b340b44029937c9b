// Reads a whole file into a string for the command-line tools (the core does no file I/O, so the
// page can hand it bytes it fetched instead).
#pragma once

#include <cstdio>
#include <string>

inline bool cli_read_file(const char* path, std::string* out) {
  std::FILE* f = std::fopen(path, "rb");
  if (!f) return false;
  out->clear();
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  bool ok = !std::ferror(f);
  std::fclose(f);
  return ok;
}
