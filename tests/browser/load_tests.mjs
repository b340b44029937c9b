// Browser tests of the first load (issue 16): the files index.html preloads are fetched once and
// in parallel with the js, an English page fetches no Chinese font, a Chinese page has its font
// before its first frame, and the server sends the build's brotli and gzip files as they are.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { openPage, mirror, waitForMirror } from "./browser.mjs";

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

export function registerLoadTests(test, { expect, expectIncludes }) {
  test("first load: the wasm and the manifest are asked for beside the js, each once; no Chinese font in English", async (site) => {
    const from = site.log.length;
    const page = await openPage(site, "#v=1&view=gates");
    await page.waitForFunction(() => /: \((live|precomputed)\)/.test(document.getElementById("lab-text").textContent), null,
                               { timeout: LIVE_TIMEOUT });
    const n = counts(site.log, from);
    for (const f of ["/swiglu_lab.wasm", "/swiglu_lab.js", "/packs/default/manifest.json"])
      expect(n[f] === 1, `${f} was requested ${n[f] || 0} times (preloaded: once): ${JSON.stringify(n)}`);
    for (const f of Object.keys(n)) expect(!f.startsWith("/fonts/"), `an English page fetched the font ${f}`);
    const js = await timing(page, "swiglu_lab.js"), wasm = await timing(page, "swiglu_lab.wasm");
    const manifest = await timing(page, "manifest.json");
    expect(wasm.start < js.end, `the wasm was asked for at ${wasm.start} ms, only after the js arrived (${js.end} ms)`);
    expect(manifest.start < js.end, `the manifest was asked for at ${manifest.start} ms, after the js arrived (${js.end} ms)`);
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
    for (const f of ["swiglu_lab.wasm", "swiglu_lab.js", "index.html"]) {
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
