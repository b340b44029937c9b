#!/usr/bin/env bash
# Sets up (tools/setup.sh), builds the three builds and runs every test through one ctest run:
# native Catch2 tests, the same core tests as wasm under Node, the headless UI tests, the CLI
# (hand calculation and weight packs on the default pack), the fuzz corpus replay, the
# page-weight budget and the browser tests in headless Chromium (README "Tests").
#   tools/test.sh                     everything, as CI does (.ci/run)
#   SWIGLU_TEST_SEED=N tools/test.sh  replays a run's random tests (the seed is printed first)
#   SWIGLU_NO_CCACHE=1 tools/test.sh  builds without the compiler cache (a cold build's time, in a clean clone:
#                                     an existing build folder keeps the launcher it was configured with)
# The three builds run side by side (each one's output in build-NAME.log, shown if it fails) and
# ctest runs two entries at a time, longest first: on two cores nothing waits for a serial link
# or a page's network. Warnings in our own code fail the build here (SWIGLU_WERROR).
set -euo pipefail
cd "$(dirname "$0")/.."
phase() { printf '[test] %4d s: %s\n' "$SECONDS" "$*"; }

tools/setup.sh
phase "setup done"
export NODE_PATH=/usr/share/nodejs  # Emscripten's tools need Debian's acorn (TOOLCHAIN.md)
# One seed for every random test of the run (tests/catch_main.cpp, tests/seed.mjs).
export SWIGLU_TEST_SEED="${SWIGLU_TEST_SEED:-$(( $(date +%s%N) / 1000 % 2147483647 + 1 ))}"
phase "seed $SWIGLU_TEST_SEED (SWIGLU_TEST_SEED=$SWIGLU_TEST_SEED tools/test.sh replays it)"
export SWIGLU_CMAKE_ARGS="-DSWIGLU_WERROR=ON ${SWIGLU_CMAKE_ARGS:-}"
# The compiler cache (installed by setup.sh): a clone of a tree this machine built before compiles
# only what changed. Paths are taken relative to the clone, so clones in other directories share it.
LAUNCHER=""
if command -v ccache >/dev/null 2>&1 && [ "${SWIGLU_NO_CCACHE:-}" = "" ]; then
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
  LAUNCHER="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  phase "compiler cache: ccache ($(ccache -s 2>/dev/null | awk '/Cache size/ && !n { sub(/^ */, ""); print; n = 1 }'); SWIGLU_NO_CCACHE=1 builds without)"
fi
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"  # per build: 3 builds x 2 jobs

build_wasm() {  # the page and the wasm tests
  # em++ is a Python program that takes about a second to start, 415 times here: the cache goes in
  # front of it, so a hit starts nothing (0.02 s), and a miss compiles once, its includes read from
  # the compiler's own depfile (depend mode: no second em++ to preprocess). It knows the compiler
  # by these versions, not by em++'s file, which an update of Emscripten's clang would not change.
  export CCACHE_DEPEND=1 CCACHE_COMPILERCHECK="string:$(em++ --version 2>/dev/null | sed -n 1p) / $(clang --version | sed -n 1p)"
  emcmake cmake -S . -B build-wasm -G Ninja -DCMAKE_BUILD_TYPE=Release $SWIGLU_CMAKE_ARGS $LAUNCHER
  cmake --build build-wasm
}
build_fuzz() {  # the libFuzzer targets (clang, ASan, UBSan); ctest replays their corpus
  SWIGLU_CMAKE_ARGS="$SWIGLU_CMAKE_ARGS $LAUNCHER" tools/fuzz.sh build
}
build_native() {  # the native tests, tools and the default pack (copied into build-wasm/site/)
  cmake -S . -B build-native -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWIGLU_WASM_DIR="$PWD/build-wasm" \
    -DSWIGLU_FUZZ_DIR="$PWD/build-fuzz" $SWIGLU_CMAKE_ARGS $LAUNCHER
  cmake --build build-native
}
echo "[test] building build-wasm/, build-fuzz/ and build-native/ side by side (build-*.log)"
pids=()
for b in wasm fuzz native; do
  ( if "build_$b" > "build-$b.log" 2>&1; then phase "build-$b done"
    else echo "[test] build-$b failed; the end of build-$b.log:"; tail -60 "build-$b.log"; exit 1; fi ) &
  pids+=($!)
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ "$failed" = 0 ] || exit 1

echo "[test] running every test"
# Every entry runs once. A flaky test is a bug to fix, not to retry: only a browser group (a real
# browser on a shared two-core machine) that failed runs once more, alone, and the summary names
# it; any other failed entry fails the run at once. The last line is ctest's verdict on the whole
# run, retries counted (what CI reads), and the exit code follows it.
CTEST_LOG=build-native/ctest.log FAILED_LOG=build-native/Testing/Temporary/LastTestsFailed.log
rm -f "$FAILED_LOG"
set +e
ctest --test-dir build-native --output-on-failure -j2 2>&1 | tee "$CTEST_LOG"
status=${PIPESTATUS[0]}
set -e
total=$(sed -n 's/.* tests failed out of \([0-9]*\)$/\1/p' "$CTEST_LOG" | tail -1)
if [ -z "$total" ] || { [ "$status" != 0 ] && [ ! -s "$FAILED_LOG" ]; }; then
  echo "[test] ctest did not run the entries (exit $status): no verdict"; exit 1
fi
failed_entries=() browser=() retried=()
[ -s "$FAILED_LOG" ] && mapfile -t failed_entries < <(sed 's/^[0-9]*://' "$FAILED_LOG")
for t in "${failed_entries[@]}"; do [[ $t == browser_* ]] && browser+=("$t"); done
verdict() {  # ctest's summary line over the whole run ($1 entries failed), rounded as ctest rounds
  local pct=$(( (200 * (total - $1) / total + 1) / 2 ))
  [ "$1" != 0 ] && [ "$pct" -gt 99 ] && pct=99
  echo "$pct% tests passed, $1 tests failed out of $total"
}
if [ "${#failed_entries[@]}" != "${#browser[@]}" ]; then
  echo "[test] failed, not retried: ${failed_entries[*]}"
  verdict "${#failed_entries[@]}"; exit 1
fi
still=0
for t in "${browser[@]}"; do
  echo "[test] $t failed: its second run, alone"
  if ctest --test-dir build-native --output-on-failure -R "^$t\$"; then retried+=("$t (passed on its 2nd run)")
  else retried+=("$t (failed again)"); still=$((still + 1)); fi
done
phase "tests done"
for r in "${retried[@]}"; do echo "[test] retried: $r"; done
verdict "$still"
[ "$still" = 0 ]
