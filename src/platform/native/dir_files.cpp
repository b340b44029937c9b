// Directory-backed byte source and sink (see dir_files.h).
#include "platform/native/dir_files.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

static std::string dir_join(const std::string& dir, const std::string& name) { return (fs::path(dir) / name).string(); }

bool dir_source::list(std::vector<std::string>* names, std::string* error) {
  std::error_code ec;
  names->clear();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) names->push_back(it->path().filename().string());
  if (ec) return *error = dir + ": " + ec.message(), false;
  std::sort(names->begin(), names->end());
  return true;
}

bool dir_source::exists(const std::string& name) {
  std::error_code ec;
  return fs::is_regular_file(dir_join(dir, name), ec);
}

bool dir_source::size(const std::string& name, uint64_t* bytes, std::string* error) {
  std::error_code ec;
  const std::string p = dir_join(dir, name);
  if (!fs::is_regular_file(p, ec)) return *error = p + ": no such file", false;
  *bytes = fs::file_size(p, ec);
  if (ec) return *error = p + ": " + ec.message(), false;
  return true;
}

bool dir_source::read(const std::string& name, uint64_t offset, size_t length, void* dst, std::string* error) {
  const std::string p = dir_join(dir, name);
  FILE* f = std::fopen(p.c_str(), "rb");
  if (!f) return *error = p + ": " + std::strerror(errno), false;
  bool ok = fseeko(f, (off_t)offset, SEEK_SET) == 0 && std::fread(dst, 1, length, f) == length;
  std::fclose(f);
  if (!ok) *error = p + ": could not read " + std::to_string(length) + " bytes at " + std::to_string(offset) + " (truncated?)";
  return ok;
}

dir_sink::dir_sink(std::string directory) : dir(std::move(directory)) {
  while (!dir.empty() && dir.size() > 1 && dir.back() == '/') dir.pop_back();
  partial = dir + ".partial-" + std::to_string((long)getpid());
}

dir_sink::~dir_sink() {
  std::error_code ec;
  if (!committed) fs::remove_all(partial, ec);
}

bool dir_sink::prepare(std::string* error) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec)) return *error = dir + ": exists and is not a directory", false;
    if (!fs::is_empty(dir, ec) && !fs::exists(dir_join(dir, "manifest.json"), ec))
      return *error = dir + ": exists and is not a pack (no manifest.json); refusing to replace it", false;
  }
  fs::remove_all(partial, ec);
  if (!fs::create_directories(partial, ec)) return *error = partial + ": " + ec.message(), false;
  return true;
}

bool dir_sink::write(const std::string& name, const void* data, size_t length, std::string* error) {
  const std::string p = dir_join(partial, name);
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write((const char*)data, (std::streamsize)length);
  f.close();
  if (!f) return *error = p + ": write failed (disk full?)", false;
  return true;
}

bool dir_sink::commit(std::string* error) {
  std::error_code ec;
  const std::string old = dir + ".old-" + std::to_string((long)getpid());
  const bool had = fs::exists(dir, ec);
  if (had) {
    fs::remove_all(old, ec);
    fs::rename(dir, old, ec);
    if (ec) return *error = dir + ": could not move the old pack aside: " + ec.message(), false;
  }
  fs::rename(partial, dir, ec);
  if (ec) {
    std::error_code ec2;
    if (had) fs::rename(old, dir, ec2);
    return *error = dir + ": " + ec.message(), false;
  }
  committed = true;
  if (had) fs::remove_all(old, ec);
  return true;
}

bool dir_write_all(const std::string& dir, const std::map<std::string, std::string>& files, std::string* error) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (const auto& f : files) {
    std::ofstream o(dir_join(dir, f.first), std::ios::binary | std::ios::trunc);
    o.write(f.second.data(), (std::streamsize)f.second.size());
    o.close();
    if (!o) return *error = dir_join(dir, f.first) + ": write failed", false;
  }
  return true;
}
