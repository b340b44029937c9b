// The verified cache's bound (core/stream/cache_lru.h): least recently used goes first, reads
// count as use, the budget holds after every store, clear reports what it freed, and the state
// rebuilt from stored stamps keeps the order. A seeded random walk checks it against a plain model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/stream/cache_lru.h"

TEST_CASE("cache_lru: the oldest goes first, a read counts as use", "[cache]") {
  cache_lru lru(100);
  lru.put("a", 40);
  lru.put("b", 40);
  CHECK(lru.evictions().empty());
  CHECK(lru.bytes() == 80);
  CHECK(lru.touch("a") > 0);  // a is now newer than b
  lru.put("c", 40);           // 120 > 100: b goes, not a
  CHECK(lru.evictions() == std::vector<std::string>{"b"});
  CHECK(lru.bytes() == 80);
  CHECK(lru.has("a"));
  CHECK(lru.has("c"));
  CHECK(!lru.has("b"));
  CHECK(lru.touch("b") == 0);  // unknown
  lru.put("d", 90);            // 170: a then c go (oldest first)
  CHECK(lru.evictions() == std::vector<std::string>{"a", "c"});
  CHECK(lru.bytes() == 90);
  CHECK(lru.size() == 1);
}

TEST_CASE("cache_lru: storing a key again replaces its size", "[cache]") {
  cache_lru lru(100);
  lru.put("a", 30);
  lru.put("a", 50);
  CHECK(lru.bytes() == 50);
  CHECK(lru.size() == 1);
  lru.erase("a");
  CHECK(lru.bytes() == 0);
}

TEST_CASE("cache_lru: a blob larger than the budget is not admitted", "[cache]") {
  cache_lru lru(100);
  CHECK(lru.admit(100));
  CHECK(!lru.admit(101));
  CHECK(cache_lru().budget() == CACHE_BUDGET_BYTES);
  CHECK(CACHE_BUDGET_BYTES == 268435456ull);
}

TEST_CASE("cache_lru: clear says what it freed", "[cache]") {
  cache_lru lru(1000);
  lru.put("a", 10);
  lru.put("b", 20);
  lru.put("c", 30);
  size_t count = 0;
  CHECK(lru.clear(&count) == 60);
  CHECK(count == 3);
  CHECK(lru.bytes() == 0);
  CHECK(lru.size() == 0);
  CHECK(lru.evictions().empty());
}

TEST_CASE("cache_lru: rebuilt from stored stamps, the order and the clock carry on", "[cache]") {
  cache_lru first(1000);
  const uint64_t sa = first.put("a", 10), sb = first.put("b", 10);
  const uint64_t sa2 = first.touch("a");  // a: newest
  CHECK(sa < sb);
  CHECK(sb < sa2);
  cache_lru again(15);  // a smaller budget on the next visit: the least recently used goes
  again.load("a", 10, sa2);
  again.load("b", 10, sb);
  CHECK(again.bytes() == 20);
  CHECK(again.evictions() == std::vector<std::string>{"b"});
  CHECK(again.put("c", 1) > sa2);  // new stamps come after every stored one
  // A key stored in this visit before its old record was read keeps the newer record.
  cache_lru race(1000);
  const uint64_t fresh = race.put("x", 7);
  race.load("x", 99, 500);
  CHECK(race.bytes() == 7);
  CHECK(race.used_stamp("x") == fresh);
  // Two records with one stamp (two tabs): both kept, in a stable order.
  cache_lru twins(1000);
  twins.load("p", 1, 9);
  twins.load("q", 1, 9);
  CHECK(twins.size() == 2);
  CHECK(twins.used_stamp("q") < twins.used_stamp("p"));
}

TEST_CASE("cache_lru: a random walk matches a plain list model", "[cache]") {
  const uint32_t seed = Catch::rngSeed();
  INFO("seed " << seed << " (core_tests --rng-seed " << seed << ")");
  std::mt19937 rng(seed);
  const uint64_t budget = 500;
  cache_lru lru(budget);
  std::vector<std::pair<std::string, uint64_t>> model;  // front = least recently used
  auto model_bytes = [&] {
    uint64_t b = 0;
    for (const auto& e : model) b += e.second;
    return b;
  };
  for (int step = 0; step < 2000; step++) {
    const std::string key = "k" + std::to_string(rng() % 40);
    auto it = std::find_if(model.begin(), model.end(), [&](const auto& e) { return e.first == key; });
    if (rng() % 3 == 0) {  // a read
      const bool known = it != model.end();
      CHECK((lru.touch(key) != 0) == known);
      if (known) {
        auto e = *it;
        model.erase(it);
        model.push_back(e);
      }
    } else {  // a store
      const uint64_t bytes = 1 + rng() % 200;
      if (it != model.end()) model.erase(it);
      model.push_back({key, bytes});
      lru.put(key, bytes);
      std::vector<std::string> want;
      while (model_bytes() > budget) {
        want.push_back(model.front().first);
        model.erase(model.begin());
      }
      REQUIRE(lru.evictions() == want);
    }
    REQUIRE(lru.bytes() == model_bytes());
    REQUIRE(lru.bytes() <= budget);
    REQUIRE(lru.size() == model.size());
  }
}
