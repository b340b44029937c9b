#!/usr/bin/env bash
# Sets up (tools/setup.sh), builds the page and the embedded default weight pack (a synthetic
# Qwen3.5-0.8B-shaped checkpoint converted by the native tools, copied into the site), and serves
# it on http://127.0.0.1:${PORT:-8080}/ with a server that honours Range requests and serves
# .wasm as application/wasm.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
export NODE_PATH=/usr/share/nodejs  # Emscripten's tools need Debian's acorn (TOOLCHAIN.md)
emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-wasm --target swiglu_lab
cmake -S . -B build-native -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWIGLU_WASM_DIR="$PWD/build-wasm" >/dev/null
cmake --build build-native --target default_pack default_model
exec node tools/serve.mjs --root build-wasm/site --port "${PORT:-8080}" --host "${HOST:-127.0.0.1}"
