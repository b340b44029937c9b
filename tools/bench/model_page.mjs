#!/usr/bin/env node
// Page-level whole-model benchmark: the rule book view in headless Chromium
// on a full-size Qwen3.5-0.8B-shaped synthetic BF16 checkpoint (make_checkpoint --whole 0.8b, made
// once into build-bench/model-page/ and reused), served Hub-like on loopback by tools/hub_server.mjs
// (302 to a second origin, Range, CORS, ETag). A measurement, not a test: prints a table, the
// median and, in brackets, the fastest and slowest of --runs runs.
//
// Each run is a fresh browser profile (an empty cache on disk, as a first visit has), two visits:
//   cold  the link with ids=1..6; the download's tap (model-go) as soon as it shows;
//   warm  the same link reloaded: the weights come from the worker's IndexedDB cache.
// In each visit, once the first next-token distribution shows, the link is changed by hand as a
// student would: off=23:275 (the switch-off rerun), ids=1..32, then ids=7..12 (6 tokens, the
// module warmed up). Figures:
//   - bytes the model's host sent (both origins, every file) against the language model's bytes
//     (every tensor but model.visual.* and mtp.*, from the shards' headers);
//   - ms from navigation to the first distribution in the mirror (#lab-text);
//   - "forward" ms: the worker's own time for the pass (model_reply's forward_ms / switch_off_ms,
//     timed around model_forward in the wasm worker); "answer" ms: from the link's change to the
//     mirror showing the new numbers (adds what a unit writes toward for new units, the messages, a
//     frame), and between them the worker's whole answer (its model_worker_ask call, wrapped);
//   - the model worker's wasm memory at the end of the visit (memory never shrinks: its peak);
//   - the main thread's longest hold while the model is read, converted or run (from the first
//     frame on: the page's start is first_frame.mjs's business): the longest 'longtask' entry,
//     and the longest gap between animation frames (headless Chromium draws WebGL with
//     SwiftShader on the same 2 cores, so gaps include drawing and the worker's competition).
//
//   node tools/bench/model_page.mjs [--site build-wasm/site] [--native build-native] [--runs 3]
//                                   [--cache build-bench/model-page] [--off 23:275] [--trace DIR]
//                                   [--compositing software|gpu] [--latency MS] [--isolate]
// --latency MS: the model's host answers each request MS after it came (hub_server's latencyMs, on
// both origins: the hub's 302 and the cdn's bytes each pay it, as from a Hub far away).
// --isolate: the page served with COOP and COEP (as tools/serve.sh does): the model worker runs its
// threaded module, the pass on every core; without it, one thread (as on a host without them).
// --trace DIR records a Chromium trace of each visit of the first run into DIR and prints what
// filled the main thread's tasks over 50 ms (long_tasks.mjs).
// --compositing: software (the tests' flags: --disable-gpu; the compositor reads the WebGL canvas
// back every frame, and the main thread waits for it) or gpu (the compositor on the GPU process,
// SwiftShader here, as a laptop with a GPU composites).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { createHubServers } from "../hub_server.mjs";
import { readSafetensorsHeader } from "../safetensors_header.mjs";
import { endTrace, gpuWaits, longTaskTotals, longTasks, startTrace } from "./long_tasks.mjs";
import { CHROMIUM_ARGS, startServer } from "../../tests/browser/browser.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const siteDir = opt("--site", "build-wasm/site");
const native = opt("--native", "build-native");
const runs = Number(opt("--runs", "3"));
const cache = path.resolve(opt("--cache", "build-bench/model-page"));
const offUnit = opt("--off", "23:275");
const traceDir = opt("--trace", "");
const compositing = opt("--compositing", "software");
const latencyMs = Number(opt("--latency", "0"));
const isolate = args.includes("--isolate");
if (!["software", "gpu"].includes(compositing)) throw new Error(`--compositing ${compositing}: software or gpu`);
const chromiumArgs = compositing === "gpu" ? CHROMIUM_ARGS.filter((a) => a !== "--disable-gpu") : CHROMIUM_ARGS;
const REPO = "swiglu-lab/qwen35-0.8b-shaped";
const TIMEOUT = 1800000;
const ids = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i).join(",");

// [SECTION] the checkpoint: made once, reused while every shard is whole
// The language model's bytes (the tensors the forward pass reads) and the decoys', or null when a
// shard is missing or shorter than its header says (a make_checkpoint that was cut short).
function checkpointBytes(dir) {
  if (!fs.existsSync(path.join(dir, "config.json"))) return null;
  const shards = fs.readdirSync(dir).filter((f) => f.endsWith(".safetensors"));
  if (!shards.length) return null;
  let lm = 0, decoys = 0, files = 0;
  for (const f of shards) {
    const { head, tensors } = readSafetensorsHeader(path.join(dir, f));
    let end = 0;
    for (const [name, t] of Object.entries(tensors)) {
      if (!t.data_offsets) continue;
      const n = t.data_offsets[1] - t.data_offsets[0];
      end = Math.max(end, t.data_offsets[1]);
      if (/^(model\.visual\.|mtp\.)/.test(name)) decoys += n; else lm += n;
    }
    if (fs.statSync(path.join(dir, f)).size !== head + end) return null;
  }
  for (const f of fs.readdirSync(dir)) files += fs.statSync(path.join(dir, f)).size;
  return { lm, decoys, files };
}

function ensureCheckpoint() {
  const dir = path.join(cache, REPO);
  let b = checkpointBytes(dir);
  if (!b) {
    console.log(`making the full-size Qwen3.5-0.8B-shaped checkpoint in ${dir} (1.5 GB, once)...`);
    fs.rmSync(dir, { recursive: true, force: true });
    execFileSync(path.join(native, "make_checkpoint"), ["--whole", "0.8b", "--out", dir], { stdio: "inherit" });
    b = checkpointBytes(dir);
    if (!b) throw new Error("make_checkpoint wrote no whole checkpoint to " + dir);
  }
  return b;
}

// [SECTION] the page's side: what the init script records
// Every animation frame's gap, every long task, when the mirror first shows a distribution, and
// each message to and from the model worker (the page's own Worker, wrapped before it starts).
const WATCH = () => {
  const b = (window.labBench = { gaps: [], longtasks: [], first: 0, asks: [], answers: [] });
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) b.longtasks.push({ t: e.startTime, ms: e.duration }); })
      .observe({ type: "longtask", buffered: true });
  } catch (e) { b.noLongtask = String(e); }
  let last = 0;
  const tick = (t) => {
    if (last) b.gaps.push({ t: last, ms: t - last });
    last = t;
    if (!b.first && /The next token after [^\n]*\n(?:Bars[^\n]*\n)?[^\n]*P: [0-9]/.test((document.getElementById("lab-text") || {}).textContent || ""))
      b.first = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener("message", (ev) => {
        if (ev.data && ev.data.type === "answer" && typeof ev.data.json === "string") {
          let r;
          try { r = JSON.parse(ev.data.json); } catch { return; }
          if (!Array.isArray(r.prompt) || !Array.isArray(r.top)) return;
          b.answers.push({ t: performance.now(), id: r.id, T: r.prompt.length, forward: r.forward_ms, off: r.switch_off_ms, top: r.top.length });
        }
      });
    }
    postMessage(m, ...rest) {
      if (m && m.type === "ask") b.asks.push({ t: performance.now(), id: JSON.parse(m.json).id });
      return super.postMessage(m, ...rest);
    }
  };
};

// (A change's answer takes seconds: ten minutes without it is a page that will not show it.)
const mirrorHas = (page, re, timeout = 600000) =>
  page.waitForFunction((src) => new RegExp(src).test(document.getElementById("lab-text").textContent || ""), re.source, { timeout, polling: 50 })
    .catch(async (e) => { throw new Error(`${e.message}\nthe mirror never showed ${re}; it says:\n${await page.locator("#lab-text").textContent()}`); });

// Changes the link as a student would (ids= to `ids`, off= to `off` or none) and waits for the
// mirror to show `re`; the answer's worker figures and the ms from the change to the mirror.
async function change(page, ids, off, re) {
  const t0 = await page.evaluate(([ids, off]) => {
    window.labBench.mark = window.labBench.answers.length;
    const t = performance.now();
    location.hash = location.hash.replace(/&off=[^&]*/, "").replace(/ids=[0-9,]*/, "ids=" + ids) + (off ? "&off=" + off : "");
    return t;
  }, [ids, off]);
  await mirrorHas(page, re);
  const b = await page.evaluate(() => ({ now: performance.now(), answers: window.labBench.answers.slice(window.labBench.mark),
                                          asks: window.labBench.asks }));
  // The first answer to the last question asked: the next tokens shown (a second one, with what
  // the units write toward, may follow under the same id; the pass is timed in the first).
  const last = b.answers.filter((x) => x.top > 0).pop() || {};
  const a = b.answers.find((x) => x.top > 0 && x.id === last.id) || last;
  const ask = b.asks.find((x) => x.id === a.id) || {};
  // The page's answer split: the link's change to the question, the worker's round trip, to the mirror.
  // Answers to earlier questions that came meanwhile (the worker answers one question at a time) are counted.
  const split = `${((ask.t || t0) - t0).toFixed(0)} + ${((a.t || 0) - (ask.t || 0)).toFixed(0)} + ${(b.now - (a.t || b.now)).toFixed(0)}` +
                (b.answers.length > 1 ? ` (${b.answers.length} answers)` : "");
  const inWorker = await lastWorkerAnswerMs(page);
  return { answer: b.now - t0, forward: a.forward || 0, off: a.off || 0, T: a.T || 0, inWorker, split: split + ` [worker's answer ${inWorker.toFixed(0)}]` };
}

// The model worker's own time per answer (its model_worker_ask call: the forward passes and all
// the reply needs), so a page's wait splits into the worker's answer and the worker being busy.
async function timeWorkerAnswers(page) {
  for (const w of page.workers())
    await w.evaluate(() => {
      if (typeof M === "undefined" || !M || self.labAskMs) return;
      const ask = M._model_worker_ask;
      self.labAskMs = [];
      // Per question: a quick answer that left the units' lists out and the whole one after it count as one.
      let open = false;
      M._model_worker_ask = (p, quick) => {
        const t = performance.now();
        const out = ask(p, quick);
        const ms = performance.now() - t;
        if (open && !quick) self.labAskMs[self.labAskMs.length - 1] += ms;
        else self.labAskMs.push(ms);
        open = !!quick && M.UTF8ToString(out).includes('"toward_pending":true');
        return out;
      };
    }).catch(() => {});
}
const lastWorkerAnswerMs = async (page) => {
  for (const w of page.workers()) {
    const v = await w.evaluate(() => (self.labAskMs && self.labAskMs.length ? self.labAskMs[self.labAskMs.length - 1] : -1)).catch(() => -1);
    if (v >= 0) return v;
  }
  return 0;
};

async function heapOfWorker(page) {
  for (const w of page.workers()) {
    const h = await w.evaluate(() => (typeof M !== "undefined" && M && M.HEAP8 ? M.HEAP8.length : 0)).catch(() => 0);
    if (h) return h;
  }
  return 0;
}

// Waits for the first distribution, saying on stderr what the mirror's last line says as it
// changes (a load takes minutes). A warm visit that asks for the download again is reported.
async function waitForFirst(page, cold) {
  const end = Date.now() + TIMEOUT;
  let said = "", saidAt = Date.now();  // the last line said, its numbers left out (a download's MiB move every look)
  while (!(await page.evaluate(() => window.labBench && window.labBench.first))) {
    if (Date.now() > end) throw new Error("no distribution; the mirror says:\n" + await page.locator("#lab-text").textContent());
    const text = await page.locator("#lab-text").textContent();
    const line = text.trim().split("\n").pop();
    if (line.replace(/[0-9.,]+/g, "#") !== said || Date.now() - saidAt > 30000) {  // (a download's MiB every 30 s)
      said = line.replace(/[0-9.,]+/g, "#");
      saidAt = Date.now();
      process.stderr.write(`  ${cold ? "cold" : "warm"}: ${line}\n`);
    }
    if (!cold && await page.evaluate(() => window.labItemRect && window.labItemRect("model-go")))
      throw new Error("the warm visit asks for the download again; the mirror says:\n" + text);
    await page.waitForTimeout(5000);  // a look every 5 s at a load of a minute or more
  }
}

// One visit: the link until its first distribution, then the three changes.
async function visit(page, url, hubLog, cold) {
  const from = hubLog.length;
  if (cold) await page.goto(url);
  else {  // the same link reloaded, not the one the cold visit's changes left in the address bar
    await page.evaluate((h) => history.replaceState(null, "", h), new URL(url).hash);
    await page.reload();
  }
  let tap = 0;
  if (cold) {  // the download over 50 MB waits for a tap naming its size
    await page.waitForFunction(() => window.labItemRect && window.labItemRect("model-go"), null, { timeout: 120000, polling: 50 });
    const r = await page.evaluate(() => window.labItemRect("model-go"));
    tap = await page.evaluate(() => performance.now());
    await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
  }
  await waitForFirst(page, cold);
  const first = await page.evaluate(() => ({ first: window.labBench.first, ff: window.labFirstFrameMs || 0,
                                             a: window.labBench.answers.filter((x) => x.top > 0)[0] || {} }));
  const bytesFirst = hubLog.slice(from).reduce((s, e) => s + e.bytes, 0);
  const requests = hubLog.slice(from).filter((e) => e.origin === "cdn").length;
  const weightsFirst = hubLog.slice(from).filter((e) => /\.safetensors$/.test(e.path)).reduce((s, e) => s + e.bytes, 0);
  await timeWorkerAnswers(page);
  const loaded = await page.evaluate(() => performance.now());
  const off = await change(page, ids(1, 6), offUnit, /P: [0-9.]+ % → [0-9.]+ %/);
  const t32 = await change(page, ids(1, 32), "", /The next token after id 32: \n[^\n]*\nid \d+[^\n]*P: /);
  const t6 = await change(page, ids(7, 12), "", /The next token after id 12: \n[^\n]*\nid \d+[^\n]*P: /);
  const b = await page.evaluate(() => ({ gaps: window.labBench.gaps, longtasks: window.labBench.longtasks, noLongtask: window.labBench.noLongtask }));
  const heap = await heapOfWorker(page);
  const ownFrame = await page.evaluate(() => Module._lab_bench_max_app_frame_ms(0));
  // Holds from the first frame on: loading (to the first distribution) and running (the changes).
  const start = first.ff || 0;
  const maxIn = (v, a, z) => v.filter((x) => x.t >= a && x.t < z).reduce((m, x) => Math.max(m, x.ms), 0);
  return {
    first: first.first, tap, firstForward: first.a.forward || 0, bytes: bytesFirst, weights: weightsFirst, requests,
    off, t32, t6, heap, ownFrame,
    taskLoad: maxIn(b.longtasks, start, first.first), gapLoad: maxIn(b.gaps, start, first.first),
    taskRun: maxIn(b.longtasks, loaded, Infinity), gapRun: maxIn(b.gaps, loaded, Infinity), noLongtask: b.noLongtask,
    // Where the long tasks fall (s from navigation: ms), for the log.
    tasks: b.longtasks.filter((x) => x.t >= start && x.ms > 50).map((x) => `${(x.t / 1000).toFixed(1)}: ${x.ms.toFixed(0)}`).join(", "),
  };
}

// What filled the main thread's tasks over 50 ms in one visit's trace.
function printTrace(kind, events) {
  const tasks = longTasks(events, 50);
  const ms = (x) => x.toFixed(1);
  process.stderr.write(`trace of the ${kind} visit: ${tasks.length} main-thread tasks over 50 ms\n`);
  for (const t of tasks.slice().sort((a, b) => b.ms - a.ms).slice(0, 12))
    process.stderr.write(`  at ${t.at.toFixed(1)} s, ${ms(t.ms)} ms: ${t.parts.filter((p) => p[1] >= 1).slice(0, 6).map((p) => `${p[0]} ${ms(p[1])}`).join("; ")}\n`);
  process.stderr.write(`  all of them, by what ran: ${longTaskTotals(tasks).slice(0, 12).map((p) => `${p[0]} ${ms(p[1])}`).join("; ")}\n`);
  process.stderr.write(`  the main thread's waits for the GPU process, by the call that waited (ms in all, how many, the longest):\n`);
  for (const w of gpuWaits(events).slice(0, 6)) process.stderr.write(`    ${w.call}: ${ms(w.ms)} ms, ${w.count}, ${ms(w.longest)} ms\n`);
}

// [SECTION] main
if (traceDir) fs.mkdirSync(traceDir, { recursive: true });
const bytes = ensureCheckpoint();
const hubLog = [];
const hub = createHubServers(cache, { log: hubLog, latencyMs });
await new Promise((r) => hub.listen(0, "127.0.0.1", r));
const site = await startServer(siteDir, { isolate });
const url = site.base + `#v=1&view=rules&lang=en&model=http://127.0.0.1:${hub.hub.address().port}/${REPO}/resolve/main/&ids=${ids(1, 6)}`;
const rows = { cold: [], warm: [] };
const loads = [];
try {
  for (let i = 0; i < runs; i++) {
    const profile = fs.mkdtempSync(path.join(cache, "profile-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: chromiumArgs, viewport: { width: 1280, height: 800 },
    });
    try {
      await context.addInitScript(WATCH);
      const page = context.pages()[0] || await context.newPage();
      // The page's and its workers' errors, as they come (a load that stops says why).
      const said = (where) => (m) => { if (m.type() === "error") process.stderr.write(`  ${where}: ${m.text()}\n`); };
      page.on("console", said("page"));
      page.on("pageerror", (e) => process.stderr.write(`  page error: ${e}\n`));
      page.on("worker", (w) => w.on("console", said("worker")));
      for (const kind of ["cold", "warm"]) {
        const cdp = traceDir && i === 0 ? await startTrace(context, page) : null;
        const r = await visit(page, url, hubLog, kind === "cold");
        if (cdp) printTrace(kind, await endTrace(cdp, path.join(traceDir, `trace-${kind}.json`)));
        rows[kind].push(r);
        process.stderr.write(`run ${i + 1} ${kind}: first distribution ${(r.first / 1000).toFixed(1)} s, ${(r.bytes / 1e6).toFixed(1)} MB, ` +
                             `forward 6 ${r.t6.forward.toFixed(0)} ms, 32 ${r.t32.forward.toFixed(0)} ms, off ${r.off.off.toFixed(0)} ms, heap ${(r.heap / 1048576).toFixed(0)} MiB; ` +
                             `answers (to the question + worker + to the mirror, ms): off ${r.off.split}, 32 ${r.t32.split}, 6 ${r.t6.split}\n` +
                             `  tasks over 50 ms after the first frame (s: ms): ${r.tasks || "none"}; tap at ${(r.tap / 1000).toFixed(1)} s, first distribution at ${(r.first / 1000).toFixed(1)} s\n`);
      }
      loads.push(os.loadavg()[0]);
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }
} finally {
  hub.close();
  await site.close();
}

// [SECTION] the table
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const cell = (v, digits = 0, unit = "") => {
  const fix = (x) => x.toFixed(digits);
  return v.length > 1 ? `${fix(median(v))} (${fix(Math.min(...v))}–${fix(Math.max(...v))})${unit}` : `${fix(v[0])}${unit}`;
};
const all = [...rows.cold, ...rows.warm];
const MiB = 1048576;
console.log(`\nThe rule book on a full-size Qwen3.5-0.8B-shaped BF16 checkpoint, served Hub-like on loopback` +
            (latencyMs > 0 ? `, each answer after ${latencyMs} ms` : "") + `; median (fastest–slowest) of ${runs}`);
console.log(`language model ${(bytes.lm / 1e6).toFixed(1)} MB (of ${(bytes.files / 1e6).toFixed(1)} MB in the repository; ${(bytes.decoys / 1e6).toFixed(1)} MB of model.visual.*/mtp.* never read)`);
console.log(`load average while measured: ${loads.map((l) => l.toFixed(1)).join(", ")}; ${compositing} compositing\n`);
console.log("| measured | aim | cold | warm |");
console.log("| --- | --- | --- | --- |");
const row = (what, aim, f, digits, unit) => console.log(`| ${what} | ${aim} | ${cell(rows.cold.map(f), digits, unit)} | ${cell(rows.warm.map(f), digits, unit)} |`);
row("bytes fetched from the model's host", "", (r) => r.bytes / 1e6, 1, " MB");
row("… against the language model's bytes", "≤ 1.05×", (r) => r.bytes / bytes.lm, 3, "×");
row("… of them from the shards (.safetensors)", "warm: 0", (r) => r.weights / 1e6, 1, " MB");
row("requests for the model's bytes (at the host)", "", (r) => r.requests, 0, "");
row("first next-token distribution, from navigation", "", (r) => r.first / 1000, 1, " s");
row("… of it, the first forward pass (6 tokens, worker)", "", (r) => r.firstForward, 0, " ms");
row("forward pass, 6 tokens, warm (worker)", "≤ 1000 ms", (r) => r.t6.forward, 0, " ms");
row("… the worker's whole answer (the pass, what new units write toward)", "", (r) => r.t6.inWorker, 0, " ms");
row("… the answer on the page (link change → mirror)", "", (r) => r.t6.answer, 0, " ms");
row("forward pass, 32 tokens (worker)", "", (r) => r.t32.forward, 0, " ms");
row("… the worker's whole answer", "", (r) => r.t32.inWorker, 0, " ms");
row("… the answer on the page", "", (r) => r.t32.answer, 0, " ms");
row(`switch-off rerun, off=${offUnit} (worker)`, "≤ 300 ms", (r) => r.off.off, 0, " ms");
row("… the worker's whole answer", "", (r) => r.off.inWorker, 0, " ms");
row("… the answer on the page", "", (r) => r.off.answer, 0, " ms");
row("model worker's wasm memory (peak)", "≤ 1.2 GB", (r) => r.heap / MiB, 0, " MiB");
row("main thread: longest task while loading", "≤ 50 ms", (r) => r.taskLoad, 0, " ms");
row("main thread: longest frame gap while loading", "", (r) => r.gapLoad, 0, " ms");
row("main thread: longest task while running", "≤ 50 ms", (r) => r.taskRun, 0, " ms");
row("main thread: longest frame gap while running", "", (r) => r.gapRun, 0, " ms");
row("the page's own work in one frame (longest but the first)", "", (r) => r.ownFrame, 0, " ms");
if (all.some((r) => r.noLongtask)) console.log("(no 'longtask' entries in this Chromium: " + all.find((r) => r.noLongtask).noLongtask + ")");
// 8B: Llama-3-8B's 8.03e9 parameters in BF16 (the page keeps the checkpoint's BF16), plus this
// model's measured memory beyond its weights (activations, cache records, the module).
const weights08 = 752393024 * 2;
const over = median(all.map((r) => r.heap)) - weights08;
console.log(`\nAn 8B model (Llama-3-8B, 8.03e9 parameters): ${(8.03e9 * 2 / 2 ** 30).toFixed(1)} GiB of BF16 weights alone ` +
            `(+ about ${(over / MiB).toFixed(0)} MiB beyond the weights, as measured here): beyond wasm32's 4 GiB and the worker's 2 GiB maximum.`);
