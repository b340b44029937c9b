#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_parsers.cpp, fuzz_pack.cpp, fuzz_stream.cpp, fuzz_checkpoint.cpp) with
# clang++-14, ASan and UBSan in build-fuzz/, then:
#   tools/fuzz.sh build       only builds (tools/test.sh: ctest replays the corpus)
#   tools/fuzz.sh             replays the committed corpus tests/fuzz/corpus/<target>/
#   tools/fuzz.sh SECONDS     fuzzes each target for SECONDS, then merges what it found into the
#                             committed corpus (a crash stops it and leaves crash-* in tests/fuzz/:
#                             turn it into a test, fix it, keep the input in the corpus)
#   FUZZ_ONLY="pack" tools/fuzz.sh 300   the same for some targets only
set -euo pipefail
cd "$(dirname "$0")/.."
CXX=clang++-14 CC=clang-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSWIGLU_FUZZ=ON >/dev/null
targets="${FUZZ_ONLY:-safetensors config index manifest pack stream checkpoint}"
cmake --build build-fuzz --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)
[ "${1:-}" = build ] && exit 0
for t in $targets; do
  corpus=tests/fuzz/corpus/$t
  if [ -z "${1:-}" ]; then
    build-fuzz/fuzz_$t -runs=0 "$corpus"
    continue
  fi
  echo "[fuzz] $t for $1 s"
  work=build-fuzz/corpus-$t
  rm -rf "$work" && mkdir -p "$work"
  build-fuzz/fuzz_$t -max_total_time="$1" -max_len=65536 -print_final_stats=1 -artifact_prefix=tests/fuzz/ \
    "$work" "$corpus" 2>&1 | tail -6
  # Keep only what adds coverage: the committed corpus stays small.
  merged=build-fuzz/merged-$t
  rm -rf "$merged" && mkdir -p "$merged"
  build-fuzz/fuzz_$t -merge=1 "$merged" "$corpus" "$work" >/dev/null 2>&1
  rm -rf "$corpus" && mv "$merged" "$corpus"
  echo "[fuzz] $t: $(ls "$corpus" | wc -l) inputs in the corpus"
done
