#!/usr/bin/env bash
# Installs everything SwiGLU Lab needs on a fresh Debian 12 machine, and nothing twice:
# Debian packages (Emscripten, Catch2, Chromium, SIMDe, fonts, nlohmann-json, xxHash, clang for fuzzing, ccache,
# curl for tools/mirror.sh, zbar-tools), the sources of
# Dear ImGui, PCRE2, utf8proc, cJSON and libqrencode from Debian's source packages (never committed), and the npm dev dependencies (playwright-core, tfjs).
# Safe to run again: each step checks first. Used by tools/serve.sh, tools/test.sh and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES="cmake ninja-build g++ nodejs emscripten catch2 libsimde-dev chromium \
fonts-dejavu-core fonts-wqy-microhei python3 python3-fonttools dpkg-dev xz-utils ca-certificates \
nlohmann-json3-dev libxxhash-dev clang-14 libclang-rt-14-dev \
libpcre2-dev libutf8proc-dev pkg-config ccache curl bzip2 zbar-tools"

say() { printf '[setup] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# --- Debian packages --------------------------------------------------------
missing=""
for p in $APT_PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Debian's Node.js ships npm as a separate package; NodeSource's bundles it.
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
  say "installing Debian packages:$missing"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# --- Dear ImGui 1.86 sources, from Debian's source package --------------------
IMGUI_DIR=third_party/imgui
if [ ! -f "$IMGUI_DIR/imgui.cpp" ]; then
  src_list=/etc/apt/sources.list.d/swiglu-lab-src.sources
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    say "adding a deb-src entry for bookworm main"
    as_root tee "$src_list" >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    as_root apt-get update -qq
  fi
  say "fetching Dear ImGui sources (apt-get source imgui)"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source --download-only imgui >/dev/null 2>&1)
  mkdir -p "$IMGUI_DIR"
  tar -xJf "$tmp"/imgui_*.orig.tar.xz -C "$IMGUI_DIR" --strip-components=1
  rm -rf "$tmp"
fi

# --- PCRE2 and utf8proc sources, for the tokenizer's wasm module ----------------
# The native build links Debian's libraries; the page's second module (tokenizer_wasm) builds the
# same releases from Debian's source packages (cmake/tokenizer_wasm.cmake). Same deb-src as ImGui.
fetch_source() {  # package, folder, a file that shows it is there
  [ -f "$2/$3" ] && return 0
  say "fetching $1 sources (apt-get source $1)"
  local tmp; tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source --download-only "$1" >/dev/null 2>&1)
  mkdir -p "$2"
  tar -xzf "$tmp"/"$1"_*.orig.tar.gz -C "$2" --strip-components=1
  rm -rf "$tmp"
}
fetch_source pcre2 third_party/pcre2 src/pcre2_compile.c
fetch_source utf8proc third_party/utf8proc utf8proc.c

# --- cJSON sources, with Debian's patches (its security fixes) ------------------
# The JSON reader of the page and the CLI (src/core/base/json_read.h): 9 KB brotli where nlohmann-json
# cost 27 KB of the first load. Built from source for both builds, so both read alike.
if [ ! -f third_party/cjson/cJSON.c ]; then
  say "fetching cjson sources (apt-get source cjson) and applying Debian's patches"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source --download-only cjson >/dev/null 2>&1)
  mkdir -p "$tmp/src" third_party/cjson
  tar -xzf "$tmp"/cjson_*.orig.tar.gz -C "$tmp/src" --strip-components=1
  tar -xJf "$tmp"/cjson_*.debian.tar.xz -C "$tmp/src"
  if [ -f "$tmp/src/debian/patches/series" ]; then
    grep -v '^#' "$tmp/src/debian/patches/series" | while read -r patch; do
      [ -n "$patch" ] && patch -d "$tmp/src" -p1 -s < "$tmp/src/debian/patches/$patch"
    done
  fi
  cp "$tmp/src/cJSON.c" "$tmp/src/cJSON.h" "$tmp/src/LICENSE" third_party/cjson/
  rm -rf "$tmp"
fi

# --- libqrencode sources, for the QR code of the link (cmake/qrencode.cmake) -------
# Built into the page and the native build from Debian's source package. Its orig tarball is
# checked against the SHA-256 the package's .dsc gives (apt checked the .dsc against the signed
# index), so the build does not depend on the .debian.tar.xz also arriving (the archive this
# machine reaches answers 404 for it); Debian's patches are applied whenever it does arrive.
if [ ! -f third_party/qrencode/qrencode.c ]; then
  say "fetching qrencode sources (apt-get source qrencode)"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get source --download-only qrencode >/dev/null 2>&1) || true
  dsc=$(ls "$tmp"/qrencode_*.dsc 2>/dev/null | head -1)
  orig=$(ls "$tmp"/qrencode_*.orig.tar.* 2>/dev/null | head -1)
  if [ -z "$dsc" ] || [ -z "$orig" ]; then
    echo "[setup] apt-get source qrencode fetched no .dsc or orig tarball" >&2; exit 1
  fi
  want=$(awk '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 } on && $3 == f { print $1 }' f="$(basename "$orig")" "$dsc")
  if [ -z "$want" ] || [ "$(sha256sum "$orig" | cut -d' ' -f1)" != "$want" ]; then
    echo "[setup] $(basename "$orig") does not match the SHA-256 in $(basename "$dsc")" >&2; exit 1
  fi
  mkdir -p "$tmp/src" third_party/qrencode
  tar -xaf "$orig" -C "$tmp/src" --strip-components=1
  if ls "$tmp"/qrencode_*.debian.tar.xz >/dev/null 2>&1; then
    tar -xJf "$tmp"/qrencode_*.debian.tar.xz -C "$tmp/src"
    if [ -f "$tmp/src/debian/patches/series" ]; then
      grep -v '^#' "$tmp/src/debian/patches/series" | while read -r patch; do
        [ -n "$patch" ] && patch -d "$tmp/src" -p1 -s < "$tmp/src/debian/patches/$patch"
      done
    fi
  fi
  # (its CMakeLists.txt only for the version it declares: cmake/qrencode.cmake builds the library itself)
  cp "$tmp"/src/*.c "$tmp"/src/*.h "$tmp/src/COPYING" "$tmp/src/README" "$tmp/src/CMakeLists.txt" third_party/qrencode/
  rm -rf "$tmp"
fi

# --- npm dev dependencies ------------------------------------------------------
if [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
fi
say "ready"
