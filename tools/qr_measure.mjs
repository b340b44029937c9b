#!/usr/bin/env node
// Measures the QR code of the page's link as a class sees it: for links of several lengths, the
// code's version, error-correction level and size, and the pixels a module it gets on a projector
// (1920 x 1080, ui=present), a laptop (1280 x 800) and a phone (390 x 844 at 3x), in headless
// Chromium; each drawing is read back by zbarimg (zbar-tools) from a screenshot of the canvas. The
// aim (docs/performance.md): at least 6 px a module on the projector for the lesson's ~1,500
// characters of rule-book link.
//
// Links the page writes are made to the length with a sentence in Chinese and a padded pack path
// (tests/browser/qr_tests.mjs: linkOfLength). A length shorter than every link the page writes (its
// fragment names every key) is the page's own link cut to that length, put in the address bar with
// history.replaceState: in byte mode only the length decides the code.
//
//   node tools/qr_measure.mjs [--site build-wasm/site] [--lengths 300,1500,2900]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSite, openPage, waitForMirror } from "../tests/browser/browser.mjs";
import { idle, linkOfLength, zbarDecode } from "../tests/browser/qr_tests.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const siteDir = opt("--site", "build-wasm/site");
const lengths = opt("--lengths", "300,1500,2900").split(",").map(Number);
const SCREENS = [
  { name: "projector 1920×1080, ui=present", screen: { width: 1920, height: 1080 }, fragment: "#v=1&view=hand&ui=present" },
  { name: "laptop 1280×800", screen: { width: 1280, height: 800 }, fragment: "#v=1&view=hand" },
  { name: "phone 390×844 at 3x", screen: { width: 390, height: 844, scale: 3, phone: true }, fragment: "#v=1&view=hand" },
];

const site = await startSite(siteDir);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "qr-measure-"));
let failed = false;
try {
  for (const { name, screen, fragment } of SCREENS) {
    console.log(`\n${name}`);
    console.log("link chars  how           version  level  modules  px a module  code px  zbarimg");
    for (const length of lengths) {
      const page = await openPage(site, fragment, screen);
      await idle(page);
      const shortest = await page.evaluate(() => location.href.length);
      let how = "page's own";
      if (length < shortest) {
        await page.evaluate((n) => history.replaceState(null, "", location.href.slice(0, n)), length);
        how = "cut";
      } else {
        await linkOfLength(page, fragment, length);
      }
      const at = await page.evaluate(() => window.labItemRect("qr-code"));
      await page.mouse.click(at.x + at.w / 2, at.y + at.h / 2);
      await waitForMirror(page, "QR code of this link: version");
      await idle(page);
      const href = await page.evaluate(() => location.href);
      const words = await page.locator("#lab-text").textContent();
      const m = /version (\d+), (\d+) × \d+ modules, error correction (\w), ([\d.]+) px a module/.exec(words);
      const code = await page.evaluate(() => window.labItemRect("qr-image"));
      const file = path.join(tmp, "canvas.png");
      await page.locator("#canvas").screenshot({ path: file });
      let read = "no";
      try { read = zbarDecode(file) === href ? "read" : "WRONG"; } catch { read = "no code"; }
      if (read !== "read") failed = true;
      console.log(`${String(href.length).padStart(10)}  ${how.padEnd(12)}  ${m[1].padStart(7)}  ${m[3].padStart(5)}  ${m[2].padStart(7)}` +
                  `  ${m[4].padStart(11)}  ${String(Math.round(code.h)).padStart(7)}  ${read}`);
      await page.context().close();
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true });
  await site.close();
}
if (failed) {
  console.error("a drawn code did not read back as the page's link");
  process.exit(1);
}
