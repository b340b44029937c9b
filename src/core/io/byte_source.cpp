// The in-memory twin of the byte seam, and the read-whole-file helper every reader uses.
#include "core/io/byte_source.h"

#include <cstring>

bool byte_source_read_all(byte_source* src, const std::string& name, size_t max_bytes, std::string* out,
                          std::string* error) {
  uint64_t n = 0;
  if (!src->size(name, &n, error)) return false;
  if (n > max_bytes) {
    *error = name + ": " + std::to_string(n) + " bytes, more than the " + std::to_string(max_bytes) +
             " this reader accepts";
    return false;
  }
  out->assign((size_t)n, '\0');
  return n == 0 || src->read(name, 0, (size_t)n, &(*out)[0], error);
}

bool mem_files::list(std::vector<std::string>* names, std::string*) {
  names->clear();
  for (const auto& f : files) names->push_back(f.first);
  return true;
}

bool mem_files::exists(const std::string& name) { return files.count(name) != 0; }

bool mem_files::size(const std::string& name, uint64_t* bytes, std::string* error) {
  auto it = files.find(name);
  if (it == files.end()) {
    *error = name + ": no such file";
    return false;
  }
  *bytes = it->second.size();
  return true;
}

bool mem_files::read(const std::string& name, uint64_t offset, size_t length, void* dst, std::string* error) {
  auto it = files.find(name);
  if (it == files.end()) {
    *error = name + ": no such file";
    return false;
  }
  const std::string& f = it->second;
  if (offset > f.size() || length > f.size() - offset) {
    *error = name + ": read of " + std::to_string(length) + " bytes at " + std::to_string(offset) +
             " runs past its end (" + std::to_string(f.size()) + " bytes)";
    return false;
  }
  if (length) std::memcpy(dst, f.data() + offset, length);
  return true;
}

bool mem_files::write(const std::string& name, const void* data, size_t length, std::string*) {
  files[name].assign((const char*)data, length);
  return true;
}

bool mem_files::commit(std::string*) {
  committed = true;
  return true;
}
