#!/usr/bin/env node
// Browser tests: the page as a person uses it, in headless Chromium. Loads, clicks, keys, URL
// edits, bad links, and a screenshot of every view (tests/browser/screenshots/, look at them).
//
//   node tests/browser/run.mjs --site build-wasm/site [--only NAME]
import fs from "node:fs";
import path from "node:path";
import { startSite, openPage, mirror, notice, hash, waitForMirror, clickItem, itemCenter, settledItems,
  pressAndWaitForFocus, viewTable, numbersNotInMirror, doubleTap, tabTo, scrollThrough, framesDrawn, waitDrawn, PHONE_3X } from "./browser.mjs";
import { registerLiveTests } from "./live_tests.mjs";
import { registerLoadTests } from "./load_tests.mjs";
import { registerLiveUxTests } from "./liveux_tests.mjs";
import { registerLessonTests } from "./lesson_tests.mjs";
import { registerCheckpointTests } from "./checkpoint_tests.mjs";
import { registerHostileTests } from "./hostile_tests.mjs";
import { registerTokenizerTests } from "./tokenizer_tests.mjs";
import { registerRecoveryTests } from "./recovery_tests.mjs";
import { registerWordsTests } from "./words_tests.mjs";
import { registerPhoneLayoutTests } from "./phone_layout_tests.mjs";
import { registerModelTests } from "./model_tests.mjs";
import { registerModelLoadTests } from "./model_load_tests.mjs";
import { registerClassTests } from "./class_tests.mjs";
import { registerMirrorTests } from "./mirror_tests.mjs";
import { registerQrTests } from "./qr_tests.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const siteDir = opt("--site", "build-wasm/site");
const only = opt("--only", "");
// ctest runs one group per entry (cmake/tests.cmake): NAME_tests.mjs is group NAME, and the tests
// of this file are group "page". No --group: every test.
const group = opt("--group", "");
const shotDir = path.resolve(opt("--screenshots", "tests/browser/screenshots"));
fs.mkdirSync(shotDir, { recursive: true });

const tests = [];
let currentGroup = "page";
const test = (name, fn) => tests.push({ name, fn, group: currentGroup });
// Registers a file's tests under its group.
const inGroup = (name, register) => { currentGroup = name; register(); currentGroup = "page"; };
function expect(cond, message) { if (!cond) throw new Error(message); }
function expectIncludes(text, part, what = "text") {
  if (!text.includes(part)) throw new Error(`${what} lacks "${part}":\n${text}`);
}
const shot = (page, name) => page.screenshot({ path: path.join(shotDir, name + ".png") });

// [SECTION] the hand calculation
test("the lesson's link shows every vector to 6 decimals at the last step", async (site) => {
  const page = await openPage(site, "#v=1&view=hand&x=1,2&step=5");
  const text = await mirror(page);
  for (const line of [
    "u = [1.000000, 2.000000, 3.000000, -1.000000]",
    "a = [-1.000000, 0.000000, 1.000000, 2.000000]",
    "g = [-0.268941, 0.000000, 0.731059, 1.761594]",
    "z = [-0.268941, 0.000000, 2.193176, -1.761594]",
    "y = [1.924234, -1.761594]",
  ]) expectIncludes(text, line, "mirror");
  await shot(page, "hand-step5");
  expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
  const ms = await page.evaluate(() => window.labFirstFrameMs);
  console.log(`    first frame after ${ms.toFixed(0)} ms (served from loopback)`);
  await page.context().close();
});

test("arrow keys and the Previous / Next buttons step, and the URL follows", async (site) => {
  const page = await openPage(site, "#v=1&view=hand&step=5");
  await page.locator("#canvas").focus();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await waitForMirror(page, "Step 3 of 5");
  expectIncludes(await hash(page), "step=3", "URL");
  expect(!(await mirror(page)).includes("z = ["), "z shown before its step");
  await clickItem(page, "prev");
  await waitForMirror(page, "Step 2 of 5");
  await clickItem(page, "next");
  await clickItem(page, "next");
  await waitForMirror(page, "Step 4 of 5");
  expectIncludes(await hash(page), "step=4", "URL");
  await shot(page, "hand-step4");
  await page.context().close();
});

test("editing the URL restores exactly that view (hashchange)", async (site) => {
  const page = await openPage(site, "#v=1&view=hand&step=5");
  await page.evaluate(() => { location.hash = "#v=1&view=hand&x=2,-1&wg=1,0,1,0,1,0,1,0&step=2"; });
  await waitForMirror(page, "u = [2.000000, -1.000000, 1.000000, 3.000000]");
  expectIncludes(await mirror(page), "a = [2.000000, 2.000000, 2.000000, 2.000000]", "mirror");
  expectIncludes(await hash(page), "x=2,-1", "URL");
  // Reloading that address gives the same view: nothing lives outside the URL.
  await page.reload();
  await page.waitForSelector("body[data-lab-ready]");
  expectIncludes(await mirror(page), "a = [2.000000, 2.000000, 2.000000, 2.000000]", "mirror after reload");
  await page.context().close();
});

test("typing a new weight recomputes everything at once", async (site) => {
  const page = await openPage(site, "#v=1&view=hand&step=5");
  const r = await page.evaluate(() => window.labItemRect("x1"));
  await page.mouse.dblclick(r.x + r.w / 2, r.y + r.h / 2);
  await page.keyboard.press("Control+A");
  await page.keyboard.type("3");
  await page.keyboard.press("Enter");
  await waitForMirror(page, "u = [3.000000, 2.000000, 5.000000, 1.000000]");
  expectIncludes(await hash(page), "x=3,2", "URL");
  await shot(page, "hand-edited");
  await page.context().close();
});

test("the bare address brings back where this browser left off", async (site) => {
  const page = await openPage(site, "#v=1&view=silu&z=2.5");
  await waitForMirror(page, "z = 2.500000");
  await page.goto(site.base);
  await page.waitForSelector("body[data-lab-ready]");
  await waitForMirror(page, "z = 2.500000");
  expectIncludes(await hash(page), "view=silu", "URL");
  await page.context().close();
});

// [SECTION] bad links
test("a malformed key shows a notice naming it, as text, and the rest still loads", async (site) => {
  const evil = encodeURIComponent('<img src=x onerror="window.pwned=1">');
  const page = await openPage(site, `#v=1&view=hand&x=${evil}&step=3`);
  const n = await notice(page);
  expectIncludes(n, "'x'", "notice");
  expectIncludes(n, "<img", "notice (as text)");
  expect(await page.evaluate(() => document.querySelectorAll("#lab-notice *, img").length) === 0, "URL text became HTML");
  expect(await page.evaluate(() => window.pwned) === undefined, "script from the URL ran");
  await waitForMirror(page, "Step 3 of 5");
  expectIncludes(await mirror(page), "g = [-0.268941, 0.000000, 0.731059, 1.761594]", "mirror");
  await shot(page, "notice-malformed");
  await clickItem(page, "dismiss");
  await page.waitForFunction(() => document.getElementById("lab-notice").hidden);
  await page.context().close();
});

test("out-of-range and unknown keys: clamped with a notice, ignored", async (site) => {
  const page = await openPage(site, "#v=1&view=silu&z=40&utm_source=mail");
  await waitForMirror(page, "z = 6.000000");
  expectIncludes(await notice(page), "'z'", "notice");
  await page.context().close();
});

// [SECTION] SiLU vs ReLU
test("SiLU view: the probe from the link, a drag on the plot, the overlays", async (site) => {
  const page = await openPage(site, "#v=1&view=silu&z=-1");
  await waitForMirror(page, "SiLU(z) = -0.268941");
  expectIncludes(await mirror(page), "SiLU(-1.278465) = -0.278465", "mirror");
  const r = await page.evaluate(() => window.labItemRect("plot"));
  await page.mouse.move(r.x + r.w * 0.5, r.y + r.h / 2);
  await page.mouse.down();
  await page.mouse.move(r.x + r.w * 0.75, r.y + r.h / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => /z=[0-9.]+/.test(location.hash) && !location.hash.includes("z=-1&"));
  const z = Number(/z=(-?[0-9.]+)/.exec(await hash(page))[1]);
  expect(z > 1 && z < 4, `probe after the drag at z=${z}`);
  await clickItem(page, "show-sigmoid");
  await clickItem(page, "show-gelu");
  await waitForMirror(page, "GELU(z) = ");
  expectIncludes(await hash(page), "ov=sigmoid,gelu", "URL");
  await shot(page, "silu");
  await page.context().close();
});

// [SECTION] parameter budget
test("budget view: Qwen3.5-0.8B counts and the 8/3 h preset", async (site) => {
  const page = await openPage(site, "#v=1&view=budget");
  await waitForMirror(page, "264,241,152");
  expectIncludes(await mirror(page), "11,010,048 (11.01M)", "mirror");
  await shot(page, "budget");
  await clickItem(page, "preset-balanced");
  await waitForMirror(page, "SwiGLU, f (f = 2731): 8,389,632");
  expectIncludes(await hash(page), "f=2731", "URL");
  await page.context().close();
});

// [SECTION] sharing, language, phones
test("copy link copies the address of exactly this view", async (site) => {
  const page = await openPage(site, "#v=1&view=budget&h=2048&f=5504&layers=32");
  await clickItem(page, "copy-link");
  await page.waitForFunction(() => window.labLastCopiedText);
  const copied = await page.evaluate(() => window.labLastCopiedText);
  expectIncludes(copied, "view=budget", "copied link");
  expectIncludes(copied, "h=2048", "copied link");
  // A student opening it sees the same view.
  const student = await openPage(site, copied.slice(copied.indexOf("#")));
  expect(await mirror(student) === await mirror(page), "the student's view differs");
  await student.context().close();
  await page.context().close();
});

test("the view buttons switch views and the Chinese page reads in Chinese", async (site) => {
  const page = await openPage(site, "#v=1&view=hand&step=5");
  await clickItem(page, "view-silu");
  await waitForMirror(page, "SiLU(z)");
  await clickItem(page, "view-hand");
  await clickItem(page, "lang");
  await waitForMirror(page, "手算");
  expect(await page.evaluate(() => document.documentElement.lang) === "zh-CN", "html lang not zh-CN");
  expectIncludes(await hash(page), "lang=zh", "URL");
  await shot(page, "hand-zh");
  await page.context().close();
});

test("a phone: narrow, high-DPI, tapped, and typed into with its own keyboard", async (site) => {
  const page = await openPage(site, "#v=1&view=hand&step=1", PHONE_3X);
  const size = await page.evaluate(() => [document.getElementById("canvas").width, window.innerWidth]);
  expect(size[0] === size[1] * 3, `canvas backing store ${size[0]} px for ${size[1]} CSS px at 3x`);
  const next = await itemCenter(page, "next");
  await page.touchscreen.tap(next.x, next.y);
  await waitForMirror(page, "Step 2 of 5");
  // A double tap on x1 starts typing: the hidden field takes the focus, so a phone shows its keyboard.
  // The taps carry the finger's own times (150 ms apart), as a phone's events do: a page busy
  // drawing at 3x on a loaded machine may get to them later, which must not undo the double tap.
  const x1 = await itemCenter(page, "x1");
  await doubleTap(page, x1.x, x1.y);
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === "lab-keyboard");
  await page.keyboard.type("-2");
  await page.keyboard.press("Enter");
  await waitForMirror(page, "u = [-2.000000, 2.000000, 0.000000, -4.000000]");
  await page.waitForFunction(() => document.activeElement.id !== "lab-keyboard");
  await shot(page, "phone-hand");
  await page.context().close();
});

test("a lost WebGL context (phones drop them) comes back with the same view", async (site) => {
  const page = await openPage(site, "#v=1&view=hand&step=3");
  await page.evaluate(() => {
    const gl = document.getElementById("canvas").getContext("webgl2");
    window.labLoseContext = gl.getExtension("WEBGL_lose_context");
    window.labLoseContext.loseContext();
  });
  await page.waitForFunction(() => document.getElementById("canvas").getContext("webgl2").isContextLost());
  await page.evaluate(() => window.labLoseContext.restoreContext());
  await page.waitForFunction(() => window.labContextRestores === 1);
  await clickItem(page, "next");
  await waitForMirror(page, "Step 4 of 5");
  expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
  await shot(page, "after-context-restore");
  await page.context().close();
});

// [SECTION] keyboard alone
test("keyboard alone: Tab reaches every control with a mark, Enter and Space press, arrows step", async (site) => {
  const page = await openPage(site, "#v=1&view=hand&x=1,oops&step=4");
  await page.locator("#canvas").focus();
  const order = [];
  for (let i = 0; i < 40; i++) {
    await pressAndWaitForFocus(page, "Tab");
    const name = await page.evaluate(() => window.labFocused());
    if (name && order[order.length - 1] !== name) order.push(name);
    if (name === "x2") break;
  }
  // (the lesson's start, then the intro's marked terms, SwiGLU and silu)
  const expected = [...viewTable().map((v) => "view-" + v.name), "copy-link", "qr-code", "lang", "dismiss", "lesson-start", "gloss-swiglu", "gloss-silu", "prev", "next", "play", "reset", "x1", "x2"];
  expect(JSON.stringify(order) === JSON.stringify(expected), `Tab order ${order.join(" ")}`);
  expect(await page.evaluate(() => document.activeElement.id) === "canvas", "Tab left the canvas");
  await shot(page, "keyboard-focus-x2");
  // Shift-Tab back to Next, Enter presses it; the arrows step while a button has the focus.
  expect(await tabTo(page, "next", { back: true }) === "next", "Shift+Tab never reached Next");
  const f0 = await framesDrawn(page);
  await page.keyboard.press("Enter");
  await waitForMirror(page, "Step 5 of 5");
  await waitDrawn(page, f0);  // a person's next key, after the page has drawn the step
  await page.keyboard.press("ArrowLeft");
  await waitForMirror(page, "Step 4 of 5");
  await page.keyboard.press("Space");  // Next still has the focus
  await waitForMirror(page, "Step 5 of 5");
  // The view buttons by keyboard.
  expect(await tabTo(page, "view-silu", { back: true }) === "view-silu", "Shift+Tab never reached view-silu");
  await page.keyboard.press("Enter");
  await waitForMirror(page, "SiLU(z) = -0.268941");
  expect(await tabTo(page, "probe-typed") === "probe-typed", "Tab never reached probe-typed");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("-1.278465");
  await page.keyboard.press("Enter");
  await waitForMirror(page, "SiLU(z) = -0.278465");
  await shot(page, "keyboard-silu");
  expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
  await page.context().close();
});

// [SECTION] nothing cut off: every view, phone and laptop, English and Chinese
// The page is scrolled from top to bottom with the wheel; at each stop every named widget and
// printed number the app drew must be reachable (window.labItems: inside the screen, or inside a
// sideways strip that shows its scrollbar and hint; never cut by a cell or a box), and the
// lesson's results must all have been seen, and every number seen (integers too) must be in the
// mirror, on one line and in the same order.
const SCREENS = [
  { name: "phone", ...PHONE_3X },
  { name: "desktop", width: 1280, height: 800 },
];
const VIEWS = [
  { name: "hand-step3", fragment: "#v=1&view=hand&step=3",
    numbers: ["g₁ = (-1.000000)×sigmoid(-1.000000) = (-1.000000)×0.268941 = -0.268941", "0.731059", "1.761594"] },
  { name: "hand-step5", fragment: "#v=1&view=hand&step=5",
    numbers: ["y₁ = 1×(-0.268941) + 0×0.000000 + 1×2.193176 + 0×(-1.761594) = 1.924234", "0.880797", "2.193176"] },
  { name: "silu", fragment: "#v=1&view=silu&z=-1&ov=sigmoid,gelu", numbers: ["-0.268941", "-0.158655", "-0.278465"] },
  { name: "budget", fragment: "#v=1&view=budget", numbers: ["11,010,048 (11.01M)", "264,241,152", "201,326,592"] },
  { name: "quiz", fragment: "#v=1&view=quiz&quiz=odot", numbers: ["1 / 12"] },
  { name: "glossary", fragment: "#v=1&view=glossary", numbers: ["3584", "1024"] },
  { name: "notices", fragment: "#v=1&view=hand&x=a&wu=b&wg=c&wd=d&step=e&z=f&ov=g&h=h&f=i&layers=j&lang=k",
    numbers: ["'layers'", "1.924234"] },
];

// Every view of the table without weights is covered here (the live views: live_tests.mjs' screenshots
// and the headless ui_tests' reachability, which also walk the table).
for (const v of viewTable().filter((v) => !v.live))
  if (!VIEWS.some((x) => x.fragment.includes("view=" + v.name + "&") || x.fragment.endsWith("view=" + v.name)))
    throw new Error(`view ${v.name} (src/core/link/views.inc) has no reachability case in tests/browser/run.mjs`);

for (const screen of SCREENS)
  for (const lang of ["en", "zh"])
    test(`${screen.name} ${lang}: every number and control of every view is reachable`, async (site) => {
      // One page for every view: the first opened from its link, each next one by editing the
      // link (hashchange restores exactly that view) and scrolling back to the top.
      let page = null;
      for (const view of VIEWS) {
        // The hostile link ends in lang=k (English); in Chinese it ends in lang=zh instead.
        const fragment = view.name !== "notices" ? view.fragment + "&lang=" + lang
          : lang === "zh" ? view.fragment.replace("&lang=k", "&lang=zh") : view.fragment;
        if (!page) {
          page = await openPage(site, fragment, screen);
        } else {
          const before = await mirror(page);
          await page.evaluate((f) => { location.hash = f; }, fragment);
          await page.waitForFunction((b) => document.getElementById("lab-text").textContent !== b, before)
            .catch(() => { throw new Error(`${view.name}: the mirror did not change for ${fragment}`); });
          await page.mouse.move(screen.width / 2, screen.height / 2);
          await page.mouse.wheel(0, -20000);
        }
        await settledItems(page);
        await shot(page, `${screen.name}-${lang}-${view.name}`);
        const { texts } = await scrollThrough(page, `${screen.name} ${lang} ${view.name}`, screen, (m) => expect(false, m));
        const seen = texts.join("\n");
        for (const n of view.numbers) expectIncludes(seen, n, `${view.name}: the texts on screen`);
        const text = await mirror(page);
        for (const t of numbersNotInMirror(texts, text)) expect(false, `${view.name}: the numbers of "${t}" are not on one line of the mirror:\n${text}`);
        if (screen.phone && view.name.startsWith("hand")) await shot(page, `${screen.name}-${lang}-${view.name}-bottom`);
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      }
      await page.context().close();
    });

inGroup("live", () => registerLiveTests(test, { expect, expectIncludes, shot, cli: opt("--cli", "build-native/swiglu") }));
inGroup("load", () => registerLoadTests(test, { expect, expectIncludes, shot }));
inGroup("liveux", () => registerLiveUxTests(test, { expect, shot }));
inGroup("lesson", () => registerLessonTests(test, { expect, expectIncludes, shot }));
inGroup("checkpoint", () => registerCheckpointTests(test, { expect, expectIncludes, cli: opt("--cli", "build-native/swiglu") }));
inGroup("hostile", () => registerHostileTests(test, { expect, expectIncludes, cli: opt("--cli", "build-native/swiglu") }));
inGroup("tokenizer", () => registerTokenizerTests(test, { expect, shot, cli: opt("--cli", "build-native/swiglu") }));
inGroup("recovery", () => registerRecoveryTests(test, { expect, expectIncludes, shot, cli: opt("--cli", "build-native/swiglu") }));
inGroup("words", () => registerWordsTests(test, { expect, expectIncludes, shot, cli: opt("--cli", "build-native/swiglu") }));
inGroup("phone_layout", () => registerPhoneLayoutTests(test, { expect, shot }));
inGroup("model", () => registerModelTests(test, { expect, expectIncludes, shot, cli: opt("--cli", "build-native/swiglu") }));
inGroup("model_load", () => registerModelLoadTests(test, { expect, expectIncludes, shot, cli: opt("--cli", "build-native/swiglu") }));
inGroup("class", () => registerClassTests(test, { expect, expectIncludes, shot, cli: opt("--cli", "build-native/swiglu") }));
inGroup("mirror", () => registerMirrorTests(test, { expect, expectIncludes, shot, cli: opt("--cli", "build-native/swiglu") }));
inGroup("qr", () => registerQrTests(test, { expect, expectIncludes, shot, cli: opt("--cli", "build-native/swiglu") }));

// [SECTION] runner
const site = await startSite(siteDir);
let passed = 0, failed = 0;
for (const t of tests) {
  if (only && !t.name.includes(only)) continue;
  if (group && t.group !== group) continue;
  const t0 = Date.now();
  try {
    await t.fn(site);
    passed++;
    console.log(`ok   ${t.name} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${t.name}\n     ${String(e.stack || e).split("\n").join("\n     ")}`);
  }
}
await site.close();
if (passed + failed === 0) {  // a misspelt --group or --only must not pass as "0 failed"
  console.log(`no test matched --group "${group}" --only "${only}"`);
  process.exit(1);
}
console.log(`screenshots in ${shotDir}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
