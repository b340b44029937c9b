// The byte seam (core/io/byte_source.h) over a directory on disk: the CLI reads checkpoints and
// packs through dir_source and writes packs through dir_sink. Native only.
#pragma once

#include <string>

#include "core/io/byte_source.h"

struct dir_source : byte_source {
  std::string dir;
  explicit dir_source(std::string directory) : dir(std::move(directory)) {}
  bool list(std::vector<std::string>* names, std::string* error) override;
  bool exists(const std::string& name) override;
  bool size(const std::string& name, uint64_t* bytes, std::string* error) override;
  bool read(const std::string& name, uint64_t offset, size_t length, void* dst, std::string* error) override;
};

// Writes into "<dir>.partial-<pid>" and, on commit, renames it to <dir> (replacing an older pack
// there, never anything else). Destroyed uncommitted, it removes what it wrote: an interrupted
// or failed conversion leaves nothing that looks like a pack.
struct dir_sink : byte_sink {
  std::string dir, partial;
  bool committed = false;
  explicit dir_sink(std::string directory);
  ~dir_sink() override;
  // Checks that <dir> can be written: it does not exist, is empty, or holds a pack.
  bool prepare(std::string* error);
  bool write(const std::string& name, const void* data, size_t length, std::string* error) override;
  bool commit(std::string* error) override;
};

// Writes every file of a name -> bytes map into a directory (the synthetic checkpoint tool).
bool dir_write_all(const std::string& dir, const std::map<std::string, std::string>& files, std::string* error);
