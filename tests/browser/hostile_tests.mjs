// Hosts that misbehave on purpose, against the built page: each case is a
// Hub-like host (tools/hub_server.mjs) serving what such a host serves, in English and in Chinese.
// Sizes a host claims are real files, sparse on disk: a 24 GiB checkpoint costs a few KB here.
// The page must say what is wrong in the page's language, allocate nothing of a claim, stop every
// download at its limit, never mix two versions of a file, and keep working (the view buttons
// still answer, no page error).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPage, mirror, waitForMirror, clickItem, words, WAIT_TIMEOUT } from "./browser.mjs";
import { startHub } from "./hub.mjs";

const mib = (bytes) => (bytes / 1048576).toFixed(1);
// A q8 blob's bytes (docs/kernels.md: 64-byte header, f32 scales, int8 panels of 4 x 8, 64-byte aligned).
const up = (v, m) => Math.ceil(v / m) * m;
const q8 = (r, c) => up(up(64 + 4 * up(r, 4), 64) + up(r, 4) * up(c, 8), 64);

// A safetensors file: its header (BF16 tensors back to back) and data of the size it implies,
// sparse: only the header is written.
function claimedSafetensors(file, tensors, { headerBytes } = {}) {
  let at = 0;
  const h = {};
  for (const [name, shape] of tensors) {
    const n = shape.reduce((a, b) => a * b, 2);
    h[name] = { dtype: "BF16", shape, data_offsets: [at, at + n] };
    at += n;
  }
  let json = JSON.stringify(h);
  while (json.length % 8) json += " ";
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(headerBytes ?? json.length));
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(json)]));
  fs.truncateSync(file, 8 + (headerBytes ?? json.length) + at);
}

const llamaConfig = (hidden, inter, layers, extra = {}) => JSON.stringify({
  model_type: "llama", hidden_size: hidden, intermediate_size: inter, num_hidden_layers: layers, vocab_size: 97,
  hidden_act: "silu", swiglu_lab_synthetic: true, ...extra,
});

// A Llama-named one-file checkpoint whose config and header agree on these dims; bytes claimed.
function claimedCheckpoint(dir, hidden, inter, layers = 1) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "config.json"), llamaConfig(hidden, inter, layers));
  const t = [["model.embed_tokens.weight", [97, hidden]], ["model.layers.0.post_attention_layernorm.weight", [hidden]]];
  for (let l = 0; l < layers; l++)
    for (const [p, shape] of [["gate", [inter, hidden]], ["up", [inter, hidden]], ["down", [hidden, inter]]])
      t.push([`model.layers.${l}.mlp.${p}_proj.weight`, shape]);
  claimedSafetensors(path.join(dir, "model.safetensors"), t);
}

// The page still answers after a failure: a view button works and nothing threw.
async function stillWorks(page, expect, allowed = /Failed to load|CORS|net::ERR_|status of 4\d\d|status of 5\d\d/) {
  await clickItem(page, "view-hand");
  await page.waitForFunction(() => location.hash.includes("view=hand"), null, { timeout: WAIT_TIMEOUT });
  await waitForMirror(page, "x = [1", 10000);
  const unexpected = page.labErrors.filter((e) => !allowed.test(e));
  expect(unexpected.length === 0, "page errors: " + unexpected.join("; "));
}

export function registerHostileTests(test, { expect, expectIncludes, cli }) {
  const makeCkpt = path.join(path.dirname(cli), "make_checkpoint");
  let root = null;
  const setup = () => {
    if (root) return root;
    root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-hostile-"));
    const repo = (name) => path.join(root, "hostile", name);
    claimedCheckpoint(repo("huge-dims"), 65536, 65536);      // item 19: 4 GiB of q8 per matrix
    claimedCheckpoint(repo("big-gate"), 4096, 16384);        // item 20: a 64.1 MiB gate
    claimedCheckpoint(repo("big-layer"), 4096, 14336);       // item 20: a 58.7 MB gate, 176 MB whole
    fs.mkdirSync(repo("huge-config"), { recursive: true });  // item 22: a 3 GiB config.json
    fs.writeFileSync(path.join(repo("huge-config"), "config.json"), "{");
    fs.truncateSync(path.join(repo("huge-config"), "config.json"), 3 * 2 ** 30);
    // item 22: a real-looking model (no probe of its own) whose tokenizer.json is 1 GiB
    execFileSync(makeCkpt, ["--out", repo("huge-tokenizer"), "--hidden", "64", "--intermediate", "128", "--num-layers", "1",
                            "--layers", "0", "--vocab", "300", "--no-tokenizer", "--unmarked"]);
    fs.writeFileSync(path.join(repo("huge-tokenizer"), "tokenizer.json"), "{");
    fs.truncateSync(path.join(repo("huge-tokenizer"), "tokenizer.json"), 2 ** 30);
    // item 24: a tokenizer.json of exactly the 64 MiB the page allows, nested 32 Mi deep
    execFileSync(makeCkpt, ["--out", repo("deep-tokenizer"), "--hidden", "64", "--intermediate", "128", "--num-layers", "1",
                            "--layers", "0", "--vocab", "300", "--no-tokenizer", "--unmarked"]);
    const deep = Buffer.alloc(64 << 20, "[");
    deep.fill("]", 32 << 20);
    fs.writeFileSync(path.join(repo("deep-tokenizer"), "tokenizer.json"), deep);
    // item 23: an index of 10,000 shards, and a header claiming 98 MB
    fs.mkdirSync(repo("many-shards"), { recursive: true });
    fs.writeFileSync(path.join(repo("many-shards"), "config.json"), llamaConfig(64, 128, 1));
    const map = {};
    for (let i = 0; i < 10000; i++) map[`t${i}`] = `s${i}.safetensors`;
    fs.writeFileSync(path.join(repo("many-shards"), "model.safetensors.index.json"), JSON.stringify({ weight_map: map }));
    fs.mkdirSync(repo("big-header"), { recursive: true });
    fs.writeFileSync(path.join(repo("big-header"), "config.json"), llamaConfig(64, 128, 1));
    claimedSafetensors(path.join(repo("big-header"), "model.safetensors"), [["model.embed_tokens.weight", [97, 64]]], { headerBytes: 98000000 });
    // items 21 and 24: a small synthetic checkpoint, and another version of it (other weights, same sizes)
    for (const [name, seed] of [["small", "20251"], ["small-v2", "7"]])
      execFileSync(makeCkpt, ["--out", path.join(root, "swiglu-lab", name), "--naming", "llama", "--no-index", "--hidden", "512",
                              "--intermediate", "4608", "--num-layers", "1", "--layers", "0", "--seed", seed]);
    return root;
  };
  const link = (h, repo, lang, view = "gates") => `#v=1&view=${view}&lang=${lang}&model=${h.base}/${repo}/resolve/main/`;

  for (const lang of ["en", "zh"]) {
    test(`hostile host ${lang}: 65536 x 65536 dims claimed: says how much it needs at once, allocates nothing, keeps working`, async (site) => {
      const h = await startHub(setup());
      try {
        const page = await openPage(site, link(h, "hostile/huge-dims", lang));
        // The gate in q8 (4,295,229,504 bytes) and the probe's norm, rows and inputs (13 x 65536 x 4).
        const need = 4295229504 + 13 * 65536 * 4;
        await waitForMirror(page, words("STR_FAULT_NO_ROOM", lang, mib(need), "64.0"), 30000);
        const heap = await page.evaluate(() => Module._lab_heap_bytes());
        expect(heap < 200 * 2 ** 20, `the wasm heap grew to ${heap} bytes`);
        const weights = h.log.filter((e) => e.origin === "cdn" && /safetensors/.test(e.path) && !/^bytes=0-/.test(e.range));
        expect(weights.length === 0, `weight ranges were asked for: ${weights.map((e) => e.range).join(", ")}`);
        await stillWorks(page, expect);
        await page.context().close();
      } finally { h.hub.close(); }
    });

    // A connection that breaks off in the body, from a host that redirects as the Hub does: a
    // network error, not a redirect the browser would not follow; Retry then reads it.
    test(`hostile host ${lang}: a body that breaks off behind the Hub's redirect is a network error, not a redirect; Retry reads it`, async (site) => {
      const h = await startHub(setup());
      try {
        h.faults.set("model.safetensors", { drop: true, times: 1 });
        const page = await openPage(site, link(h, "swiglu-lab/small", lang));
        await waitForMirror(page, words("STR_FAULT_NETWORK", lang), 30000);
        expect(!(await mirror(page)).includes(words("STR_FAULT_REDIRECT", lang)), "a broken body is called a redirect");
        await clickItem(page, "stream-retry");
        await waitForMirror(page, lang === "zh" ? "(实时)" : "(live)", 60000);
        await page.context().close();
      } finally { h.hub.close(); }
    });

    test(`hostile host ${lang}: a 64.1 MiB gate, and a layer whole over the budget, are said at once (no stall)`, async (site) => {
      const h = await startHub(setup());
      try {
        let page = await openPage(site, link(h, "hostile/big-gate", lang));
        // The gate in q8 and the probe's norm, rows and inputs (13 x 4096 x 4): over 64 MiB.
        await waitForMirror(page, words("STR_FAULT_NO_ROOM", lang, mib(q8(16384, 4096) + 13 * 4096 * 4), "64.0"), 30000);
        expectIncludes(await mirror(page), "model.layers.0.mlp.gate_proj.weight", "mirror");
        await page.context().close();
        // The gate fits; the per-token view wants the layer whole: 3 x 58.7 MB.
        page = await openPage(site, link(h, "hostile/big-layer", lang, "perm"));
        const whole = 2 * q8(14336, 4096) + q8(4096, 14336);
        await waitForMirror(page, "model.layers.0.mlp" + (lang === "zh" ? "：" : ": ") + words("STR_FAULT_NO_ROOM", lang, mib(whole), "64.0"), 30000);
        const down = h.log.filter((e) => e.origin === "cdn" && /safetensors/.test(e.path) && e.range && Number(e.range.slice(6).split("-")[0]) > 2 * 14336 * 4096 * 2);
        expect(down.length === 0, "the layer's down_proj was asked for");
        await stillWorks(page, expect);
        await page.context().close();
      } finally { h.hub.close(); }
    });

    test(`hostile host ${lang}: a file replaced mid-load: the notice, and the new file's numbers only`, async (site) => {
      const dir = path.join(setup(), "swiglu-lab");
      const target = path.join(dir, `changing-${lang}`);
      fs.rmSync(target, { recursive: true, force: true });
      fs.cpSync(path.join(dir, "small"), target, { recursive: true });
      let replaced = false, gateChunks = 0;
      // When the gate's second chunk is asked for (past the 4 MiB embedding), the host replaces the
      // file with another version (another ETag): the first chunk came from the old one.
      const h = await startHub(setup(), {
        onServe: (entry, p) => {
          if (replaced || p.name !== `changing-${lang}` || p.file !== "model.safetensors" || !entry.range) return;
          if (Number(entry.range.slice(6).split("-")[0]) < 4 * 2 ** 20 || ++gateChunks < 2) return;
          fs.copyFileSync(path.join(dir, "small-v2", "model.safetensors"), path.join(target, "model.safetensors"));
          fs.utimesSync(path.join(target, "model.safetensors"), new Date(), new Date(Date.now() + 5000));
          replaced = true;
        },
      });
      try {
        const page = await openPage(site, link(h, `swiglu-lab/changing-${lang}`, lang));
        await waitForMirror(page, words("STR_FAULT_FILE_CHANGED", lang), 60000);
        const live = lang === "zh" ? "第 0 层：(实时)" : "Layer 0: (live)";
        await waitForMirror(page, live, 90000);
        expect(replaced, "the host never replaced the file");
        const line = (text) => text.split("\n").find((l) => l.includes(live));
        const got = line(await mirror(page));
        // The same link in a fresh browser, which only ever saw the new file.
        const fresh = await openPage(site, link(h, `swiglu-lab/changing-${lang}`, lang));
        await waitForMirror(fresh, live, 90000);
        const want = line(await mirror(fresh));
        expect(got === want, `after the change: ${got}\nfresh: ${want}`);
        // A reload keeps the new file's numbers (nothing of the old one was cached under its ETag).
        await page.reload();
        await page.waitForSelector("body[data-lab-ready]");
        await waitForMirror(page, live, 90000);
        expect(line(await mirror(page)) === want, "a reload brought back the old file's numbers");
        await fresh.context().close();
        await stillWorks(page, expect);
        await page.context().close();
      } finally { h.hub.close(); }
    });

    test(`hostile host ${lang}: a 3 GiB config.json and a 1 GiB tokenizer.json are cut at their limits as they come; a 64 MiB one nested too deep is refused, held once`, async (site) => {
      const h = await startHub(setup());
      try {
        let page = await openPage(site, link(h, "hostile/huge-config", lang));
        await waitForMirror(page, words("STR_FAULT_TOO_LARGE", lang, "4.0"), 30000);
        const sent = h.hub.bytesSent(/config\.json$/);
        expect(sent < 64 * 2 ** 20, `the host sent ${sent} bytes of config.json`);
        expect(await page.evaluate(() => Module._lab_heap_bytes()) < 200 * 2 ** 20, "the wasm heap grew");
        await stillWorks(page, expect);
        await page.context().close();
        page = await openPage(site, link(h, "hostile/huge-tokenizer", lang));
        await waitForMirror(page, words("STR_FAULT_TOO_LARGE", lang, "64.0"), 60000);
        const tok = h.hub.bytesSent(/tokenizer\.json$/);
        expect(tok < 256 * 2 ** 20, `the host sent ${tok} bytes of tokenizer.json`);
        const heap = await page.evaluate(() => Module._lab_heap_bytes());
        expect(heap < 200 * 2 ** 20, `the wasm heap grew to ${heap} bytes`);
        await stillWorks(page, expect);
        await page.context().close();
        // Inside the limit, refused by its parse: the page's heap (which never shrinks) held the
        // file once, handed from the fetch's buffer to the tokenizer's worker, not twice.
        page = await openPage(site, link(h, "hostile/deep-tokenizer", lang));
        await waitForMirror(page, words("STR_TOK_TOO_DEEP", lang, 64), 60000);
        const held = await page.evaluate(() => Module._lab_heap_bytes());
        expect(held < 2 * (64 << 20), `the wasm heap grew to ${(held / 2 ** 20).toFixed(1)} MiB for a 64 MiB file`);
        await stillWorks(page, expect);
        await page.context().close();
      } finally { h.hub.close(); }
    });

    test(`hostile host ${lang}: 10,000 shards and a 98 MB header are refused before the work, saying which bound`, async (site) => {
      const h = await startHub(setup());
      try {
        let page = await openPage(site, link(h, "hostile/many-shards", lang));
        await waitForMirror(page, words("STR_READ_LIMIT_SHARDS", lang, 10000, 256), 30000);
        expect(!h.log.some((e) => /\.safetensors$/.test(e.path)), "a shard's header was asked for");
        await stillWorks(page, expect);
        await page.context().close();
        page = await openPage(site, link(h, "hostile/big-header", lang));
        await waitForMirror(page, words("STR_READ_LIMIT_HEADER", lang, 98000000, 16777216), 30000);
        expect(h.log.filter((e) => e.origin === "cdn" && /big-header.*safetensors$/.test(e.path)).length === 1, "the header's rest was asked for");
        await stillWorks(page, expect);
        await page.context().close();
      } finally { h.hub.close(); }
    });

    test(`hostile host ${lang}: a byte a second stalls, a 429 waits once, a redirect loop and javascript: are named, Clear stays`, async (site) => {
      const h = await startHub(setup());
      // The trickle is judged over a 3 s window (the test hook); the rest with the page's own 20 s,
      // so a loaded machine's slow redirects are not taken for stalls.
      const slow = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
      await slow.addInitScript(() => { self.labTestStallSeconds = 3; });
      const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
      const open = async (fragment, ctx = context) => {
        const page = await ctx.newPage();
        page.labErrors = [];
        page.on("pageerror", (e) => page.labErrors.push(String(e)));
        page.on("console", (m) => { if (m.type() === "error") page.labErrors.push(m.text()); });
        await page.goto(site.base + fragment);
        await page.waitForSelector("body[data-lab-ready]", { timeout: 30000 });
        return page;
      };
      try {
        h.faults.set("config.json", { bytesPerSecond: 1 });
        let page = await open(link(h, "swiglu-lab/small", lang), slow);
        await waitForMirror(page, words("STR_FAULT_STALLED_SLOW", lang, "X", 3).split("X")[1], 30000);
        await page.close();
        h.faults.set("config.json", { status: 429, retryAfter: 1, times: 1 });
        page = await open(link(h, "swiglu-lab/small", lang));
        await waitForMirror(page, lang === "zh" ? "第 0 层：(实时)" : "Layer 0: (live)", 60000);
        expect(h.log.filter((e) => e.origin === "cdn" && /small\/main\/config\.json$/.test(e.path)).length >= 2, "config.json was not asked again");
        await page.close();
        h.faults.set("config.json", { status: 429, retryAfter: 1 });
        page = await open(link(h, "swiglu-lab/small", lang));
        await waitForMirror(page, words("STR_FAULT_TOO_MANY_WAITED", lang, 1), 30000);
        await page.close();
        // A fresh profile: this one has the config in its verified cache now, which an offline
        // visit (no answer at all) would rightly use.
        const fresh = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
        for (const redirect of ["loop", "javascript:alert(1)"]) {
          h.faults.set("config.json", { redirect });
          page = await open(link(h, "swiglu-lab/small", lang), fresh);
          await waitForMirror(page, words("STR_FAULT_REDIRECT", lang), 30000);
          expect(await page.evaluate(() => window.pwned === undefined), "a redirect ran a script");
          await page.close();
        }
        await fresh.close();
        // The opening failed; Clear is still there (the default pack's files are in the cache).
        h.faults.clear();
        page = await open(`#v=1&view=gates&lang=${lang}`);
        await waitForMirror(page, lang === "zh" ? "第 23 层：(实时)" : "Layer 23: (live)", 90000);
        await page.evaluate((l) => { location.hash = l; }, link(h, "hostile/many-shards", lang));
        await waitForMirror(page, words("STR_READ_LIMIT_SHARDS", lang, 10000, 256), 30000);
        await clickItem(page, "cache-clear");
        await waitForMirror(page, words("STR_CACHE_CLEARED", lang, "X").split("X")[0], 10000);
        await page.close();
      } finally {
        await slow.close();
        await context.close();
        h.hub.close();
      }
    });
  }
}
