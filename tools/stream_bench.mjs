#!/usr/bin/env node
// Streaming benchmark: how fast the gate histograms appear from a link, cold and warm (reload),
// on loopback and through throttled links (CDP network emulation); bytes fetched; frame-time p95
// while the weights stream in; and the wasm heap after the per-token view visits every layer of
// a 24-layer pack (made here from a synthetic Qwen3.5-0.8B-shaped checkpoint, 250 MB, in
// build-bench/). A measurement, not a test: prints tables, median of N runs.
// "frame p95" is the browser's frame interval (headless Chromium draws WebGL on the CPU, so it
// includes SwiftShader's rendering); "our max" is the longest the page's own code held the main
// thread in one go: one answer's hashing, copying and gate computation, or one frame's UI work.
//
// Figures are the median and, in brackets, the fastest and slowest run (--checkpoint: every
// column). --first-only stops the
// cold visit at the first histogram (the first-load figures, without waiting minutes for all
// layers; no warm visit, since the cold one did not finish caching).
//
//   node tools/stream_bench.mjs [--site build-wasm/site] [--native build-native] [--runs 3] [--skip-heap]
//                               [--profile fast] [--first-only] [--checkpoint] [--skip-8b]
//                               [--whole] [--latency 100]
//
// --checkpoint measures model= instead: a Qwen3.5-0.8B-shaped BF16 checkpoint from
// tools/make_checkpoint served Hub-like (tools/hub_server.mjs: 302, Range, ETag, CORS), the gate
// view's first *live* histogram against the moment the first gate matrix's bytes were in (CDP's
// loadingFinished of the last request that overlaps layer 0's gate_proj), cold and warm; bytes
// fetched; the page's work per gate matrix (copy + BF16 -> q8 conversion + cache record of its
// chunks); the longest main-thread hold; the wasm heap; then the wasm heap while the gate view
// shows one Llama-3-8B-sized layer (hidden 4096, intermediate 14336; made in a temp dir, removed).
//
// --whole measures the built-in whole model (the site's models/synthetic/, 2.4 MB) cold, from the
// rule book's link to its first next-token distribution readable (the early text's or the mirror's,
// the site's precomputed one included) and to the model's own in the mirror: on loopback and on fast 3G
// (CDP network emulation, which holds the model worker's requests too) as the page serves it, and
// from a host that answers each request --latency ms after it came (hub_server's cdn origin: the
// same files, no redirect). The requests and bytes for the model's files are counted at the host;
// "weight requests" are those for the shard's bytes after its header.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHubServers } from "./hub_server.mjs";
import { readSafetensorsHeader } from "./safetensors_header.mjs";
import { startSite, startServer, NETWORK_PROFILES } from "../tests/browser/browser.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const siteDir = opt("--site", "build-wasm/site");
const native = opt("--native", "build-native");
const runs = Number(opt("--runs", "3"));
const firstOnly = args.includes("--first-only");

const PROFILES = NETWORK_PROFILES.filter((p) => p.name.includes(opt("--profile", "")));
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const spread = (v) => `${median(v).toFixed(0)} (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)}) ms`;
const p95 = (v) => [...v].sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(v.length * 0.95))];

// Watches the page: when the mirror first shows a histogram row, when every row is live, and
// the intervals between animation frames meanwhile.
const WATCH = (firstOnly) => {
  window.labBench = { t0: performance.now(), first: 0, live: 0, frames: [] };
  let last = performance.now();
  const tick = (t) => {
    window.labBench.frames.push(t - last);
    last = t;
    const text = (document.getElementById("lab-text") || {}).textContent || "";
    if (!window.labBench.first && /: \((live|precomputed)\)/.test(text)) window.labBench.first = t;
    if (!window.labBench.live && /Layer 23: \(live\)/.test(text) && !/\(precomputed\)|waiting/.test(text)) window.labBench.live = t;
    if (firstOnly && window.labBench.first) window.labBench.live = window.labBench.first;
    if (!window.labBench.live) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
};

async function load(context, url, conditions) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  if (conditions) await cdp.send("Network.emulateNetworkConditions", conditions);
  let bytes = 0, weightBytes = 0;
  const urls = new Map();
  cdp.on("Network.responseReceived", (e) => urls.set(e.requestId, e.response.url));
  cdp.on("Network.loadingFinished", (e) => {
    bytes += e.encodedDataLength;
    if ((urls.get(e.requestId) || "").endsWith(".q8")) weightBytes += e.encodedDataLength;
  });
  await page.addInitScript(WATCH, firstOnly);
  await page.goto(url);
  await page.waitForFunction(() => window.labBench && window.labBench.live, null, { timeout: 600000, polling: 100 });
  const b = await page.evaluate(() => ({ first: window.labBench.first, live: window.labBench.live, frames: window.labBench.frames,
                                          firstFrame: window.labFirstFrameMs, answer: Module._lab_bench_max_answer_ms(),
                                          app: Math.max(Module._lab_bench_max_app_frame_ms(0), Module._lab_bench_max_app_frame_ms(1)) }));
  await page.close();
  return { ...b, bytes, weightBytes };
}

// [SECTION] model=: a checkpoint read by byte ranges
// Tensor name -> [begin, end) in the file, from a safetensors header (8-byte length, JSON).
function tensorRanges(file) {
  const { head, tensors } = readSafetensorsHeader(file);
  const out = {};
  for (const [k, v] of Object.entries(tensors)) if (v.data_offsets) out[k] = [head + v.data_offsets[0], head + v.data_offsets[1]];
  return out;
}

// One visit of a model= link until `done` shows in the mirror: times in ms from navigation.
async function loadModel(context, url, conditions, done, gateRange) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  if (conditions) await cdp.send("Network.emulateNetworkConditions", conditions);
  const reqs = new Map();
  let bytes = 0, weightBytes = 0;
  cdp.on("Network.requestWillBeSent", (e) => {
    const m = /bytes=(\d+)-(\d+)/.exec(e.request.headers.Range || e.request.headers.range || "");
    const prev = reqs.get(e.requestId);  // after the hub's 302 CDP no longer lists the Range header
    reqs.set(e.requestId, { url: e.request.url, wall: e.wallTime * 1000 - e.timestamp * 1000,
                            range: m ? [Number(m[1]), Number(m[2]) + 1] : prev ? prev.range : null });
  });
  const finished = [];
  cdp.on("Network.loadingFinished", (e) => {
    const r = reqs.get(e.requestId);
    bytes += e.encodedDataLength;
    if (r && /\.safetensors$/.test(new URL(r.url).pathname) && r.range) {
      if (r.range[1] - r.range[0] > 256 * 1024) weightBytes += e.encodedDataLength;  // not a header read
      finished.push({ range: r.range, wall: r.wall + e.timestamp * 1000 });
    }
  });
  await page.addInitScript((doneText) => {
    window.labBench = { firstLive: 0, done: 0 };
    const tick = () => {
      const text = (document.getElementById("lab-text") || {}).textContent || "";
      if (!window.labBench.firstLive && /: \(live\)/.test(text)) window.labBench.firstLive = performance.timeOrigin + performance.now();
      if (text.includes(doneText)) window.labBench.done = performance.timeOrigin + performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, done);
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => window.labBench && window.labBench.done, null, { timeout: 1800000, polling: 200 });
  const b = await page.evaluate(() => ({ firstLive: window.labBench.firstLive, done: window.labBench.done, answer: Module._lab_bench_max_answer_ms(),
                                          work: Module._lab_bench_total_answer_ms() + Module._lab_bench_convert_ms(0), app: Module._lab_bench_max_app_frame_ms(0),
                                          firstApp: Module._lab_bench_max_app_frame_ms(1),
                                          convertMax: Module._lab_bench_convert_ms(1),
                                          heap: HEAP8.length, nav: performance.timeOrigin }));
  await page.close();
  // The first gate matrix's bytes are in when the last request overlapping it has finished.
  const gateIn = finished.filter((f) => gateRange && f.range[0] < gateRange[1] && f.range[1] > gateRange[0])
                         .reduce((a, f) => Math.max(a, f.wall), 0);
  return { firstLive: b.firstLive - b.nav, gateIn: gateIn ? gateIn - b.nav : 0, done: b.done - b.nav, answer: b.answer, app: b.app, firstApp: b.firstApp,
           convertMax: b.convertMax,
           work: b.work, heap: b.heap, bytes, weightBytes, wall: Date.now() - t0 };
}

async function checkpointBench(site) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bench-hub-"));
  try {
    const dir = path.join(root, "swiglu-lab", "qwen-shaped");
    execFileSync(path.join(native, "make_checkpoint"), ["--out", dir], { stdio: "ignore" });
    const ranges = tensorRanges(path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith(".safetensors"))));
    const gate0 = ranges["model.language_model.layers.0.mlp.gate_proj.weight"];
    const hub = createHubServers(root, {});
    await new Promise((r) => hub.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${hub.hub.address().port}`;
    const url = site.base + `#v=1&view=gates&model=${base}/swiglu-lab/qwen-shaped/resolve/main/`;
    console.log("model=: gate view of a Qwen3.5-0.8B-shaped BF16 checkpoint (layers 0, 11, 23) served Hub-like; median of " + runs);
    console.log("'gate in': the first gate matrix's bytes are in; 'first live': the first live histogram; 'work/gate': copy + conversion +");
    console.log("cache record per gate matrix (all answers' and frames' conversion work / 3); 'hold': the longest the page held the main\n" +
                "thread at once, in one answer (checks and copy of a chunk's bytes) / in one frame (UI, gate histograms and the\n" +
                "conversion slices of that frame; the page's first frame apart, in 'first frame': it pays once for the start);\n" +
                "'conversion in a frame': the longest of those slices together\n");
    console.log("profile | visit | gate in | first live | live - gate in | all live | work/gate | hold: answer | hold: frame | first frame | conversion in a frame | weights MB | all MB | heap MB");
    for (const profile of PROFILES) {
      const rows = { cold: [], warm: [] };
      for (let i = 0; i < runs; i++) {
        const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
        rows.cold.push(await loadModel(context, url, profile.conditions, "Layer 23: (live)", gate0));
        rows.warm.push(await loadModel(context, url, profile.conditions, "Layer 23: (live)", gate0));
        await context.close();
      }
      for (const visit of ["cold", "warm"]) {
        const r = rows[visit];
        // Every column: the median, and with several runs the fastest and slowest in brackets.
        const cell = (f, digits = 0, unit = "") => {
          const v = r.map(f), fix = (x) => x.toFixed(digits);
          return r.length > 1 ? `${fix(median(v))} (${fix(Math.min(...v))}-${fix(Math.max(...v))})${unit}` : `${fix(median(v))}${unit}`;
        };
        const cold = visit === "cold";
        console.log([profile.name, visit,
          cold ? cell((x) => x.gateIn, 0, " ms") : "-",
          cell((x) => x.firstLive, 0, " ms"),
          cold ? cell((x) => x.firstLive - x.gateIn, 0, " ms") : "-",
          cell((x) => x.done, 0, " ms"),
          cell((x) => x.work / 3, 0, " ms"),
          cell((x) => x.answer, 0, " ms"),
          cell((x) => x.app, 0, " ms"),
          cell((x) => x.firstApp, 0, " ms"),
          cell((x) => x.convertMax, 0, " ms"),
          cell((x) => x.weightBytes / 1e6, 2),
          cell((x) => x.bytes / 1e6, 2),
          cell((x) => x.heap / 1048576, 0)].join(" | "));
      }
      console.log(`(load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")})`);
    }
    hub.close();
    if (args.includes("--skip-8b")) return;
    // One Llama-3-8B-sized layer (hidden 4096, intermediate 14336): its gate matrix alone is 117 MB
    // of BF16 and 59 MB of q8. One layer, so the temp checkpoint is as small as it can be.
    const big = path.join(root, "swiglu-lab", "llama8b-layer");
    console.log("\nmaking a one-layer Llama-3-8B-sized checkpoint in " + root + " (removed afterwards)...");
    execFileSync(path.join(native, "make_checkpoint"), ["--out", big, "--naming", "llama", "--hidden", "4096", "--intermediate", "14336",
      "--num-layers", "1", "--vocab", "256", "--no-index"], { stdio: "ignore" });
    const bigRanges = tensorRanges(path.join(big, "model.safetensors"));
    const hub2 = createHubServers(root, {});
    await new Promise((r) => hub2.listen(0, "127.0.0.1", r));
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const r = await loadModel(context, site.base + `#v=1&view=gates&pl=0&model=http://127.0.0.1:${hub2.hub.address().port}/swiglu-lab/llama8b-layer/resolve/main/`,
                              null, "Layer 0: (live)", bigRanges["model.layers.0.mlp.gate_proj.weight"]);
    await context.close();
    hub2.close();
    console.log("one Llama-3-8B-sized layer's gate histogram, loopback, cold:");
    console.log(`  gate in ${r.gateIn.toFixed(0)} ms, live ${r.firstLive.toFixed(0)} ms, work ${r.work.toFixed(0)} ms, hold ${Math.max(r.answer, r.app).toFixed(0)} ms, ` +
                `weights ${(r.weightBytes / 1e6).toFixed(1)} MB, wasm heap ${(r.heap / 1048576).toFixed(0)} MB`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

// [SECTION] --whole: the built-in whole model, cold, to the rule book's first distribution

const FIRST_DISTRIBUTION = /The next token after [^\n]*\n(?:Bars[^\n]*\n)?[^\n]*P: [0-9]/;  // (the bars' scale line comes first)

async function loadWhole(context, url, conditions, log, isModelFile) {
  const page = await context.newPage();
  if (conditions) {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", conditions);
  }
  await page.addInitScript((src) => {
    const re = new RegExp(src);
    // first: the distribution readable (the early text or the app's mirror, the built-in model's
    // precomputed one included); own: the model's own in the mirror (no "Precomputed" mark).
    window.labBench = { first: 0, own: 0 };
    const tick = (t) => {
      const text = (id) => (document.getElementById(id) || {}).textContent || "";
      if (!window.labBench.first && (re.test(text("lab-early")) || re.test(text("lab-text")))) window.labBench.first = t;
      if (re.test(text("lab-text")) && !text("lab-text").includes("Precomputed: ")) window.labBench.own = t;
      if (!window.labBench.own) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, FIRST_DISTRIBUTION.source);
  const from = log.length;
  await page.goto(url);
  await page.waitForFunction(() => window.labBench && window.labBench.own, null, { timeout: 600000, polling: 100 });
  const { first, own } = await page.evaluate(() => window.labBench);
  await page.close();
  const mine = log.slice(from).filter((e) => isModelFile(e.path) && !e.skip);
  const shard = mine.filter((e) => /\.safetensors$/.test(e.path));
  const weights = shard.filter((e) => !/^bytes=0-/.test(e.range));
  return { first, own, requests: mine.length, weights: weights.length, bytes: mine.reduce((a, e) => a + (e.bytes || 0), 0) };
}

async function wholeBench(site) {
  const latency = Number(opt("--latency", "100"));
  const dir = path.resolve(siteDir, "models", "synthetic");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-bench-whole-"));
  fs.mkdirSync(path.join(root, "swiglu-lab"));
  fs.symlinkSync(dir, path.join(root, "swiglu-lab", "synthetic"));
  const hubLog = [];
  const hub = createHubServers(root, { log: hubLog, latencyMs: latency });
  await new Promise((r) => hub.listen(0, "127.0.0.1", r));
  const far = `http://127.0.0.1:${hub.cdn.address().port}/swiglu-lab/synthetic/main/`;
  const fast3g = NETWORK_PROFILES.find((p) => p.name.startsWith("fast 3G"));
  const onSite = (p) => p.includes("/models/synthetic/");
  const onHub = (p) => p.startsWith("/swiglu-lab/synthetic/");
  const cases = [
    { name: "loopback", url: site.base + "#v=1&view=rules", conditions: null, log: site.log, isModelFile: onSite },
    { name: `a host answering after ${latency} ms`, url: site.base + `#v=1&view=rules&model=${far}`, conditions: null, log: hubLog, isModelFile: onHub },
    { name: fast3g.name, url: site.base + "#v=1&view=rules", conditions: fast3g.conditions, log: site.log, isModelFile: onSite },
  ];
  console.log(`the built-in whole model (${dir}), cold: the rule book's link to its first next-token distribution; median (fastest-slowest) of ${runs}`);
  console.log("| link | first distribution readable | the model's own | requests for the model's files | of them for weights | bytes of the model's files |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  try {
    for (const c of cases) {
      const r = [];
      for (let i = 0; i < runs; i++) {
        const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
        r.push(await loadWhole(context, c.url, c.conditions, c.log, c.isModelFile));
        await context.close();
      }
      const cell = (f, digits = 0, unit = "") => {
        const v = r.map(f), fix = (x) => x.toFixed(digits);
        return r.length > 1 ? `${fix(median(v))} (${fix(Math.min(...v))}-${fix(Math.max(...v))})${unit}` : `${fix(median(v))}${unit}`;
      };
      console.log(`| ${c.name} | ${cell((x) => x.first / 1000, 1, " s")} | ${cell((x) => x.own / 1000, 1, " s")} | ${cell((x) => x.requests)} | ${cell((x) => x.weights)} | ` +
                  `${c.log === hubLog ? cell((x) => x.bytes / 1e6, 2, " MB") : "-"} |`);
    }
    console.log(`(load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")})`);
  } finally {
    hub.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const site = await startSite(siteDir);
if (args.includes("--whole")) {
  try { await wholeBench(site); } finally { await site.close(); }
  process.exit(0);
}
if (args.includes("--checkpoint")) {
  try { await checkpointBench(site); } finally { await site.close(); }
  process.exit(0);
}
try {
  console.log("gate histograms of the default pack (3 layers), from opening the link; median of " + runs);
  console.log("profile                           visit         first frame       first histogram  all live  frame p95  our max  KB fetched  weights KB");
  for (const profile of PROFILES) {
    const rows = { cold: [], warm: [] };
    for (let i = 0; i < runs; i++) {
      const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
      rows.cold.push(await load(context, site.base + "#v=1&view=gates", profile.conditions));
      if (!firstOnly) rows.warm.push(await load(context, site.base + "#v=1&view=gates", profile.conditions));
      await context.close();
    }
    for (const visit of firstOnly ? ["cold"] : ["cold", "warm"]) {
      const r = rows[visit];
      console.log(profile.name.padEnd(34) + visit.padEnd(6) +
        spread(r.map((x) => x.firstFrame)).padStart(20) +
        spread(r.map((x) => x.first)).padStart(22) +
        (firstOnly ? "-".padStart(10) + "-".padStart(11) + "-".padStart(9) :
          `${median(r.map((x) => x.live)).toFixed(0)} ms`.padStart(10) +
          `${median(r.map((x) => p95(x.frames))).toFixed(0)} ms`.padStart(11) +
          `${median(r.map((x) => Math.max(x.answer, x.app))).toFixed(0)} ms`.padStart(9)) +
        `${median(r.map((x) => x.bytes / 1024)).toFixed(0)}`.padStart(12) +
        `${median(r.map((x) => x.weightBytes / 1024)).toFixed(0)}`.padStart(12));
    }
  }

  if (!args.includes("--skip-heap")) {
    // A 24-layer pack: the heap must stay bounded while a student visits every layer.
    const dir = path.resolve("build-bench/pack24");
    if (!fs.existsSync(path.join(dir, "manifest.json"))) {
      console.log("\nmaking a 24-layer pack in build-bench/ (synthetic Qwen3.5-0.8B-shaped checkpoint, once)...");
      execFileSync(path.join(native, "make_checkpoint"), ["--out", "build-bench/ckpt24", "--layers", "all"], { stdio: "inherit" });
      execFileSync(path.join(native, "swiglu"), ["convert", "--checkpoint", "build-bench/ckpt24", "--out", dir, "--layers", "all",
        "--tokens", "1,2,3,4,5,6"], { stdio: ["ignore", "ignore", "inherit"] });
      fs.rmSync("build-bench/ckpt24", { recursive: true, force: true });
    }
    const packs = await startServer(path.dirname(dir));
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(site.base + `#v=1&view=perm&layer=0&pack=${packs.base}pack24/`);
    await page.waitForSelector("body[data-lab-ready]");
    console.log("\nwasm heap while the per-token view visits every layer of a 24-layer pack (10.5 MB a layer)");
    console.log("after layer   heap MB");
    for (let layer = 0; layer < 24; layer++) {
      await page.evaluate((l) => { location.hash = location.hash.replace(/layer=\d+/, "layer=" + l); }, layer);
      await page.waitForFunction((l) => document.getElementById("lab-text").textContent.includes(`Layer ${l}\n`) &&
        document.getElementById("lab-text").textContent.includes("exactly 0"), layer, { timeout: 120000 });
      if (layer % 4 === 3 || layer === 0) {
        const heap = await page.evaluate(() => HEAP8.length / 1048576);
        console.log(`${String(layer).padStart(11)}   ${heap.toFixed(0).padStart(7)}`);
      }
    }
    await context.close();
    await packs.close();
  }
} finally {
  await site.close();
}
