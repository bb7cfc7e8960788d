#!/usr/bin/env bash
# Builds the static site into dist/ (works from any sub-path) and prints the wasm size.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh
# The page's wasm is built for size, beyond the `site` profile (Cargo.toml):
# - std is rebuilt from its sources with the page's profile and std's own
#   `optimize_for_size` feature (-Zbuild-std), instead of the prebuilt std
#   that is compiled for speed: about 15 KB of the gzipped wasm (measurements
#   in docs/performance.md);
# - a panic aborts at once, without formatting its message
#   (-Cpanic=immediate-abort, 8-9 KB): web/bootstrap.js turns the abort into the
#   page's error banner; builds for tests and `trunk serve` keep the message;
# - panic locations are dropped (-Zlocation-detail=none): about 3.7 KB when
#   panics still had messages.
# Stable compilers take these unstable options with RUSTC_BOOTSTRAP=1 (Debian's
# route builds its std that way too). RUSTFLAGS replaces .cargo/config.toml's
# rustflags, hence erase_components again.
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
# Trunk runs cargo offline; std's own dependencies are fetched here, once.
with_wasm_toolchain cargo fetch --quiet
RUSTFLAGS="--cfg erase_components -Zlocation-detail=none -Zunstable-options -Cpanic=immediate-abort" \
  with_wasm_toolchain trunk --quiet build --release --public-url ./ "$@"
for wasm in dist/*.wasm; do
  raw=$(stat -c %s "$wasm")
  gz=$(gzip -9 -c "$wasm" | wc -c)
  awk -v name="$(basename "$wasm")" -v raw="$raw" -v gz="$gz" \
    'BEGIN { printf "site: %s  %.1f KB raw, %.1f KB gzip\n", name, raw / 1024, gz / 1024 }'
done
