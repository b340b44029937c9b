// A fast 64-bit hash of bytes (XXH3-64): the pack's and the cache's checks, cache keys, and the
// page's frame keys.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

uint64_t hash64(const void* data, size_t n);
std::string hash64_hex(uint64_t h);  // 16 lowercase hex digits
