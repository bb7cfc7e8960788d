// The built site as visitors get it (split, std rebuilt for size, the real page at
// 1400 x 1000), with a generated batch picked in the file input: the load against
// JSON.parse of the same lines, then a knob move -> the next painted frame, with the
// CPU at full speed and throttled by the DevTools protocol (a slower machine).
// Prints figures, asserts nothing.
//
//   node web/audit/bench-knob.cjs DIST BATCH.jsonl [RATE...]
// With RAGTRACE_CPU_PROFILE=FILE, the CPU profile of the full-speed maxL2Distance
// moves is written to FILE (DevTools' .cpuprofile; wasm frames carry Rust names in a
// build that keeps them: docs/performance.md, "Profiling").
// `bash scripts/bench.sh site` builds the site and the batch and runs it.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const puppeteer = require("puppeteer-core");
const { staticServer } = require("./site-server.cjs");

const [dist, batch, ...rateArgs] = process.argv.slice(2);
const rates = rateArgs.length > 0 ? rateArgs.map(Number) : [1, 2, 4];
const MOVES = 21;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const traceCount = () => {
  const match = /Batch \(([\d,]+) trace/.exec(document.querySelector(".tabs")?.textContent ?? "");
  return match ? Number(match[1].replaceAll(",", "")) : -1;
};

// In the page: `moves` moves of a slider, each right after a painted frame; per move,
// the time to the next painted frame (requestAnimationFrame, then a task: after the
// frame's style, layout and paint), to the end of the page's own work (the input
// handler and the microtasks it queues), and the frame's rendering (from its
// requestAnimationFrame to that task). Work plus rendering is the main thread's time
// per update: while a slider is dragged, input comes once a frame, so that sum has to
// fit in a frame for the page to keep up.
async function moveSlider(selector, low, high, moves) {
  const painted = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  // Resolves with the rendering time of the next frame.
  const rendered = () =>
    new Promise((done) =>
      requestAnimationFrame(() => {
        const start = performance.now();
        setTimeout(() => done(performance.now() - start), 0);
      }),
    );
  const floor = [];
  const frame = [];
  const work = [];
  const rendering = [];
  for (let i = 0; i < 5; i++) await painted();
  for (let i = 0; i < moves; i++) {
    await painted();
    const t = performance.now();
    await painted();
    floor.push(performance.now() - t);
  }
  for (let i = 0; i < moves; i++) {
    await painted();
    const slider = document.querySelector(selector);
    slider.value = i % 2 === 0 ? low : high;
    const t = performance.now();
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    for (let k = 0; k < 20; k++) await Promise.resolve();
    work.push(performance.now() - t);
    rendering.push(await rendered());
    frame.push(performance.now() - t);
  }
  return { floor, frame, work, rendering };
}

(async () => {
  const { server, origin } = await staticServer(path.resolve(dist));
  const browser = await puppeteer.launch({
    browser: "chrome",
    executablePath: process.env.RAGTRACE_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--no-first-run", "--window-size=1400,1000"],
    defaultViewport: { width: 1400, height: 1000 },
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page.waitForFunction(() => document.querySelector("#knob-maxL2Distance") !== null, { timeout: 60000 });
    const before = await page.evaluate(traceCount);
    // The load: from the file input's change event (capture, before the page's own
    // handler) to the first frame painted with the batch's traces in it.
    await page.evaluate(() => {
      document.querySelector("#file-input").addEventListener("change", () => (window.benchPickedAt = performance.now()), { capture: true });
    });
    const input = await page.$("#file-input");
    await input.uploadFile(path.resolve(batch));
    await page.waitForFunction(
      (n) => {
        const match = /Batch \(([\d,]+) trace/.exec(document.querySelector(".tabs")?.textContent ?? "");
        const done = match !== null && Number(match[1].replaceAll(",", "")) !== n && document.querySelector("#load-bar") === null;
        if (done && window.benchLoaded === undefined) window.benchLoaded = performance.now() - window.benchPickedAt;
        return done;
      },
      { timeout: 300000, polling: "raf" },
      before,
    );
    const traces = await page.evaluate(traceCount);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    console.log(`bench: the site at 1400 x 1000 with ${traces} traces (${(fs.statSync(batch).size / 1e6).toFixed(1)} MB picked)`);
    const cdp = await page.createCDPSession();
    for (const rate of rates) {
      await cdp.send("Emulation.setCPUThrottlingRate", { rate });
      for (const [name, low, high] of [["maxL2Distance", "0.8", "1.1"], ["preciseThreshold", "0.8", "0.9"]]) {
        const profiled = process.env.RAGTRACE_CPU_PROFILE && rate === 1 && name === "maxL2Distance";
        if (profiled) {
          await cdp.send("Profiler.enable");
          await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
          await cdp.send("Profiler.start");
        }
        const r = await page.evaluate(moveSlider, `#knob-${name}`, low, high, MOVES);
        if (profiled) {
          const { profile } = await cdp.send("Profiler.stop");
          fs.writeFileSync(process.env.RAGTRACE_CPU_PROFILE, JSON.stringify(profile));
        }
        const floor = median(r.floor);
        console.log(
          `bench: ${rate === 1 ? "CPU at full speed" : `CPU throttled ${rate}x`}: ${name} input -> next painted frame median ${median(r.frame).toFixed(1)} ms ` +
            `= ${(median(r.frame) / floor).toFixed(2)}x the floor (${floor.toFixed(1)} ms; min ${Math.min(...r.frame).toFixed(1)}, ` +
            `max ${Math.max(...r.frame).toFixed(1)}, n=${MOVES}); the page's own work median ${median(r.work).toFixed(1)} ms, ` +
            `the frame's rendering ${median(r.rendering).toFixed(1)} ms; work + rendering ${median(r.work.map((w, i) => w + r.rendering[i])).toFixed(1)} ms ` +
            `= ${(median(r.work.map((w, i) => w + r.rendering[i])) / floor).toFixed(2)}x the frame`,
        );
      }
    }
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    // Last, so that the knob moves above do not run among its garbage.
    // The baseline the load goal is stated against: JSON.parse alone on the same lines, same page.
    // (The page clears its file input once read, so the text is handed over again.)
    const { loaded, parse } = await page.evaluate(async (text) => {
      const lines = text.split("\n").filter((line) => line.trim() !== "");
      const start = performance.now();
      let kept = 0;
      for (const line of lines) kept += JSON.parse(line) === null ? 0 : 1;
      return { loaded: window.benchLoaded, parse: performance.now() - start, kept };
    }, fs.readFileSync(batch, "utf8"));
    console.log(
      `bench: file picked -> analysis painted ${loaded.toFixed(0)} ms = ${(loaded / parse).toFixed(2)}x JSON.parse of the same lines in the page (${parse.toFixed(0)} ms)`,
    );
  } finally {
    await browser.close();
    server.close();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
