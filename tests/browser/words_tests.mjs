// Browser tests of what the page says, each in English and Chinese through #lab-text
// (and #lab-notice) and the screen (window.labItems): a shorter typed sentence moves the changed
// token quietly, in words about the sentence; ids= without text= shows what is computed; a
// cancelled per-token view never says "loading it"; the quiz's score is in the mirror; link values
// are said in words (all tokens, 0); a character split across tokens shows its bytes; a user name
// and password never stay in the header or the link; a glossary definition by keyboard beside its
// term; the whole model's bar labelled. Screenshots desktop and phone.
import { openPage, mirror, notice, hash, waitForMirror, clickItem, settledItems, printed, tabTo, bringIntoView,
  typeInField, SLOW_LINK, PHONE } from "./browser.mjs";
import { startHub, smallCheckpointRoot } from "./hub.mjs";

const LIVE_TIMEOUT = 60000;
const W = {
  en: { live: "(live)", refit: "Your sentence has 2 token(s): the per-token view now changes token 1, its last.",
        cancelled: "its loading was cancelled; press Load it above", loading: "loading it.",
        score: (n) => `${n} of 12 answered right in this browser`, right: "answered right: 1",
        allTokens: "showing all tokens.", thr: "using 0, the nearest allowed value.",
        split: "holds part of a character split across tokens", credentials: "carried a user name or password",
        probe: "Probe sentence: \"#5 #3 #7\" (3)", norms: "norms 0.0067 %" },
  zh: { live: "(实时)", refit: "你的句子有 2 个 token：逐 token 视图现在改动最后一个，第 1 个。",
        cancelled: "加载已取消；请按上方的“继续加载”", loading: "正在加载。",
        score: (n) => `在这个浏览器里答对 ${n} / 12 题`, right: "已答对：1",
        allTokens: "改为显示 全部 token。", thr: "改用最接近的允许值 0。",
        split: "只含一个被拆到几个 token 里的字符的一部分", credentials: "带有用户名或密码",
        probe: "探针句子：\"#5 #3 #7\" (3)", norms: "归一化 0.0067 %" },
};


export function registerWordsTests(test, { expect, expectIncludes, shot, cli }) {
  const withHub = async (fn) => {
    const h = await startHub(smallCheckpointRoot(cli));
    try { await fn(h, `${h.base}/swiglu-lab/small/resolve/main/`); } finally { h.hub.close(); }
  };
  const typeSentence = (page, text) => typeInField(page, "sentence-input", text);

  for (const lang of ["en", "zh"]) {
    const w = W[lang];
    // [SECTION] items 9, 10 and 14: the sentence
    test(`words ${lang}: a shorter sentence moves tok quietly; ids= alone shows its ids; a split character its bytes`, async (site) => {
      await withHub(async (h, model) => {
        const page = await openPage(site, `#v=1&view=perm&tok=2&lang=${lang}&model=${model}`);
        await waitForMirror(page, "perm = [", LIVE_TIMEOUT);
        await typeSentence(page, "Hi");
        await page.waitForFunction(() => /[#&]text=Hi(&|$)/.test(location.hash), null, { timeout: LIVE_TIMEOUT });
        await waitForMirror(page, w.refit, LIVE_TIMEOUT);
        expect((await notice(page)) === "", `a link notice about a key nobody set: ${await notice(page)}`);
        expectIncludes(await hash(page), "tok=1", "the link");
        expect(await printed(page, w.refit), "the sentence's words are not on screen");
        await shot(page, `words-refit-${lang}-desktop`);
        // A character split across tokens (猫: no merge of the test tokenizer joins its 3 bytes): its
        // bytes, and what they are. (Qwen3's own tokenizer splits 公 in "Hi 公园" so.)
        await typeSentence(page, "Hi 猫");
        await page.waitForFunction(() => /[#&]text=Hi/.test(location.hash) && /%3C|</.test(decodeURIComponent(location.hash)), null, { timeout: LIVE_TIMEOUT });
        await waitForMirror(page, w.split, LIVE_TIMEOUT);
        const text = await mirror(page);
        expect(!text.includes("\uFFFD"), "a replacement character in the mirror:\n" + text);
        expect(/<e7( 8c)?>/.test(text), "no bytes shown for 猫:\n" + text);
        expect(await printed(page, w.split), "the bytes' explanation is not on screen");
        await shot(page, `words-split-bytes-${lang}-desktop`);
        await page.context().close();
        // ids= without text=: what is computed, not "" and not the lesson's sentence.
        const ids = await openPage(site, `#v=1&view=perm&lang=${lang}&model=${model}&ids=5,3,7`, PHONE);
        await waitForMirror(ids, w.probe, LIVE_TIMEOUT);
        expect(await printed(ids, "#5 #3 #7"), "the probe's ids are not on screen");
        await shot(ids, `words-ids-only-${lang}-phone`);
        await ids.context().close();
      });
    });

    // [SECTION] item 11: after Cancel
    test(`words ${lang}: after Cancel the per-token view says so, never "loading it"`, async (site) => {
      // A slow link, so that there is a download to cancel.
      const page = await openPage(site, `#v=1&view=gates&lang=${lang}`, { ...PHONE, network: SLOW_LINK });
      await waitForMirror(page, "MiB", LIVE_TIMEOUT);  // loading (on a phone the header is under the figure)
      const c = await bringIntoView(page, "stream-cancel", { phone: true, height: PHONE.height });
      await page.touchscreen.tap(c.x + c.w / 2, c.y + c.h / 2);
      const v = await bringIntoView(page, "view-perm", { phone: true, height: PHONE.height });
      await page.touchscreen.tap(v.x + v.w / 2, v.y + v.h / 2);
      await waitForMirror(page, w.cancelled, LIVE_TIMEOUT);
      expect(!(await mirror(page)).includes(w.loading), "the mirror still says loading");
      expect(await printed(page, w.cancelled), "the cancelled line is not on screen");
      expect(!(await printed(page, w.loading)), "'loading it' is on screen");
      await shot(page, `words-cancelled-${lang}-phone`);
      await page.context().close();
    });

    // [SECTION] items 12 and 13: the quiz's score; values in words
    test(`words ${lang}: the quiz's score in the mirror; htok=99 and thr=-1 said in words`, async (site) => {
      const page = await openPage(site, `#v=1&view=quiz&quiz=odot&lang=${lang}`);
      await waitForMirror(page, w.score(0));
      for (const o of ["A", "B", "C"]) await clickItem(page, `quiz-option-${o}`);
      await waitForMirror(page, w.score(1));
      await waitForMirror(page, w.right);
      await page.context().close();
      const live = await openPage(site, `#v=1&view=gates&htok=99&thr=-1&lang=${lang}`, PHONE);
      await live.waitForFunction((t) => document.getElementById("lab-notice").textContent.includes(t), w.allTokens, { timeout: LIVE_TIMEOUT });
      const n = await notice(live);
      expectIncludes(n, w.thr, "the notice");
      expect(!/-1\.|-1。|显示 -1/.test(n), "an internal -1 in the notice: " + n);
      await shot(live, `words-values-${lang}-phone`);
      await live.context().close();
    });

    // [SECTION] item 15: credentials in model=
    test(`words ${lang}: a user name and password in model= are removed from the link and the header`, async (site) => {
      await withHub(async (h, model) => {
        const secret = model.replace("http://", "http://u:p@");
        const page = await openPage(site, `#v=1&view=gates&lang=${lang}&model=${secret}`);
        await waitForMirror(page, w.live, LIVE_TIMEOUT);
        expect(!(await hash(page)).includes("u:p"), "the link keeps the credentials");
        expect(!(await mirror(page)).includes("u:p"), "the header shows the credentials");
        const n = await notice(page);
        expectIncludes(n, w.credentials, "the notice");
        expect(!n.includes("u:p"), "the notice repeats the credentials");
        expect(!(await settledItems(page)).some((it) => it.text.includes("u:p")), "the credentials are on screen");
        await shot(page, `words-credentials-${lang}-desktop`);
        await page.context().close();
      });
    });

    // [SECTION] item 16: the glossary by keyboard; the whole model's bar
    test(`words ${lang}: a definition shown by the keyboard's focus sits beside its term; the model bar is labelled`, async (site) => {
      const page = await openPage(site, `#v=1&view=hand&lang=${lang}`);
      await page.mouse.move(300, 30);  // the pointer resting on the view buttons
      expect(await tabTo(page, "gloss-swiglu") === "gloss-swiglu", "Tab never reached the marked term");
      await page.waitForFunction(() => window.labItemRect("glossary-tooltip"));
      const [tip, term] = await page.evaluate(() => [window.labItemRect("glossary-tooltip"), window.labItemRect("gloss-swiglu")]);
      const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
      expect(!overlap(tip, term), `the definition covers its term: ${JSON.stringify(tip)} over ${JSON.stringify(term)}`);
      for (const it of await settledItems(page))
        if (it.name.startsWith("view-")) expect(!overlap(tip, { x: it.x0, y: it.y0, w: it.x1 - it.x0, h: it.y1 - it.y0 }), `the definition covers ${it.name}`);
      await shot(page, `words-glossary-focus-${lang}-desktop`);
      await page.context().close();
      for (const screen of [{}, PHONE]) {
        const budget = await openPage(site, `#v=1&view=budget&lang=${lang}`, screen);
        await waitForMirror(budget, "0.0067 %");
        expect(!/(^|[^0-9])0\.0 %/.test(await mirror(budget)), "a share reads 0.0 %");
        // Scrolled to the bar: its labels on screen.
        const bar = await budget.evaluate(() => window.labItemRect("model-bar"));
        await budget.mouse.move(100, 300);
        await budget.mouse.wheel(0, Math.max(0, bar.y - 200));
        await budget.waitForFunction((t) => window.labItems().some((it) => it.name === "label:" + t && it.reachable), w.norms);
        await shot(budget, `words-model-bar-${lang}-${screen.phone ? "phone" : "desktop"}`);
        await budget.context().close();
      }
    });
  }
}
