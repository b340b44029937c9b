// XXH3-64 (see hash.h).
#include "core/base/hash.h"

#include <cstdio>

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t hash64(const void* data, size_t n) { return XXH3_64bits(data, n); }

std::string hash64_hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
  return buf;
}
