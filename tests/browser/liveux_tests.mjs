// Browser tests of the live views as a student meets them: numbers typed on a phone
// and a desktop, the heatmap and the chips by keyboard, a phone's swipes and pinches on the
// heatmap and the per-token view, and page zoom. Each at 390 px (a phone) and 1280 px, in
// English and Chinese, with a screenshot of what changed.
import { openPage, mirror, hash, waitForMirror, itemCenter, settledItems, framesDrawn, waitDrawn, touch, swipe, doubleTap,
  softKeys, tabTo, hashValue, waitHash, WAIT_TIMEOUT, PHONE as PHONE_SCREEN } from "./browser.mjs";

const LIVE_TIMEOUT = 60000;
const PHONE = { name: "phone", ...PHONE_SCREEN };
const DESKTOP = { name: "desktop", width: 1280, height: 800 };
// A keyboard at a phone's width (a tablet with a keyboard, a zoomed desktop window).
const NARROW_KEYBOARD = { name: "narrow", width: 390, height: 844 };
// Frames a swipe's or a pinch's 10 touch events take at most (the page hands ImGui one press or
// release a frame, and no move after it in the same frame), on a page that keeps drawing.
const SWIPE_FRAMES = 12;
const COMBOS = [];
for (const screen of [PHONE, DESKTOP]) for (const lang of ["en", "zh"]) COMBOS.push({ screen, lang });

const rectOf = (page, name) => page.evaluate((n) => window.labItemRect(n), name);
const waitItem = (page, name) => page.waitForFunction((n) => window.labItemRect(n), name, { timeout: LIVE_TIMEOUT });
// Waits for `text` in the mirror while the weights stream in. On this shared two-core machine a
// download can stall (the stream gives up after 20 s and offers Retry): press it, as a person would.
async function waitLive(page, text) {
  const t0 = Date.now();
  while (Date.now() - t0 < 3 * LIVE_TIMEOUT) {
    const seen = await page.waitForFunction((t) => (document.getElementById("lab-text").textContent || "").includes(t) ? "text"
      : window.labItemRect("stream-retry") ? "retry" : false, text, { timeout: 3 * LIVE_TIMEOUT }).then((h) => h.jsonValue(), () => "");
    if (seen === "text") return;
    if (seen !== "retry") break;
    const f0 = await framesDrawn(page), retry = await page.evaluate(() => window.labItemRect("stream-retry"));
    if (retry) await page.mouse.click(retry.x + retry.w / 2, retry.y + retry.h / 2);
    await waitDrawn(page, f0);  // the button gone, or the page idle with it still there: pressed again
  }
  throw new Error(`mirror never showed "${text}"; it shows:\n${await mirror(page)}`);
}

// Starts typing into the number named `name` as a person does on that screen: a phone's double
// tap (the page's hidden field then has the focus: its keyboard is up), a desktop's double click.
async function startTyping(page, screen, name) {
  // As a person scrolls a field into view before tapping it (the live header may push it down;
  // on a phone the gates view's figure comes first): a wheel on a desktop, a swipe on a phone,
  // which has no wheel (it starts in the page's left margin, on no control).
  for (let i = 0; i < 8; i++) {
    const r = await page.evaluate((n) => window.labItemRect(n), name);
    if (r && r.y >= 0 && r.y + r.h <= screen.height) break;
    const by = r ? r.y + r.h / 2 - screen.height / 2 : screen.height * 0.5;
    const f0 = await framesDrawn(page);
    if (screen.phone) {
      const y0 = by > 0 ? screen.height * 0.8 : screen.height * 0.2, y1 = Math.max(20, Math.min(screen.height - 20, y0 - by));
      await swipe(page, 6, y0, 6, y1, 6);
    } else {
      await page.mouse.wheel(0, by);
    }
    await waitDrawn(page, f0);
  }
  // Where the field is once the page has stopped moving. A first tap on a slider moves it, and the
  // numbers it changes may move the page under the finger before the second tap: as a person does
  // when the field did not open, tap twice again where the field now is.
  for (let attempt = 1; ; attempt++) {
    await settledItems(page);
    const c = await itemCenter(page, name);
    const f0 = await framesDrawn(page);
    if (screen.phone) await doubleTap(page, c.x, c.y);
    else await page.mouse.dblclick(c.x, c.y);
    // ImGui types once it took the double tap, or the page went idle without it.
    await page.waitForFunction((f) => window.labTyping() || (window.labIdle() && window.labFrames() - f >= 3), f0,
      { polling: "raf", timeout: WAIT_TIMEOUT });
    if (await page.evaluate(() => window.labTyping())) break;
    if (attempt === 3) throw new Error(`three double taps on "${name}" did not start typing into it`);
  }
  // The field is being typed into once the page's hidden field has the focus (ImGui took it).
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === "lab-keyboard", null, { timeout: WAIT_TIMEOUT });
  if (!screen.phone) await page.keyboard.press("Control+A");
}

// Types `text` into the number named `name` as a person does on that screen.
async function typeInto(page, screen, name, text) {
  await startTyping(page, screen, name);
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

export function registerLiveUxTests(test, { expect, shot }) {
  const zh = (lang, en, cn) => (lang === "zh" ? cn : en);

  for (const { screen, lang } of COMBOS) {
    const tag = `${screen.name} ${lang}`;

    test(`liveux ${tag}: the threshold, token k and delta are typed (0.125 stays 0.125)`, async (site) => {
      const page = await openPage(site, `#v=1&view=gates&lang=${lang}`, screen);
      await waitItem(page, "gates-threshold");
      await typeInto(page, screen, "gates-threshold", "0.125");
      await waitHash(page, "thr=0.125");
      await waitLive(page, "> 0.125");
      await settledItems(page);
      await shot(page, `liveux-gates-typed-${screen.name}-${lang}`);
      await page.evaluate(() => { location.hash = location.hash.replace("view=gates", "view=perm"); });
      await waitLive(page, zh(lang, "exactly 0", "恰好为 0"));
      await typeInto(page, screen, "perm-token", "4");
      await waitHash(page, "tok=4");
      await typeInto(page, screen, "perm-delta", "-2.375");
      await waitHash(page, "delta=-2.375");
      await waitForMirror(page, "-2.375");
      await settledItems(page);
      await shot(page, `liveux-perm-typed-${screen.name}-${lang}`);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });

    // A phone's keyboard deletes with keyCode 229 and a deletion of the field's text, and enters
    // with a line break: ImGui gets Backspace and Enter. A desktop's keys (keyCode 8, 13) go to
    // ImGui once each, not again through the field. A Backspace inside a composition (229 on both)
    // edits the composition only. "0.125", two Backspaces, "55" composed, one Backspace in it,
    // "5" committed: 0.15. The hidden field stays empty between keys.
    test(`liveux ${tag}: Backspace and Enter edit the threshold (0.125 -> 0.15)${screen.phone ? ", a phone keyboard's (keyCode 229)" : ""}`, async (site) => {
      const page = await openPage(site, `#v=1&view=gates&lang=${lang}`, screen);
      await waitItem(page, "gates-threshold");
      await startTyping(page, screen, "gates-threshold");
      await page.waitForFunction(() => document.activeElement && document.activeElement.id === "lab-keyboard");
      const keys = async (list) => {
        if (screen.phone) return softKeys(page, list);
        for (const k of list) await (k.length === 1 ? page.keyboard.type(k) : page.keyboard.press(k));
      };
      const field = () => page.evaluate(() => document.getElementById("lab-keyboard").value);
      await keys(["0", ".", "1", "2", "5", "Backspace", "Backspace"]);
      expect(await field() === "", `the hidden field kept "${await field()}" after the Backspaces`);
      await softKeys(page, [["compose", "5"], ["compose", "55"], "Backspace"]);
      expect(await field() === "5", `the composition is "${await field()}", not "5", after its Backspace`);
      await softKeys(page, ["5"]);  // the composition committed (compositionend)
      expect(await field() === "", `the hidden field kept "${await field()}" after the commit`);
      // The number applies as it is typed; Enter ends the typing (ImGui lets go, so does the field).
      await waitHash(page, "thr=0.15");
      expect(await hashValue(page, "thr") === "0.15", "the link's threshold: " + await hash(page));
      await settledItems(page);
      await shot(page, `liveux-gates-backspace-${screen.name}-${lang}`);
      await keys(["Enter"]);
      await page.waitForFunction(() => document.activeElement.id !== "lab-keyboard", null, { timeout: WAIT_TIMEOUT })
        .catch(() => { throw new Error("Enter did not end the typing"); });
      expect(await hashValue(page, "thr") === "0.15", "the link's threshold after Enter: " + await hash(page));
      await waitLive(page, "> 0.15");
      expect(!(await mirror(page)).includes("0.125"), "the page still shows 0.125:\n" + await mirror(page));
      await settledItems(page);
      await shot(page, `liveux-gates-backspace-entered-${screen.name}-${lang}`);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });

    // Item 8: why a pack failed is said in the page's language (the parsers' reasons too).
    if (lang === "zh") test(`liveux ${tag}: a pack that fails says why in Chinese (404, malformed manifest)`, async (site) => {
      let page = await openPage(site, "#v=1&view=gates&pack=missing/folder/&lang=zh", screen);
      await waitForMirror(page, "HTTP 404：服务器上没有这个文件", LIVE_TIMEOUT);
      expect(!/not on the server/.test(await mirror(page)), "English in the Chinese page:\n" + (await mirror(page)));
      await settledItems(page);
      await shot(page, `liveux-failure-404-${screen.name}-zh`);
      await page.context().close();
      site.faults.set("manifest.json", { truncate: true, times: 1 });
      try {
        page = await openPage(site, "#v=1&view=gates&lang=zh", screen);
        await waitForMirror(page, "无法读取（文件：不是 JSON 对象）", LIVE_TIMEOUT);
        const m = await mirror(page);
        expect(!/not a JSON object|unreadable|file:/.test(m), "English in the Chinese page:\n" + m);
        await settledItems(page);
        await shot(page, `liveux-failure-manifest-${screen.name}-zh`);
        await page.context().close();
      } finally {
        site.faults.delete("manifest.json");
      }
    });

    test(`liveux ${tag}: a swipe on the per-token view never pans the page sideways`, async (site) => {
      const page = await openPage(site, `#v=1&view=perm&lang=${lang}`, screen);
      await waitLive(page, zh(lang, "exactly 0", "恰好为 0"));
      await waitItem(page, "perm-result");
      const before = await rectOf(page, "perm-result");
      const y = before.y + before.h + 40, x0 = screen.width * 0.8, x1 = screen.width * 0.1;
      const f0 = await framesDrawn(page);
      if (screen.phone) {
        await swipe(page, x0, y, x1, y);
      } else {
        await page.mouse.move(x0, y);
        await page.mouse.down();
        await page.mouse.move(x1, y, { steps: 8 });
        await page.mouse.up();
      }
      await waitDrawn(page, f0, { frames: SWIPE_FRAMES });
      await settledItems(page);
      const after = await rectOf(page, "perm-result");
      expect(Math.abs(after.x - before.x) < 0.5, `the page moved sideways: result at x ${before.x} then ${after.x}`);
      const items = await page.evaluate(() => window.labItems());
      for (const it of items) expect(it.reachable || it.y0 > screen.height || it.y1 < 0,
        `"${it.name || it.text}" unreachable after a sideways swipe (x ${it.x0}..${it.x1})`);
      await shot(page, `liveux-perm-swiped-${screen.name}-${lang}`);
      await page.context().close();
    });

    test(`liveux ${tag}: on the heatmap at x1 a vertical swipe scrolls the page; a pinch zooms it`, async (site) => {
      const page = await openPage(site, `#v=1&view=weights&unit=5&lang=${lang}`, screen);
      await waitItem(page, "weights-heatmap");
      await waitForMirror(page, zh(lang, "unit 5", "单元 5"), LIVE_TIMEOUT);
      const r = await rectOf(page, "weights-heatmap");
      const cx = r.x + r.w / 2, cy = r.y + r.h / 2;
      let f0 = await framesDrawn(page);
      if (screen.phone) {
        await swipe(page, cx, cy + 60, cx, cy - 140);
      } else {
        await page.mouse.move(cx, cy + 60);
        await page.mouse.down();
        await page.mouse.move(cx, cy - 140, { steps: 8 });
        await page.mouse.up();
      }
      await waitDrawn(page, f0, { frames: SWIPE_FRAMES });
      await settledItems(page);
      const moved = await rectOf(page, "weights-heatmap");
      expect(moved.y < r.y - 100, `the page did not scroll: heatmap at y ${r.y}, then ${moved.y}`);
      expect(await hashValue(page, "unit") === "5", "a swipe picked a unit: " + await hash(page));
      expect(await hashValue(page, "zoom") === "1" || await hashValue(page, "zoom") === null, "a swipe zoomed");
      // A pinch (two fingers from 40 to 160 px apart) zooms x4 around its centre; on a desktop
      // a trackpad's pinch arrives as Ctrl+wheel.
      const m = await rectOf(page, "weights-heatmap");
      const mx = m.x + m.w / 2, my = m.y + m.h / 2;
      if (screen.phone) {
        const steps = [["touchStart", [[mx - 20, my], [mx + 20, my]]]];
        for (let i = 1; i <= 6; i++) steps.push(["touchMove", [[mx - 20 - 10 * i, my], [mx + 20 + 10 * i, my]]]);
        steps.push(["touchEnd", []]);
        f0 = await framesDrawn(page);
        await touch(page, steps);
        await page.waitForFunction(() => /zoom=[0-9.]+/.test(location.hash) && !/zoom=1(&|$)/.test(location.hash));
        await waitDrawn(page, f0, { frames: SWIPE_FRAMES });  // every move of the fingers handled
        const zoom = Number(await hashValue(page, "zoom"));
        expect(zoom > 3.5 && zoom < 4.5, `a pinch from 40 to 160 px zoomed x${zoom}`);
      } else {
        await page.mouse.move(mx, my);
        await page.keyboard.down("Control");
        await page.mouse.wheel(0, -300);
        await page.keyboard.up("Control");
        await page.waitForFunction(() => /zoom=[0-9.]+/.test(location.hash) && !/zoom=1(&|$)/.test(location.hash));
      }
      expect(await hashValue(page, "unit") === "5", "a pinch picked a unit: " + await hash(page));
      const still = await rectOf(page, "weights-heatmap");
      expect(Math.abs(still.y - m.y) < 1, `the page scrolled during the pinch: ${m.y} then ${still.y}`);
      await shot(page, `liveux-weights-pinched-${screen.name}-${lang}`);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });
  }

  for (const screen of [DESKTOP, NARROW_KEYBOARD])
    for (const lang of ["en", "zh"]) {
      const tag = `${screen.name} ${lang}`;
      test(`liveux ${tag} keyboard: the heatmap's arrows pick units and pan, + / - zoom, Space picks nothing`, async (site) => {
        const page = await openPage(site, `#v=1&view=weights&unit=5&lang=${lang}`, screen);
        await waitItem(page, "weights-heatmap");
        expect(await tabTo(page, "weights-heatmap") === "weights-heatmap", "Tab never reached the heatmap");
        const f0 = await framesDrawn(page);
        await page.keyboard.press("Space");
        await page.keyboard.press("Enter");
        await waitDrawn(page, f0);
        expect(await hashValue(page, "unit") === "5", "Space / Enter picked a unit: " + await hash(page));
        await page.keyboard.press("ArrowDown");
        await page.keyboard.press("ArrowDown");
        await waitHash(page, "unit=7");
        await page.keyboard.type("+");
        await page.keyboard.type("+");
        await waitHash(page, "zoom=4");
        await page.keyboard.press("PageDown");  // a view's worth: 3584 / 4 units
        await waitHash(page, "unit=903");
        // The picked unit stays in view: row 903 of 3584 lies within cy ± 1/8.
        const cy = Number(await hashValue(page, "cy"));
        expect(Math.abs(cy - 903.5 / 3584) <= 0.125, `unit 903 out of view at cy=${cy}`);
        await page.keyboard.press("ArrowUp");
        await waitHash(page, "unit=902");
        await page.keyboard.type("-");
        await waitHash(page, "zoom=2");
        await page.keyboard.press("End");
        await waitHash(page, "unit=3583");
        expect(Number(await hashValue(page, "cy")) === 0.75, "the last unit is not in view: " + await hash(page));
        await shot(page, `liveux-weights-keys-${screen.name}-${lang}`);
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
        await page.context().close();
      });

      test(`liveux ${tag} keyboard: a focused chip moves with Alt+arrows, and the page says so`, async (site) => {
        const page = await openPage(site, `#v=1&view=perm&lang=${lang}`, screen);
        await waitItem(page, "perm-chip-0");
        const items = await page.evaluate(() => window.labItems());
        const hint = zh(lang, "Alt+→", "Alt+→");
        expect(items.some((it) => it.text.includes(hint) && it.reachable), "no reachable hint about moving chips by keyboard");
        expect(await tabTo(page, "perm-chip-0") === "perm-chip-0", "Tab never reached the first chip");
        await page.keyboard.press("Alt+ArrowRight");
        await waitHash(page, "perm=3,5,1,0,2,4");
        // The focus moves with the chip on the frame after the move (the link is written first).
        const followed = await page.waitForFunction(() => window.labFocused() === "perm-chip-1", null, { timeout: WAIT_TIMEOUT })
          .then(() => true, () => false);
        expect(followed, "the focus did not follow the chip");
        await page.keyboard.press("Alt+ArrowRight");
        await waitHash(page, "perm=3,1,5,0,2,4");
        await page.keyboard.press("Control+ArrowLeft");
        await waitHash(page, "perm=3,5,1,0,2,4");
        const f0 = await framesDrawn(page);
        await page.keyboard.press("ArrowRight");  // without Alt or Ctrl: the chip stays
        await waitDrawn(page, f0);
        expect((await hash(page)).includes("perm=3,5,1,0,2,4"), "a plain arrow moved the chip");
        await waitForMirror(page, "perm = [3, 5, 1, 0, 2, 4]");
        await shot(page, `liveux-perm-keys-${screen.name}-${lang}`);
        await page.context().close();
      });
    }

  // [SECTION] page zoom (item 20)
  for (const screen of [PHONE, DESKTOP])
    test(`liveux ${screen.name}: the page can be zoomed, and the canvas stays sharp zoomed`, async (site) => {
      const page = await openPage(site, "#v=1&view=silu&lang=zh", screen);
      const meta = await page.evaluate(() => document.querySelector("meta[name=viewport]").content);
      expect(!/user-scalable\s*=\s*no|maximum-scale/.test(meta), "the viewport blocks zoom: " + meta);
      const dpr = screen.scale || 1;
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Emulation.setPageScaleFactor", { pageScaleFactor: 2 });
      await page.waitForFunction(() => window.visualViewport.scale > 1.9, null, { polling: 250, timeout: 30000 });
      // The backing store follows the zoom (within 4096 px a side) so text is drawn at the
      // resolution it is seen at.
      const want = Math.min(2, 4096 / (Math.max(screen.width, screen.height) * dpr));
      await page.waitForFunction(([w, d, z]) => document.getElementById("canvas").width >= Math.floor(w * d * z) - 1,
        [screen.width, dpr, want], { polling: 250, timeout: 60000 })
        .catch(async () => { throw new Error(`canvas ${await page.evaluate(() => document.getElementById("canvas").width)} px wide at x2 zoom`); });
      await shot(page, `liveux-zoomed-${screen.name}`);
      // Still usable zoomed: a new probe from the link is drawn and read out. (Polled by time: a
      // canvas this large takes seconds a frame on the CPU, and animation-frame polling waits on it.)
      await page.evaluate(() => { location.hash = "#v=1&view=silu&z=2&lang=zh"; });
      await page.waitForFunction(() => document.getElementById("lab-text").textContent.includes("SiLU(z) = 1.761594"), null,
        { polling: 250, timeout: 60000 });
      await cdp.send("Emulation.setPageScaleFactor", { pageScaleFactor: 1 });
      await cdp.detach();
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });
}
