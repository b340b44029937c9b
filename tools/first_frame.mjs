#!/usr/bin/env node
// Measures how long the page takes to draw its first frame in headless Chromium, served from
// loopback as is and through a throttled link like a slow school network (CDP network
// emulation). A measurement, not a test: prints a table, median of N runs.
//
//   node tools/first_frame.mjs [--site build-wasm/site] [--runs 5]
import { startSite, NETWORK_PROFILES } from "../tests/browser/browser.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const siteDir = opt("--site", "build-wasm/site");
const runs = Number(opt("--runs", "5"));

const PROFILES = NETWORK_PROFILES;

const site = await startSite(siteDir);
console.log("profile                              first frame (ms, median of " + runs + ")");
for (const profile of PROFILES) {
  const times = [];
  for (let i = 0; i < runs; ++i) {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    if (profile.conditions) {
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", profile.conditions);
    }
    await page.goto(site.base + "#v=1&view=hand&step=5");
    await page.waitForSelector("body[data-lab-ready]", { timeout: 120000 });
    times.push(await page.evaluate(() => window.labFirstFrameMs));
    await context.close();
  }
  times.sort((a, b) => a - b);
  console.log(profile.name.padEnd(36) + " " + times[Math.floor(times.length / 2)].toFixed(0).padStart(6));
}
await site.close();
