// Browser tests of the layout on a phone (390 x 844, touch, scale 3): the gates
// view's shares, readable in the early text before the app, stay on screen at its first frame
// (measured where the shares are, before and after: CLS cannot see a shift inside the canvas);
// a vertical swipe that starts on the budget's per-layer table scrolls the page.
import { FAST_3G, waitForMirror, settledItems, swipe } from "./browser.mjs";

const PHONE = { width: 390, height: 844 };

// Where each layer's share line of the early text (#lab-early) is: "Layer 11: (precomputed) > 0.1: …".
const earlyShareTops = (layerWord) => {
  const el = document.getElementById("lab-early"), node = el.firstChild, text = node ? node.textContent : "";
  const out = {};
  for (const m of text.matchAll(new RegExp(layerWord.replace("%s", "(\\d+)") + "[:：] ?\\(", "g"))) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    out[m[1]] = range.getBoundingClientRect().top;
  }
  return out;
};

export function registerPhoneLayoutTests(test, { expect, shot }) {
  for (const lang of ["zh", "en"])
    test(`phone ${lang}: the gates view's shares, readable before the app, stay on screen at its first frame (fast 3G)`, async (site) => {
      const context = await site.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", FAST_3G);
      let held = null, release = null;
      const released = new Promise((r) => { release = r; });
      // The app's js waits until the early text has been measured: the same page, before and after.
      await page.route("**/swiglu_lab.js", async (route) => { held = route; await released; await route.continue(); });
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(site.base + `#v=1&view=gates&lang=${lang}`, { waitUntil: "domcontentloaded" });
      await page.waitForFunction(() => window.labEarlyFigureMs, null, { timeout: 30000 });
      const layerWord = lang === "zh" ? "第 %s 层" : "Layer %s";
      const before = await page.evaluate(earlyShareTops, layerWord);
      const layers = Object.keys(before);
      expect(layers.length === 3, `early share lines: ${JSON.stringify(before)}`);
      const readable = layers.filter((l) => before[l] < PHONE.height);
      expect(readable.length >= 1, `no share line on screen before the app: ${JSON.stringify(before)}`);
      await shot(page, `phone-gates-early-${lang}`);
      release();
      await page.waitForSelector("body[data-lab-ready]", { timeout: 60000 });
      await waitForMirror(page, lang === "zh" ? "(预先计算)" : "(precomputed)", 60000).catch(() => {});
      const items = await settledItems(page);
      // Each layer's share line on the canvas: the first "> 0.1:" ("> 0.1：" in Chinese) after its column's title.
      const after = {};
      for (const l of layers) {
        const at = items.findIndex((it) => it.name === `gates-layer-${l}`);
        const share = items.slice(at + 1).find((it) => /^> 0\.1[:：]/.test(it.text));  // the language's colon
        after[l] = at >= 0 && share ? share.y1 : Infinity;
      }
      console.log(`    ${lang}: early share lines at ${JSON.stringify(before)}, at the first frame (bottoms) ${JSON.stringify(after)}`);
      await shot(page, `phone-gates-first-frame-${lang}`);
      for (const l of readable)
        expect(after[l] <= PHONE.height, `layer ${l}'s shares were on screen before the app (y ${before[l].toFixed(0)}) and are not at its first frame (y ${after[l]})`);
      expect(errors.length === 0, "page errors: " + errors.join("; "));
      await context.close();
    });

  test("phone: a swipe up that starts on the budget's per-layer table (its header row, a cell, its scrollbar) scrolls the page", async (site) => {
    const context = await site.browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    const page = await context.newPage();
    await page.goto(site.base + "#v=1&view=budget&lang=en");
    await page.waitForSelector("body[data-lab-ready]", { timeout: 30000 });
    await waitForMirror(page, "264,241,152");
    await settledItems(page);
    // The table's sideways strip (widgets.cpp records it as "strip-counts") and a cell to follow.
    const strip = async () => { await settledItems(page); return page.evaluate(() => window.labItemRect("strip-counts")); };
    const cellY = async () => (await settledItems(page)).find((it) => it.text.startsWith("classic FFN, 4h (f")).y0;
    await swipe(page, 300, 485, 300, 335);  // one scroll, from the bars above it (as the student did)
    const s = await strip();
    expect(s && s.y + s.h < PHONE.height, `the table is not on screen after one scroll: ${JSON.stringify(s)}`);
    const starts = { "its header row": s.y + 8, "a cell": s.y + s.h / 2, "its scrollbar": s.y + s.h - 5 };
    for (const [where, y] of Object.entries(starts)) {
      const y0 = await cellY();
      await swipe(page, 195, y, 195, y - 150);
      const y1 = await cellY();
      expect(y0 - y1 > 100, `a swipe up from ${where} (y ${y.toFixed(0)}) moved the page by ${(y0 - y1).toFixed(0)} px`);
      const back = y - 150 + (y1 - y0) + 150;  // the same place of the table, now higher up
      await swipe(page, 195, back, 195, back + 150);
      const y2 = await cellY();
      expect(y2 - y1 > 100, `a swipe down from ${where} moved the page by ${(y2 - y1).toFixed(0)} px`);
    }
    await shot(page, "phone-budget-after-swipes");
    await context.close();
  });
}
