#!/usr/bin/env bash
# Splits the site's wasm at its lazily loaded parts (web/src/lazy/) and puts the
# parts into dist/, in place of the single module Trunk wrote there.
#
# Run by scripts/build-site.sh after `trunk build`, which compiled the page with
# `--cfg ragtrace_split` (the split points) and `--emit-relocs` (the splitter needs
# the linker's relocations to move functions between modules). The steps are the
# ones Trunk runs on one module, with the splitter before wasm-bindgen:
#   wasm-split-cli: main.wasm + one module per split point (+ shared chunks) and
#     __wasm_split.js, the loader the main module imports;
#   wasm-bindgen on main.wasm (keeping the exports the other modules import);
#   wasm-opt -Oz on every module, as Trunk does (index.html's data-wasm-opt="z").
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
DIST=${1:-dist}
NAME=ragtrace-web
INPUT="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/site/$NAME.wasm"
if [[ ! -f "$INPUT" ]]; then
  echo "split-site: $INPUT is missing; run scripts/build-site.sh" >&2
  exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/split" "$WORK/bindgen"

wasm-split-cli "$INPUT" "$WORK/split"
wasm-bindgen "$WORK/split/main.wasm" --out-dir "$WORK/bindgen" --out-name "$NAME" \
  --target web --no-typescript --keep-lld-exports
# The loader imports wasm-bindgen's `initSync` from the splitter's default name.
sed -i "s#\"./main.js\"#\"./$NAME.js\"#" "$WORK/split/__wasm_split.js"
if ! grep -q "\"./$NAME.js\"" "$WORK/split/__wasm_split.js"; then
  echo "split-site: __wasm_split.js does not import ./$NAME.js as expected" >&2
  exit 1
fi

rm -f "$DIST"/*.wasm "$DIST/$NAME.js" "$DIST/__wasm_split.js"
wasm-opt -Oz "$WORK/bindgen/${NAME}_bg.wasm" -o "$DIST/${NAME}_bg.wasm"
rm "$WORK/bindgen/${NAME}_bg.wasm"
cp -r "$WORK/bindgen/." "$DIST/"
cp "$WORK/split/__wasm_split.js" "$DIST/"
for part in "$WORK"/split/*.wasm; do
  [[ "$(basename "$part")" == main.wasm ]] && continue
  wasm-opt -Oz "$part" -o "$DIST/$(basename "$part")"
done
