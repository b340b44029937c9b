#!/usr/bin/env bash
# Kernel benchmark: builds the wasm and native kernel benches, then runs tools/bench/run.mjs, which
# prints the table (T = 1, 6, 64 at Qwen3.5-0.8B dims; wasm variants, native twins, the int8 peer
# onnxruntime-web and the f32 peer tfjs-wasm). A command, not a test: it takes a few minutes. Needs
# tools/setup.sh first (emscripten, SIMDe, node modules onnxruntime-web, @tensorflow/tfjs-core,
# @tensorflow/tfjs-backend-wasm).
#   tools/bench/run.sh                 # 5 rounds
#   tools/bench/run.sh --rounds 2      # quicker; other flags: --layers N --min-ms MS --tokens 1,64
#                                      #   --variants REGEX (a subset of the registry)
#   tools/bench/run.sh --browser       # the same layer in headless Chromium beside onnxruntime-web
#                                      #   (tools/bench/browser.mjs; same flags)
# Build dirs: $BENCH_BUILD_DIR (default build-bench/) holds native/ and wasm/.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BENCH_BUILD_DIR:-build-bench}
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}  # Debian's emscripten needs Debian's acorn

cmake -S . -B "$B/native" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$B/native" --target kernel_bench >/dev/null
emcmake cmake -S . -B "$B/wasm" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ "${1:-}" = "--browser" ]; then
  shift
  cmake --build "$B/wasm" --target kernel_bench_web >/dev/null
  exec node tools/bench/browser.mjs --build "$B/wasm" "$@"
fi
cmake --build "$B/wasm" --target kernel_bench kernel_bench_relaxed >/dev/null

exec node --no-experimental-fetch tools/bench/run.mjs --wasm "$B/wasm/kernel_bench.js" \
  --wasm-relaxed "$B/wasm/kernel_bench_relaxed.js" --native "$B/native/kernel_bench" "$@"
