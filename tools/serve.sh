#!/usr/bin/env bash
# Sets up (tools/setup.sh), builds the page and the embedded default weight pack (a synthetic
# Qwen3.5-0.8B-shaped checkpoint converted by the native tools, copied into the site), and serves
# it on http://127.0.0.1:${PORT:-8080}/ with a server that honours Range requests and serves
# .wasm as application/wasm.
#   tools/serve.sh                                   the page, on this machine
#   MODEL_DIR=DIR HOST=0.0.0.0 tools/serve.sh        the page and a class mirror (tools/mirror.sh) at
#                                                    /models/NAME/, to the room; prints the students' link
#   ISOLATE=1 tools/serve.sh                         with COOP and COEP: the whole model's pass on threads
set -euo pipefail
model_args=()
if [ -n "${MODEL_DIR:-}" ]; then  # checked before the build, and taken from where the command was run
  [ -f "$MODEL_DIR/config.json" ] || { echo "serve.sh: MODEL_DIR=$MODEL_DIR holds no config.json (tools/mirror.sh hf:OWNER/NAME DIR makes one)" >&2; exit 2; }
  model_args=(--model-dir "$(cd "$MODEL_DIR" && pwd)")
fi
cd "$(dirname "$0")/.."
tools/setup.sh
export NODE_PATH=/usr/share/nodejs  # Emscripten's tools need Debian's acorn (TOOLCHAIN.md)
emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-wasm --target swiglu_lab
cmake -S . -B build-native -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWIGLU_WASM_DIR="$PWD/build-wasm" >/dev/null
cmake --build build-native --target default_pack default_model
[ "${ISOLATE:-}" = 1 ] && model_args+=(--isolate)  # COOP + COEP: the model worker's threads (serve.mjs)
exec node tools/serve.mjs --root build-wasm/site --port "${PORT:-8080}" --host "${HOST:-127.0.0.1}" "${model_args[@]}"
