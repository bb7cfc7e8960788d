#!/usr/bin/env bash
# Retakes docs/screenshot.png from the built site in headless Chromium (the page
# opens with its generated sample loaded).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
bash scripts/build-site.sh
port=${RAGTRACE_SCREENSHOT_PORT:-8093}
python3 -m http.server "$port" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
server=$!
trap 'kill "$server"' EXIT
sleep 1
# Virtual time lets the page load, generate its sample and paint before the shot.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1440,1100 --virtual-time-budget=15000 --run-all-compositor-stages-before-draw \
  --screenshot="$ROOT/docs/screenshot.png" "http://127.0.0.1:$port/" 2>/dev/null
echo "docs/screenshot.png retaken"
