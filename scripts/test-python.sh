#!/usr/bin/env bash
# The Python package (py/): builds its wheel with maturin under the cheap
# `python-test` cargo profile (opt-level 1, no LTO), installs it into the set-up's
# virtual environment, builds the CLI its tests compare with (same profile), and
# runs pytest: results against the CLI's JSON, partials, errors, the type check
# and the engines (Ray, Dask). Spark is not tested here (too heavy for CI); its
# recipe is in docs/scale.md. Arguments go to pytest.
#   bash scripts/test-python.sh                 everything
#   bash scripts/test-python.sh -k partial      some tests
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/env.sh
source scripts/env.sh

venv="$RAGTRACE_TOOLS_DIR/python-venv"
if [ ! -x "$venv/bin/python" ]; then
  echo "test-python: no virtual environment at $venv: run scripts/setup.sh" >&2
  exit 2
fi
profile=python-test
target=${CARGO_TARGET_DIR:-$ROOT/target}

cargo build --quiet -p ragtrace-core --features cli --profile "$profile"
export RAGTRACE_CLI="$target/$profile/ragtrace"

wheels="$target/python-test-wheels"
rm -rf "$wheels"
VIRTUAL_ENV="$venv" "$venv/bin/maturin" build --quiet --profile "$profile" \
  --manifest-path py/Cargo.toml --interpreter "$venv/bin/python" --out "$wheels"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
  --force-reinstall "$wheels"/ragtrace-*.whl

cd py
# The installed wheel is what is tested: the source tree's package is not on the path.
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
