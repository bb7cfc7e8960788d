// The JS API on a big batch, in Node: `analyze` + `summary()` against `JSON.parse` of
// the same text (the floor: reading the text at all). Prints figures and ratios;
// asserts nothing. Run by `bash scripts/bench.sh js`, which builds the package
// (`wasm-pack build js --target nodejs --release`) and writes the batch.
//   node js/bench/analyze.mjs <package dir> <batch.json> [runs] [fresh runs]
// Two measurements: warm (both repeated in this process, after one untimed call) and
// fresh (a new Node process per run timing its first `analyze` + `summary()`, as a
// script that analyses one file once sees it), on the batch as written and on its
// ASCII-only twin (every non-ASCII character replaced by "x", as in English-only
// traces). The twin matters: the wasm-bindgen glue copies ASCII text into wasm memory
// at its exact length, while other text first gets a block of three bytes per
// character, which grows memory ahead of the parse as a side effect.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const [pkgDir, batchPath, runsArg, freshRunsArg, childRun] = process.argv.slice(2);
if (!pkgDir || !batchPath) {
  console.error("usage: node analyze.mjs <package dir> <batch.json> [runs] [fresh runs]");
  process.exit(2);
}
const runs = Number(runsArg ?? 7);
const freshRuns = Number(freshRunsArg ?? 7);
const loadStart = performance.now();
const ragtrace = createRequire(import.meta.url)(resolve(pkgDir, "ragtrace_js.js"));
const loadMs = performance.now() - loadStart;
const [childOrder, childText] = (childRun ?? "").split(":");
const asWritten = readFileSync(batchPath, "utf8");
const text = childText === "ascii" ? asWritten.replace(/[^\x00-\x7f]/g, "x") : asWritten;

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

// A fresh process (spawned by `freshProcess` below): each measured once, in the
// order given, then the figures as one JSON line on stdout.
if (childRun !== undefined) {
  const first = { parse: 0, analyze: 0 };
  const order = childOrder === "parse-first" ? ["parse", "analyze"] : ["analyze", "parse"];
  for (const which of order) {
    first[which] = ms(which === "parse" ? parseAll : analyzeSummary);
  }
  console.log(JSON.stringify({ load: loadMs, ...first, traces: summary.traces }));
  process.exit(0);
}

/**
 * One new Node process's first calls on `variant` ("written" or "ascii"); `parseFirst`
 * picks which of the two runs first.
 */
function freshProcess(parseFirst, variant) {
  const run = `${parseFirst ? "parse-first" : "analyze-first"}:${variant}`;
  const child = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), pkgDir, batchPath, "0", "0", run],
    { encoding: "utf8" },
  );
  if (child.status !== 0) {
    throw new Error(`fresh process failed (${child.status}): ${child.stderr}`);
  }
  return JSON.parse(child.stdout);
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

// Fresh processes, alternating which of the two each measures first (so neither
// always pays for, or profits from, the other's heap growth) and, run by run, the
// batch as written and its ASCII twin.
const variants = [
  ["written", "the batch as written"],
  ["ascii", "its ASCII-only twin"],
];
const fresh = Object.fromEntries(
  variants.map(([variant]) => [variant, { load: [], parse: [], analyze: [], ratios: [] }]),
);
for (let i = 0; i < freshRuns; i++) {
  for (const [variant] of variants) {
    const run = freshProcess(i % 2 === 0, variant);
    const figures = fresh[variant];
    figures.load.push(run.load);
    figures.parse.push(run.parse);
    figures.analyze.push(run.analyze);
    figures.ratios.push(run.analyze / run.parse);
  }
}
for (const [variant, name] of freshRuns > 0 ? variants : []) {
  const figures = fresh[variant];
  console.log(
    `js-bench: fresh process per run, ${name}, ${freshRuns} runs; loading the package ${fmt(figures.load)}`,
  );
  console.log(`js-bench:   JSON.parse of the text            ${fmt(figures.parse)}`);
  console.log(`js-bench:   first analyze + summary()         ${fmt(figures.analyze)}`);
  console.log(
    `js-bench:   ratio first call / JSON.parse      ${median(figures.ratios).toFixed(2)}x median of runs ` +
      `(${best(figures.ratios).toFixed(2)}-${Math.max(...figures.ratios).toFixed(2)}x; goal within 3x)`,
  );
}
