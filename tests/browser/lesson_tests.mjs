// Browser tests of the lesson around the views: quiz answers right and wrong in both
// languages (choices, typed numbers, a live question whose answer is computed from the default
// pack), progress kept in this browser and reset, a teacher's link with path=, lock=1 and
// ui=present walked with Next on a laptop and a phone, the glossary and the common questions,
// every number and control reachable; screenshots desktop and phone, en and zh.
import { PHONE, openPage, mirror, hash, waitForMirror, clickItem, tabTo, typeInField, settledItems, printed, scrollThrough as scrollAll } from "./browser.mjs";

const LIVE_TIMEOUT = 60000;
const SCREENS = [
  { name: "phone", ...PHONE },
  { name: "desktop", width: 1280, height: 800 },
];
const WORDS = {
  en: { right: "Right.", wrong: "Not this one.", unreadable: "Type a number", step: (i, n) => `${i} of ${n}` },
  zh: { right: "答对了。", wrong: "不对。", unreadable: "请输入一个数", step: (i, n) => `第 ${i} 个，共 ${n} 个` },
};

const GLOSSARY_WORDS = {
  en: { opened: "Glossary: SwiGLU — ", def: "The gated MLP of Qwen", silu: "Glossary: SiLU — " },
  zh: { opened: "术语：SwiGLU — ", def: "Qwen、Llama 等多数开源模型使用的门控 MLP", silu: "术语：SiLU — " },
};

export function registerLessonTests(test, { expect, expectIncludes, shot }) {
  // [SECTION] glossary terms marked in the views' prose: tap (phone), hover and keyboard (laptop)
  for (const lang of ["en", "zh"]) {
    const g = GLOSSARY_WORDS[lang];
    test(`glossary ${lang}, phone: a tap on a marked term opens its definition in a popup; a tap elsewhere closes it`, async (site) => {
      const screen = SCREENS[0];
      const page = await openPage(site, `#v=1&view=hand&lang=${lang}`, screen);
      await settledItems(page);
      expect(!(await mirror(page)).includes(g.opened), "a definition in the mirror before any tap");
      const r = await page.evaluate(() => window.labItemRect("gloss-swiglu"));
      expect(r, "the hand calculation's intro does not mark SwiGLU");
      await page.touchscreen.tap(r.x + r.w / 2, r.y + r.h / 2);
      await waitForMirror(page, g.opened);
      const popup = await page.evaluate(() => window.labItemRect("glossary-popup"));
      expect(popup && popup.x >= 0 && popup.x + popup.w <= screen.width, `the popup is not on the phone's screen: ${JSON.stringify(popup)}`);
      expect(await printed(page, g.def), "the popup does not print the definition");
      await shot(page, `phone-${lang}-glossary-popup`);
      await page.touchscreen.tap(4, screen.height - 60);
      await page.waitForFunction((t) => !document.getElementById("lab-text").textContent.includes(t), g.opened);
      expect(!(await page.evaluate(() => window.labItemRect("glossary-popup"))), "the popup stayed open");
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });
    test(`glossary ${lang}, desktop: hover shows a definition, Tab and Enter open one`, async (site) => {
      const page = await openPage(site, `#v=1&view=hand&lang=${lang}`, SCREENS[1]);
      await settledItems(page);
      const r = await page.evaluate(() => window.labItemRect("gloss-silu"));
      expect(r, "the hand calculation's intro does not mark silu");
      await page.mouse.move(r.x + r.w / 2, r.y + r.h / 2);
      await page.waitForFunction(() => window.labItems().some((it) => it.text.startsWith("The activation z") || it.text.startsWith("激活函数 z")));
      expect(!(await mirror(page)).includes(g.silu), "hovering put the definition in the mirror");
      await shot(page, `desktop-${lang}-glossary-hover`);
      await page.mouse.move(1270, 790);
      expect(await tabTo(page, "gloss-swiglu", { limit: 40 }) === "gloss-swiglu", "Tab never reached the marked term");
      await page.keyboard.press("Enter");
      await waitForMirror(page, g.opened);
      await settledItems(page);
      await shot(page, `desktop-${lang}-glossary-keyboard`);
      await page.keyboard.press("Enter");
      await page.waitForFunction((t) => !document.getElementById("lab-text").textContent.includes(t), g.opened);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });
  }
  test("start the lesson: the first view opens the lessons' reading order as a path", async (site) => {
    const page = await openPage(site, "#v=1&view=hand&lang=en", SCREENS[0]);
    await settledItems(page);
    await clickItem(page, "lesson-start");
    await page.waitForFunction(() => location.hash.includes("path=hand,silu,budget,flow,gates,perm,weights,rules,quiz"));
    await settledItems(page);
    await shot(page, "phone-en-lesson-start");
    await clickItem(page, "path-next");
    await page.waitForFunction(() => location.hash.includes("view=silu"));
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  // Scrolled top to bottom with the wheel: every record reachable; returns what was seen.
  async function scrollThrough(page, what, screen) {
    const { texts, names } = await scrollAll(page, what, screen, (m) => expect(false, m));
    return { texts: texts.join("\n"), names };
  }
  const typeAnswer = (page, text) => typeInField(page, "quiz-answer", text);
  const stored = (page) => page.evaluate(() => localStorage.getItem("swiglu-lab.quiz") || "");

  for (const lang of ["en", "zh"])
    test(`quiz ${lang}: choices and typed numbers, right and wrong, kept in this browser and reset`, async (site) => {
      const w = WORDS[lang];
      const page = await openPage(site, `#v=1&view=quiz&quiz=odot&lang=${lang}`);
      await waitForMirror(page, lang === "en" ? "Question 1 / 12" : "第 1 / 12 题");
      await clickItem(page, "quiz-option-A");  // a matrix product
      await waitForMirror(page, w.wrong);
      await clickItem(page, "quiz-option-B");  // entry by entry
      await waitForMirror(page, w.right);
      expectIncludes(await mirror(page), "3584", "the explanation");
      expect((await stored(page)) === "odot=r", "storage: " + (await stored(page)));
      await shot(page, `quiz-${lang}-odot-right`);
      await clickItem(page, "quiz-q-bf16");
      await waitForMirror(page, "2");
      await typeAnswer(page, "44");
      await waitForMirror(page, w.wrong);
      await typeAnswer(page, "22");
      await waitForMirror(page, w.right);
      expectIncludes(await mirror(page), "22,020,096", "the explanation");
      await typeAnswer(page, "many");
      await waitForMirror(page, w.unreadable);
      await clickItem(page, "quiz-next");
      await typeAnswer(page, "528");
      await waitForMirror(page, "528.48 MB");
      await waitForMirror(page, w.right);
      await shot(page, `quiz-${lang}-bf16all-right`);
      // The link holds the question, never an answer.
      const h = await hash(page);
      expectIncludes(h, "quiz=bf16all", "URL");
      expect(!/=r\b|=w\b|528|odot=/.test(h.replace("quiz=bf16all", "")), "an answer leaked into the link: " + h);
      // Progress survives a reload; Reset clears it.
      await page.reload();
      await page.waitForSelector("body[data-lab-ready]");
      expect((await stored(page)).includes("bf16all=r"), "storage after reload: " + (await stored(page)));
      await clickItem(page, "quiz-reset");
      await page.waitForFunction(() => !localStorage.getItem("swiglu-lab.quiz"));
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });

  test("quiz: a live question's answer is computed from the default pack's weights", async (site) => {
    const page = await openPage(site, "#v=1&view=quiz&quiz=open&lang=en");
    await typeAnswer(page, "30");
    await waitForMirror(page, "open the Gate histograms view");
    await clickItem(page, "quiz-open-source");
    await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
    const share = Number(/Layer 0: \(live\) > 0\.1: ([0-9.]+) %/.exec(await mirror(page))[1]);
    await page.evaluate(() => { location.hash = "#v=1&view=quiz&quiz=open&lang=en"; });
    await waitForMirror(page, "In layer 0");
    await typeAnswer(page, (share + 0.8).toFixed(1));
    await waitForMirror(page, "Right.");
    expectIncludes(await mirror(page), share.toFixed(1) + " %", "the computed share");
    await typeAnswer(page, (share + 3).toFixed(1));
    await waitForMirror(page, "Not this one.");
    await shot(page, "quiz-en-live-open");
    // The per-token view computes the shuffle and the changed positions.
    await page.evaluate(() => { location.hash = "#v=1&view=perm&lang=zh"; });
    await waitForMirror(page, "恰好为 0", LIVE_TIMEOUT);
    await page.evaluate(() => { location.hash = "#v=1&view=quiz&quiz=change&lang=zh"; });
    await waitForMirror(page, "给第 2 个 token");
    await typeAnswer(page, "2");
    await waitForMirror(page, WORDS.zh.right);
    await typeAnswer(page, "2,3,4,5");
    await waitForMirror(page, WORDS.zh.wrong);
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  for (const screen of SCREENS)
    for (const lang of ["en", "zh"])
      test(`${screen.name} ${lang}: a teacher's link (path, lock=1, ui=present) walks the lesson; glossary and common questions`, async (site) => {
        const w = WORDS[lang];
        const path = "hand,silu,budget,gates,perm,quiz";
        // One link for the class: the projector (1280) draws it for a room, a phone (390) normally.
        const page = await openPage(site, `#v=1&view=hand&path=${path}&lock=1&ui=present&lang=${lang}`, screen);
        let seen = await scrollThrough(page, `${screen.name} ${lang} locked hand`, screen);
        expectIncludes(seen.texts, w.step(1, 6), "the path's place");
        expect(!seen.names.has("view-silu"), "view buttons shown while locked");
        expect(seen.names.has("path-explore"), "no explore-freely button");
        expect(seen.names.has("copy-link") === !!screen.phone, "a projector shows no link to copy; a phone does");
        expect(seen.names.has("x1"), "the hand calculation's numbers");
        await page.mouse.wheel(0, -20000);
        await settledItems(page);
        await shot(page, `${screen.name}-${lang}-lesson-hand`);
        const views = path.split(",");
        for (let i = 1; i < views.length; i++) {
          await page.mouse.move(screen.width / 2, screen.height / 2);
          await page.mouse.wheel(0, -20000);
          await settledItems(page);
          await clickItem(page, "path-next");
          await page.waitForFunction((v) => location.hash.includes(`&view=${v}&`) || location.hash.includes(`#v=1&view=${v}&`), views[i]);
          expectIncludes(await hash(page), "lock=1", "URL");
        }
        await settledItems(page);
        await shot(page, `${screen.name}-${lang}-lesson-quiz`);
        seen = await scrollThrough(page, `${screen.name} ${lang} locked quiz`, screen);
        expectIncludes(seen.texts, w.step(6, 6), "the path's place");
        await page.mouse.wheel(0, -20000);
        await settledItems(page);
        await clickItem(page, "path-explore");
        await page.waitForFunction(() => location.hash.includes("lock=0"));
        expectIncludes(await hash(page), "view=quiz", "URL after explore freely");
        await settledItems(page);
        await clickItem(page, "view-glossary");
        await waitForMirror(page, lang === "en" ? "residual stream" : "残差流");
        seen = await scrollThrough(page, `${screen.name} ${lang} glossary`, screen);
        expectIncludes(seen.texts, lang === "en" ? "int8 weights" : "int8 权重", "glossary");
        await page.mouse.wheel(0, -20000);
        await settledItems(page);
        await shot(page, `${screen.name}-${lang}-glossary`);
        // The budget view: the whole model, decode traffic, a common question opened.
        await page.evaluate((l) => { location.hash = `#v=1&view=budget&lang=${l}`; }, lang);
        await waitForMirror(page, "752,393,024");
        // Scrolled until the fold is in the middle of the screen, as a student would.
        for (let i = 0; i < 12; i++) {
          const r = await page.evaluate(() => window.labItemRect("faq-widen"));
          if (r && r.y > screen.height * 0.2 && r.y + r.h < screen.height * 0.8) break;
          await page.mouse.move(screen.width / 2, screen.height / 2);
          await page.mouse.wheel(0, r ? r.y - screen.height / 2 : screen.height * 0.5);
          await settledItems(page);
        }
        await clickItem(page, "faq-widen");
        await waitForMirror(page, lang === "en" ? "a wider middle holds more rules" : "中间越宽");
        await settledItems(page);
        await shot(page, `${screen.name}-${lang}-budget-model-faq`);
        seen = await scrollThrough(page, `${screen.name} ${lang} budget`, screen);
        for (const n of ["752,393,024", "35.1 %", "22.02 MB", "528.48 MB", "11.04 MB"]) expectIncludes(seen.texts, n, "budget");
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
        await page.context().close();
      });

  // [SECTION] ui=present on a live view: a projector shows the model and its status; the live
  // header's controls (probe, layers, the real model's offer, the cache) wait under "Explore
  // freely". A phone opening the same link keeps them.
  const HEADER_CONTROLS = ["model-offer", "layer-0", "layer-11"];
  for (const screen of SCREENS)
    for (const lang of ["en", "zh"])
      test(`${screen.name} ${lang}: ui=present's live header shows what a class reads; its controls under Explore freely`, async (site) => {
        const page = await openPage(site, `#v=1&view=gates&lang=${lang}&ui=present`, screen);
        await waitForMirror(page, lang === "en" ? "(live)" : "(实时)", LIVE_TIMEOUT);
        let names = new Set((await settledItems(page)).map((it) => it.name));
        await shot(page, `${screen.name}-${lang}-present-gates`);
        if (screen.phone) {
          for (const n of HEADER_CONTROLS) expect(names.has(n), `a phone lost the header's ${n}`);
          expect(!names.has("path-explore"), "a phone offers Explore freely with nothing hidden");
        } else {
          for (const n of HEADER_CONTROLS) expect(!names.has(n), `a projector shows the header's ${n}`);
          expect(names.has("path-explore"), "no Explore freely on the projector");
          await clickItem(page, "path-explore");
          names = new Set((await settledItems(page)).map((it) => it.name));
          for (const n of HEADER_CONTROLS) expect(names.has(n), `Explore freely did not bring back ${n}`);
          await shot(page, `${screen.name}-${lang}-present-gates-explored`);
        }
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
        await page.context().close();
      });
}
