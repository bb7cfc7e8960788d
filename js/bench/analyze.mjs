// The JS API on a big batch, in Node: `analyze` + `summary()` against `JSON.parse` of
// the same JSON lines (the floor: reading the text at all). Prints figures and ratios;
// asserts nothing. Run by `bash scripts/bench.sh js`, which builds the package
// (`wasm-pack build js --target nodejs --release`) and writes the batch.
//   node js/bench/analyze.mjs <package dir> <batch.jsonl> [runs]
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const [pkgDir, batchPath, runsArg] = process.argv.slice(2);
if (!pkgDir || !batchPath) {
  console.error("usage: node analyze.mjs <package dir> <batch.jsonl> [runs]");
  process.exit(2);
}
const runs = Number(runsArg ?? 7);
const ragtrace = createRequire(import.meta.url)(resolve(pkgDir));
const text = readFileSync(batchPath, "utf8");

/** Median and best of `runs` timings of `f` (ms), after one warm-up call. */
function time(f) {
  f();
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    f();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], best: ms[0] };
}

const fmt = ({ median, best }) => `${median.toFixed(0)} ms median (best ${best.toFixed(0)})`;

let lines = 0;
const parse = time(() => {
  lines = 0;
  for (const line of text.split("\n")) {
    if (line.trim() !== "") {
      JSON.parse(line);
      lines++;
    }
  }
});

let summary;
let traceCount = 0;
const analyzeSummary = time(() => {
  const analysis = ragtrace.analyze(text);
  summary = analysis.summary();
  traceCount = analysis.traceCount;
  analysis.free();
});

const analysis = ragtrace.analyze(text);
const firstPage = time(() => analysis.traces(0, 50));
const whole = time(() => analysis.toJSON());
analysis.free();
const object = time(() => ragtrace.analyzeObject(text));

const mb = (Buffer.byteLength(text) / 1e6).toFixed(1);
console.log(`js-bench: input ${mb} MB, ${lines} lines, ${traceCount} traces (summary.traces ${summary.traces})`);
console.log(`js-bench: JSON.parse of the lines           ${fmt(parse)}`);
console.log(`js-bench: analyze + summary() (+ free)      ${fmt(analyzeSummary)}`);
console.log(
  `js-bench: ratio analyze + summary / JSON.parse  ${(analyzeSummary.median / parse.median).toFixed(2)}x median, ` +
    `${(analyzeSummary.best / parse.best).toFixed(2)}x best (goal within 3x)`,
);
console.log(`js-bench: traces(0, 50) on the handle       ${fmt(firstPage)}`);
console.log(`js-bench: toJSON(), the whole object        ${fmt(whole)}`);
console.log(`js-bench: analyzeObject (analyze + toJSON)  ${fmt(object)}`);
