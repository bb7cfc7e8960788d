#!/usr/bin/env bash
# The README's first command, as a newcomer runs it: scripts/serve.sh on a spare port
# must build the app and answer with the page, its script and its wasm. Stopped once
# they are served. Run by scripts/test.sh before anything else builds, so that on a
# fresh clone it sees what a newcomer's first run sees (no target/, no dist/).
#   bash scripts/check-serve.sh [PORT]     (default 18080)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
port=${1:-18080}
url="http://127.0.0.1:$port"
log=$(mktemp)
# Its own process group, so that stopping it stops Trunk and the builds it started.
setsid bash scripts/serve.sh --port "$port" >"$log" 2>&1 &
server=$!
stop() {
  kill -- "-$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$log"
}
trap stop EXIT

# A first build on a fresh machine compiles every dependency for wasm32.
timeout=${RAGTRACE_SERVE_TIMEOUT:-1800}
deadline=$((SECONDS + timeout))
until curl -fsS -o /dev/null "$url/"; do
  if ! kill -0 "$server" 2>/dev/null; then
    echo "check-serve: scripts/serve.sh stopped before serving; its last lines:" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "check-serve: nothing served at $url after $timeout s; the last lines:" >&2
    tail -n 20 "$log" >&2
    exit 1
  fi
  sleep 2
done

page=$(curl -fsS "$url/")
case "$page" in
*"ragtrace"*"bootstrap.js"*) ;;
*)
  echo "check-serve: $url/ is not the app's page" >&2
  exit 1
  ;;
esac
served=(bootstrap.js)
for built in dist/*.js dist/*.wasm; do
  [ -e "$built" ] && served+=("${built#dist/}")
done
wasm=0
for file in "${served[@]}"; do
  if ! curl -fsS -o /dev/null "$url/$file"; then
    echo "check-serve: $url/$file is not served" >&2
    exit 1
  fi
  case "$file" in *.wasm) wasm=$((wasm + 1)) ;; esac
done
if [ "$wasm" -eq 0 ]; then
  echo "check-serve: the build left no wasm in dist/" >&2
  exit 1
fi
echo "check-serve: scripts/serve.sh served the page, $((${#served[@]} - wasm)) scripts and $wasm wasm module(s) at $url"
