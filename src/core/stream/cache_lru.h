// The verified cache's bound (one policy for every blob a source stores: a pack's files, a
// checkpoint's converted chunks). The transport keeps the blobs (IndexedDB in the page, a map in
// the native twin); this keeps their sizes and a use clock, and says which to drop so the cache
// stays within a byte budget, least recently used first. Pure bookkeeping: no I/O, so it is
// tested natively and the page and its twin share it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

// 256 MiB. Sized for phones: a phone browser grants a site far more (Chrome up to 60 % of free
// disk, Safari about 1 GB before it asks), but a lesson page should not take a photo album's worth
// of someone's storage. It holds the default pack (32 MB), every gate matrix of Qwen3.5-0.8B's 24
// layers in q8 (88 MB) and one whole Llama-3-8B-sized layer (3 x 59 MB) at a time.
constexpr uint64_t CACHE_BUDGET_BYTES = 256ull << 20;

struct cache_lru {
  explicit cache_lru(uint64_t budget = CACHE_BUDGET_BYTES) : budget_(budget) {}

  // An entry found in storage at start-up, with the use stamp stored beside it. An entry already
  // known (touched or stored since) keeps its newer record.
  void load(const std::string& key, uint64_t bytes, uint64_t used);
  // A blob is being stored: returns its use stamp (to store beside it). The keys to drop now,
  // oldest first, come from evictions(); a blob larger than the whole budget is not admitted
  // (admit() says so before storing).
  uint64_t put(const std::string& key, uint64_t bytes);
  bool admit(uint64_t bytes) const { return bytes <= budget_; }
  // A blob was read: returns its new use stamp, 0 when the key is unknown.
  uint64_t touch(const std::string& key);
  void erase(const std::string& key);
  // The keys to delete, least recently used first, until the rest fit the budget; they are
  // forgotten here (the caller deletes the blobs).
  std::vector<std::string> evictions();
  // Forgets everything; returns the bytes and count it held (what "clear" frees).
  uint64_t clear(size_t* count = nullptr);

  void set_budget(uint64_t budget) { budget_ = budget; }
  uint64_t budget() const { return budget_; }
  uint64_t bytes() const { return bytes_; }
  size_t size() const { return entries_.size(); }
  bool has(const std::string& key) const { return entries_.count(key) != 0; }
  uint64_t used_stamp(const std::string& key) const;  // 0 when unknown
  uint64_t bytes_of(const std::string& key) const;     // 0 when unknown
  std::vector<std::string> keys() const;

 private:
  struct entry { uint64_t bytes = 0, used = 0; };
  std::map<std::string, entry> entries_;
  std::map<uint64_t, std::string> by_use_;  // use stamp -> key (stamps are unique)
  uint64_t budget_, bytes_ = 0, clock_ = 0;
  void set(const std::string& key, uint64_t bytes, uint64_t used);
};
