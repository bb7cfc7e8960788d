#!/usr/bin/env bash
# Type-checks the JS package's TypeScript declarations: builds the package as users
# get it (`wasm-pack build js --target web`, dev profile: the declarations are the
# same and it builds faster) and compiles js/types/usage.ts against it with tsc.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

work="$ROOT/target/js-types"
rm -rf "$work" && mkdir -p "$work/node_modules"
with_wasm_toolchain wasm-pack --log-level warn build --dev --target web --no-opt \
  --out-dir "$work/node_modules/ragtrace-js" js >/dev/null
cp js/types/usage.ts "$work/usage.ts"
tsc --noEmit --strict --target es2022 --module esnext --moduleResolution bundler \
  --lib esnext,dom --types '' "$work/usage.ts"
echo "check-types: js/types/usage.ts compiles against the package's declarations"
