// Named byte files, read and written through a small seam so that the checkpoint reader, the
// pack writer and the pack loader stay pure core code: a directory on disk (native, platform
// layer), files in memory (tests, wasm), and later the page's fetch all look the same to them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

// Read side. Every call returns false (and says why in *error) instead of throwing.
struct byte_source {
  virtual ~byte_source() = default;
  // Names of the files at the top level (sorted); used to find safetensors shards.
  virtual bool list(std::vector<std::string>* names, std::string* error) = 0;
  virtual bool exists(const std::string& name) = 0;
  virtual bool size(const std::string& name, uint64_t* bytes, std::string* error) = 0;
  // Exactly `length` bytes at `offset`, or false (a short read is an error, never a partial fill).
  virtual bool read(const std::string& name, uint64_t offset, size_t length, void* dst, std::string* error) = 0;
};

// Write side: the pack writer writes whole files, then commits. A sink that fails or is never
// committed leaves no valid pack behind (the directory sink writes into a temporary folder and
// renames it into place on commit).
struct byte_sink {
  virtual ~byte_sink() = default;
  virtual bool write(const std::string& name, const void* data, size_t length, std::string* error) = 0;
  virtual bool commit(std::string* error) = 0;
};

// Whole file into a string (config.json, manifest.json); refuses files over max_bytes.
bool byte_source_read_all(byte_source* src, const std::string& name, size_t max_bytes, std::string* out,
                          std::string* error);

// In-memory files: tests, fuzzing, and the wasm build.
struct mem_files : byte_source, byte_sink {
  std::map<std::string, std::string> files;
  bool committed = false;
  bool list(std::vector<std::string>* names, std::string* error) override;
  bool exists(const std::string& name) override;
  bool size(const std::string& name, uint64_t* bytes, std::string* error) override;
  bool read(const std::string& name, uint64_t offset, size_t length, void* dst, std::string* error) override;
  bool write(const std::string& name, const void* data, size_t length, std::string* error) override;
  bool commit(std::string* error) override;
};
