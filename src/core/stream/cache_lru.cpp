// The verified cache's bound (see cache_lru.h).
#include "core/stream/cache_lru.h"

#include <algorithm>

void cache_lru::set(const std::string& key, uint64_t bytes, uint64_t used) {
  erase(key);
  entries_[key] = {bytes, used};
  by_use_[used] = key;
  bytes_ += bytes;
}

void cache_lru::load(const std::string& key, uint64_t bytes, uint64_t used) {
  if (entries_.count(key)) return;
  // Two stored stamps can collide only if storage was written by two tabs at once: move this one
  // just before its twin, which keeps the order of everything else.
  while (used > 0 && by_use_.count(used)) used--;
  if (used == 0) used = by_use_.empty() ? 1 : std::max<uint64_t>(1, by_use_.begin()->first) - 1;
  if (used == 0) return;  // no room below the oldest: the blob is simply not accounted for
  set(key, bytes, used);
  clock_ = std::max(clock_, used);
}

uint64_t cache_lru::put(const std::string& key, uint64_t bytes) {
  set(key, bytes, ++clock_);
  return clock_;
}

uint64_t cache_lru::touch(const std::string& key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return 0;
  const uint64_t bytes = it->second.bytes;
  set(key, bytes, ++clock_);
  return clock_;
}

void cache_lru::erase(const std::string& key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  bytes_ -= it->second.bytes;
  by_use_.erase(it->second.used);
  entries_.erase(it);
}

std::vector<std::string> cache_lru::evictions() {
  std::vector<std::string> out;
  while (bytes_ > budget_ && !by_use_.empty()) {
    const std::string key = by_use_.begin()->second;
    out.push_back(key);
    erase(key);
  }
  return out;
}

uint64_t cache_lru::clear(size_t* count) {
  const uint64_t freed = bytes_;
  if (count) *count = entries_.size();
  entries_.clear();
  by_use_.clear();
  bytes_ = 0;
  return freed;
}

uint64_t cache_lru::used_stamp(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? 0 : it->second.used;
}

uint64_t cache_lru::bytes_of(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? 0 : it->second.bytes;
}

std::vector<std::string> cache_lru::keys() const {
  std::vector<std::string> out;
  for (const auto& kv : entries_) out.push_back(kv.first);
  return out;
}
