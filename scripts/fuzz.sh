#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (cargo-fuzz, libFuzzer), one after the other, each
# in one process, and prints a line per target: executions, coverage (cov: edges,
# ft: features) and crashes. docs/reliability.md records the long runs.
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]    default: 120 seconds, every target
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`); says so
# and exits 2 without them. What a run finds goes to fuzz/artifacts/TARGET/; the
# growing corpus to fuzz/corpus/TARGET/. The seeds: the test fixtures and the page's
# samples as they are (tests/fixtures/, samples/), plus fuzz/seeds/ for what they
# do not cover (see seeds_of).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

seconds=${1:-120}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(documents structured differential cases settings link partial spans)
fi

if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  echo "fuzz: needs a nightly toolchain (rustup toolchain install nightly)" >&2
  exit 2
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "fuzz: needs cargo-fuzz (cargo install cargo-fuzz)" >&2
  exit 2
fi

# No sanitizer: the project has no unsafe code, and without ASan a target runs about
# twice as many inputs. Debug assertions (-a) keep integer overflow checks on.
# FUZZ_SANITIZER=address turns ASan back on.
sanitizer=${FUZZ_SANITIZER:-none}

# The seed folders of a target. Traces and cases are the fixtures and samples
# themselves, read in place; fuzz/seeds/ holds only inputs they do not cover.
seeds_of() {
  case "$1" in
    documents | differential | partial) echo fuzz/seeds/documents tests/fixtures samples ;;
    spans) echo "fuzz/corpus/spans-seeds" fuzz/seeds/spans ;;
    cases) echo tests/fixtures samples ;;
    *) echo "fuzz/seeds/$1" ;;
  esac
}
# The span reader's seeds are the real span fixtures' lines, one a file: a whole
# fixture is longer than an input may be. Written afresh on each run, not committed.
span_seeds() {
  local dir=fuzz/corpus/spans-seeds
  rm -rf "$dir"
  mkdir -p "$dir"
  for file in tests/fixtures/otel/*.jsonl; do
    awk -v out="$dir/$(basename "$file" .jsonl)" '{ print > (out "-" NR ".json") }' "$file"
  done
}
# Span lines run to 56 KB (embedding vectors); other inputs stay small.
max_len_of() {
  case "$1" in
    spans) echo 65536 ;;
    *) echo 16384 ;;
  esac
}
mkdir -p fuzz/logs
status=0
for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target"
  if [ "$target" = spans ]; then span_seeds; fi
  log="fuzz/logs/$target.log"
  read -r -a seeds <<<"$(seeds_of "$target")"
  if cargo +nightly fuzz run --fuzz-dir fuzz -s "$sanitizer" -a "$target" \
    "fuzz/corpus/$target" "${seeds[@]}" -- \
    -max_total_time="$seconds" -max_len="$(max_len_of "$target")" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 >"$log" 2>&1; then
    crashes=0
  else
    crashes=1
    status=1
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)
  # The corpus libFuzzer holds at the end (the directory also keeps inputs it has
  # since replaced by smaller ones).
  corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' <<<"$last" | cut -d' ' -f2 || true)
  printf 'fuzz %-13s %ss: %s execs, cov %s, ft %s, corpus %s, crashes %s\n' \
    "$target" "$seconds" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "$crashes"
  if [ "$crashes" -ne 0 ]; then
    grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -5 >&2 || true
  fi
done
exit "$status"
