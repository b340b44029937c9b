// Browser tests of typing a sentence for a checkpoint: the page loads its second wasm
// module (the core's tokenizer, in a worker) only when a sentence must be tokenized, fetches the
// checkpoint's tokenizer.json from the Hub-like host (tools/hub_server.mjs), shows the pieces as
// the tokens, and writes ids=, text= and pieces= into the link. A student who opens that link sees
// the same tokens and numbers, and neither the module nor tokenizer.json is fetched (counted at
// the two hosts). A model= link without ids= tokenizes the lesson's sentence; a checkpoint with no
// tokenizer.json says so. The checkpoints are make_checkpoint's, --unmarked (treated as real
// models, with no probe of their own) and small, with its lesson tokenizer.json.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPage, mirror, hash, waitForMirror, clickItem, settledItems, bringIntoView, softKeys, WAIT_TIMEOUT, PHONE } from "./browser.mjs";
import { startHub } from "./hub.mjs";

const LIVE_TIMEOUT = 60000;
const LESSON_TOKENS = "今天 | 天气 | 不错 | ， | 我们 | 去 | 公园";
const MODULE_FILES = /tokenizer_(loader\.js|wasm\.js|wasm\.wasm)/;


// The line of the mirror that lists the probe's tokens, and the histogram lines (the numbers).
const tokensLine = (text) => text.split("\n").find((l) => /"[^"]*" \(\d+\)/.test(l)) || "";
const liveLines = (text) => text.split("\n").filter((l) => /\((live|实时)\)/.test(l)).join("\n");
const LIVE = { en: "(live)", zh: "(实时)" };

// Both layers of the test checkpoints computed (the mirror shows "(live)" once each).
const waitAllLive = (page) => page.waitForFunction(() =>
  (document.getElementById("lab-text").textContent.match(/\((live|实时)\)/g) || []).length >= 2, null, { timeout: LIVE_TIMEOUT });

// What the page's paste handler receives from Ctrl+V.
export const pasteText = (page, text) => page.evaluate((t) => {
  const data = new DataTransfer();
  data.setData("text", t);
  window.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data }));
}, text);

export function registerTokenizerTests(test, { expect, shot, cli }) {
  const makeCkpt = path.join(path.dirname(cli), "make_checkpoint");
  let root = null;
  const ensureCheckpoints = () => {
    if (root) return root;
    root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-tok-"));
    const small = ["--hidden", "128", "--intermediate", "384", "--num-layers", "2", "--vocab", "512", "--unmarked"];
    execFileSync(makeCkpt, ["--out", path.join(root, "swiglu-lab", "with-tokenizer"), ...small]);
    execFileSync(makeCkpt, ["--out", path.join(root, "swiglu-lab", "no-tokenizer"), ...small, "--no-tokenizer"]);
    return root;
  };
  const moduleRequests = (site) => site.log.filter((e) => MODULE_FILES.test(e.path)).length;
  const tokenizerRequests = (h) => h.log.filter((e) => e.path.endsWith("/tokenizer.json")).length;

  test("tokenizer: model= without ids= tokenizes the lesson's sentence with the checkpoint's tokenizer.json", async (site) => {
    const h = await startHub(ensureCheckpoints());
    try {
      const before = moduleRequests(site);
      const page = await openPage(site, `#v=1&view=gates&model=${h.base}/swiglu-lab/with-tokenizer/resolve/main/`);
      await waitForMirror(page, LESSON_TOKENS, LIVE_TIMEOUT);
      await waitForMirror(page, "(live)", LIVE_TIMEOUT);
      expect(moduleRequests(site) > before, "the tokenizer module was not fetched");
      expect(tokenizerRequests(h) >= 1, "tokenizer.json was not asked of the host");
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    } finally {
      h.hub.close();
    }
  });

  for (const [lang, words] of [["en", "the checkpoint has no tokenizer.json"], ["zh", "这个检查点没有 tokenizer.json"]])
    test(`tokenizer ${lang}: a checkpoint without tokenizer.json says so`, async (site) => {
      const h = await startHub(ensureCheckpoints());
      try {
        const page = await openPage(site, `#v=1&lang=${lang}&view=gates&model=${h.base}/swiglu-lab/no-tokenizer/resolve/main/`);
        await waitForMirror(page, words, LIVE_TIMEOUT);
        const unexpected = page.labErrors.filter((e) => !/Failed to load|404/.test(e));
        expect(unexpected.length === 0, "page errors: " + unexpected.join("; "));
        await page.context().close();
      } finally {
        h.hub.close();
      }
    });

  const TYPED = { en: "Go to the park", zh: "今天我们去公园" };
  for (const lang of ["en", "zh"])
    test(`tokenizer ${lang}: a typed sentence goes into the link; the student's page shows the same without the tokenizer`, async (site) => {
      const h = await startHub(ensureCheckpoints());
      try {
        const model = `${h.base}/swiglu-lab/with-tokenizer/resolve/main/`;
        // English: a link with ids= already, so nothing of the tokenizer loads until Enter (the
        // module's first start comes from the box); Chinese: after the lesson's sentence was tokenized.
        const first = moduleRequests(site);
        const teacher = await openPage(site, `#v=1&lang=${lang}&view=gates&model=${model}` + (lang === "en" ? "&ids=1,2,3&text=three" : ""));
        await waitForMirror(teacher, LIVE[lang], LIVE_TIMEOUT);
        if (lang === "en") expect(moduleRequests(site) === first, "the tokenizer module was fetched before anyone typed");
        await clickItem(teacher, "sentence-input");
        await teacher.keyboard.press("Control+A");
        await teacher.keyboard.press("Backspace");
        // English typed key by key; Chinese pasted (typing it with an input method: the test below).
        if (lang === "en") await teacher.keyboard.type(TYPED[lang]);
        else await pasteText(teacher, TYPED[lang]);
        await teacher.keyboard.press("Enter");
        await teacher.waitForFunction(() => /[#&]ids=\d/.test(location.hash) && /[#&]pieces=[^&]/.test(location.hash), null, { timeout: LIVE_TIMEOUT });
        const link = await hash(teacher);
        expect(link.includes("text=" + TYPED[lang]), "the link lacks text=: " + link);
        await waitForMirror(teacher, `"${TYPED[lang]}"`, LIVE_TIMEOUT);
        await waitAllLive(teacher);
        const taught = await mirror(teacher);
        const tokens = tokensLine(taught);
        if (lang === "en") expect(tokens.endsWith("G | o |   | t | o |   | t | h | e |   | p | a | r | k"), "the pieces are not the tokenizer's: " + tokens);
        if (lang === "zh") expect(tokens.endsWith("今天 | 我们 | 去 | 公园"), "the pieces are not the tokenizer's: " + tokens);
        await shot(teacher, `tokenizer-typed-${lang}-desktop`);

        // The student: a fresh browser context opens the link; nothing of the tokenizer is fetched.
        const moduleBefore = moduleRequests(site), fileBefore = tokenizerRequests(h);
        const raw = await teacher.evaluate(() => location.hash);
        const student = await openPage(site, raw, lang === "zh" ? { width: 390, height: 844, phone: true } : {});
        await waitForMirror(student, tokens, LIVE_TIMEOUT);
        await waitAllLive(student);
        const seen = await mirror(student);
        expect(tokensLine(seen) === tokens, `the student sees ${tokensLine(seen)}, the teacher ${tokens}`);
        expect(liveLines(seen) === liveLines(taught), `numbers differ:\n${liveLines(seen)}\nvs\n${liveLines(taught)}`);
        expect(moduleRequests(site) === moduleBefore, "the student's page fetched the tokenizer module");
        expect(tokenizerRequests(h) === fileBefore, "the student's page fetched tokenizer.json");
        await shot(student, `tokenizer-student-${lang}-${lang === "zh" ? "phone" : "desktop"}`);
        expect(teacher.labErrors.length === 0 && student.labErrors.length === 0,
          "page errors: " + teacher.labErrors.concat(student.labErrors).join("; "));
        await teacher.context().close();
        await student.context().close();
      } finally {
        h.hub.close();
      }
    });

  // [SECTION] a sentence typed on a phone with its own keyboard
  // A phone's keyboard sends keyCode 229 for every key and edits the page's hidden field instead
  // (softKeys): its Backspace must delete in the box (a word at a time too: "xyz"), a Backspace
  // inside a word being composed only in that word, and its Enter must tokenize the sentence as a
  // desktop's Enter does.
  const PHONE_TYPED = {
    en: { keys: ["G", "o", " ", "t", "o", " ", "t", "h", "e", " ", ["compose", "p"], ["compose", "par"], ["compose", "parkk"],
                 "Backspace", "park", "s", "Backspace", " ", "x", "y", "z", "WordBackspace", "Backspace"],
          composed: "park", text: "Go to the park", tokens: "G | o |   | t | o |   | t | h | e |   | p | a | r | k" },
    zh: { keys: ["今天", ["compose", "wo"], ["compose", "womenn"], "Backspace", "我们", "去", "公园", "园", "Backspace"],
          composed: "women", text: "今天我们去公园", tokens: "今天 | 我们 | 去 | 公园" },
  };
  for (const lang of ["en", "zh"])
    test(`tokenizer ${lang} phone: a phone keyboard's Backspace (keyCode 229) and Enter edit and tokenize the sentence`, async (site) => {
      const h = await startHub(ensureCheckpoints());
      try {
        const model = `${h.base}/swiglu-lab/with-tokenizer/resolve/main/`;
        const page = await openPage(site, `#v=1&lang=${lang}&view=gates&model=${model}&ids=1,2,3&text=three`,
          PHONE);
        await waitForMirror(page, LIVE[lang], LIVE_TIMEOUT);
        // The box and its button fit the phone's width (no sideways scrolling to reach Apply).
        for (const name of ["sentence-input", "sentence-apply"]) {
          const r = await page.evaluate((n) => window.labItemRect(n), name);
          expect(r && r.x >= 0 && r.x + r.w <= 390, `${name} runs past the 390 px screen: ${JSON.stringify(r)}`);
        }
        // A tap at the box's right end (the caret after "three") brings up the keyboard, once the
        // student has scrolled to it (on a phone the gates view's figure comes first).
        // A swipe's momentum can still move the page when the tap lands: a person taps again.
        let up = false;
        for (let attempt = 0; attempt < 3 && !up; attempt++) {
          await bringIntoView(page, "sentence-input", { phone: true, height: 844 });
          await settledItems(page);
          const box = await page.evaluate(() => window.labItemRect("sentence-input"));
          const cdp = await page.context().newCDPSession(page);
          for (const type of ["touchStart", "touchEnd"])
            await cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x: box.x + box.w - 12, y: box.y + box.h / 2 }] });
          await cdp.detach();
          up = await page.waitForFunction(() => document.activeElement && document.activeElement.id === "lab-keyboard", null, { timeout: 10000 })
            .then(() => true, () => false);
        }
        expect(up, "a tap on the sentence box did not bring up the keyboard");
        const field = () => page.evaluate(() => document.getElementById("lab-keyboard").value);
        await softKeys(page, Array(5).fill("Backspace"));  // "three" deleted
        const { keys, composed, text, tokens } = PHONE_TYPED[lang];
        const at = keys.findIndex((k) => k === "Backspace");
        await softKeys(page, keys.slice(0, at + 1));
        expect(await field() === composed, `the composition is "${await field()}", not "${composed}", after its Backspace`);
        await softKeys(page, keys.slice(at + 1));
        expect(await field() === "", `the hidden field kept "${await field()}"`);
        await settledItems(page);
        await shot(page, `tokenizer-softkeys-typed-${lang}-phone`);
        await softKeys(page, ["Enter"]);
        await page.waitForFunction(() => /[#&]ids=\d/.test(location.hash) && /[#&]pieces=[^&]/.test(location.hash) && !/[#&]text=three/.test(location.hash),
          null, { timeout: LIVE_TIMEOUT }).catch(async () => { throw new Error("Enter did not tokenize the sentence: " + await hash(page)); });
        const link = await hash(page);
        expect(new RegExp(`[#&]text=${text}(&|$)`).test(link), "the link's text= is not what was typed: " + link);
        await waitForMirror(page, `"${text}"`, LIVE_TIMEOUT);
        const seen = tokensLine(await mirror(page));
        expect(seen.endsWith(tokens), "the pieces are not the tokenizer's: " + seen);
        await waitAllLive(page);
        await shot(page, `tokenizer-softkeys-entered-${lang}-phone`);
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
        await page.context().close();
      } finally {
        h.hub.close();
      }
    });

  // [SECTION] Chinese typed on a desktop with an input method (pinyin), through the page's text field
  // While an ImGui text field is active, the hidden #lab-keyboard field has the focus and sits at
  // the caret, so the input method's candidate window opens there. CDP composes as an input method
  // does: compositionstart/update with the pinyin, then the chosen words committed (compositionend).
  // Nothing reaches the box before the commit: the link's text= holds exactly what was committed.
  test("tokenizer zh desktop: a sentence typed with an input method (composition) goes into the box and the link", async (site) => {
    const h = await startHub(ensureCheckpoints());
    try {
      const model = `${h.base}/swiglu-lab/with-tokenizer/resolve/main/`;
      const page = await openPage(site, `#v=1&lang=zh&view=gates&model=${model}`);
      await waitForMirror(page, LIVE.zh, LIVE_TIMEOUT);
      await clickItem(page, "sentence-input");
      await page.waitForFunction(() => document.activeElement && document.activeElement.id === "lab-keyboard", null, { timeout: WAIT_TIMEOUT });
      await page.keyboard.press("Control+A");
      await page.keyboard.press("Backspace");
      // The field at the box's caret (the start of the emptied box), one line high, once the page
      // has drawn the emptied box (the caret moves on the next frame).
      const box = await page.evaluate(() => window.labItemRect("sentence-input"));
      await page.waitForFunction((b) => document.getElementById("lab-keyboard").getBoundingClientRect().x <= b.x + 12, box, { timeout: WAIT_TIMEOUT })
        .catch(() => {});
      const field = await page.evaluate(() => { const r = document.getElementById("lab-keyboard").getBoundingClientRect(); return { x: r.x, y: r.y, h: r.height }; });
      expect(field.x >= box.x - 2 && field.x <= box.x + 12 && field.y >= box.y - 4 && field.y + field.h <= box.y + box.h + 8,
        `the input method's field is not at the box's caret: ${JSON.stringify(field)} vs the box ${JSON.stringify(box)}`);
      const cdp = await page.context().newCDPSession(page);
      const fieldState = () => page.evaluate(() => {
        const el = document.getElementById("lab-keyboard");
        return { value: el.value, opacity: el.style.opacity, composing: el.labComposing };
      });
      // Two words, each composed letter by letter and then chosen (the test tokenizer knows both).
      for (const [pinyin, words] of [["women", "我们"], ["gongyuan", "公园"]]) {
        for (let i = 1; i <= pinyin.length; i++)
          await cdp.send("Input.imeSetComposition", { text: pinyin.slice(0, i), selectionStart: i, selectionEnd: i });
        const composing = await fieldState();
        expect(composing.value === pinyin && composing.opacity === "1" && composing.composing,
          "the composition is not shown at the caret: " + JSON.stringify(composing));
        if (words === "公园") {
          await settledItems(page);
          await shot(page, "ime-composing-zh-desktop");
        }
        await cdp.send("Input.insertText", { text: words });  // the words chosen: compositionend
        const after = await fieldState();
        expect(after.value === "" && after.opacity === "0" && !after.composing, "the commit left the field composing: " + JSON.stringify(after));
      }
      await cdp.detach();
      await page.keyboard.type("ok");  // plain keys after the input method, as a teacher switches
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => /[#&]ids=\d/.test(location.hash) && /[#&]pieces=[^&]/.test(location.hash), null, { timeout: LIVE_TIMEOUT });
      const link = await hash(page);
      expect(/[#&]text=我们公园ok(&|$)/.test(link), "the link's text= is not the committed words: " + link);
      await waitForMirror(page, `"我们公园ok"`, LIVE_TIMEOUT);
      const tokens = tokensLine(await mirror(page));
      expect(tokens.endsWith("我们 | 公园 | o | k"), "the pieces are not the tokenizer's: " + tokens);
      expect(await page.evaluate(() => document.activeElement.id !== "lab-keyboard"), "the field kept the focus after Enter");
      await waitAllLive(page);
      await shot(page, "ime-committed-zh-desktop");
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    } finally {
      h.hub.close();
    }
  });
}
