#!/usr/bin/env bash
# Sets up whatever is missing, then serves the app (with its built-in sample loaded).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
RAGTRACE_SKIP_BROWSERS=1 bash scripts/setup.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh
with_wasm_toolchain trunk serve "$@"
