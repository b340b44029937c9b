#!/usr/bin/env node
// Measures how long the page takes to draw its first frame in headless Chromium, cold (a new
// browser context each run), served from loopback as is and through throttled links like a slow
// school network (CDP network emulation). Also when the wasm was asked for and when it had
// arrived (Resource Timing), when the early text (the view's text before the wasm, index.html) was
// on screen (and, for a gates link, when its rows and histograms were: "early figures"), and how
// many times each file was requested (a file preloaded by
// index.html must not be fetched twice). A measurement, not a test: prints a table, the median of
// N runs and, in brackets, the fastest and slowest run.
//
//   node tools/first_frame.mjs [--site build-wasm/site] [--runs 5] [--fragment "#v=1&view=hand&step=5"]
//                              [--profile fast]   (only the profiles whose name contains this)
import { startSite, NETWORK_PROFILES } from "../tests/browser/browser.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const siteDir = opt("--site", "build-wasm/site");
const runs = Number(opt("--runs", "5"));
const fragment = opt("--fragment", "#v=1&view=hand&step=5");
const only = opt("--profile", "");

const PROFILES = NETWORK_PROFILES.filter((p) => p.name.includes(only));
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const spread = (v) => `${median(v).toFixed(0)} (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`;

const site = await startSite(siteDir);
console.log(`${fragment}, ms from opening the link, median of ${runs} (fastest-slowest)`);
console.log("profile                              early text         first frame          wasm asked             wasm in      early figures");
const requests = new Map();
for (const profile of PROFILES) {
  const frame = [], asked = [], arrived = [], early = [], figure = [];
  for (let i = 0; i < runs; ++i) {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    if (profile.conditions) {
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", profile.conditions);
    }
    site.log.length = 0;
    await page.goto(site.base + fragment);
    await page.waitForSelector("body[data-lab-ready]", { timeout: 120000 });
    const t = await page.evaluate(() => {
      const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith("swiglu_lab.wasm"));
      return { frame: window.labFirstFrameMs, asked: wasm ? wasm.startTime : NaN, arrived: wasm ? wasm.responseEnd : NaN,
               early: window.labEarlyTextMs === undefined ? NaN : window.labEarlyTextMs,  // NaN: the first frame came first
               figure: window.labEarlyFigureMs === undefined ? NaN : window.labEarlyFigureMs };
    });
    frame.push(t.frame), asked.push(t.asked), arrived.push(t.arrived), early.push(t.early), figure.push(t.figure);
    for (const r of site.log) requests.set(r.path, Math.max(requests.get(r.path) || 0, site.log.filter((x) => x.path === r.path).length));
    await context.close();
  }
  console.log(profile.name.padEnd(34) + spread(early).padStart(19) + spread(frame).padStart(19) + spread(asked).padStart(20) + spread(arrived).padStart(20) +
              (figure.some((x) => !isNaN(x)) ? spread(figure).padStart(20) : ""));
}
console.log("most requests of one file in one run: " + [...requests].map(([p, n]) => `${p} ${n}`).join(", "));
await site.close();
