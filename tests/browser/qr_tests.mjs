// Browser tests of the QR code of the link (src/ui/qr_panel.cpp): on a laptop, a projector
// (ui=present at 1920 x 1080) and a phone (390 x 844 at 3x, Chinese), the "QR code" button draws
// the page's own address on the canvas, and a real decoder (Debian's zbarimg, from zbar-tools)
// reads it back from a screenshot: the text must equal location.href exactly. Then Escape, a tap
// outside the card and Close each close it. tools/qr_measure.mjs uses linkOfLength for its table.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPage, clickItem, itemCenter, waitForMirror, mirror, PHONE_3X } from "./browser.mjs";

// Until the page has drawn everything it was asked to (its own idle flag), frame by frame.
export const idle = (page, timeout = 30000) => page.waitForFunction(() => window.labIdle(), null, { polling: "raf", timeout });

// Makes the page's address exactly `length` characters: the view's fragment with a sentence and its
// pieces in Chinese (each character 9 characters of link once percent-encoded) and a pack path
// padded to the character (a view without weights opens no pack), then corrected by what the page
// itself wrote (it rewrites the fragment in its canonical form). Returns location.href.
export async function linkOfLength(page, base, length) {
  const sentence = (n) => "中".repeat(Math.max(0, Math.min(170, n)));  // 3 bytes each: 510 of the 512 a key takes
  let text = "", pieces = "", pad = "p";
  const fragment = () => `${base}&text=${text}&pieces=${pieces}&pack=packs/${pad}/`;
  for (let round = 0; round < 6; round++) {
    await page.evaluate((f) => { location.hash = f; }, fragment());
    await page.waitForFunction((f) => decodeURIComponent(location.hash).includes("pack=packs/" + f + "/"), pad);
    await idle(page);
    const now = await page.evaluate(() => location.href.length);
    if (now === length) return page.evaluate(() => location.href);
    let need = length - now;
    if (need > 9 && text.length < 170) { const add = Math.min(170 - text.length, Math.floor(need / 9)); text = sentence(text.length + add); need -= 9 * add; }
    if (need > 9 && pieces.length < 170) { const add = Math.min(170 - pieces.length, Math.floor(need / 9)); pieces = sentence(pieces.length + add); need -= 9 * add; }
    if (need < 0 && pad.length + need < 1) throw new Error(`the page's link is ${now} characters, longer than ${length}`);
    pad = "p".repeat(pad.length + need);
    if (pad.length > 500) throw new Error(`no link of ${length} characters from ${base}`);
  }
  throw new Error(`the page's link never became ${length} characters long`);
}

// What zbarimg reads in a PNG: its raw bytes as text, without the newline it ends with.
export function zbarDecode(file) {
  const out = execFileSync("zbarimg", ["--raw", "-q", "--nodbus", file], { encoding: "utf8" });
  return out.endsWith("\n") ? out.slice(0, -1) : out;
}

const SCREENS = [
  { name: "laptop", screen: { width: 1280, height: 800 }, fragment: "#v=1&view=budget&h=2048&f=5504&layers=32", close: "escape" },
  // The lesson's rule-book link with its answers is about 1,500 characters.
  { name: "projector", screen: { width: 1920, height: 1080 }, fragment: "#v=1&view=hand&ui=present", length: 1500, close: "button" },
  { name: "phone", screen: PHONE_3X, fragment: "#v=1&view=hand&lang=zh", length: 1200, close: "outside" },
];

export function registerQrTests(test, { expect, expectIncludes, shot, cli }) {
  for (const { name, screen, fragment, length, close } of SCREENS)
    test(`qr ${name}: the code on the canvas decodes (zbarimg) to the page's own link`, async (site) => {
      const page = await openPage(site, fragment, screen);
      await idle(page);
      if (length) await linkOfLength(page, fragment, length);
      expect(!(await mirror(page)).includes("QR code"), "the mirror speaks of a QR code before the button");
      if (screen.phone) {
        const at = await itemCenter(page, "qr-code");
        await page.touchscreen.tap(at.x, at.y);
      } else {
        await clickItem(page, "qr-code");
      }
      await waitForMirror(page, screen.phone ? "这个链接的二维码：版本" : "QR code of this link: version");
      await idle(page);
      const href = await page.evaluate(() => location.href);
      if (length) expect(href.length === length, `the link is ${href.length} characters, not ${length}`);
      const words = await mirror(page);
      const version = Number(/(?:version|版本) (\d+)/.exec(words)[1]);
      console.log(`    ${href.length} characters of link: version ${version}, ${/(\d+(?:\.\d+)?) (?:px a module|像素)/.exec(words)?.[1] ?? "?"} px a module`);

      // The canvas as a person sees it (every device pixel at 3x), read by a real decoder.
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "qr-")), "canvas.png");
      await page.locator("#canvas").screenshot({ path: file });
      const decoded = zbarDecode(file);
      expect(decoded === href, `zbarimg read ${decoded.length} characters:\n${decoded}\nthe link is ${href.length}:\n${href}`);
      fs.rmSync(path.dirname(file), { recursive: true });
      await shot(page, `qr-${name}`);

      // Closed by Escape, a tap outside the card, or Close; nothing under it changed.
      if (close === "escape") {
        await page.locator("#canvas").focus();
        await page.keyboard.press("Escape");
      } else if (close === "outside") {
        const card = await page.evaluate(() => window.labItemRect("qr-card"));
        await page.touchscreen.tap(screen.width / 2, card.y + card.h + (screen.height - card.y - card.h) / 2);
      } else {
        await clickItem(page, "qr-close");
      }
      await page.waitForFunction(() => !document.getElementById("lab-text").textContent.includes("QR code of this link") &&
        !document.getElementById("lab-text").textContent.includes("这个链接的二维码"));
      await idle(page);
      expect(await page.evaluate(() => window.labItemRect("qr-image")) === null, "the code is still drawn after closing");
      expect(await page.evaluate(() => location.href) === href, "closing the code changed the link");
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    });

  // A class set (ans=: the rule book and four switch-offs on the built-in model, computed by
  // `swiglu answers` as the teacher's page would) is too long for any code: the card offers the
  // lighter link, and its drawing decodes to the link with exactly the first answers; the page's
  // own link keeps all five.
  test("qr: a class set too long for a code offers a lighter link; its drawing decodes (zbarimg) to the first answers", async (site) => {
    const dir = path.join(site.dir, "models", "synthetic");
    const asked = ["#v=1&view=rules", "#v=1&view=rules&off=23:75", "#v=1&view=rules&off=18:65", "#v=1&view=rules&off=6:30", "#v=1&view=rules&off=9:40"];
    const answers = (n) => execFileSync(cli, ["answers", dir, ...asked.slice(0, n)], { encoding: "utf8" }).trim();
    const page = await openPage(site, `#v=1&view=rules&ans=${answers(5)}`);
    await waitForMirror(page, "Computed in the teacher's browser", 60000);
    await clickItem(page, "qr-code");
    await waitForMirror(page, "This link is too long for a QR code");
    await waitForMirror(page, "a lighter code, with the first ");
    const kept = Number(/with the first (\d+) of the link's 5 answers/.exec(await mirror(page))[1]);
    expect(kept >= 1 && kept < 5, `the lighter link keeps ${kept} of 5`);
    const href = await page.evaluate(() => location.href);
    await clickItem(page, "qr-lighter");
    await waitForMirror(page, `This lighter code carries the first ${kept} of the link's 5 answers`);
    await idle(page);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "qr-")), "canvas.png");
    await page.locator("#canvas").screenshot({ path: file });
    const decoded = zbarDecode(file);
    fs.rmSync(path.dirname(file), { recursive: true });
    const ans = new URL(decoded).hash.match(/[#&]ans=([^&]*)/)[1];
    expect(ans === answers(kept), `the lighter code's ans= is not the first ${kept} answers:\n${ans}\n${answers(kept)}`);
    expect(decoded.replace(/&ans=[^&]*/, "") === href.replace(/&ans=[^&]*/, ""), `the lighter link differs beyond ans=:\n${decoded}\n${href}`);
    expect(await page.evaluate(() => location.href) === href, "showing the lighter code changed the page's link");
    for (let i = kept + 1; i <= 5; i++) expectIncludes(await mirror(page), `answer ${i}: Rule book`, "mirror");
    await shot(page, "qr-class-lighter");
    expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
    await page.context().close();
  });

  test("qr: a link too long for any QR code says so and draws none", async (site) => {
    const page = await openPage(site, "#v=1&view=hand");
    await idle(page);
    await linkOfLength(page, "#v=1&view=hand&model=http://127.0.0.1:9/" + "m".repeat(480), 3000);
    await clickItem(page, "qr-code");
    await waitForMirror(page, "This link is too long for a QR code: 3,000 bytes, and a QR code holds at most 2,953.");
    await idle(page);
    expect(await page.evaluate(() => window.labItemRect("qr-image")) === null, "a code was drawn for a link too long");
    expectIncludes(await mirror(page), "Send the link itself instead.", "mirror");
    await shot(page, "qr-too-long");
    await page.context().close();
  });
}
