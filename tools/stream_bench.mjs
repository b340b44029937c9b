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
// Figures are the median and, in brackets, the fastest and slowest run. --first-only stops the
// cold visit at the first histogram (the first-load figures, without waiting minutes for all
// layers; no warm visit, since the cold one did not finish caching).
//
//   node tools/stream_bench.mjs [--site build-wasm/site] [--native build-native] [--runs 3] [--skip-heap]
//                               [--profile fast] [--first-only]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
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
                                          app: Module._lab_bench_max_app_frame_ms() }));
  await page.close();
  return { ...b, bytes, weightBytes };
}

const site = await startSite(siteDir);
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
