# Sourced by the other scripts: where ragtrace's tools live and how to reach them.
# shellcheck shell=bash

if [ "$(id -u)" -eq 0 ]; then
  RAGTRACE_PREFIX=${RAGTRACE_PREFIX:-/opt/ragtrace}
else
  RAGTRACE_PREFIX=${RAGTRACE_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/ragtrace}
fi
export RAGTRACE_PREFIX
export RAGTRACE_TOOLS_DIR="$RAGTRACE_PREFIX/tools"
export RAGTRACE_TOOLCHAIN_DIR="$RAGTRACE_PREFIX/toolchain"
export RAGTRACE_WASM_TOOLCHAIN=ragtrace-wasm
# Which wasm32 toolchain: auto (rustup's target when it can be had, else
# Debian's), rustup, or debian (forced; used to test that route on any machine).
export RAGTRACE_WASM_ROUTE=${RAGTRACE_WASM_ROUTE:-auto}

case ":$PATH:" in
  *":$RAGTRACE_TOOLS_DIR/bin:"*) ;;
  *) export PATH="$RAGTRACE_TOOLS_DIR/bin:$HOME/.cargo/bin:$PATH" ;;
esac

# Runs a command with the toolchain that can target wasm32: rustup's own when
# it has the target (and the Debian route is not forced), else the Debian-based
# one that scripts/setup.sh linked.
with_wasm_toolchain() {
  if [ "$RAGTRACE_WASM_ROUTE" != debian ] &&
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown &&
    rustup component list --installed 2>/dev/null | grep -q '^rust-src'; then
    "$@"
  else
    RUSTUP_TOOLCHAIN="$RAGTRACE_WASM_TOOLCHAIN" "$@"
  fi
}
