// Browser tests of the live views on real (synthetic) weights: the default pack streams and the
// mirror's shares equal `swiglu stats --json`; a pack on another origin loads by pack= with Range
// and CORS; a reload fetches no weights; each injected failure shows its message and Retry
// recovers; the per-token experiments; screenshots of each live view, desktop and phone, en and zh.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPage, mirror, hash, waitForMirror, clickItem, startServer, settledItems, waitUntil, viewTable,
  SLOW_LINK, PHONE } from "./browser.mjs";

const LIVE_TIMEOUT = 60000;  // SwiftShader on two cores: three 3.5 MB gates verified and computed
// The stall limit the stalled-file test gives the page: long enough that the files it does not stall
// are never taken for stalled on a loaded machine (16 KiB in this window, over loopback).
const STALL_SECONDS = 5;
const weightRequests = (log) => log.filter((r) => r.path.endsWith(".q8"));

export function registerLiveTests(test, { expect, expectIncludes, shot, cli }) {
  const percent = (share) => (100 * share).toFixed(2) + " %";

  test("gate histograms: the default pack streams, and the shares equal swiglu stats", async (site) => {
    site.log.length = 0;
    const page = await openPage(site, "#v=1&view=gates");
    await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
    const text = await mirror(page);
    expectIncludes(text, "synthetic weights", "mirror");
    const packDir = path.join(site.dir, "packs/default");
    const stats = JSON.parse(execFileSync(cli, ["stats", "--pack", packDir, "--json"]).toString());
    for (const l of stats.layers)
      expectIncludes(text, `Layer ${l.layer}: (live) > 0.1: ${percent(l.open)}, < -0.1: ${percent(l.negative)}`, "mirror");
    // Gates only: this view never needs up or down.
    const weights = weightRequests(site.log).map((r) => path.basename(r.path));
    expect(weights.every((f) => f.endsWith("-gate.q8")), "fetched more than gates: " + weights.join(", "));
    await shot(page, "live-gates");
    // A reload fetches no weights: they come from IndexedDB, verified again.
    site.log.length = 0;
    await page.reload();
    await page.waitForSelector("body[data-lab-ready]");
    await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
    expect(weightRequests(site.log).length === 0, "a reload fetched weights: " + JSON.stringify(weightRequests(site.log)));
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  test("a pack on another origin loads by pack= (Range, CORS)", async (site) => {
    const other = await startServer(path.join(site.dir, "packs"));
    try {
      const page = await openPage(site, `#v=1&view=gates&pl=11&pack=${other.base}default/`);
      await waitForMirror(page, "Layer 11: (live)", LIVE_TIMEOUT);
      const ranged = other.log.filter((r) => r.range.startsWith("bytes="));
      expect(ranged.some((r) => r.path.endsWith("probes.bin")), "no Range request for probes.bin: " + JSON.stringify(other.log));
      expectIncludes(await hash(page), "pack=" + other.base, "URL");
      await page.context().close();
    } finally {
      await other.close();
    }
  });

  test("a server that ignores Range (200 with the whole file) still gives the right numbers", async (site) => {
    site.faults.set("probes.bin", { ignoreRange: true });
    site.faults.set("layer-000-gate.q8", { ignoreRange: true });
    try {
      const page = await openPage(site, "#v=1&view=gates");
      await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
      const text = await mirror(page);
      const stats = JSON.parse(execFileSync(cli, ["stats", "--pack", path.join(site.dir, "packs/default"), "--json"]).toString());
      expectIncludes(text, `Layer 0: (live) > 0.1: ${percent(stats.layers[0].open)}`, "mirror");
      expect(!text.includes("Could not load"), "an error with a server that ignores Range:\n" + text);
      await page.context().close();
    } finally {
      site.faults.delete("probes.bin");
      site.faults.delete("layer-000-gate.q8");
    }
  });

  const FAULTS = [
    ["404", { status: 404 }, "HTTP 404"],
    ["500", { status: 500 }, "HTTP 500"],
    ["416", { status: 416 }, "HTTP 416"],
    ["a truncated body", { truncate: true }, "truncated"],
    ["a corrupt body", { corrupt: true }, "checksum mismatch"],
    ["a dropped connection", { drop: true }, "network error"],
  ];
  for (const [name, fault, message] of FAULTS) {
    test(`failure: ${name} names the file, the rest keeps working, Retry recovers`, async (site) => {
      site.faults.set("layer-011-gate.q8", { ...fault, times: 1 });
      try {
        const page = await openPage(site, "#v=1&view=gates");  // a new context: an empty cache
        await waitForMirror(page, `Could not load layer-011-gate.q8: ${message}`, LIVE_TIMEOUT);
        await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
        expectIncludes(await mirror(page), "Layer 11: (precomputed)", "mirror");
        if (name === "404") await shot(page, "live-failure");
        await clickItem(page, "stream-retry");
        await waitForMirror(page, "Layer 11: (live)", LIVE_TIMEOUT);
        expect(!(await mirror(page)).includes("Could not load"), "the error stayed after Retry");
        await page.context().close();
      } finally {
        site.faults.delete("layer-011-gate.q8");
      }
    });
  }

  // The page's stall limit is 20 s; the test gives it a shorter one through its test hook
  // (labTestStallSeconds, read at start), so the same rule and words are checked in seconds.
  test(`failure: a stalled file is given up after the stall limit (${STALL_SECONDS} s here) with its message; Retry recovers`, async (site) => {
    site.faults.set("layer-023-gate.q8", { stall: true, times: 1 });
    try {
      const page = await openPage(site, "#v=1&view=gates", { init: `self.labTestStallSeconds = ${STALL_SECONDS};` });
      await waitForMirror(page, "Layer 11: (live)", LIVE_TIMEOUT);
      await waitForMirror(page, `Could not load layer-023-gate.q8: no data for ${STALL_SECONDS} s (stalled)`, LIVE_TIMEOUT);
      expectIncludes(await mirror(page), "Layer 23: (precomputed)", "mirror");
      await clickItem(page, "stream-retry");
      await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
      await page.context().close();
    } finally {
      site.faults.delete("layer-023-gate.q8");
    }
  });

  test("Cancel stops the download on a slow link, Retry resumes it", async (site) => {
    const page = await openPage(site, "#v=1&view=gates", { network: SLOW_LINK });
    await page.waitForFunction(() => window.labItemRect("stream-cancel"), null, { timeout: LIVE_TIMEOUT });
    await clickItem(page, "stream-cancel");
    await waitForMirror(page, "Loading was cancelled: this view still needs");  // and what to press: Load it
    await page.labCdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await clickItem(page, "stream-retry");
    await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
    expect(!(await mirror(page)).includes("cancelled"), "still cancelled after Load it");
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  test("failure: storage full: the page says so and keeps working, only not offline", async (site) => {
    // A browser with 200 KB for this site: the manifest fits, a 3.5 MB gate matrix does not.
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Storage.overrideQuotaForOrigin", { origin: site.base.replace(/\/$/, ""), quotaSize: 200000 });
    await page.goto(site.base + "#v=1&view=gates");
    await page.waitForSelector("body[data-lab-ready]");
    await waitForMirror(page, "The browser's storage is full", LIVE_TIMEOUT);
    await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
    await shot(page, "live-storage-full");
    await context.close();
  });

  test("per token: shuffling only shuffles (exactly 0), one changed token moves alone", async (site) => {
    const page = await openPage(site, "#v=1&view=perm&layer=11");
    await waitForMirror(page, "= exactly 0", LIVE_TIMEOUT);
    let text = await mirror(page);
    expectIncludes(text, "perm = [5, 3, 1, 0, 2, 4]", "mirror");
    const moved = (t) => [...t.matchAll(/^  (\d) \S+: (\S+)$/gm)].filter((m) => m[2] !== "0").map((m) => Number(m[1]));
    expect(JSON.stringify(moved(text)) === "[2]", "positions that moved: " + moved(text));
    await shot(page, "live-perm");
    await clickItem(page, "perm-shuffle");
    await page.waitForFunction(() => /perm=\d/.test(location.hash));
    await waitForMirror(page, "= exactly 0");
    await page.evaluate(() => { location.hash = location.hash.replace(/([#&])tok=-?\d+/, "$1tok=4").replace(/delta=[^&]+/, "delta=-2.5"); });
    await waitForMirror(page, "token k = 4, delta = -2.5");
    text = await mirror(page);
    expect(JSON.stringify(moved(text)) === "[4]", "positions that moved: " + moved(text));
    await page.context().close();
  });

  test("weights: the heatmap draws, a click picks a unit, and the link keeps it", async (site) => {
    const page = await openPage(site, "#v=1&view=weights&layer=23&unit=5");
    await page.waitForFunction(() => window.labItemRect("weights-heatmap"), null, { timeout: LIVE_TIMEOUT });
    await waitForMirror(page, "unit 5");
    const r = await page.evaluate(() => window.labItemRect("weights-heatmap"));
    await page.mouse.click(r.x + r.w / 2, r.y + r.h * 0.75);
    await page.waitForFunction(() => !location.hash.includes("unit=5&"));
    const unit = Number(/unit=(\d+)/.exec(await hash(page))[1]);
    expect(unit > 2000 && unit < 3400, `picked unit ${unit} at three quarters of 3584 rows`);
    await shot(page, "live-weights");
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  test("a pack whose sentence is in other scripts: its text gets glyphs (the slices of the full fonts that hold them, once each)", async (site) => {
    // A small Llama-named checkpoint converted here, with pieces in Korean, Russian, Japanese, Greek.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swiglu-scripts-"));
    const bin = path.dirname(cli);
    execFileSync(path.join(bin, "make_checkpoint"), ["--out", path.join(dir, "ckpt"), "--naming", "llama", "--hidden", "64",
      "--intermediate", "176", "--num-layers", "2", "--vocab", "32"], { stdio: "ignore" });
    execFileSync(cli, ["convert", "--checkpoint", path.join(dir, "ckpt"), "--out", path.join(dir, "pack"), "--layers", "all",
      "--tokens", "1,2,3,4", "--label", "안녕하세요, Привет! こんにちは αβγ", "--pieces", "안녕하세요|Привет|こんにちは|αβγ"], { stdio: "ignore" });
    const other = await startServer(dir);
    try {
      site.log.length = 0;
      const page = await openPage(site, `#v=1&view=perm&pack=${other.base}pack/`);
      await waitForMirror(page, "= exactly 0", LIVE_TIMEOUT);
      // The string table's Chinese subset (64 KB) is tried first; what it lacks brings the slices of
      // the full fonts (128 code points each) that hold it: every Hangul syllable's and the kana's,
      // no whole font, each slice once.
      const fonts = () => site.log.filter((r) => r.path.startsWith("/fonts/") && !r.path.endsWith("/ui-cjk.ttf")).map((r) => r.path);
      const block = (c) => (c.codePointAt(0) >> 7).toString(16).padStart(3, "0");
      const wanted = [..."안녕하세요こんにちは"].map((c) => `/fonts/slices/1-${block(c)}.ttf`);
      await waitUntil(() => wanted.every((f) => fonts().includes(f)), "the slices of the Korean and Japanese characters to be fetched").catch(() => {});
      await settledItems(page);  // drawn with them (and nothing more asked for)
      const got = fonts();
      expect(wanted.every((f) => got.includes(f)), `slices missing: ${wanted.filter((f) => !got.includes(f))} (fetched: ${got})`);
      expect(got.every((f) => /^\/fonts\/slices\/[01]-[0-9a-f]{3}\.ttf$/.test(f)), "a font other than a slice was fetched: " + got);
      expect(new Set(got).size === got.length, "a slice was fetched twice: " + got);
      // Cyrillic: one slice, of the first font (the second is asked only for what the first lacks);
      // Greek and ASCII are in the embedded font: nothing of their blocks; nothing else.
      const cyrillic = `/fonts/slices/0-${block("П")}.ttf`;
      expect(got.includes(cyrillic), `the first font's Cyrillic slice was not fetched (fetched: ${got})`);
      const exact = new Set([...wanted, cyrillic]);
      const extra = got.filter((f) => !exact.has(f));
      expect(extra.length === 0, `slices fetched that the text does not need: ${extra} (fetched: ${got})`);
      const bytes = got.reduce((n, f) => n + fs.statSync(path.join(site.dir, f)).size, 0);
      expect(bytes < 400000, `the slices took ${bytes} bytes`);
      console.log(`    ${got.length} slices, ${(bytes / 1024).toFixed(0)} KB (the whole fonts: 5.9 MB)`);
      expectIncludes(await mirror(page), "Привет", "mirror");
      await shot(page, "live-perm-scripts");
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    } finally {
      await other.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const [lang, phone] of [["en", true], ["zh", false], ["zh", true]])
    for (const view of viewTable().filter((v) => v.live && !v.wholeModel).map((v) => v.name)) {  // the whole model's: model_tests.mjs
      test(`screenshot: ${view}, ${lang}, ${phone ? "phone" : "desktop"}`, async (site) => {
        const opts = phone ? PHONE : {};
        const page = await openPage(site, `#v=1&view=${view}&lang=${lang}`, opts);
        if (view === "perm") await waitForMirror(page, lang === "zh" ? "恰好为 0" : "exactly 0", LIVE_TIMEOUT);
        else if (view === "weights") await page.waitForFunction(() => window.labItemRect("weights-heatmap"), null, { timeout: LIVE_TIMEOUT });
        else await waitForMirror(page, lang === "zh" ? "第 23 层：(实时)" : "Layer 23: (live)", LIVE_TIMEOUT);
        await settledItems(page);
        await shot(page, `live-${view}-${lang}-${phone ? "phone" : "desktop"}`);
        await page.context().close();
      });
    }
}
