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
# - what a visitor may never use (the Compare and Golden tabs, the JSON
#   download's serialiser, the reading of files, the readers of spans, Phoenix
#   records and TREC runs) is split into modules fetched when first needed
#   (`--cfg ragtrace_split`, web/src/lazy/; scripts/split-site.sh): the budget is
#   the module the page starts with.
# Stable compilers take these unstable options with RUSTC_BOOTSTRAP=1 (Debian's
# route builds its std that way too). RUSTFLAGS replaces .cargo/config.toml's
# rustflags, hence erase_components again.
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
# Trunk runs cargo offline; std's own dependencies are fetched here, once. Those of
# the wasm32 std (dlmalloc) only come with `--target`.
with_wasm_toolchain cargo fetch --quiet
with_wasm_toolchain cargo fetch --quiet --target wasm32-unknown-unknown
RUSTFLAGS="--cfg erase_components --cfg ragtrace_split -Clink-args=--emit-relocs -Zlocation-detail=none -Zunstable-options -Cpanic=immediate-abort" \
  with_wasm_toolchain trunk --quiet build --release --public-url ./ "$@"
# Trunk's own wasm-opt warns that "linking section is present" (the relocations
# the splitter needs): the module it writes is replaced by split-site.sh's parts.
with_wasm_toolchain bash scripts/split-site.sh dist
# The budget is the module every visitor downloads before the first paint; the lazily
# loaded parts are printed beside it. The goal is 300 KiB gzip, and the check fails
# above it (docs/decisions.md, "The site's size budget").
goal=307200
ceiling=307200
main_gz=0
total_gz=0
for wasm in dist/*.wasm; do
  raw=$(stat -c %s "$wasm")
  gz=$(gzip -9 -c "$wasm" | wc -c)
  total_gz=$((total_gz + gz))
  if [[ "$(basename "$wasm")" == ragtrace-web_bg.wasm ]]; then
    main_gz=$gz
    role="first load"
  else
    role="loaded when first needed"
  fi
  awk -v name="$(basename "$wasm")" -v raw="$raw" -v gz="$gz" -v role="$role" \
    'BEGIN { printf "site: %s  %.1f KB raw, %.1f KB gzip (%s)\n", name, raw / 1024, gz / 1024, role }'
done
awk -v main="$main_gz" -v total="$total_gz" -v goal="$goal" -v ceiling="$ceiling" \
  'BEGIN { printf "site: first load %.1f KB gzip: goal %.0f KB (%+d bytes), ceiling %.0f KB (%d bytes to spare); all wasm %.1f KB gzip\n", main / 1024, goal / 1024, main - goal, ceiling / 1024, ceiling - main, total / 1024 }'
if ((main_gz > ceiling)); then
  echo "site: the first-load wasm is over its 300 KB gzip ceiling" >&2
  exit 1
fi
