#!/usr/bin/env bash
# Mirrors a checkpoint's files for a class (tools/mirror.mjs does the work with curl; docs/checkpoint.md,
# "Mirroring a model for a class"), then tools/serve.sh serves them to the room:
#   tools/mirror.sh hf:Qwen/Qwen3.5-0.8B models/Qwen3.5-0.8B
#   MODEL_DIR=models/Qwen3.5-0.8B HOST=0.0.0.0 tools/serve.sh
# Run it again after an interruption: it continues where it stopped.
set -euo pipefail
exec node "$(dirname "$0")/mirror.mjs" "$@"
