// Browser tests that a failed model never strands a student, and of paths and history:
// a model= that cannot be opened offers the built-in weights (every other setting kept) and the
// bare address never reopens it; a locked link offers no other weights and no Clear; ids= outside
// the model's vocabulary fall back to the lesson's sentence with words about the id; the app's
// wasm failing to load keeps the early text and says so in the page's language with a Retry; a
// change of view is a history entry (Back); a path that names a view twice reaches its end; a
// quiz's view button off a locked path comes back; "Start the lesson" keeps the keyboard's focus.
// Screenshots desktop and phone, en and zh. The checkpoints are make_checkpoint's small ones,
// --unmarked (a real model: the lesson's sentence through its tokenizer.json), on a Hub-like host.
import { openPage, mirror, notice, hash, waitForMirror, clickItem, settledItems, printed, tabTo, WAIT_TIMEOUT, PHONE } from "./browser.mjs";
import { startHub, smallCheckpointRoot } from "./hub.mjs";

const LIVE_TIMEOUT = 60000;
const WORDS = {
  en: { builtin: "Use the built-in weights", failed: "Could not open the weights at", live: "(live)",
        refused: (id, last) => `Link key 'ids': token id ${id} is outside this model's vocabulary (0..${last}): showing the lesson's sentence instead.`,
        wasm: "Could not load swiglu_lab.wasm", retry: "Retry", path: "Lesson path: ", off: "This view is not on the lesson path" },
  zh: { builtin: "改用内置权重", failed: "无法打开位于", live: "(实时)",
        refused: (id, last) => `链接参数 'ids'：token id ${id} 超出这个模型的词表（0..${last}）：改为显示课程的句子。`,
        wasm: "无法加载 swiglu_lab.wasm", retry: "重试", path: "课程路线：", off: "这个视图不在课程路线上" },
};

const names = async (page) => new Set((await settledItems(page)).map((it) => it.name).filter(Boolean));

export function registerRecoveryTests(test, { expect, expectIncludes, shot, cli }) {
  // The browser logs a refused request itself; nothing else may appear.
  const unexpected = (page) => page.labErrors.filter((e) => !/Failed to load|net::ERR_|status of 404/.test(e));

  // [SECTION] item 1: a model that cannot be opened
  for (const lang of ["en", "zh"])
    test(`failed model ${lang}: the built-in weights are offered, every setting kept; the bare address does not reopen it`, async (site) => {
      const w = WORDS[lang];
      for (const screen of [{}, PHONE]) {
        const where = screen.phone ? "phone" : "desktop";
        // An unreachable host (the Hub blocked, a school's firewall): nothing answers on port 9.
        const page = await openPage(site, `#v=1&view=gates&lang=${lang}&thr=0.2&pl=0,23&model=http://127.0.0.1:9/blocked/`, screen);
        await waitForMirror(page, w.failed, LIVE_TIMEOUT);
        expect(await printed(page, w.failed), `${where}: the failure is not on screen`);
        expect((await names(page)).has("stream-use-default"), `${where}: no way back to the built-in weights`);
        await shot(page, `recovery-failed-model-${lang}-${where}`);
        // The bare address (a reload of the site): the same view on the built-in weights.
        const stored = await page.evaluate(() => localStorage.getItem("swiglu-lab.last-view"));
        expect(!stored.includes("model=http"), `${where}: the failing model is stored to reopen: ${stored}`);
        await clickItem(page, "stream-use-default");
        await page.waitForFunction(() => /[#&]model=(&|$)/.test(location.hash));
        await waitForMirror(page, w.live, LIVE_TIMEOUT);
        const link = await hash(page);
        for (const kept of ["view=gates", "thr=0.2", "pl=0,23", `lang=${lang}`]) expectIncludes(link, kept, `${where}: the link after the way back`);
        await shot(page, `recovery-builtin-${lang}-${where}`);
        expect(unexpected(page).length === 0, "page errors: " + unexpected(page).join("; "));
        await page.context().close();
      }
      // A fresh visit to the bare address after a failure opens the view on the built-in weights.
      const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(site.base + `#v=1&view=perm&tok=3&lang=${lang}&model=http://127.0.0.1:9/blocked/`);
      await page.waitForSelector("body[data-lab-ready]");
      await waitForMirror(page, w.failed, LIVE_TIMEOUT);
      await page.goto(site.base);
      await page.waitForSelector("body[data-lab-ready]");
      await page.waitForFunction(() => /[#&]view=perm/.test(location.hash));
      const bare = await hash(page);
      expect(!bare.includes("model=http") && bare.includes("tok=3"), `the bare address reopened ${bare}`);
      await context.close();
    });

  // [SECTION] item 2: a locked link keeps the teacher's weights
  test("lock=1: no real-model offer and no Clear cache (en, zh); unlocked, both are there", async (site) => {
    for (const lang of ["en", "zh"]) {
      const open = await openPage(site, `#v=1&view=gates&lang=${lang}`);
      await waitForMirror(open, WORDS[lang].live, LIVE_TIMEOUT);
      const free = await names(open);
      expect(free.has("model-offer") && free.has("cache-clear"), `${lang}: unlocked, the offer or Clear is missing`);
      await open.context().close();
      const page = await openPage(site, `#v=1&view=gates&lang=${lang}&path=gates,quiz&lock=1`, PHONE);
      await waitForMirror(page, WORDS[lang].live, LIVE_TIMEOUT);
      const locked = await names(page);
      expect(!locked.has("model-offer") && !locked.has("cache-clear"), `${lang}: a locked link offers other weights or Clear`);
      expect(!(await mirror(page)).includes(lang === "en" ? "Opens " : "打开真实权重"), `${lang}: the mirror offers other weights`);
      await shot(page, `recovery-locked-${lang}-phone`);
      await page.context().close();
    }
  });

  // [SECTION] item 3: ids= the model cannot read
  for (const lang of ["en", "zh"])
    test(`ids= outside the vocabulary ${lang}: the lesson's sentence, and the id named`, async (site) => {
      const h = await startHub(smallCheckpointRoot(cli));
      try {
        const model = `${h.base}/swiglu-lab/small/resolve/main/`;
        const page = await openPage(site, `#v=1&view=gates&lang=${lang}&model=${model}&ids=5,99999,7`);
        await page.waitForFunction((t) => document.getElementById("lab-notice").textContent.includes(t), WORDS[lang].refused(99999, 511),
                                   { timeout: LIVE_TIMEOUT }).catch(async () => { throw new Error("notice: " + await notice(page)); });
        await waitForMirror(page, WORDS[lang].live, LIVE_TIMEOUT);
        const text = (await mirror(page)) + (await notice(page));
        for (const wrong of ["config.json", "swiglu tokenize", "add ids="]) expect(!text.includes(wrong), `the page says "${wrong}":\n${text}`);
        expect(!(await hash(page)).includes("ids=5"), "the link still carries the refused ids");
        expect(await printed(page, WORDS[lang].refused(99999, 511)), "the notice is not on screen");
        await shot(page, `recovery-ids-refused-${lang}-desktop`);
        expect(unexpected(page).length === 0, "page errors: " + unexpected(page).join("; "));
        await page.context().close();
      } finally {
        h.hub.close();
      }
    });

  // [SECTION] item 4: the app's wasm does not arrive
  for (const [lang, screen] of [["zh", PHONE], ["en", {}]])
    test(`the app's wasm fails to load (${lang}): the early text stays, the page says so in its language, Retry works`, async (site) => {
      const w = WORDS[lang];
      const context = await site.browser.newContext({ viewport: { width: screen.width || 1280, height: screen.height || 800 },
                                                       isMobile: !!screen.phone, hasTouch: !!screen.phone, deviceScaleFactor: screen.scale || 1 });
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      let blocked = true;
      await page.route("**/swiglu_lab.wasm", (route) => (blocked ? route.abort("internetdisconnected") : route.continue()));
      await page.goto(site.base + `#v=1&view=hand&step=5&lang=${lang}`, { waitUntil: "domcontentloaded" });
      await page.waitForFunction(() => !document.getElementById("fatal").hidden, null, { timeout: 20000 });
      const fatal = await page.locator("#fatal").innerText();
      expectIncludes(fatal, w.wasm, "the failure message");
      expectIncludes(fatal, w.retry, "the failure message's button");
      expect(await page.locator("#fatal").getAttribute("lang") === (lang === "zh" ? "zh-CN" : "en"), "the message is not marked in the page's language");
      await page.waitForFunction(() => window.labEarlyTextMs, null, { timeout: 20000 });
      expectIncludes(await page.locator("#lab-early").innerText(), "y = [1.924234, -1.761594]", "the early text after the failure");
      const box = await page.locator("#lab-early").boundingBox();
      expect(box && box.height > 0, "the early text is no longer on screen");
      await shot(page, `recovery-wasm-failed-${lang}-${screen.phone ? "phone" : "desktop"}`);
      expect(errors.length === 0, "uncaught page errors: " + errors.join("; "));
      blocked = false;  // back online
      await page.click("#fatal-retry");
      await page.waitForSelector("body[data-lab-ready]", { timeout: 30000 });
      await waitForMirror(page, "y = [1.924234, -1.761594]");
      expect(await page.locator("#fatal").isHidden(), "the failure stayed after Retry worked");
      expect(errors.length === 0, "uncaught page errors: " + errors.join("; "));
      await context.close();
    });

  // [SECTION] item 8: Back returns to the view before
  test("history: a change of view is an entry, so Back returns to the view before (a drag is not)", async (site) => {
    const page = await openPage(site, "#v=1&view=hand&step=5");
    const length = () => page.evaluate(() => history.length);
    const start = await length();
    await clickItem(page, "view-silu");
    await waitForMirror(page, "SiLU(z)");
    await clickItem(page, "view-budget");
    await waitForMirror(page, "264,241,152");
    await clickItem(page, "preset-balanced");  // a change within the view
    await page.waitForFunction(() => location.hash.includes("f=2731"));
    expect(await length() === start + 2, `history grew by ${(await length()) - start} entries (2 views)`);
    await page.goBack();
    await waitForMirror(page, "SiLU(z) = -0.268941");
    expectIncludes(await hash(page), "view=silu", "the link after Back");
    await page.goBack();
    await waitForMirror(page, "y = [1.924234, -1.761594]");
    await page.goForward();
    await waitForMirror(page, "SiLU(z)");
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  // [SECTION] items 5 and 6: a path reaches its end; a view off the path comes back
  for (const lang of ["en", "zh"])
    test(`lesson path ${lang}: hand,silu,hand,quiz reaches the quiz; a quiz's view button off the path returns with Next`, async (site) => {
      const w = WORDS[lang];
      const page = await openPage(site, `#v=1&view=hand&path=hand,silu,hand,quiz&lock=1&quiz=shuffle&lang=${lang}`, PHONE);
      const seen = [];
      for (let i = 0; i < 3; i++) {
        await clickItem(page, "path-next");
        await page.waitForFunction((n) => new RegExp(`[#&]at=${n}(&|$)`).test(location.hash), i + 1);
        seen.push(/[#&]view=(\w+)/.exec(await hash(page))[1]);
      }
      expect(seen.join(",") === "silu,hand,quiz", `Next went ${seen.join(",")} (silu,hand,quiz)`);
      await waitForMirror(page, w.path + (lang === "en" ? "4 of 4" : "第 4 个，共 4 个"));
      // The shuffle question is computed by the per-token view: its button leads off the path.
      await clickItem(page, "quiz-answer");
      await page.keyboard.type("0");
      await page.keyboard.press("Enter");
      await clickItem(page, "quiz-open-source");
      await page.waitForFunction(() => /[#&]view=perm/.test(location.hash));
      await waitForMirror(page, w.off);
      expect(await printed(page, w.off), "the off-path line is not on screen");
      await shot(page, `path-off-${lang}-phone`);
      await clickItem(page, "path-next");
      await page.waitForFunction(() => /[#&]view=quiz/.test(location.hash) && /[#&]at=3(&|$)/.test(location.hash));
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });

  // [SECTION] item 7: "Start the lesson" from the keyboard
  test("start the lesson by keyboard: step 0, and the focus on the step's Next (not lost)", async (site) => {
    const page = await openPage(site, "#v=1&view=hand&step=5&lang=en");
    expect(await tabTo(page, "lesson-start") === "lesson-start", "Tab never reached Start the lesson");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => location.hash.includes("path=hand,silu"));
    await waitForMirror(page, "Step 0 of 5");
    expect(!(await mirror(page)).includes("y = ["), "the lesson starts with the answer shown");
    await page.waitForFunction(() => window.labFocused() === "next", null, { timeout: WAIT_TIMEOUT })
      .catch(async () => { throw new Error(`the focus is on "${await page.evaluate(() => window.labFocused())}"`); });
    await page.keyboard.press("Enter");
    await waitForMirror(page, "Step 1 of 5");
    await shot(page, "lesson-start-keyboard-desktop");
    await page.context().close();
  });
}
