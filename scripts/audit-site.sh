#!/usr/bin/env bash
# Audits the built site in headless Chromium and Firefox (web/audit/audit.cjs):
# every request same-origin, no script run from trace text, no CSP violation,
# no console error, the split-off parts fetched only when first needed, keyboard use, and axe-core with no serious or critical finding
# on any tab. Prints one line per browser; details go to target/audit/.
#
#   bash scripts/audit-site.sh              # audits dist/ (bash scripts/build-site.sh first)
#   bash scripts/audit-site.sh DIR          # audits another build of the site
# RAGTRACE_BROWSERS=--chrome limits it to one browser, as for the browser tests.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
bash scripts/setup.sh
# shellcheck source=scripts/env.sh
source scripts/env.sh

dist=dist
label=site
if [ -n "${1:-}" ]; then
  dist=$1
  label=$(basename "$dist")
fi
if [ ! -f "$dist/index.html" ]; then
  echo "audit: $dist/index.html is missing: run bash scripts/build-site.sh first" >&2
  exit 1
fi

browsers=()
for flag in ${RAGTRACE_BROWSERS:---chrome --firefox}; do
  browsers+=("${flag#--}")
done
browser_list=$(IFS=,; echo "${browsers[*]}")

mkdir -p target/audit
NODE_PATH="$RAGTRACE_TOOLS_DIR/audit-node-modules" node web/audit/audit.cjs \
  --dist "$dist" --browsers "$browser_list" --label "$label" --out "target/audit/report-$label.json"
