// What the page accepts from a checkpoint's host before it refuses, in one place: every size a
// host claims (a file's length, a header's, the shard and tensor counts, the JSON values of a
// header) is checked against these as it arrives, and nothing of a claimed size is allocated
// before the check. Each limit sits far above what real checkpoints need
// (the numbers below) and far below what would take the page's memory or minutes of its network.
#pragma once

#include <cstdint>

// config.json: Qwen3.5-0.8B's is 3 KB, the largest seen (a vision-language model's) about 10 KB.
#define CKPT_CONFIG_MAX_BYTES (4u << 20)
// model.safetensors.index.json: about 100 bytes a tensor; 16 MiB is 160,000 tensors.
#define CKPT_INDEX_PAGE_MAX_BYTES (16u << 20)
// Shards: Llama-3.1-405B has 191. Each costs a 64 KiB header request, so 256 shards is 16 MiB
// fetched before a weight: the bound on what a listing can make the page ask for.
#define CKPT_MAX_SHARDS 256
// Tensors in the whole checkpoint: Llama-3.1-405B has 1,138, Qwen3.5-0.8B (with its vision
// tower) about 800. The map of names stays a few MB.
#define CKPT_MAX_TENSORS 32768
// One shard's JSON header: about 150 bytes a tensor; the safetensors library allows 100 MB, the
// page 16 MiB. And its JSON values, counted before the parse (a tensor is about 12: name, dtype,
// shape, offsets): a header of "0,0,0,..." within the byte bound would be 8 M values, and the
// parse's tree 60 bytes a value.
#define CKPT_HEADER_PAGE_MAX_BYTES (16u << 20)
#define CKPT_HEADER_MAX_VALUES (1u << 18)
// The first request for a shard's header: the 8-byte length and, for most checkpoints, all of it.
#define CKPT_HEADER_PREFETCH (64u << 10)
// A ranged answer may run this far past its range before the host is said to ignore Range.
#define CKPT_RANGE_SLACK (64u << 10)
