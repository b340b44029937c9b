// Browser tests of the first load: the files index.html preloads are fetched once and
// in parallel with the js, an English page fetches no Chinese font, a Chinese page has its font
// before its first frame, and the server sends the build's brotli and gzip files as they are.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { openPage, mirror, waitForMirror, viewTable, FAST_3G } from "./browser.mjs";

const LIVE_TIMEOUT = 60000;  // as in live_tests.mjs: SwiftShader on two cores

// How many times each path was requested since `from` (the site's request log).
const counts = (log, from) => {
  const out = {};
  for (const r of log.slice(from)) out[r.path] = (out[r.path] || 0) + 1;
  return out;
};

// Resource Timing of the first entry whose URL ends with `suffix`.
const timing = (page, suffix) => page.evaluate((s) => {
  const e = performance.getEntriesByType("resource").find((x) => x.name.endsWith(s));
  return e ? { start: e.startTime, end: e.responseEnd } : null;
}, suffix);

function get(url, acceptEncoding) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { "Accept-Encoding": acceptEncoding } }, (res) => {
      const parts = [];
      res.on("data", (d) => parts.push(d));
      res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
    }).on("error", reject);
  });
}

// Records, in the page, the first text #lab-early shows (the early text, src/early/) and when,
// whether it was laid out on screen, and whether the first frame had come yet.
const watchEarlyText = () => {
  new MutationObserver(() => {
    const el = document.getElementById("lab-early");
    if (window.labEarlySeen || !el || !el.textContent) return;
    const box = el.getBoundingClientRect();
    window.labEarlySeen = { text: el.textContent, ms: performance.now(), onScreen: box.height > 0 && box.top < innerHeight,
                            beforeFirstFrame: !document.body.dataset.labReady };
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

// Records, in the page, every text #lab-early shows and when, whether it was on screen, and
// whether the first frame had come yet (the early text is redrawn once the answers it waits for come).
const watchEarlyTexts = () => {
  window.labEarlyTexts = [];
  new MutationObserver(() => {
    const el = document.getElementById("lab-early"), all = window.labEarlyTexts;
    if (!el || !el.textContent || (all.length && all[all.length - 1].text === el.textContent)) return;
    const box = el.getBoundingClientRect();
    all.push({ text: el.textContent, ms: performance.now(), onScreen: box.height > 0 && box.top < innerHeight, beforeFirstFrame: !document.body.dataset.labReady });
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

// Records, in the page, the early text when the gates view's histograms (#lab-early-figure) first
// show, their bar groups, whether they were on screen, and whether the first frame had come yet.
const watchEarlyFigure = () => {
  new MutationObserver(() => {
    const mirror = document.getElementById("lab-text");  // what the app's first frame wrote
    if (!window.labFirstMirror && mirror && mirror.textContent) window.labFirstMirror = mirror.textContent;
    const fig = document.getElementById("lab-early-figure"), el = document.getElementById("lab-early");
    if (window.labEarlyFigureSeen || !fig || !fig.firstChild) return;
    const box = fig.getBoundingClientRect();
    const groups = [...fig.querySelectorAll("g.gates-layer")].map((g) => ({ layer: g.dataset.layer, bars: g.querySelectorAll("rect.bar").length }));
    window.labEarlyFigureSeen = { text: el.textContent, groups, ms: performance.now(), onScreen: box.height > 0 && box.top < innerHeight,
                                  beforeFirstFrame: !document.body.dataset.labReady };
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

// A link opened cold on fast 3G in a phone-sized window, watched from the page's first script on;
// returns once the app has run.
async function openColdOnFast3g(site, link, watcher) {
  const from = site.log.length;
  const page = await openPage(site, link, { width: 390, height: 844, network: FAST_3G, init: watcher, timeout: 60000 });
  return { context: page.context(), page, errors: page.labErrors, from };
}

// A link opened cold in a phone-sized window whose app module is held back until the early text
// is on screen, watched from the page's first script on; returns once the app has run. The early
// text must not need the app: this is what fast 3G shows, in a second instead of four.
async function openWithAppHeld(site, link, watcher) {
  const from = site.log.length;
  const context = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addInitScript(watcher);
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  await context.route("**/swiglu_lab.wasm", async (route) => { await released; await route.continue(); });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(site.base + link, { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => window.labEarlySeen, null, { timeout: LIVE_TIMEOUT }).catch(() => {});
  release();
  await page.waitForSelector("body[data-lab-ready]", { timeout: LIVE_TIMEOUT });
  return { context, page, errors, from };
}

// A link on a laptop or a phone whose app js never arrives: the page stays before its first frame.
async function openBeforeWasm(site, screen, link) {
  const phone = screen === "phone";
  const [width, height] = phone ? [390, 844] : [1280, 800];
  const context = await site.browser.newContext({ viewport: { width, height }, isMobile: phone, hasTouch: phone, deviceScaleFactor: phone ? 2 : 1 });
  const page = await context.newPage();
  await page.route("**/swiglu_lab.js", () => {});  // never answered
  // Not "load": once the early text's answer begins, the page adds the app's script, and a script
  // that never arrives holds the load event for ever.
  await page.goto(site.base + link, { waitUntil: "domcontentloaded" });
  return { context, page, width, height };
}

export function registerLoadTests(test, { expect, expectIncludes, shot }) {
  test("early text: what a phone and a laptop show before the wasm (screenshots, en and zh)", async (site) => {
    for (const screen of ["desktop", "phone"]) {
      for (const lang of ["en", "zh"]) {
        const { context, page, width } = await openBeforeWasm(site, screen, `#v=1&view=hand&step=5&lang=${lang}`);
        await page.waitForFunction(() => window.labEarlyTextMs, null, { timeout: 20000 });
        const text = await page.locator("#lab-early").innerText();
        expectIncludes(text, "y = [1.924234, -1.761594]", `the early text (${screen}, ${lang})`);
        const box = await page.locator("#lab-early").boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width + 1, `the early text is wider than the ${screen} screen`);
        await shot(page, `early-text-hand-${lang}-${screen}`);
        await context.close();
      }
    }
  });

  test("early text: every view, en and zh, opened cold with the app held back, is readable before the first frame and is the app's mirror", async (site) => {
    const links = {  // a link that is not the default, per view: the early text must follow the link
      hand: "&x=0.5,-3&step=3", silu: "&z=2.5&ov=gelu", budget: "&h=2048&f=5504&layers=32", quiz: "&quiz=bf16all",
    };
    for (const view of viewTable()) {
      for (const lang of ["en", "zh"]) {
        const link = `#v=1&view=${view.name}&lang=${lang}${links[view.name] || ""}`;
        const { context, page, errors, from } = await openWithAppHeld(site, link, watchEarlyText);
        await page.waitForFunction(() => document.getElementById("lab-text").textContent.length > 0);
        const seen = await page.evaluate(() => window.labEarlySeen);
        expect(seen, `${link}: no early text before the app ran`);
        if (seen) {
          expect(seen.beforeFirstFrame && seen.onScreen, `${link}: the early text came after the first frame or off screen`);
          const app = await mirror(page);
          if (view.live) {
            expect(seen.text.length > 0 && app.startsWith(seen.text), `${link}: the early text is not how the mirror begins:\n${seen.text}\n---\n${app}`);
          } else {
            expect(seen.text === app, `${link}: the early text differs from the mirror:\n${seen.text}\n---\n${app}`);
          }
          const n = counts(site.log, from);
          // gates: with the manifest reader; the whole model's views: with the answers' decoder (the built-in model's precomputed ones)
          const kind = view.name === "gates" ? "gates_" : view.name === "rules" || view.name === "flow" ? "class_" : "";
          const early = `/swiglu_text_${kind}${lang}.wasm`;
          for (const f of [early, "/swiglu_lab.wasm", "/swiglu_lab.js"])
            expect(n[f] === 1, `${link}: ${f} was requested ${n[f] || 0} times (once: the glue takes the page's own request)`);
          console.log(`    ${link}: early text at ${seen.ms.toFixed(0)} ms, first frame at ${(await page.evaluate(() => window.labFirstFrameMs)).toFixed(0)} ms`);
        }
        expect(errors.length === 0, `${link}: page errors: ${errors.join("; ")}`);
        expect(await page.locator("#loading").count() === 0, `${link}: the early text stayed after the first frame`);
        await context.close();
      }
    }
  });


  test("early text: the gates view cold on fast 3G shows its shares and histograms before the first frame, as the mirror prints them, and the first frame has them too", async (site) => {
    for (const lang of ["en", "zh"]) {
      const link = `#v=1&view=gates&lang=${lang}`;
      const { context, page, errors, from } = await openColdOnFast3g(site, link, watchEarlyFigure);
      const seen = await page.evaluate(() => window.labEarlyFigureSeen);
      expect(seen, `${link}: no histograms before the app ran`);
      if (seen) {
        expect(seen.beforeFirstFrame && seen.onScreen, `${link}: the histograms came after the first frame or off screen`);
        // One bar group per layer the app shows, each with the panel's 31 bars.
        const layers = (seen.text.match(/\((precomputed|预先计算)\)/g) || []).length;
        expect(layers === 3 && seen.groups.length === 3, `${link}: ${layers} rows and ${seen.groups.length} bar groups (3 each)`);
        for (const g of seen.groups) expect(g.bars === 31, `${link}: layer ${g.layer} has ${g.bars} bars (31)`);
        // Below the title, the early text is the app's mirror from the manifest: every share, the summary.
        const body = seen.text.slice(seen.text.indexOf("\n") + 1);
        await page.waitForFunction((b) => document.getElementById("lab-text").textContent.includes(b), body, { timeout: LIVE_TIMEOUT })
          .catch(() => {});
        const app = await mirror(page);
        expect(app.includes(body), `${link}: the early rows are not in the mirror:\n${seen.text}\n---\n${app}`);
        expect(app.startsWith(seen.text.slice(0, seen.text.indexOf("\n") + 1)), `${link}: another title`);
        // The manifest was in before the wasm: the app's first frame already shows its histograms.
        const first = await page.evaluate(() => window.labFirstMirror);
        expect(layers === ((first || "").match(/\((precomputed|预先计算)\)/g) || []).length,
               `${link}: the first frame did not show the precomputed histograms:\n${first}`);
        const n = counts(site.log, from);
        expect(n["/packs/default/manifest.json"] === 1, `${link}: the manifest was requested ${n["/packs/default/manifest.json"] || 0} times (once)`);
        console.log(`    ${link}: histograms at ${seen.ms.toFixed(0)} ms, first frame at ${(await page.evaluate(() => window.labFirstFrameMs)).toFixed(0)} ms`);
      }
      expect(errors.length === 0, `${link}: page errors: ${errors.join("; ")}`);
      await context.close();
    }
  });

  // A student's phone on a teacher's class link (ans=): the teacher's page on the built-in model
  // computes the rule book (the city unit picked and switched off) and adds it to the link; cold on
  // fast 3G the student's early text (swiglu_text_class_LANG.wasm) prints those numbers before the
  // first frame, exactly as the app's mirror then does, and nothing of the model is fetched.
  test("early text: a class link (ans=) cold on fast 3G prints the teacher's numbers before the first frame, as the mirror does (en, zh; screenshot)", async (site) => {
    const teacher = await openPage(site, "#v=1&view=rules&layer=23&unit=75&off=23:75");
    await waitForMirror(teacher, "writes toward", LIVE_TIMEOUT);
    await teacher.waitForFunction(() => window.labItemRect && window.labItemRect("class-add"), null, { timeout: LIVE_TIMEOUT });
    const r = await teacher.evaluate(() => window.labItemRect("class-add"));
    await teacher.mouse.click(r.x + r.w / 2, r.y + r.h / 2);
    await teacher.waitForFunction(() => location.hash.includes("ans="), null, { timeout: LIVE_TIMEOUT });
    const taught = await teacher.evaluate(() => location.hash);
    const before = (await mirror(teacher)).match(/[0-9.]+ % → [0-9.]+ %/)[0];  // "20.9 % → 3.5 %", in either language
    await teacher.context().close();
    for (const lang of ["en", "zh"]) {
      const link = taught.replace(/&lang=[a-z]+/, "") + `&lang=${lang}`;
      const { context, page, errors, from } = await openColdOnFast3g(site, link, watchEarlyText);
      await page.waitForFunction((t) => document.getElementById("lab-text").textContent.includes(t), before, { timeout: LIVE_TIMEOUT });
      const seen = await page.evaluate(() => window.labEarlySeen);
      expect(seen, `${lang}: no early text before the app ran`);
      if (seen) {
        expect(seen.beforeFirstFrame && seen.onScreen, `${lang}: the early text came after the first frame or off screen`);
        expect(seen.text.includes(before), `${lang}: the early text lacks the teacher's "${before}":\n${seen.text}`);
        const app = await mirror(page);
        expect(seen.text === app, `${lang}: the early text differs from the mirror:\n${seen.text}\n---\n${app}`);
        console.log(`    class link (${lang}): the teacher's numbers at ${seen.ms.toFixed(0)} ms, first frame at ${(await page.evaluate(() => window.labFirstFrameMs)).toFixed(0)} ms`);
      }
      const n = counts(site.log, from);
      expect(n[`/swiglu_text_class_${lang}.wasm`] === 1 && !n[`/swiglu_text_${lang}.wasm`], `${lang}: the class links' early module once: ${JSON.stringify(n)}`);
      const heavy = Object.keys(n).filter((f) => /swiglu_model|\/models\//.test(f));
      expect(heavy.length === 0, `${lang}: the student's page fetched the model: ${heavy.join(", ")}`);
      expect(errors.length === 0, `${lang}: page errors: ${errors.join("; ")}`);
      await context.close();
    }
    const { context, page } = await openBeforeWasm(site, "phone", taught.replace(/&lang=[a-z]+/, "") + "&lang=zh");
    await page.waitForFunction(() => window.labEarlyTextMs, null, { timeout: 20000 });
    expectIncludes(await page.locator("#lab-early").innerText(), "→", "the class link's early text on a phone");
    await shot(page, "early-text-class-zh-phone");
    await context.close();
  });

  // The built-in model's precomputed answers (models/synthetic/answers.txt): the rule book cold on
  // fast 3G shows the lesson's numbers before the first frame, marked as precomputed, as the app's
  // first frames then print them; the model still loads, and its own answer takes their place with
  // the same rows, unmarked.
  test("early text: the rule book cold on fast 3G shows the built-in model's precomputed numbers before the first frame, then the model's own, the same (en, zh)", async (site) => {
    const mark = { en: "Precomputed: ", zh: "预先算好：" };
    for (const lang of ["en", "zh"]) {
      const link = `#v=1&view=rules&lang=${lang}`;
      const { context, page, errors, from } = await openColdOnFast3g(site, link, watchEarlyTexts);
      const rows = (text) => text.slice(text.search(/Prompt: |提示词：/), text.search(/\n(Common questions|常见问题)/) + 1 || undefined);
      await page.waitForFunction((m) => document.getElementById("lab-text").textContent.includes(m), mark[lang], { timeout: LIVE_TIMEOUT });
      const precomputed = rows(await mirror(page));
      // Before the first frame: the early text with the precomputed mark and the same rows.
      const seen = (await page.evaluate(() => window.labEarlyTexts)).find((e) => e.text.includes(mark[lang]));
      expect(seen && seen.beforeFirstFrame && seen.onScreen, `${lang}: no precomputed numbers on screen before the first frame`);
      if (seen) {
        expect(rows(seen.text) === precomputed, `${lang}: the early rows differ from the app's:\n${rows(seen.text)}\n---\n${precomputed}`);
        console.log(`    rule book (${lang}): the precomputed numbers at ${seen.ms.toFixed(0)} ms, first frame at ${(await page.evaluate(() => window.labFirstFrameMs)).toFixed(0)} ms`);
      }
      expect(/\d+\.\d %/.test(precomputed), `${lang}: no numbers beside the precomputed mark:\n${precomputed}`);
      const n = counts(site.log, from);
      expect(n[`/swiglu_text_class_${lang}.wasm`] === 1 && n["/models/synthetic/answers.txt"] === 1,
             `${lang}: the class module and the answers once each: ${JSON.stringify(n)}`);
      // The model loads (on fast 3G: tens of seconds) and replaces them: same rows, no mark (once: the
      // rows' words are the same code in both languages).
      if (lang === "zh") {
        expect(errors.length === 0, `${lang}: page errors: ${errors.join("; ")}`);
        await context.close();
        continue;
      }
      await page.waitForFunction((m) => !document.getElementById("lab-text").textContent.includes(m), mark[lang], { timeout: 180000 });
      await waitForMirror(page, lang === "zh" ? "指向" : "writes toward", LIVE_TIMEOUT);
      const own = rows(await mirror(page));
      expect(own === precomputed, `${lang}: the model's own rows differ from the precomputed ones:\n${own}\n---\n${precomputed}`);
      expect(errors.length === 0, `${lang}: page errors: ${errors.join("; ")}`);
      await context.close();
    }
  });

  test("early text: the gates view's histograms on a phone and a laptop before the wasm (screenshots, en and zh)", async (site) => {
    for (const screen of ["desktop", "phone"]) {
      for (const lang of ["en", "zh"]) {
        const { context, page, width, height } = await openBeforeWasm(site, screen, `#v=1&view=gates&lang=${lang}`);
        await page.waitForFunction(() => window.labEarlyFigureMs, null, { timeout: 20000 });
        // One svg per layer, each on screen and wide enough that its 12-unit axis text is >= 9 px.
        const boxes = await page.$$eval("#lab-early-figure svg", (svgs) => svgs.map((e) => {
          const b = e.getBoundingClientRect();
          return { x: b.x, y: b.y, width: b.width, scale: b.width / e.viewBox.baseVal.width };
        }));
        expect(boxes.length === 3, `${boxes.length} histograms (3)`);
        for (const box of boxes) {
          expect(box.x >= 0 && box.x + box.width <= width + 1 && box.y < height, `a histogram does not fit the ${screen} screen: ${JSON.stringify(box)}`);
          expect(12 * box.scale >= 9, `the histograms' axis text is ${(12 * box.scale).toFixed(1)} px on the ${screen} screen (>= 9)`);
        }
        expectIncludes(await page.locator("#lab-early").innerText(), lang === "zh" ? "第 11 层" : "Layer 11", `the early text (${screen}, ${lang})`);
        await shot(page, `early-text-gates-${lang}-${screen}`);
        await context.close();
      }
    }
  });

  test("first load: the wasm and the manifest are asked for once each, as the early text arrives; no Chinese font in English", async (site) => {
    const from = site.log.length;
    const page = await openPage(site, "#v=1&view=gates");
    await page.waitForFunction(() => /: \((live|precomputed)\)/.test(document.getElementById("lab-text").textContent), null,
                               { timeout: LIVE_TIMEOUT });
    const n = counts(site.log, from);
    for (const f of ["/swiglu_lab.wasm", "/swiglu_lab.js", "/packs/default/manifest.json"])
      expect(n[f] === 1, `${f} was requested ${n[f] || 0} times (preloaded: once): ${JSON.stringify(n)}`);
    for (const f of Object.keys(n)) expect(!f.startsWith("/fonts/"), `an English page fetched the font ${f}`);
    // On loopback the js may run before the early text's answer: either asks, once. (On a slow link
    // both go as the early text's answer begins: the early-text test checks that.)
    const wasm = await timing(page, "swiglu_lab.wasm"), manifest = await timing(page, "manifest.json");
    expect(n["/swiglu_text_gates_en.wasm"] === 1 && !n["/swiglu_text_en.wasm"] && !n["/swiglu_text_gates_zh.wasm"],
           `the gates view's early text module of the page's language once: ${JSON.stringify(n)}`);
    expect(manifest.start < wasm.end, `the manifest was asked for at ${manifest.start} ms, after the wasm had arrived (${wasm.end} ms)`);
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  test("first load: a Chinese link has its font (fetched once) before the first frame", async (site) => {
    const from = site.log.length;
    const page = await openPage(site, "#v=1&view=silu&lang=zh");
    const font = await timing(page, "fonts/ui-cjk.ttf");
    const firstFrame = await page.evaluate(() => window.labFirstFrameMs);
    expect(font && font.end <= firstFrame, `the Chinese font arrived at ${font && font.end} ms, after the first frame (${firstFrame} ms)`);
    expect(counts(site.log, from)["/fonts/ui-cjk.ttf"] === 1, "the Chinese font was not fetched exactly once");
    expectIncludes(await mirror(page), "SiLU 与 ReLU", "the mirror");
    // Switching an English page to Chinese fetches it too (once).
    const en = await openPage(site, "#v=1&view=silu&lang=en");
    const before = site.log.length;
    await en.evaluate(() => { location.hash = "#v=1&view=silu&lang=zh"; });
    await waitForMirror(en, "SiLU 与 ReLU");
    await en.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("fonts/ui-cjk.ttf")));
    expect(counts(site.log, before)["/fonts/ui-cjk.ttf"] === 1, "switching to Chinese did not fetch the Chinese font once");
    expect(page.labErrors.length + en.labErrors.length === 0, "page errors: " + page.labErrors.concat(en.labErrors).join("; "));
    await page.context().close();
    await en.context().close();
  });

  test("serve.mjs sends the build's .br to a browser that accepts brotli, .gz to one that accepts gzip, else the file", async (site) => {
    for (const f of ["swiglu_lab.wasm", "swiglu_lab.js", "index.html", "swiglu_text_en.wasm", "swiglu_text_zh.wasm", "swiglu_text_gates_en.wasm", "swiglu_text_class_en.wasm"]) {
      const raw = fs.readFileSync(path.join(site.dir, f));
      const br = await get(site.base + f, "gzip, deflate, br");
      expect(br.headers["content-encoding"] === "br", `${f}: ${br.headers["content-encoding"]} for a browser accepting br`);
      expect(br.body.equals(fs.readFileSync(path.join(site.dir, f + ".br"))), `${f}: not the build's .br file`);
      expect(zlib.brotliDecompressSync(br.body).equals(raw), `${f}: the .br file does not decompress to the file`);
      const gz = await get(site.base + f, "gzip");
      expect(gz.headers["content-encoding"] === "gzip", `${f}: ${gz.headers["content-encoding"]} for a browser accepting gzip`);
      expect(zlib.gunzipSync(gz.body).equals(raw), `${f}: the .gz file does not decompress to the file`);
      const plain = await get(site.base + f, "identity");
      expect(!plain.headers["content-encoding"] && plain.body.equals(raw), `${f}: not sent as is without Accept-Encoding`);
    }
  });
}
