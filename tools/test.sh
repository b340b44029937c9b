#!/usr/bin/env bash
# Sets up (tools/setup.sh), builds both ways and runs every test through one ctest run:
# native Catch2 tests, the same core tests as wasm under Node, the headless UI tests, the CLI,
# the page-weight budget and the browser tests in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
export NODE_PATH=/usr/share/nodejs  # Emscripten's tools need Debian's acorn (TOOLCHAIN.md)

echo "[test] building the page and the wasm tests (build-wasm/)"
emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-wasm

echo "[test] building the native tests and tools (build-native/)"
cmake -S . -B build-native -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWIGLU_WASM_DIR="$PWD/build-wasm" >/dev/null
cmake --build build-native

echo "[test] running every test"
ctest --test-dir build-native --output-on-failure
