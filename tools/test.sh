#!/usr/bin/env bash
# Sets up (tools/setup.sh), builds both ways and runs every test through one ctest run:
# native Catch2 tests, the same core tests as wasm under Node, the headless UI tests, the CLI
# (hand calculation and weight packs on the default pack), the fuzz corpus replay, the
# page-weight budget and the browser tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
export NODE_PATH=/usr/share/nodejs  # Emscripten's tools need Debian's acorn (TOOLCHAIN.md)

echo "[test] building the page and the wasm tests (build-wasm/)"
emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-wasm

echo "[test] building the fuzz targets (build-fuzz/: clang, ASan, UBSan); ctest replays their corpus"
tools/fuzz.sh build

echo "[test] building the native tests, tools and the default pack (build-native/)"
cmake -S . -B build-native -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWIGLU_WASM_DIR="$PWD/build-wasm" \
  -DSWIGLU_FUZZ_DIR="$PWD/build-fuzz" >/dev/null
cmake --build build-native

echo "[test] running every test"
ctest --test-dir build-native --output-on-failure
