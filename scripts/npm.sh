# Sourced by scripts/setup.sh: a working npm whatever Node.js the machine has.
# shellcheck shell=bash
#
# In order:
#  1. the `npm` on PATH, if it runs;
#  2. else, where a `node` exists, npm's own package from the npm registry at a
#     pinned version, its sha512 checked against the registry's integrity,
#     unpacked under the tools prefix and run with that `node` (a NodeSource
#     Node.js ships an npm that may not run, and conflicts with Debian's `npm`);
#  3. else Debian's `nodejs npm`.
# Afterwards `ragtrace_npm ARGS...` runs npm.

RAGTRACE_NPM_VERSION=10.9.2
RAGTRACE_NPM_INTEGRITY=sha512-iriPEPIkoMYUy3F6f3wwSZAU93E0Eg6cHwIR6jzzOXWSy+SD/rOODEs74cVONHKSx2obXtuUoyidVEhISrisgQ==
RAGTRACE_NPM_REGISTRY=${RAGTRACE_NPM_REGISTRY:-https://registry.npmjs.org}

RAGTRACE_NPM=()

ragtrace_npm() {
  if [ ${#RAGTRACE_NPM[@]} -eq 0 ]; then
    ensure_npm || return 1
  fi
  "${RAGTRACE_NPM[@]}" "$@"
}

# The registry's integrity of a file: "sha512-" and the base64 of its digest.
npm_integrity_of() {
  printf 'sha512-%s' "$(openssl dgst -sha512 -binary "$1" | openssl base64 -A)"
}

# Unpacks the pinned npm under the tools prefix, once; prints its npm-cli.js.
npm_from_registry() {
  local dir="$RAGTRACE_TOOLS_DIR/npm-$RAGTRACE_NPM_VERSION"
  local cli="$dir/package/bin/npm-cli.js"
  if [ -f "$cli" ] && node "$cli" --version >/dev/null 2>&1; then
    printf '%s\n' "$cli"
    return 0
  fi
  command -v curl >/dev/null 2>&1 || apt_install curl
  command -v openssl >/dev/null 2>&1 || apt_install openssl
  local url="$RAGTRACE_NPM_REGISTRY/npm/-/npm-$RAGTRACE_NPM_VERSION.tgz"
  local tarball
  tarball=$(mktemp)
  log "no npm that runs: fetching npm $RAGTRACE_NPM_VERSION from the npm registry"
  if ! curl -fsSL --retry 3 -o "$tarball" "$url"; then
    rm -f "$tarball"
    log "could not download $url"
    return 1
  fi
  local got
  got=$(npm_integrity_of "$tarball")
  if [ "$got" != "$RAGTRACE_NPM_INTEGRITY" ]; then
    rm -f "$tarball"
    log "npm-$RAGTRACE_NPM_VERSION.tgz does not match the registry's integrity (got $got); not using it"
    return 1
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xzf "$tarball" -C "$dir"
  rm -f "$tarball"
  if ! node "$cli" --version >/dev/null 2>&1; then
    log "npm $RAGTRACE_NPM_VERSION does not run with this node ($(node --version 2>&1))"
    return 1
  fi
  printf '%s\n' "$cli"
}

ensure_npm() {
  if command -v npm >/dev/null 2>&1 && npm --version >/dev/null 2>&1; then
    RAGTRACE_NPM=(npm)
    return 0
  fi
  if command -v node >/dev/null 2>&1; then
    local cli
    cli=$(npm_from_registry) || return 1
    RAGTRACE_NPM=(node "$cli")
    return 0
  fi
  apt_install nodejs npm
  RAGTRACE_NPM=(npm)
}
