#!/usr/bin/env bash
# Installs whatever is missing to build, serve and test ragtrace, then stays quiet.
#
# Two routes to a wasm32 Rust toolchain (RAGTRACE_WASM_ROUTE=auto|rustup|debian):
#  - rustup's own wasm32-unknown-unknown target and std sources (rust-src, for
#    the site's size-optimised std), added with rustup when missing (the
#    standard way; tried first);
#  - otherwise (machines whose rustup cannot download targets): Debian's
#    `rustc-web` (a rustc whose LLVM has the WebAssembly backend), with the
#    wasm32 std built once from Debian's `rust-web-src`, fully offline, and
#    linked into rustup as the toolchain `ragtrace-wasm`.
# Tools come from crates.io (wasm-bindgen-cli at the Cargo.lock version,
# trunk, wasm-pack, geckodriver) and the npm registry (binaryen's wasm-opt,
# TypeScript, the audit's packages; npm itself where the machine's does not
# run: scripts/npm.sh); browsers and drivers from Debian. Nothing downloads
# anything at build or run time.
#
# Every step checks before it acts, so a re-run with everything present takes seconds.
# Source scripts/env.sh afterwards (the other scripts do) to put the tools on PATH.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

TRUNK_VERSION=0.21.14
WASM_PACK_VERSION=0.13.1
CARGO_FUZZ_VERSION=0.13.2
GECKODRIVER_VERSION=0.37.1
WASM_SPLIT_VERSION=0.2.4
LLVM_MAJOR=22

log() { printf 'setup: %s\n' "$*" >&2; }

need_root() {
  if [ "$(id -u)" -ne 0 ]; then
    log "$1 needs root (apt-get); run this script as root or install it yourself."
    exit 1
  fi
}

apt_updated=no
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  need_root "installing ${missing[*]}"
  if [ "$apt_updated" = no ]; then
    log "apt-get update"
    apt-get update -qq >/dev/null
    apt_updated=yes
  fi
  log "apt-get install ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# shellcheck source=scripts/npm.sh
source "$ROOT/scripts/npm.sh"

# 1. A Rust toolchain that can target wasm32 -------------------------------

rustup_has_wasm32() {
  command -v rustup >/dev/null 2>&1 &&
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown &&
    rustup component list --installed 2>/dev/null | grep -q '^rust-src'
}

# The standard way, seconds where rustup can download; bounded because it once
# hung for minutes on machines without that access.
rustup_add_wasm32() {
  command -v rustup >/dev/null 2>&1 || return 1
  log "rustup target add wasm32-unknown-unknown; rustup component add rust-src"
  timeout 180 rustup target add wasm32-unknown-unknown >&2 &&
    # The site's std is rebuilt for size from its sources (scripts/build-site.sh).
    timeout 180 rustup component add rust-src >&2
}

build_wasm32_std() {
  local tc=$1 stamp="$1/lib/rustlib/wasm32-unknown-unknown/.rustc-stamp"
  local want
  want=$(/usr/bin/rustc -vV)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  log "building the wasm32 std from Debian's rust-web-src (1-2 minutes, offline)"
  local work
  work=$(mktemp -d)
  mkdir -p "$work/src" "$work/.cargo"
  cat >"$work/Cargo.toml" <<'EOF'
[package]
name = "wasm32-std-seed"
version = "0.0.0"
edition = "2021"
[lib]
path = "src/lib.rs"
[profile.release]
panic = "abort"
EOF
  echo '#![no_std]' >"$work/src/lib.rs"
  cat >"$work/.cargo/config.toml" <<'EOF'
[source.crates-io]
replace-with = "debian-std-vendor"
[source.debian-std-vendor]
directory = "/usr/lib/rustlib/src/rust/library/vendor"
[target.wasm32-unknown-unknown]
rustflags = ["-Cembed-bitcode=yes"]
EOF
  (cd "$work" && RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc CARGO_TARGET_DIR="$work/target" \
    /usr/bin/cargo build --quiet --offline --release --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort,panic_unwind,proc_macro,test)
  local dest="$tc/lib/rustlib/wasm32-unknown-unknown/lib"
  rm -rf "$dest" && mkdir -p "$dest"
  find "$work/target/wasm32-unknown-unknown/release/deps" -maxdepth 1 \
    \( -name 'lib*.rlib' -o -name 'lib*.rmeta' \) ! -name 'libwasm32_std_seed*' \
    -exec cp {} "$dest/" \;
  printf '%s' "$want" >"$stamp"
  rm -rf "$work"
}

link_debian_toolchain() {
  if ! command -v rustup >/dev/null 2>&1; then
    log "the Debian route links its toolchain into rustup, which is missing: install rustup (https://rustup.rs, or Debian's 'rustup' package), then run this again"
    exit 1
  fi
  # rust-web-clippy lints the wasm-only code as rustup's clippy does on the other route.
  apt_install rustc-web cargo-web rust-web-src rust-web-clippy "lld-$LLVM_MAJOR"
  if ! /usr/bin/rustc -vV | grep -q "LLVM version: $LLVM_MAJOR\."; then
    log "Debian's rustc is not built on LLVM $LLVM_MAJOR; update LLVM_MAJOR in scripts/setup.sh"
    exit 1
  fi
  local tc=$RAGTRACE_TOOLCHAIN_DIR host=x86_64-unknown-linux-gnu
  mkdir -p "$tc/bin" "$tc/lib/rustlib/$host/bin"
  # rustc must be told its sysroot: a symlink would still make it pick /usr.
  for tool in rustc rustdoc; do
    printf '#!/bin/sh\nexec /usr/bin/%s --sysroot "%s" "$@"\n' "$tool" "$tc" >"$tc/bin/$tool"
    chmod +x "$tc/bin/$tool"
  done
  ln -sfn /usr/bin/cargo "$tc/bin/cargo"
  # cargo-clippy runs the clippy-driver that sits beside it, so it is copied (not
  # linked) next to a driver wrapper that names the sysroot (through SYSROOT: as
  # cargo's wrapper, the driver's first argument must stay the rustc path).
  printf '#!/bin/sh\nSYSROOT="%s" exec /usr/bin/clippy-driver "$@"\n' "$tc" >"$tc/bin/clippy-driver"
  chmod +x "$tc/bin/clippy-driver"
  cmp -s /usr/bin/cargo-clippy "$tc/bin/cargo-clippy" || install -m 755 /usr/bin/cargo-clippy "$tc/bin/cargo-clippy"
  ln -sfn "/usr/lib/rustlib/$host/lib" "$tc/lib/rustlib/$host/lib"
  ln -sfn /usr/lib/rustlib/src "$tc/lib/rustlib/src"
  ln -sfn "/usr/lib/llvm-$LLVM_MAJOR/bin/lld" "$tc/lib/rustlib/$host/bin/rust-lld"
  build_wasm32_std "$tc"
  # The name may still be linked to another prefix's toolchain, or to one since
  # deleted (rustup then calls it not installed): it must name this prefix's.
  local linked
  linked=$(rustup run "$RAGTRACE_WASM_TOOLCHAIN" rustc --print sysroot 2>/dev/null || true)
  if [ "$linked" != "$tc" ]; then
    rustup toolchain uninstall "$RAGTRACE_WASM_TOOLCHAIN" >/dev/null 2>&1 || true
    rustup toolchain link "$RAGTRACE_WASM_TOOLCHAIN" "$tc"
  fi
}

debian_route() {
  case "$(uname -m)-$(. /etc/os-release 2>/dev/null && echo "$ID")" in
    x86_64-debian) link_debian_toolchain ;;
    *)
      log "no wasm32 target: run 'rustup target add wasm32-unknown-unknown'"
      exit 1
      ;;
  esac
}

# RAGTRACE_WASM_ROUTE (scripts/env.sh) picks the route: auto (default) tries
# rustup first and falls back to Debian's toolchain; rustup or debian force one.
case "$RAGTRACE_WASM_ROUTE" in
  rustup)
    rustup_has_wasm32 || rustup_add_wasm32 || {
      log "RAGTRACE_WASM_ROUTE=rustup, but rustup could not add the wasm32-unknown-unknown target"
      exit 1
    }
    ;;
  debian) debian_route ;;
  auto)
    rustup_has_wasm32 || rustup_add_wasm32 || {
      log "rustup cannot add wasm32-unknown-unknown here: taking Debian's toolchain"
      debian_route
    }
    ;;
  *)
    log "RAGTRACE_WASM_ROUTE must be auto, rustup or debian, not '$RAGTRACE_WASM_ROUTE'"
    exit 2
    ;;
esac

# 2. Browsers and their drivers ------------------------------------------

if [ "${RAGTRACE_SKIP_BROWSERS:-}" != 1 ]; then
  if ! command -v chromedriver >/dev/null 2>&1 || ! command -v firefox >/dev/null 2>&1; then
    apt_install chromium chromium-driver firefox-esr
  fi
fi

# 3. Tools from crates.io and npm ----------------------------------------

mkdir -p "$RAGTRACE_TOOLS_DIR/bin"

installed_version() { "$1" --version 2>/dev/null | head -n1 | awk '{print $2}' | sed 's/^v//'; }

cargo_tool() {
  local crate=$1 version=$2 binary=$3
  shift 3
  [ "$(installed_version "$RAGTRACE_TOOLS_DIR/bin/$binary")" = "$version" ] && return 0
  log "cargo install $crate $version (a few minutes, once)"
  # The host toolchain builds the tools; LTO off halves their build time.
  (cd /tmp && env -u RUSTUP_TOOLCHAIN CARGO_PROFILE_RELEASE_LTO=off \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install --quiet --force --root "$RAGTRACE_TOOLS_DIR" "$crate" --version "$version" "$@")
}

wasm_bindgen_version=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/"/, "", $3); print $3; exit}' "$ROOT/Cargo.lock")
if [ -z "$wasm_bindgen_version" ]; then
  log "Cargo.lock names no wasm-bindgen version"
  exit 1
fi
# Without --locked: its lockfile once named a yanked dependency version.
cargo_tool wasm-bindgen-cli "$wasm_bindgen_version" wasm-bindgen
cargo_tool trunk "$TRUNK_VERSION" trunk --locked
cargo_tool wasm-pack "$WASM_PACK_VERSION" wasm-pack --locked
# The fuzz smoke of scripts/test.sh and the long runs of scripts/fuzz.sh: cargo-fuzz
# builds with the host toolchain, its targets only with a nightly one (libFuzzer's
# instrumentation), so it is installed where a nightly toolchain exists.
if command -v rustup >/dev/null 2>&1 && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  cargo_tool cargo-fuzz "$CARGO_FUZZ_VERSION" cargo-fuzz --locked
fi
# The site build splits the page's wasm at its lazily loaded parts
# (scripts/split-site.sh). Its binary has no --version: a stamp file says which
# version is installed.
split_stamp="$RAGTRACE_TOOLS_DIR/wasm-split-cli.version"
if [ ! -x "$RAGTRACE_TOOLS_DIR/bin/wasm-split-cli" ] ||
  [ "$(cat "$split_stamp" 2>/dev/null)" != "$WASM_SPLIT_VERSION" ]; then
  rm -f "$RAGTRACE_TOOLS_DIR/bin/wasm-split-cli"
  cargo_tool wasm_split_cli_support "$WASM_SPLIT_VERSION" wasm-split-cli --locked --features build-binary
  echo "$WASM_SPLIT_VERSION" >"$split_stamp"
fi
if [ "${RAGTRACE_SKIP_BROWSERS:-}" != 1 ]; then
  cargo_tool geckodriver "$GECKODRIVER_VERSION" geckodriver --locked
fi

# Debian's binaryen is too old for today's wasm features; npm's runs under node.
# Its version is Trunk.toml's `wasm_opt = "version_N"`, so it is written once.
binaryen_major=$(sed -n 's/^wasm_opt *= *"version_\([0-9]*\)".*/\1/p' "$ROOT/Trunk.toml")
if [ -z "$binaryen_major" ]; then
  log "Trunk.toml names no wasm_opt version"
  exit 1
fi
BINARYEN_VERSION=$binaryen_major.0.0
binaryen_dir="$RAGTRACE_TOOLS_DIR/binaryen-$BINARYEN_VERSION"
if [ ! -x "$binaryen_dir/node_modules/.bin/wasm-opt" ]; then
  log "npm install binaryen@$BINARYEN_VERSION"
  mkdir -p "$binaryen_dir"
  ragtrace_npm install --silent --no-audit --no-fund --prefix "$binaryen_dir" "binaryen@$BINARYEN_VERSION" >/dev/null
fi
ln -sfn "$binaryen_dir/node_modules/.bin/wasm-opt" "$RAGTRACE_TOOLS_DIR/bin/wasm-opt"

# TypeScript's tsc checks the JS package's declarations (scripts/check-types.sh).
TYPESCRIPT_VERSION=7.0.2
typescript_dir="$RAGTRACE_TOOLS_DIR/typescript-$TYPESCRIPT_VERSION"
if [ ! -x "$typescript_dir/node_modules/.bin/tsc" ]; then
  log "npm install typescript@$TYPESCRIPT_VERSION"
  mkdir -p "$typescript_dir"
  ragtrace_npm install --silent --no-audit --no-fund --prefix "$typescript_dir" "typescript@$TYPESCRIPT_VERSION" >/dev/null
fi
ln -sfn "$typescript_dir/node_modules/.bin/tsc" "$RAGTRACE_TOOLS_DIR/bin/tsc"

# The site audit (scripts/audit-site.sh) drives Chromium and Firefox with
# puppeteer-core (Debian's browsers; it downloads none) and runs axe-core's
# accessibility rules in the page. Neither is part of the site.
PUPPETEER_CORE_VERSION=24.43.1
AXE_CORE_VERSION=4.14.1
audit_dir="$RAGTRACE_TOOLS_DIR/audit-puppeteer-$PUPPETEER_CORE_VERSION-axe-$AXE_CORE_VERSION"
if [ ! -f "$audit_dir/node_modules/axe-core/axe.min.js" ] ||
  [ ! -f "$audit_dir/node_modules/puppeteer-core/package.json" ]; then
  log "npm install puppeteer-core@$PUPPETEER_CORE_VERSION axe-core@$AXE_CORE_VERSION"
  mkdir -p "$audit_dir"
  ragtrace_npm install --silent --no-audit --no-fund --prefix "$audit_dir" \
    "puppeteer-core@$PUPPETEER_CORE_VERSION" "axe-core@$AXE_CORE_VERSION" >/dev/null
fi
ln -sfn "$audit_dir/node_modules" "$RAGTRACE_TOOLS_DIR/audit-node-modules"

# 4. Python: the package's build and test tools --------------------------
# (py/, scripts/test-python.sh) A virtual environment under the tools prefix,
# never the system Python's site-packages. The pinned set is written to a stamp
# file; an unchanged set is not reinstalled.
PYTHON_VENV="$RAGTRACE_TOOLS_DIR/python-venv"
PYTHON_PACKAGES=(
  maturin==1.16.0
  pytest==9.2.0
  hypothesis==6.170.17
  mypy==2.4.1
  "ray[data]==2.60.0"
  "dask[bag]==2026.8.0"
)
if [ "${RAGTRACE_SKIP_PYTHON:-}" != 1 ]; then
  python_stamp="$PYTHON_VENV/ragtrace-packages.txt"
  if [ ! -x "$PYTHON_VENV/bin/python" ] ||
    [ "$(cat "$python_stamp" 2>/dev/null)" != "${PYTHON_PACKAGES[*]}" ]; then
    if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
      apt_install python3-venv
    fi
    log "python3 -m venv $PYTHON_VENV; pip install ${PYTHON_PACKAGES[*]} (a few minutes, once)"
    python3 -m venv "$PYTHON_VENV"
    "$PYTHON_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PYTHON_PACKAGES[@]}"
    echo "${PYTHON_PACKAGES[*]}" >"$python_stamp"
  fi
fi
# End of the Python block.
