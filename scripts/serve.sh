#!/usr/bin/env bash
# Sets up whatever is missing, then serves the app (with its built-in sample loaded).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
RAGTRACE_SKIP_BROWSERS=1 bash scripts/setup.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh
# Trunk resolves the folders Trunk.toml's [watch] ignores before it builds anything,
# and stops when one is missing: in a fresh clone neither target/ nor dist/ is there.
mkdir -p target dist
with_wasm_toolchain trunk serve "$@"
