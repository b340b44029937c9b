#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_parsers.cpp) with clang++-14, ASan and UBSan in
# build-fuzz/, then either replays the committed corpus (no argument) or fuzzes each target for
# SECONDS seconds, adding what it finds to tests/fuzz/corpus/<target>/ (a crash stops it and
# leaves crash-* beside the corpus: turn it into a test, fix it, keep the input in the corpus).
#   tools/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
CXX=clang++-14 CC=clang-14 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSWIGLU_FUZZ=ON >/dev/null
targets="safetensors config index manifest"
cmake --build build-fuzz --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)
for t in $targets; do
  mkdir -p tests/fuzz/corpus/$t
  if [ -n "${1:-}" ]; then
    echo "[fuzz] $t for $1 s"
    build-fuzz/fuzz_$t -max_total_time="$1" -max_len=65536 -print_final_stats=1 -artifact_prefix=tests/fuzz/ \
      tests/fuzz/corpus/$t 2>&1 | tail -12
  else
    build-fuzz/fuzz_$t -runs=0 tests/fuzz/corpus/$t
  fi
done
