// The site audit: serves a built site from a local server, drives it in a
// headless browser as a user would (hostile traces pasted, knobs dragged and
// keyed, every tab opened, every download clicked) and checks that
//  - every request goes to the site's own origin (recorded by the browser
//    through its DevTools / WebDriver BiDi protocol, and by both local servers),
//  - no script runs from trace text (the payloads would set a global or request
//    a sentinel server on another port),
//  - there is no Content-Security-Policy violation and no console error,
//  - tabs, the trace list and the sliders work from the keyboard, and every
//    control is reached by Tab,
//  - axe-core finds nothing serious or critical on any tab.
// axe-core is evaluated in the page by this script only; the site never ships it.
//
// Usage: node audit.cjs --dist DIR [--browsers chrome,firefox] [--label NAME] [--out FILE]
// Run by scripts/audit-site.sh, which puts puppeteer-core and axe-core on NODE_PATH.
"use strict";

const fs = require("node:fs");
const http = require("node:http");
const os = require("node:os");
const path = require("node:path");
const puppeteer = require("puppeteer-core");
const { listen, staticServer } = require("./site-server.cjs");

const axeSource = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

function parseArgs(argv) {
  const args = { dist: "dist", browsers: ["chrome", "firefox"], label: "site", out: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [key, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${key} needs a value`);
    if (key === "--dist") args.dist = value;
    else if (key === "--browsers") args.browsers = value.split(",").filter(Boolean);
    else if (key === "--label") args.label = value;
    else if (key === "--out") args.out = value;
    else throw new Error(`unknown option ${key}`);
  }
  return args;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The element each tab shows once its content (maybe a split-off module) is there.
const TAB_CONTENT = { "tab-golden": "#golden-input", "tab-compare": "#compare-sample" };

async function openTab(page, tab) {
  await clickSelector(page, `#${tab}`);
  const content = TAB_CONTENT[tab];
  if (content) await until(page, `the content of #${tab}`, (selector) => document.querySelector(selector) !== null, content);
}

// A module of the site split off the one the page starts with (scripts/split-site.sh).
const isLazyModule = (url) => url.endsWith(".wasm") && !url.endsWith("/ragtrace-web_bg.wasm");

// The sentinel: a server on another origin that the hostile payloads point at.
// Any request it receives is a leak.
function sentinelServer() {
  const log = [];
  const server = http.createServer((req, res) => {
    log.push({ method: req.method, path: req.url });
    res.writeHead(204, { "access-control-allow-origin": "*" });
    res.end();
  });
  return listen(server, log);
}


// Where a request went: the page's own origin, a blob of it, inline data, or elsewhere.
function classify(url, siteOrigin) {
  if (url.startsWith("data:")) return "data";
  const target = url.startsWith("blob:") ? url.slice(5) : url;
  let origin;
  try {
    origin = new URL(target).origin;
  } catch {
    return "other";
  }
  if (origin !== siteOrigin) return "other";
  return url.startsWith("blob:") ? "blob" : "same-origin";
}

// Puppeteer's default of 30 s for a browser to start was seen running out on a
// 2-core machine under a heavy build.
const LAUNCH_TIMEOUT_MS = 120000;

async function launch(browser, downloadDir) {
  if (browser === "chrome") {
    return puppeteer.launch({
      browser: "chrome",
      timeout: LAUNCH_TIMEOUT_MS,
      executablePath: process.env.RAGTRACE_CHROMIUM || "/usr/bin/chromium",
      headless: true,
      // Root in a container has no user namespaces for Chromium's sandbox.
      args: ["--no-sandbox", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps", "--window-size=1400,1000"],
      defaultViewport: { width: 1400, height: 1000 },
    });
  }
  if (browser === "firefox") {
    return puppeteer.launch({
      browser: "firefox",
      timeout: LAUNCH_TIMEOUT_MS,
      executablePath: process.env.RAGTRACE_FIREFOX || "/usr/bin/firefox",
      headless: true,
      defaultViewport: { width: 1400, height: 1000 },
      extraPrefsFirefox: {
        "browser.download.folderList": 2,
        "browser.download.dir": downloadDir,
        "browser.download.useDownloadDir": true,
        "browser.download.always_ask_before_handling_new_types": false,
        "browser.helperApps.neverAsk.saveToDisk": "application/json,text/csv,text/markdown,text/plain",
      },
    });
  }
  throw new Error(`unknown browser ${browser}: chrome or firefox`);
}

// Polls a predicate evaluated in the page (no eval in the page: the CSP forbids it).
async function until(page, what, predicate, ...args) {
  const deadline = Date.now() + 60000;
  for (;;) {
    if (await page.evaluate(predicate, ...args)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const textOf = (page, selector) =>
  page.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector);

async function clickSelector(page, selector) {
  const handle = await page.$(selector);
  if (!handle) throw new Error(`no element matches ${selector}`);
  await handle.evaluate((el) => el.scrollIntoView({ block: "center" }));
  await handle.click();
  await handle.dispose();
}

// Puts text into a field as a paste does: one editing insertion, one input event
// (what puppeteer's sendCharacter does in Firefox, for any length).
async function insertText(page, selector, text) {
  await page.focus(selector);
  await page.evaluate((t) => document.execCommand("insertText", false, t), text);
}

// What the page must show for a step to count as done.
const waitAnalysed = (page) =>
  until(page, "an analysis", () => /Batch \(\d+ traces?\)/.test(document.querySelector(".tabs")?.textContent ?? ""));

class Audit {
  constructor(browserName, site, sentinel, downloadDir) {
    this.browserName = browserName;
    this.site = site;
    this.sentinel = sentinel;
    this.downloadDir = downloadDir;
    this.requests = [];
    this.consoleErrors = [];
    this.failures = [];
    this.keyboard = {};
    this.axe = {};
    this.downloads = 0;
  }

  fail(message) {
    this.failures.push(message);
  }

  check(ok, message) {
    if (!ok) this.fail(message);
    return ok;
  }

  async watch(page) {
    page.on("request", (request) => this.requests.push(request.url()));
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      const url = message.location()?.url ?? "";
      if (url.endsWith("/favicon.ico")) this.faviconErrors = (this.faviconErrors ?? 0) + 1;
      else this.consoleErrors.push(`${message.text()}${url ? ` (${url})` : ""}`);
    });
    page.on("pageerror", (error) => this.consoleErrors.push(`page error: ${error.message || error}`));
    // Listened for before any of the page's own scripts run.
    await page.evaluateOnNewDocument(() => {
      window.__cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) => {
        window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
      });
    });
  }

  async run(page) {
    const start = `${this.site.origin}/`;
    await page.goto(start, { waitUntil: "load" });
    await waitAnalysed(page);
    // The parts a visitor may never use are separate modules (web/src/lazy/):
    // none of them is fetched for the first paint.
    this.lazyAtStart = this.requests.filter(isLazyModule).map((url) => new URL(url).pathname);
    this.check(this.lazyAtStart.length === 0, `lazily loaded modules fetched at start: ${this.lazyAtStart.join(", ")}`);
    this.declaresIcon = await page.evaluate(() => document.querySelector('link[rel~="icon"]') !== null);

    const steps = [
      this.keyboardLongList, this.pasteHostileTraces, this.keyboardTabs, this.keyboardTraceList,
      this.openTraces, this.keyboardSliders, this.dragKnobs, this.otherKnobs, this.batchFloors, this.loadSpanFile, this.golden,
      this.compare, this.samples, this.downloadEverything, this.tabOrder, this.loadFile,
    ];
    for (const step of steps) await step.call(this, page);
    await this.scriptsFromTraceText(page, "after the scenario");
    await this.collectCsp(page);

    // A link whose hash holds markup: decoded, never run.
    const hostileHash = "#view=%3Cimg%20src%3Dx%20onerror%3D%22window.__ragtracePwned%3D'hash'%22%3E&trace=%3Cscript%3Ewindow.__ragtracePwned%3D1%3C%2Fscript%3E&maxL2Distance=javascript:alert(1)";
    await page.goto(`${this.site.origin}/index.html${hostileHash}`, { waitUntil: "load" });
    await sleep(1500);
    await this.scriptsFromTraceText(page, "after a hostile link");
    await this.collectCsp(page);

    await this.axeEveryTab(page);
  }

  async pasteHostileTraces(page) {
    const hostile = fs
      .readFileSync(path.join(__dirname, "hostile-traces.json"), "utf8")
      .replaceAll("SENTINEL", this.sentinel.origin);
    await insertText(page, "#trace-input", hostile);
    await until(page, "the hostile batch", () => /Batch \(3 traces\)/.test(document.querySelector(".tabs")?.textContent ?? ""));
    await this.scriptsFromTraceText(page, "after pasting");
  }

  // A file picked in the file input, as the site reads it (in slices, web/src/state/loading.rs):
  // its traces join the batch.
  async loadFile(page) {
    const traceCount = () =>
      page.evaluate(() => {
        const match = /Batch \(([\d,]+) trace/.exec(document.querySelector(".tabs")?.textContent ?? "");
        return match ? Number(match[1].replaceAll(",", "")) : -1;
      });
    const before = await traceCount();
    const fixture = path.join(__dirname, "..", "..", "samples", "lookup-result.jsonl");
    const input = await page.$("#file-input");
    await input.uploadFile(fixture);
    await input.dispose();
    await until(page, "the picked file in the list",
      () => /lookup-result\.jsonl/.test(document.querySelector("#files-title")?.parentElement?.textContent ?? ""));
    await until(page, "the picked file's traces in the batch", (n) => {
      const match = /Batch \(([\d,]+) trace/.exec(document.querySelector(".tabs")?.textContent ?? "");
      return match !== null && Number(match[1].replaceAll(",", "")) === n;
    }, before + 2);
    await this.scriptsFromTraceText(page, "after loading a file");
  }

  // The Batch tab's score floors: a closed section whose chart is a split point,
  // fetched and swept once it is opened.
  async batchFloors(page) {
    await clickSelector(page, "#tab-batch");
    await clickSelector(page, "#batch-floors > summary");
    await until(page, "the batch floor sweep",
      () => (document.querySelector("#batch-floor-at")?.textContent ?? "").trim() !== "");
  }

  // A file of OpenTelemetry spans picked before anything has needed the span reader:
  // the split site reads it without that module, fetches it and reads the file again
  // (core/src/input/other_readers.rs), so its 9 retrievals join the batch, once each.
  async loadSpanFile(page) {
    const traceCount = () =>
      page.evaluate(() => {
        const match = /Batch \(([\d,]+) trace/.exec(document.querySelector(".tabs")?.textContent ?? "");
        return match ? Number(match[1].replaceAll(",", "")) : -1;
      });
    const before = await traceCount();
    const fixture = path.join(__dirname, "..", "..", "tests", "fixtures", "otel", "llamaindex-cosine.jsonl");
    const input = await page.$("#file-input");
    await input.uploadFile(fixture);
    await input.dispose();
    await until(page, "the span file's 9 retrievals in the batch", (n) => {
      const match = /Batch \(([\d,]+) trace/.exec(document.querySelector(".tabs")?.textContent ?? "");
      return match !== null && Number(match[1].replaceAll(",", "")) === n;
    }, before + 9);
    await sleep(300);
    this.check((await traceCount()) === before + 9, `the span file read once: ${await traceCount()} traces, expected ${before + 9}`);
  }

  // Tabs: a WAI-ARIA tablist, arrows and Home/End move and select (trusted key events).
  async keyboardTabs(page) {
    const state = () =>
      page.evaluate(() => ({
        focused: document.activeElement?.id ?? "",
        selected: [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].map((t) => t.id),
        tabs: [...document.querySelectorAll('[role="tablist"] [role="tab"]')].map((t) => t.id),
      }));
    const start = await state();
    if (!this.check(start.tabs.length >= 3, `tablist: ${start.tabs.length} tabs with role=tab`)) return;
    await page.focus(`#${start.tabs[0]}`);
    const steps = [
      ["ArrowRight", start.tabs[1]],
      ["ArrowLeft", start.tabs[0]],
      ["End", start.tabs[start.tabs.length - 1]],
      ["Home", start.tabs[0]],
      ["ArrowLeft", start.tabs[start.tabs.length - 1]],
      ["ArrowRight", start.tabs[0]],
    ];
    let ok = true;
    for (const [key, want] of steps) {
      await page.keyboard.press(key);
      await sleep(150);
      const now = await state();
      ok &&= this.check(
        now.focused === want && now.selected.length === 1 && now.selected[0] === want,
        `tablist: ${key} focused ${now.focused} and selected ${now.selected} (want ${want})`,
      );
    }
    this.keyboard.tabs = ok;
  }

  // The opening 500-trace sample: the focus follows the arrows past the bottom of
  // the view (the rendered window of rows moves), End and Home reach both ends.
  async keyboardLongList(page) {
    await until(page, "the trace list", () => document.querySelector(".vtable-window .trow") !== null);
    await page.focus(".vtable-viewport");
    const rows = await page.$eval(".vtable", (t) => Number(t.getAttribute("aria-rowcount")));
    for (let i = 1; i < 30; i += 1) await page.keyboard.press("ArrowDown");
    // (key, the aria-rowindex that holds the focus afterwards; 2 is the first row)
    this.keyboard.longList = await this.rowKeys(page, [["ArrowDown", 31], ["End", rows], ["Home", 2]]);
  }

  // The trace list: arrows move between rows, Enter opens the focused trace.
  async keyboardTraceList(page) {
    await clickSelector(page, "#tab-batch");
    await until(page, "the trace list", () => document.querySelector(".vtable-window .trow") !== null);
    await page.focus(".vtable-viewport");
    const moved = await this.rowKeys(page, [["ArrowDown", 2], ["ArrowDown", 3], ["End", 4], ["Home", 2], ["ArrowDown", 3]]);
    await page.keyboard.press("Enter");
    await sleep(300);
    const opened = await page.evaluate(() => document.querySelector('[role="tab"][aria-selected="true"]')?.id ?? "");
    const enter = this.check(opened === "tab-trace", `trace list: Enter opened ${opened} (want the trace tab)`);
    this.keyboard.traceList = moved && enter;
  }

  async rowKeys(page, steps) {
    let ok = true;
    for (const [key, want] of steps) {
      await page.keyboard.press(key);
      await sleep(400);
      const row = await page.evaluate(() => Number(document.activeElement?.closest(".trow")?.getAttribute("aria-rowindex") ?? 0));
      ok = this.check(row === want, `trace list: ${key} focused row ${row} (want ${want})`) && ok;
    }
    return ok;
  }

  async openTraces(page) {
    for (let row = 0; row < 3; row += 1) {
      await clickSelector(page, "#tab-batch");
      await until(page, "the rows", () => document.querySelectorAll(".vtable-window .trow button").length >= 3);
      const buttons = await page.$$(".vtable-window .trow button");
      await buttons[row].click();
      await until(page, "the trace view", () => document.querySelector("#trace-title") !== null);
      // The trace view's own buttons (previous, next), not the way back.
      await this.clickAll(page, ".trace-nav button:not(.link)", (b) => !/batch/i.test(b.textContent));
    }
    await this.scriptsFromTraceText(page, "after opening the hostile traces");
  }

  // Native range inputs: arrows step, Page Up/Down jump, Home/End reach the ends,
  // and the live region announces the new summary.
  async keyboardSliders(page) {
    await clickSelector(page, "#tab-batch");
    const slider = "#knob-maxL2Distance";
    const value = () => page.$eval(slider, (el) => Number(el.value));
    const live = () => page.evaluate(() => document.querySelector('[aria-live="polite"]#analysis-status')?.textContent ?? null);
    await page.$eval(slider, (el) => el.scrollIntoView({ block: "center" }));
    await page.focus(slider);
    const before = await value();
    const liveBefore = await live();
    await page.keyboard.press("Home");
    const min = await value();
    await page.keyboard.press("ArrowRight");
    const arrow = await value();
    await page.keyboard.press("PageUp");
    const pageUp = await value();
    await page.keyboard.press("PageDown");
    const pageDown = await value();
    await page.keyboard.press("End");
    const max = await value();
    await sleep(500);
    const liveAfter = await live();
    const ok =
      this.check(min < before && arrow > min && pageUp > arrow && pageDown < pageUp && max > pageUp,
        `slider keys: Home ${min}, ArrowRight ${arrow}, PageUp ${pageUp}, PageDown ${pageDown}, End ${max} (from ${before})`) &
      this.check(pageUp - arrow > arrow - min, `slider keys: PageUp moved ${pageUp - arrow}, no more than an arrow (${arrow - min})`) &
      this.check(liveAfter !== null && liveAfter !== liveBefore && liveAfter.length > 0,
        `live region #analysis-status: "${liveBefore}" -> "${liveAfter}"`);
    this.keyboard.sliders = Boolean(ok);
    this.keyboard.sliderValues = { before, min, arrow, pageUp, pageDown, max };
    this.keyboard.liveRegion = liveAfter;
  }

  async dragKnobs(page) {
    const sliders = await page.$$('input[type="range"]');
    this.check(sliders.length > 0, "no sliders to drag");
    for (const slider of sliders) {
      await slider.evaluate((el) => el.scrollIntoView({ block: "center" }));
      const box = await slider.boundingBox();
      if (!box) continue;
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width * 0.5, y);
      await page.mouse.down();
      for (const at of [0.2, 0.05, 0.8, 0.95, 0.4]) {
        await page.mouse.move(box.x + box.width * at, y, { steps: 4 });
      }
      await page.mouse.up();
    }
    await sleep(300);
  }

  async otherKnobs(page) {
    for (const selector of ['.stepper button[aria-label^="Increase"]', '.stepper button[aria-label^="Decrease"]', '.segment input[type="radio"]', '.switch input[type="checkbox"]']) {
      for (const handle of await page.$$(selector)) {
        await handle.evaluate((el) => el.scrollIntoView({ block: "center" }));
        await handle.click();
        await sleep(50);
      }
    }
    // An invalid value typed into an entry: the page says so, nothing breaks.
    await page.$eval("#knob-maxL2Distance-entry", (el) => el.scrollIntoView({ block: "center" }));
    await page.click("#knob-maxL2Distance-entry", { count: 3 });
    await page.keyboard.type("-1");
    await page.keyboard.press("Enter");
    await sleep(300);
    await clickSelector(page, ".knobs .panel-title-row button");
    await sleep(300);
  }

  async golden(page) {
    await openTab(page, "tab-golden");
    const cases = fs
      .readFileSync(path.join(__dirname, "hostile-cases.json"), "utf8")
      .replaceAll("SENTINEL", this.sentinel.origin);
    await insertText(page, "#golden-input", cases);
    await until(page, "the golden report", () => document.querySelector("#golden-levels") !== null);
    await until(page, "the calibration panel", () => document.querySelector("#calibration") !== null);
    await this.clickAll(page, "#golden-filter button");
    await this.scriptsFromTraceText(page, "after pasting hostile cases");
  }

  async compare(page) {
    await openTab(page, "tab-compare");
    await clickSelector(page, "#compare-sample");
    await until(page, "the comparison", () => document.querySelector("#compare-counts") !== null);
    // Every button of the tab that loads something (the samples, the split).
    await this.clickAll(page, ".compare-view button:not([id*='download'])");
    await sleep(500);
  }

  async samples(page) {
    await clickSelector(page, "#tab-batch");
    await this.clickAll(page, ".samples button");
    await waitAnalysed(page);
  }

  // Clicks each enabled element matching `selector` (and `accept`), found anew
  // before each click: a click may rebuild what it is in, and so may work the page
  // finishes after a paint (the many-run test rebuilds its table when it ends), so
  // an element detached before its click is found again.
  async clickAll(page, selector, accept = () => true) {
    const count = await page.$$eval(selector, (els) => els.length);
    for (let i = 0; i < count; i += 1) {
      for (let attempt = 1; ; attempt += 1) {
        const handle = (await page.$$(selector))[i];
        if (!handle) break;
        try {
          const button = await handle.evaluate((b) => ({ disabled: Boolean(b.disabled), textContent: b.textContent }));
          if (button.disabled || !accept(button)) break;
          await handle.evaluate((el) => el.scrollIntoView({ block: "center" }));
          await handle.click();
          break;
        } catch (error) {
          if (attempt >= 3 || !/detached/i.test(String(error))) throw error;
          await sleep(300);
        }
      }
      await sleep(150);
    }
  }

  // Every "Download ..." button on every tab, each download checked on disk.
  async downloadEverything(page) {
    const tabs = await page.$$eval('[role="tab"]', (els) => els.map((t) => t.id));
    const clicked = new Set();
    const goldenReady = async () => {
      if ((await page.$("#golden-sample")) && !(await page.$("#golden-download-json"))) {
        await clickSelector(page, "#golden-sample-with-traces");
        await until(page, "the golden report", () => document.querySelector("#golden-download-json") !== null);
      }
    };
    for (const tab of tabs) {
      if (await page.$eval(`#${tab}`, (t) => t.disabled)) continue;
      await openTab(page, tab);
      await sleep(300);
      if (tab === "tab-golden") await goldenReady();
      if (tab === "tab-compare") await this.clickAll(page, "#compare-sample, [data-compare-sample]");
      const keys = await page.$$eval("button", (els) =>
        els
          .filter((b) => /^\s*Download/.test(b.textContent) && !b.disabled && b.getClientRects().length > 0)
          .map((b) => (b.dataset.auditDownload = b.id || b.textContent.trim())),
      );
      for (const key of keys) {
        if (clicked.has(key)) continue;
        clicked.add(key);
        await clickSelector(page, `button[data-audit-download=${JSON.stringify(key)}]`);
        await sleep(300);
      }
    }
    this.downloadButtons = [...clicked];
    // Downloads land on disk (blob URLs of the page; nothing leaves the machine).
    const deadline = Date.now() + 20000;
    let files = [];
    while (Date.now() < deadline) {
      files = fs.readdirSync(this.downloadDir).filter((f) => !/\.(crdownload|part)$/.test(f));
      if (files.length >= clicked.size) break;
      await sleep(200);
    }
    this.downloads = files.length;
    this.check(clicked.size >= 4, `only ${clicked.size} download buttons found: ${[...clicked]}`);
    this.check(files.length === clicked.size, `${files.length} downloads on disk for ${clicked.size} buttons (${files})`);
  }

  // Tab from the top of the page: every enabled, visible control is reached.
  async tabOrder(page) {
    await clickSelector(page, "#tab-batch");
    await page.evaluate(() => {
      document.activeElement?.blur();
      window.scrollTo(0, 0);
    });
    // Round the whole page once: past the last control the focus leaves the
    // document (or wraps); the walk ends where it began.
    const reached = new Set();
    let first = null;
    let outside = 0;
    for (let i = 0; i < 400 && outside < 2; i += 1) {
      await page.keyboard.press("Tab");
      const key = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        if (!el.dataset.auditKey) el.dataset.auditKey = String(Math.random());
        return el.dataset.auditKey;
      });
      if (key === null) {
        outside += 1;
        continue;
      }
      if (key === first) break;
      first ??= key;
      reached.add(key);
    }
    const missed = await page.evaluate(() => {
      const controls = document.querySelectorAll("button, input, select, textarea, a[href], [tabindex]");
      return [...controls]
        .filter((el) => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0 && !el.closest("[inert]"))
        .filter((el) => !el.dataset.auditKey)
        .filter((el) => !(el.type === "radio" && [...document.getElementsByName(el.name)].some((r) => r.dataset.auditKey)))
        .filter((el) => !el.closest(".vtable-window"))
        .map((el) => el.id || `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 30)}`);
    });
    this.keyboard.tabStops = reached.size;
    this.keyboard.unreachable = missed;
    this.check(missed.length === 0, `not reached by Tab: ${missed.join("; ")}`);
  }

  async scriptsFromTraceText(page, when) {
    const found = await page.evaluate(() => {
      const problems = [];
      if (window.__ragtracePwned !== undefined) problems.push(`a payload ran: __ragtracePwned = ${window.__ragtracePwned}`);
      for (const el of document.querySelectorAll("*")) {
        for (const attr of el.attributes) {
          if (/^on/i.test(attr.name)) problems.push(`<${el.tagName.toLowerCase()} ${attr.name}> in the DOM`);
          if (/^\s*javascript:/i.test(attr.value) && /^(href|src|action|formaction|data|xlink:href)$/i.test(attr.name)) {
            problems.push(`<${el.tagName.toLowerCase()} ${attr.name}="${attr.value.slice(0, 40)}"> in the DOM`);
          }
        }
      }
      const scripts = [...document.scripts].map((s) => s.src).filter((src) => !/\/(bootstrap|ragtrace-web)\.js$/.test(src));
      if (scripts.length) problems.push(`unexpected scripts: ${scripts}`);
      for (const tag of ["iframe", "object", "embed", "img", "video", "base", "form", "meta[http-equiv=refresh]", "link[rel=stylesheet]:not([href*='style'])", "style"]) {
        if (document.querySelector(`body ${tag}`)) problems.push(`a <${tag}> element in the body`);
      }
      return problems;
    });
    for (const problem of found) this.fail(`${when}: ${problem}`);
  }

  async collectCsp(page) {
    const violations = await page.evaluate(() => window.__cspViolations ?? []);
    this.cspViolations = (this.cspViolations ?? []).concat(violations);
  }

  async axeEveryTab(page) {
    await page.goto(`${this.site.origin}/`, { waitUntil: "load" });
    await waitAnalysed(page);
    const views = [
      ["batch", async () => clickSelector(page, "#tab-batch")],
      ["trace", async () => {
        await clickSelector(page, "#tab-batch");
        await until(page, "rows", () => document.querySelector(".vtable-window .trow button") !== null);
        await clickSelector(page, ".vtable-window .trow button");
        await until(page, "the trace view", () => document.querySelector("#trace-title") !== null);
      }],
      ["golden", async () => {
        await openTab(page, "tab-golden");
        await clickSelector(page, "#golden-sample-with-traces");
        await until(page, "the golden report", () => document.querySelector("#golden-levels") !== null);
      }],
    ];
    views.push(["compare", async () => {
      await openTab(page, "tab-compare");
      await clickSelector(page, "#compare-sample");
      await until(page, "the comparison", () => document.querySelector("#compare-counts") !== null);
    }]);
    // Light, then (Chromium only: Firefox has no media emulation here) dark colours.
    const schemes = this.browserName === "chrome" ? ["light", "dark"] : ["light"];
    for (const scheme of schemes) {
      if (scheme === "dark") await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: "dark" }]);
      for (const [name, open] of views) {
        await open();
        await sleep(300);
        this.axe[scheme === "light" ? name : `${name}-dark`] = await this.axeRun(page);
        await this.collectCsp(page);
      }
    }
  }

  async axeRun(page) {
    if (!(await page.evaluate(() => typeof window.axe === "object"))) {
      // Evaluated through the protocol, as a test tool does: no <script> element is added.
      await page.evaluate(axeSource);
    }
    return page.evaluate(async () => {
      const result = await window.axe.run(document, { resultTypes: ["violations"] });
      return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.length,
        targets: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
      }));
    });
  }
}

async function auditIn(browserName, site, sentinel, label) {
  const downloadDir = fs.mkdtempSync(path.join(os.tmpdir(), `ragtrace-audit-${browserName}-`));
  const audit = new Audit(browserName, site, sentinel, downloadDir);
  const browser = await launch(browserName, downloadDir);
  try {
    const page = await browser.newPage();
    if (browserName === "chrome") {
      const cdp = await browser.target().createCDPSession();
      await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloadDir });
    }
    await audit.watch(page);
    await audit.run(page);
    // Last, since it ends the page: in the site build a panic is a wasm abort, which
    // web/bootstrap.js turns into the error banner.
    const banner = await page.evaluate(() => {
      window.dispatchEvent(new ErrorEvent("error", { error: new WebAssembly.RuntimeError("unreachable") }));
      const shown = document.querySelector(".fatal-banner[role=alert]");
      return shown ? shown.textContent : null;
    });
    audit.check(banner !== null && banner.includes("internal error"), "a wasm abort did not show the error banner");
  } catch (error) {
    audit.fail(`the scenario stopped: ${error.stack || error}`);
  } finally {
    await browser.close().catch(() => {});
  }
  fs.rmSync(downloadDir, { recursive: true, force: true });
  return report(audit, label);
}

function report(audit, label) {
  const byKind = { "same-origin": 0, blob: 0, data: 0, other: 0 };
  const others = [];
  const inline = new Set();
  const perUrl = {};
  for (const url of audit.requests) {
    const kind = classify(url, audit.site.origin);
    byKind[kind] += 1;
    if (kind === "other") others.push(url);
    if (kind === "data" || kind === "blob") inline.add(url.slice(0, 60));
    const shown = kind === "same-origin" ? new URL(url).pathname : url.slice(0, 60);
    perUrl[shown] = (perUrl[shown] ?? 0) + 1;
  }
  audit.check(others.length === 0, `requests to other origins: ${others.join(", ")}`);
  audit.check(audit.sentinel.log.length === 0, `the sentinel server was reached: ${audit.sentinel.log.map((r) => r.path).join(", ")}`);
  // The browser asks for /favicon.ico by itself when the page declares no icon;
  // tolerated (and said) only then (index.html declares an inline one).
  const tolerateFavicon = !audit.declaresIcon;
  const favicon404 = audit.site.log.filter((r) => r.status !== 200 && r.path === "/favicon.ico").length;
  if (!tolerateFavicon && audit.faviconErrors) audit.consoleErrors.push("favicon.ico failed although the page declares an icon");
  const notFound = audit.site.log.filter((r) => r.status !== 200 && !(tolerateFavicon && r.path === "/favicon.ico"));
  audit.check(notFound.length === 0, `the site server answered 404 for ${notFound.map((r) => r.path).join(", ")}`);
  audit.check((audit.cspViolations ?? []).length === 0, `CSP violations: ${(audit.cspViolations ?? []).join("; ")}`);
  audit.check(audit.consoleErrors.length === 0, `console errors: ${audit.consoleErrors.join(" | ")}`);
  const axeCounts = {};
  for (const [tab, violations] of Object.entries(audit.axe)) {
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    axeCounts[tab] = { seriousOrCritical: serious.length, other: violations.length - serious.length };
    for (const v of serious) audit.fail(`axe (${tab}): ${v.impact} ${v.id}: ${v.help} (${v.nodes} nodes: ${v.targets.join(", ")})`);
  }
  const paths = [...new Set(audit.site.log.map((r) => r.path))].sort();
  // Every split-off module was fetched by the end (each tab was opened), none at start.
  const lazyModules = fs.readdirSync(audit.site.root).filter((f) => isLazyModule(`/${f}`));
  const lazyFetched = lazyModules.filter((f) => paths.includes(`/${f}`));
  audit.check(lazyFetched.length === lazyModules.length,
    `split-off modules never fetched: ${lazyModules.filter((f) => !lazyFetched.includes(f)).join(", ")}`);
  return {
    label,
    browser: audit.browserName,
    requests: audit.requests.length,
    byKind,
    requestsPerUrl: perUrl,
    sitePathsServed: paths,
    dataAndBlobUrls: [...inline],
    sentinelHits: audit.sentinel.log.length,
    faviconTolerated: tolerateFavicon && favicon404 > 0,
    cspViolations: audit.cspViolations ?? [],
    consoleErrors: audit.consoleErrors,
    downloads: audit.downloads,
    downloadButtons: audit.downloadButtons ?? [],
    keyboard: audit.keyboard,
    axe: audit.axe,
    axeCounts,
    lazyModules: { atStart: audit.lazyAtStart ?? [], fetchedLater: lazyFetched },
    failures: audit.failures,
  };
}

function summaryLine(r) {
  const axe = Object.entries(r.axeCounts)
    .map(([tab, c]) => `${tab} ${c.seriousOrCritical}${c.other ? ` (+${c.other} minor/moderate)` : ""}`)
    .join(", ");
  const origin = r.byKind.other === 0 && r.sentinelHits === 0 ? "all same-origin" : `${r.byKind.other} to other origins`;
  return (
    `audit ${r.label} ${r.browser}: ${r.requests} requests, ${origin} ` +
    `(${r.byKind["same-origin"]} site files, ${r.byKind.blob} blob, ${r.byKind.data} data); ` +
    `${r.lazyModules.fetchedLater.length} split-off modules, fetched when first needed (${r.lazyModules.atStart.length} at start); ` +
    `${r.downloads} downloads; ${r.cspViolations.length} CSP violations; ${r.consoleErrors.length} console errors; ` +
    `axe serious/critical: ${axe || "not run"}; ` +
    `${r.faviconTolerated ? "favicon.ico 404 tolerated (no icon declared); " : ""}` +
    `${r.failures.length ? `${r.failures.length} FAILURES` : "ok"}`
  );
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const root = path.resolve(args.dist);
  if (!fs.existsSync(path.join(root, "index.html"))) throw new Error(`${root} has no index.html: build the site first`);
  const reports = [];
  for (const browserName of args.browsers) {
    const site = await staticServer(root);
    site.root = root;
    const sentinel = await sentinelServer();
    try {
      reports.push(await auditIn(browserName, site, sentinel, args.label));
    } finally {
      site.server.close();
      sentinel.server.close();
    }
  }
  if (args.out) fs.writeFileSync(args.out, JSON.stringify(reports, null, 2) + "\n");
  let failed = false;
  for (const r of reports) {
    console.log(summaryLine(r));
    for (const failure of r.failures) {
      failed = true;
      console.log(`  FAIL ${failure}`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error.stack || String(error));
  process.exitCode = 2;
});
