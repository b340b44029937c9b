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

export const FAST_3G = NETWORK_PROFILES.find((p) => p.name.startsWith("fast 3G")).conditions;
// A link slow enough that a download is still going when a test presses Cancel (4 Mbit/s, 50 ms).
export const SLOW_LINK = { offline: false, latency: 50, downloadThroughput: 4e6 / 8, uploadThroughput: 1e6 / 8 };

// The page's views, from the one table the app expands (src/core/link/views.inc): name in links and
// whether it shows real weights. The tests take the list from there, so a new view is covered.
export function viewTable() {
  const text = fs.readFileSync(new URL("../../src/core/link/views.inc", import.meta.url), "utf8");
  // live: the view shows computed results (its early text is how its mirror begins); wholeModel:
  // they come from the whole model's worker (model_tests.mjs), not from the MLP views' weights.
  return [...text.matchAll(/^VIEW\((\w+), "(\w+)", (\w+), (\w+), (\w+)\)/gm)].map((m) => ({
    name: m[2], live: m[4] !== "LIVE_NEEDS_NOTHING", wholeModel: m[4].includes("LIVE_WHOLE_MODEL") }));
}

// The string table's words (src/core/base/strings.inc) with its %s filled in order, so a test
// follows the page's wording: words("STR_MODEL_STOPPED_AT", "zh", "0.1", "2.3").
let stringsById = null;
export function words(id, lang, ...args) {
  if (!stringsById) {
    const text = fs.readFileSync(new URL("../../src/core/base/strings.inc", import.meta.url), "utf8");
    stringsById = {};
    for (const m of text.matchAll(/S\((STR_\w+),\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"\)/g))
      stringsById[m[1]] = { en: JSON.parse(`"${m[2]}"`), zh: JSON.parse(`"${m[3]}"`) };
  }
  if (!stringsById[id]) throw new Error(`no string ${id} in strings.inc (or not one literal per language)`);
  let i = 0;  // a %s with no argument stays "%s" (a test may want the words before it)
  return stringsById[id][lang].replace(/%s/g, () => (i < args.length ? String(args[i++]) : "%s"));
}

// [SECTION] the text mirror holds every number on screen (as tests/ui/ui_harness.cpp checks it)
// Every string of the page's table (src/core/base/strings.inc), both languages: static text, not data.
let stringsOfTable = null;
function tableStrings() {
  if (stringsOfTable) return stringsOfTable;
  const text = fs.readFileSync(new URL("../../src/core/base/strings.inc", import.meta.url), "utf8");
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

// A phone's screen in CSS px, with touch. The tests of what a phone does (taps, typing, a class
// link, the failure lines) draw it at 2x, a common phone's ratio; the tests of what fits on its
// screen, of a sharp canvas, of a QR code read from a photo, at 3x (PHONE_3X), the densest. A frame
// at 3x has 2.25 times the pixels of one at 2x, and SwiftShader draws every one on the CPU.
export const PHONE = { width: 390, height: 844, scale: 2, phone: true };
export const PHONE_3X = { ...PHONE, scale: 3 };

// The site's server keeps a log of requests and takes faults to inject (tools/serve.mjs).
// `isolate`: COOP + COEP, as tools/serve.sh sends them (the tests' own server leaves them out, as
// most static hosts do, unless a test asks).
export async function startServer(dir, { isolate = false } = {}) {
  const faults = new Map(), log = [];
  const server = createServer(dir, { faults, log, isolate });
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
// `network`: CDP network conditions from the start (NETWORK_PROFILES; page.labCdp changes them);
// `init`: a function run in the page before its scripts (a test hook such as labTestStallSeconds).
// `routes`: [pattern, handler] pairs routed for the whole context (its workers too) before the page opens.
export async function openPage(site, fragment = "", { width = 1280, height = 800, scale = 1, phone = false, network = null, init = null,
                                                     timeout = 30000, routes = [] } = {}) {
  const context = await site.browser.newContext({
    viewport: { width, height }, deviceScaleFactor: scale, hasTouch: phone, isMobile: phone,
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: site.base });
  if (init) await context.addInitScript(init);
  for (const [pattern, handler] of routes) await context.route(pattern, handler);
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  if (network) {
    page.labCdp = await context.newCDPSession(page);
    await page.labCdp.send("Network.enable");
    await page.labCdp.send("Network.emulateNetworkConditions", network);
  }
  await page.goto(site.base + fragment);
  await page.waitForSelector("body[data-lab-ready]", { timeout });
  page.labErrors = errors;
  return page;
}

export const mirror = (page) => page.locator("#lab-text").textContent();
export const notice = (page) => page.locator("#lab-notice").textContent();
export const hash = (page) => page.evaluate(() => decodeURIComponent(location.hash));

// How long a wait on a condition may take before it fails: generous, since a condition that holds
// ends the wait at once, and a loaded two-core machine draws a 3x phone page slowly.
export const WAIT_TIMEOUT = 30000;

// Waits until the mirror contains `text` (the app redraws on the next animation frame).
export async function waitForMirror(page, text, timeout = WAIT_TIMEOUT) {
  await page.waitForFunction((t) => (document.getElementById("lab-text").textContent || "").includes(t), text, { timeout })
    .catch(async () => { throw new Error(`mirror never showed "${text}"; it shows:\n${await mirror(page)}`); });
}

// [SECTION] waits on the page's own state (window.labFrames, labIdle), never on a clock
// The frames the page has drawn so far: read before an input, given to waitDrawn after it.
export const framesDrawn = (page) => page.evaluate(() => window.labFrames());

// Waits until the page has drawn what an input asked for: nothing left to draw (labIdle: the
// input handled and the frames after it drawn), or, on a page that keeps drawing (a download's
// progress, a model loading), `frames` frames drawn since `since` (framesDrawn before the input).
export async function waitDrawn(page, since, { frames = 3, timeout = WAIT_TIMEOUT } = {}) {
  await page.waitForFunction(([f0, n]) => window.labIdle() || window.labFrames() - f0 >= n, [since, frames], { polling: "raf", timeout })
    .catch(() => { throw new Error(`the page drew no ${frames} frames in ${timeout} ms`); });
}

// Waits until the page has nothing left to draw: its input handled, the network's answers (fonts
// included) shown, its animations over.
export async function waitIdle(page, timeout = WAIT_TIMEOUT) {
  await page.waitForFunction(() => window.labIdle(), null, { polling: "raf", timeout })
    .catch(() => { throw new Error(`the page was still drawing after ${timeout} ms`); });
}

// The page's records (window.labItems) once they are final: the page has nothing left to draw, or
// (while a download keeps it drawing) the same records over 3 frames drawn. Frames, not time: a
// slow SwiftShader frame at 3x cannot cut it short.
export async function settledItems(page, timeout = WAIT_TIMEOUT) {
  return (await settledScreen(page, timeout)).items;
}

// The same, with the mirror's text read in the same moment: the pair a test compares ("every
// number on screen is in the mirror") while the page may still change a label (the cache's size
// as its records are written).
export async function settledScreen(page, timeout = WAIT_TIMEOUT) {
  await page.evaluate(() => { window.labSettle = { last: "", since: -1 }; });
  const handle = await page.waitForFunction(() => {
    const now = JSON.stringify(window.labItems()), f = window.labFrames(), s = window.labSettle;
    const both = () => JSON.stringify({ items: JSON.parse(now), text: document.getElementById("lab-text").textContent });
    if (window.labIdle()) return both();
    if (now !== s.last) { s.last = now; s.since = f; return false; }
    return f - s.since >= 3 && both();
  }, null, { polling: "raf", timeout }).catch(() => { throw new Error("the page never settled"); });
  return JSON.parse(await handle.jsonValue());
}

// The texts of the settled screen's reachable records whose numbers are not on one line of the
// mirror read in the same moment (numbersNotInMirror): what a test of "every number on screen is
// in the mirror" expects to be empty.
export async function screenNumbersNotInMirror(page, timeout = WAIT_TIMEOUT) {
  const shown = await settledScreen(page, timeout);
  return numbersNotInMirror(shown.items.filter((it) => it.reachable).map((it) => it.text).filter(Boolean), shown.text);
}

// Presses `key` and waits until the focus moves off the control that had it, or until the page
// has drawn what the press asked for without moving it (a disabled button that lost the focus
// may need a second Tab).
export async function pressAndWaitForFocus(page, key, timeout = WAIT_TIMEOUT) {
  const [before, f0] = await page.evaluate(() => [window.labFocused(), window.labFrames()]);
  await page.keyboard.press(key);
  await page.waitForFunction(([b, f]) => window.labFocused() !== b || window.labIdle() || window.labFrames() - f > 4, [before, f0],
    { polling: "raf", timeout });
}

// Waits until `condition()` (Node-side state, such as the server's request log) is true.
export async function waitUntil(condition, what, timeout = WAIT_TIMEOUT) {
  const end = Date.now() + timeout;
  while (!(await condition())) {  // (a condition may be async: a read of the page's storage)
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

// Presses Tab (Shift+Tab with `back`) until `name` has the keyboard's focus, letting the page draw
// after each press; the name that has it then. The canvas takes the focus first (a no-op when it
// or its hidden field has it already).
export async function tabTo(page, name, { back = false, limit = 120 } = {}) {
  if (!(await page.evaluate(() => ["canvas", "lab-keyboard"].includes(document.activeElement && document.activeElement.id))))
    await page.locator("#canvas").focus();
  let focused = await page.evaluate(() => window.labFocused());
  for (let i = 0; i < limit && focused !== name; i++) {
    await pressAndWaitForFocus(page, back ? "Shift+Tab" : "Tab");
    focused = await page.evaluate(() => window.labFocused());
  }
  return focused;
}

// [SECTION] touches, as a phone's events carry them (CDP), each with the finger's own time
// `steps`: [type, [[x, y], ...]] pairs, 30 ms apart.
export async function touch(page, steps) {
  const cdp = await page.context().newCDPSession(page);
  let t = Date.now() / 1000;
  for (const [type, points] of steps) {
    t += 0.03;
    await cdp.send("Input.dispatchTouchEvent", { type, touchPoints: points.map(([x, y]) => ({ x, y })), timestamp: t });
  }
  await cdp.detach();
}

// One finger from (x, y0) to (x1, y1) in `moves` moves.
export async function swipe(page, x0, y0, x1, y1, moves = 8) {
  const steps = [["touchStart", [[x0, y0]]]];
  for (let i = 1; i <= moves; i++) steps.push(["touchMove", [[x0 + ((x1 - x0) * i) / moves, y0 + ((y1 - y0) * i) / moves]]]);
  await touch(page, [...steps, ["touchEnd", []]]);
}

// Two taps 150 ms apart (the finger's times, as a phone's events carry them: a page busy drawing
// at 3x on a loaded machine may get to them later, which must not undo the double tap).
export async function doubleTap(page, x, y) {
  const cdp = await page.context().newCDPSession(page);
  const t0 = Date.now() / 1000;
  for (const [type, dt] of [["touchStart", 0], ["touchEnd", 0.05], ["touchStart", 0.15], ["touchEnd", 0.2]])
    await cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }], timestamp: t0 + dt });
  await cdp.detach();
}

// A phone's own keyboard (Android's Gboard) sends no key: every press is keyCode 229
// ("Unidentified") and then an edit of the focused field. A character is committed text; Backspace
// is the browser's deleteBackward (beforeinput/input "deleteContentBackward"; "WordBackspace" its
// deleteWordBackward, a word at a time), Enter its insertNewline (beforeinput "insertLineBreak").
// CDP's `commands` run the browser's own editing, so the field gets the events Chromium itself
// makes of them (trusted, in a phone's order). ["compose", "55"] is a word being composed (its
// letters shown in the field, nothing committed). Each key comes after the page has drawn the last
// one, as a person's do (back to back, under load, a test once lost a committed word between two
// frames).
export async function softKeys(page, keys) {
  const cdp = await page.context().newCDPSession(page);
  const key = (type, extra = {}) => cdp.send("Input.dispatchKeyEvent",
    { type, windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229, key: "Unidentified", code: "", ...extra });
  for (const k of keys) {
    const f0 = await framesDrawn(page);
    if (Array.isArray(k)) {
      await cdp.send("Input.imeSetComposition", { text: k[1], selectionStart: k[1].length, selectionEnd: k[1].length });
    } else {
      const command = { Backspace: "deleteBackward", WordBackspace: "deleteWordBackward", Enter: "insertNewline" }[k];
      await key("rawKeyDown", command ? { commands: [command] } : {});
      if (!command) await cdp.send("Input.insertText", { text: k });
      await key("keyUp");
    }
    await waitDrawn(page, f0, { frames: 2 });
  }
  await cdp.detach();
}

// [SECTION] the link
export const hashValue = async (page, key) => {
  const m = new RegExp(`[#&]${key}=([^&]*)`).exec(await hash(page));
  return m ? m[1] : null;
};
// Waits until the (decoded) link holds `part`.
export const waitHash = (page, part, timeout = WAIT_TIMEOUT) =>
  page.waitForFunction((p) => decodeURIComponent(location.hash).includes(p), part, { timeout })
    .catch(async () => { throw new Error(`the link never held "${part}": ${await hash(page)}`); });

// Scrolls the page from top to bottom with the wheel, the records settled at each stop; every
// record must be reachable (else `fail(message)`). Returns the texts and names seen.
export async function scrollThrough(page, what, screen, fail, stops = 40) {
  const texts = new Set(), names = new Set();
  let last = "";
  for (let stop = 0; stop < stops; stop++) {
    const items = await settledItems(page);
    for (const it of items) {
      if (!it.reachable) fail(`${what}: "${it.name || it.text}" cut off at x ${it.x0}..${it.x1}, y ${it.y0}..${it.y1}`);
      if (it.text) texts.add(it.text);
      if (it.name) names.add(it.name);
    }
    const key = JSON.stringify(items.map((it) => [it.name, it.text, Math.round(it.y0)]));
    if (key === last) break;  // the wheel no longer moves anything: the bottom
    last = key;
    await page.mouse.move(screen.width / 2, screen.height / 2);
    await page.mouse.wheel(0, screen.height * 0.6);
  }
  return { texts: [...texts], names };
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
    const f0 = await framesDrawn(page);
    if (phone) {
      const y0 = by > 0 ? height * 0.8 : height * 0.2, y1 = Math.max(20, Math.min(height - 20, y0 - by));
      await swipe(page, 6, y0, 6, y1, 6);
    } else {
      await page.mouse.move(6, height / 2);  // a wheel scrolls what is under the pointer: the page's left margin
      await page.mouse.wheel(0, by);
    }
    await waitDrawn(page, f0);  // the scrolled frame
  }
  throw new Error(`"${name}" never came on screen`);
}

// Replaces the text of the field named `name` and presses Enter, as a person does: a click, until
// the field takes the keys (the page's hidden field has the focus; a click that landed while the
// layout moved is made again), then Ctrl+A and the text.
export async function typeInField(page, name, text) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await clickItem(page, name);
    const active = await page.waitForFunction(() => document.activeElement && document.activeElement.id === "lab-keyboard", null, { timeout: 10000 })
      .then(() => true, () => false);
    if (active) break;
  }
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

// Clicks a widget by its item_probe name, at its centre, with the real mouse.
export async function clickItem(page, name) {
  // The widget may appear a frame later (a question just switched, a box just grew): wait for it.
  await page.waitForFunction((n) => window.labItemRect(n), name, { timeout: WAIT_TIMEOUT, polling: "raf" }).catch(() => {});
  const r = await page.evaluate((n) => window.labItemRect(n), name);
  if (!r) throw new Error(`no widget named "${name}" on screen`);
  await page.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
}
