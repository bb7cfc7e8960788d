#!/usr/bin/env bash
# Builds the static site into dist/ (works from any sub-path) and prints the wasm size.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
# Panics in the page keep their message but not their source file and line
# (-Zlocation-detail=none): about 3.7 KB of the gzipped wasm, which kept the site
# inside its 300 KB budget on rustup's Rust 1.95. Stable compilers take this one
# unstable flag with RUSTC_BOOTSTRAP=1 (Debian's route builds its std that way
# too). RUSTFLAGS replaces .cargo/config.toml's rustflags, hence erase_components
# again.
RUSTC_BOOTSTRAP=1 RUSTFLAGS="--cfg erase_components -Zlocation-detail=none" \
  with_wasm_toolchain trunk --quiet build --release --public-url ./ "$@"
for wasm in dist/*.wasm; do
  raw=$(stat -c %s "$wasm")
  gz=$(gzip -9 -c "$wasm" | wc -c)
  awk -v name="$(basename "$wasm")" -v raw="$raw" -v gz="$gz" \
    'BEGIN { printf "site: %s  %.1f KB raw, %.1f KB gzip\n", name, raw / 1024, gz / 1024 }'
done
