// Headless Chromium (Debian's binary) driven by playwright-core, with the page served by
// tools/serve.mjs on a free loopback port. Shared by the browser tests.
import fs from "node:fs";
import { chromium } from "playwright-core";
import { createServer } from "../../tools/serve.mjs";

// As root and without a network, Chromium needs these to start cleanly; SwiftShader gives it
// WebGL2 on the CPU (TOOLCHAIN.md).
export const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
  "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync",
];

// Links the measurements use (CDP network emulation): loopback as is, a slow school network
// ("fast 3G") and a 4G phone.
export const NETWORK_PROFILES = [
  { name: "loopback", conditions: null },
  { name: "fast 3G (1.6 Mbit/s, 150 ms RTT)", conditions: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 } },
  { name: "4G (9 Mbit/s, 60 ms RTT)", conditions: { offline: false, latency: 60, downloadThroughput: 9e6 / 8, uploadThroughput: 9e6 / 8 } },
];

// The page's views, from the one table the app expands (src/core/views.inc): name in links and
// whether it shows real weights. The tests take the list from there, so a new view is covered.
export function viewTable() {
  const text = fs.readFileSync(new URL("../../src/core/views.inc", import.meta.url), "utf8");
  // live: the view shows computed results (its early text is how its mirror begins); wholeModel:
  // they come from the whole model's worker (model_tests.mjs), not from the MLP views' weights.
  return [...text.matchAll(/^VIEW\((\w+), "(\w+)", (\w+), (\w+), (\w+)\)/gm)].map((m) => ({
    name: m[2], live: m[4] !== "LIVE_NEEDS_NOTHING", wholeModel: m[4].includes("LIVE_WHOLE_MODEL") }));
}

// [SECTION] the text mirror holds every number on screen (as tests/ui/ui_harness.cpp checks it)
// Every string of the page's table (src/core/strings.inc), both languages: static text, not data.
let stringsOfTable = null;
function tableStrings() {
  if (stringsOfTable) return stringsOfTable;
  const text = fs.readFileSync(new URL("../../src/core/strings.inc", import.meta.url), "utf8");
  const literal = /"((?:[^"\\]|\\.)*)"/g;
  stringsOfTable = new Set();
  for (const m of text.matchAll(/^S\(\w+,([\s\S]*?)\)\s*$/gm))
    for (const l of m[1].matchAll(literal)) stringsOfTable.add(JSON.parse(`"${l[1]}"`));
  return stringsOfTable;
}

// The numbers of a text in the order printed: "-0.268941", "264,241,152", "2"; digits inside a
// word ("int8", "Qwen3.5-0.8B") are not numbers.
export function printedNumbers(text) {
  return [...text.matchAll(/(?<![A-Za-z0-9_.])(?<![A-Za-z0-9_.]-)-?\d+(?:,\d{3}(?!\d))*(?:\.\d+)?/g)].map((m) => m[0]);
}

// The texts seen on screen whose numbers, integers included, are not on one line of the mirror
// in the same order ("layer 0" on screen, "layer 2" in the mirror).
export function numbersNotInMirror(texts, mirrorText) {
  const lines = mirrorText.split("\n").map(printedNumbers);
  const inOrder = (want, line) => { let k = 0; for (const n of line) if (k < want.length && n === want[k]) k++; return k === want.length; };
  return texts.filter((t) => !tableStrings().has(t)).filter((t) => {
    const want = printedNumbers(t);
    return want.length > 0 && !lines.some((line) => inOrder(want, line));
  });
}

// The site's server keeps a log of requests and takes faults to inject (tools/serve.mjs).
export async function startServer(dir) {
  const faults = new Map(), log = [];
  const server = createServer(dir, { faults, log });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
  return { server, faults, log, base: `http://127.0.0.1:${server.address().port}/`, close };
}

export async function startSite(siteDir) {
  const { faults, log, base, close: closeServer } = await startServer(siteDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
  return {
    base,
    dir: siteDir,
    browser,
    faults,
    log,
    async close() {
      await browser.close();
      await closeServer();
    },
  };
}

// Opens the page at `fragment` and waits for its first frame. Page errors fail the test.
export async function openPage(site, fragment = "", { width = 1280, height = 800, scale = 1, phone = false } = {}) {
  const context = await site.browser.newContext({
    viewport: { width, height }, deviceScaleFactor: scale, hasTouch: phone, isMobile: phone,
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.base });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(site.base + fragment);
  await page.waitForSelector("body[data-lab-ready]", { timeout: 30000 });
  page.labErrors = errors;
  return page;
}

export const mirror = (page) => page.locator("#lab-text").textContent();
export const notice = (page) => page.locator("#lab-notice").textContent();
export const hash = (page) => page.evaluate(() => decodeURIComponent(location.hash));

// Waits until the mirror contains `text` (the app redraws on the next animation frame).
export async function waitForMirror(page, text, timeout = 5000) {
  await page.waitForFunction((t) => (document.getElementById("lab-text").textContent || "").includes(t), text, { timeout })
    .catch(async () => { throw new Error(`mirror never showed "${text}"; it shows:\n${await mirror(page)}`); });
}

// The page's records once two animation frames in a row drew the same ones: a wait on the
// page's own state, not on a clock (SwiftShader at 3x draws slowly, layouts settle over frames).
export async function settledItems(page, timeout = 15000) {
  await page.evaluate(() => { window.labSettle = { last: "", same: 0 }; });
  const handle = await page.waitForFunction(() => {
    const now = JSON.stringify(window.labItems()), s = window.labSettle;
    s.same = now === s.last ? s.same + 1 : 0;
    s.last = now;
    return s.same >= 1 && now;
  }, null, { polling: "raf", timeout }).catch(() => { throw new Error("the page never settled"); });
  return JSON.parse(await handle.jsonValue());
}

// Presses `key` and waits until the focus moves off the control that had it, or until the page
// has drawn 4 frames since the press without moving it (a disabled button that lost the focus
// may need a second Tab): frames drawn, not time, so a slow SwiftShader frame cannot cut it short.
export async function pressAndWaitForFocus(page, key, timeout = 10000) {
  const before = await page.evaluate(() => { window.labFramesSinceKey = 0; return window.labFocused(); });
  await page.keyboard.press(key);
  await page.waitForFunction((b) => window.labFocused() !== b || ++window.labFramesSinceKey > 4, before,
    { polling: "raf", timeout });
}

// Waits until `condition()` (Node-side state, such as the server's request log) is true.
export async function waitUntil(condition, what, timeout = 5000) {
  const end = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));  // a poll of the condition, not a wait for time
  }
}

export async function itemCenter(page, name) {
  const r = await page.evaluate((n) => window.labItemRect(n), name);
  if (!r) throw new Error(`no widget named "${name}" on screen`);
  return { x: r.x + r.w / 2, y: r.y + r.h / 2 };
}

// True when a printed text (window.labItems) containing `part` is on screen and reachable.
export const printed = async (page, part) => (await settledItems(page)).some((it) => it.text.includes(part) && it.reachable);

// Presses Tab (from the canvas) until `name` has the keyboard's focus; the name that has it.
export async function tabTo(page, name, limit = 40) {
  await page.locator("#canvas").focus();
  let focused = "";
  for (let i = 0; i < limit && focused !== name; i++) {
    await pressAndWaitForFocus(page, "Tab");
    focused = await page.evaluate(() => window.labFocused());
  }
  return focused;
}

// Scrolls the page until the widget named `name` is on screen, as a person would: the wheel on a
// laptop, a swipe in the page's left margin (on no control) on a phone, which has no wheel.
// Widgets inside a box scrolled out of view are not drawn: scrolled towards the bottom until found.
export async function bringIntoView(page, name, { phone = false, height = 800 } = {}, timeout = 30000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    const r = await page.evaluate((n) => window.labItemRect(n), name);
    if (r && r.y >= 0 && r.y + r.h <= height) return r;
    const by = r ? r.y + r.h / 2 - height / 2 : height * 0.5;
    if (phone) {
      const cdp = await page.context().newCDPSession(page);
      const y0 = by > 0 ? height * 0.8 : height * 0.2, y1 = Math.max(20, Math.min(height - 20, y0 - by));
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: 6, y: y0 }] });
      for (let k = 1; k <= 6; k++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: 6, y: y0 + ((y1 - y0) * k) / 6 }] });
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      await cdp.detach();
    } else {
      await page.mouse.wheel(0, by);
    }
    await page.waitForTimeout(200);  // the page draws the scrolled frame
  }
  throw new Error(`"${name}" never came on screen`);
}

// Clicks a widget by its item_probe name, at its centre, with the real mouse.
export async function clickItem(page, name) {
  // The widget may appear a frame later (a question just switched, a box just grew): wait for it.
  await page.waitForFunction((n) => window.labItemRect(n), name, { timeout: 10000, polling: 50 }).catch(() => {});
  const r = await page.evaluate((n) => window.labItemRect(n), name);
  if (!r) throw new Error(`no widget named "${name}" on screen`);
  await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
}
