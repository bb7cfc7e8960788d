// The JS API on a big batch, in Node: `analyze` + `summary()` against `JSON.parse` of
// the same text (the floor: reading the text at all). Prints figures and ratios;
// asserts nothing. Run by `bash scripts/bench.sh js`, which builds the package
// (`wasm-pack build js --target nodejs --release`) and writes the batch.
//   node js/bench/analyze.mjs <package dir> <batch.json> [runs]
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const [pkgDir, batchPath, runsArg] = process.argv.slice(2);
if (!pkgDir || !batchPath) {
  console.error("usage: node analyze.mjs <package dir> <batch.json> [runs]");
  process.exit(2);
}
const runs = Number(runsArg ?? 7);
const ragtrace = createRequire(import.meta.url)(resolve(pkgDir, "ragtrace_js.js"));
const text = readFileSync(batchPath, "utf8");

function ms(f) {
  const start = performance.now();
  f();
  return performance.now() - start;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (xs) => Math.min(...xs);
const fmt = (xs) => `${median(xs).toFixed(0)} ms median (best ${best(xs).toFixed(0)})`;

/** Every JSON document of the text, as a reader of it would parse it. */
function parseAll() {
  for (const line of text.split("\n")) {
    if (line.trim() !== "") JSON.parse(line);
  }
}

let summary;
let traceCount = 0;
function analyzeSummary() {
  const analysis = ragtrace.analyze(text);
  summary = analysis.summary();
  traceCount = analysis.traceCount;
  analysis.free();
}

// Interleaved, so a machine that slows down or speeds up mid-run weighs on both alike.
parseAll();
analyzeSummary();
const parse = [];
const analyze = [];
const ratios = [];
for (let i = 0; i < runs; i++) {
  parse.push(ms(parseAll));
  analyze.push(ms(analyzeSummary));
  ratios.push(analyze[i] / parse[i]);
}

const analysis = ragtrace.analyze(text);
const page = [];
const whole = [];
const wholeParse = [];
for (let i = 0; i < Math.min(runs, 3); i++) {
  page.push(ms(() => analysis.traces(0, 50)));
  whole.push(ms(() => analysis.toJSON()));
  wholeParse.push(ms(parseAll));
}
analysis.free();

const mb = (Buffer.byteLength(text) / 1e6).toFixed(1);
console.log(`js-bench: input ${mb} MB, ${traceCount} traces, summary.traces ${summary.traces}; ${runs} interleaved runs`);
console.log(`js-bench: JSON.parse of the text              ${fmt(parse)}`);
console.log(`js-bench: analyze + summary() + free()        ${fmt(analyze)}`);
console.log(
  `js-bench: ratio analyze + summary / JSON.parse  ${median(ratios).toFixed(2)}x median of runs ` +
    `(${best(ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x; goal within 3x)`,
);
console.log(`js-bench: traces(0, 50) on the handle         ${fmt(page)}`);
console.log(
  `js-bench: toJSON(), the whole object          ${fmt(whole)} = ` +
    `${(median(whole) / median(wholeParse)).toFixed(2)}x JSON.parse of the input`,
);
