// Browser tests of model=: the page reads a checkpoint from a Hub-like host (tools/hub_server.mjs:
// 302 to a second origin, Range, ETag, CORS) and converts it itself. The synthetic default
// checkpoint is the one the default pack was converted from, with the same probe (ids 1..6), so
// the live shares must equal `swiglu stats` on the default pack exactly; the bytes sent for the
// safetensors file are counted at the host; a reload fetches no weight; each fault shows its words.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPage, mirror, waitForMirror, clickItem, waitUntil } from "./browser.mjs";
import { startHub } from "./hub.mjs";

const LIVE_TIMEOUT = 90000;  // SwiftShader on two cores: three 7.3 MB BF16 gates fetched and converted
const GATE_BYTES = 3584 * 1024 * 2;

// What the page's verified cache holds (IndexedDB "swiglu-lab": "blobs" and their "meta"), read
// once the page's own bookkeeping (Module._lab_cache_bytes) and the stored records agree.
async function cacheState(page) {
  let last = "", st = null;
  const read = () => page.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open("swiglu-lab");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result, out = { keys: [], bytes: 0, metaBytes: 0, counted: Module._lab_cache_bytes() };
      const tx = db.transaction(["blobs", "meta"]);
      tx.objectStore("blobs").openCursor().onsuccess = (e) => {
        const c = e.target.result;
        if (c) { out.keys.push(String(c.key)); out.bytes += c.value.byteLength; c.continue(); }
      };
      tx.objectStore("meta").openCursor().onsuccess = (e) => {
        const c = e.target.result;
        if (c) { out.metaBytes += c.value[0]; c.continue(); }
      };
      tx.oncomplete = () => { db.close(); resolve(out); };
    };
  }));
  // Storage settles after the page's writes: the same state twice in a row, its books agreeing.
  const settled = async () => {
    st = await read();
    const now = JSON.stringify(st), same = now === last;
    last = now;
    return same && st.bytes === st.counted && st.metaBytes === st.bytes;
  };
  await waitUntil(settled, "the cache to settle", 20000).catch((e) => { throw new Error(`${e.message}: ${last}`); });
  return st;
}

// A context (one browser profile: its own IndexedDB) whose pages start with `budget` as the
// cache's byte budget (the test-only hook fetch_web.cpp reads), or the real one.
async function profile(site, budget = 0) {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (budget) await context.addInitScript((b) => { self.labTestCacheBudget = b; }, budget);
  const page = await context.newPage();
  page.labErrors = [];
  page.on("pageerror", (e) => page.labErrors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") page.labErrors.push(m.text()); });
  return { context, page, open: async (fragment) => {
    await page.goto(site.base + fragment);
    await page.waitForSelector("body[data-lab-ready]", { timeout: 30000 });
  } };
}


export function registerCheckpointTests(test, { expect, expectIncludes, cli }) {
  const percent = (share) => (100 * share).toFixed(2) + " %";
  const makeCkpt = path.join(path.dirname(cli), "make_checkpoint");
  let root = null;
  const ensureCheckpoint = () => {
    if (root) return root;
    root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-hub-"));
    execFileSync(makeCkpt, ["--out", path.join(root, "swiglu-lab", "synthetic-qwen")]);
    // A Llama-named, one-file F16 copy (no index, model.safetensors) for the single-file path.
    execFileSync(makeCkpt, ["--out", path.join(root, "swiglu-lab", "synthetic-llama"), "--naming", "llama", "--dtype", "f16",
                            "--no-index", "--layers", "0,11,23"]);
    fs.mkdirSync(path.join(root, "swiglu-lab", "bin-only"), { recursive: true });
    fs.copyFileSync(path.join(root, "swiglu-lab", "synthetic-qwen", "config.json"), path.join(root, "swiglu-lab", "bin-only", "config.json"));
    fs.writeFileSync(path.join(root, "swiglu-lab", "bin-only", "pytorch_model.bin"), "PK pickle");
    return root;
  };

  test("model=: a Hub-like checkpoint streams by ranges, the shares equal the converter's pack", async (site) => {
    const h = await startHub(ensureCheckpoint());
    try {
      const model = `${h.base}/swiglu-lab/synthetic-qwen/resolve/main/`;
      const page = await openPage(site, `#v=1&view=gates&model=${model}`);
      await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
      const text = await mirror(page);
      const stats = JSON.parse(execFileSync(cli, ["stats", "--pack", path.join(site.dir, "packs/default"), "--json"]).toString());
      for (const l of stats.layers)
        expectIncludes(text, `Layer ${l.layer}: (live) > 0.1: ${percent(l.open)}, < -0.1: ${percent(l.negative)}`, "mirror");
      expect(h.log.some((e) => e.origin === "hub" && e.status === 302), "no redirect through the hub");
      const sent = h.hub.bytesSent(/\.safetensors$/);
      const needed = 3 * GATE_BYTES + 6 * 1024 * 2 + 1024 * 2;
      // A range the host served more than once is the usual cause of too many bytes: name them.
      const served = h.log.filter((e) => e.origin === "cdn" && /\.safetensors$/.test(e.path)).map((e) => e.range);
      const twice = [...new Set(served.filter((r, i) => served.indexOf(r) !== i))];
      expect(sent >= 3 * GATE_BYTES && sent <= 1.1 * needed,
             `bytes sent for the safetensors file: ${sent}, needed ${needed}; ranges served more than once: ${twice.join(", ") || "none"}`);
      // A reload, once every record is stored: the config, index and header again (network first), no weight byte.
      await cacheState(page);
      h.log.length = 0;
      await page.reload();
      await page.waitForSelector("body[data-lab-ready]");
      await waitForMirror(page, "Layer 23: (live)", LIVE_TIMEOUT);
      const again = h.hub.bytesSent(/\.safetensors$/);
      expect(again <= 64 * 1024, `a reload fetched ${again} bytes of the safetensors file`);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    } finally {
      h.hub.close();
    }
  });

  test("model=: the weight cache stays within its byte budget (oldest out), for checkpoints and packs", async (site) => {
    const h = await startHub(ensureCheckpoint());
    const BUDGET = 6 * 1024 * 1024;  // under the 3 x 3.6 MB of q8 gate matrices: the first layer's must go
    const p = await profile(site, BUDGET);
    try {
      // A pack: its files go through the same cache and the same bound.
      await p.open("#v=1&view=gates");
      await waitForMirror(p.page, "Layer 23: (live)", LIVE_TIMEOUT);
      let st = await cacheState(p.page);
      expect(st.bytes <= BUDGET && st.bytes > BUDGET / 2, `pack: the cache holds ${st.bytes} bytes, budget ${BUDGET}`);
      expect(!st.keys.some((k) => k.includes("layer-000-gate")), "pack: layer 0's gate, the oldest, is still cached");
      expect(st.keys.some((k) => k.includes("layer-023-gate")), "pack: layer 23's gate, the newest, is not cached");
      // A checkpoint: its converted chunks, least recently used out.
      const model = `${h.base}/swiglu-lab/synthetic-qwen/resolve/main/`;
      await p.open(`#v=1&view=gates&model=${model}`);
      await waitForMirror(p.page, "Layer 23: (live)", LIVE_TIMEOUT);
      st = await cacheState(p.page);
      expect(st.bytes <= BUDGET, `checkpoint: the cache holds ${st.bytes} bytes, budget ${BUDGET}`);
      expect(!st.keys.some((k) => k.includes("layer-0")), "checkpoint: the pack's older files are still cached");
      expect(!st.keys.some((k) => k.includes("layers.0.mlp.gate_proj")), "checkpoint: layer 0's gate chunks, the oldest, are still cached");
      expect(st.keys.some((k) => k.includes("layers.23.mlp.gate_proj")), "checkpoint: layer 23's gate chunks are not cached");
      // A reload fetches what was evicted (layer 0's gate at least) from the host again. (Layer 23
      // comes from the cache at once: the count waits for layer 0, which the host sends.)
      h.log.length = 0;
      await p.page.reload();
      await p.page.waitForSelector("body[data-lab-ready]");
      for (const layer of [23, 11, 0]) await waitForMirror(p.page, `Layer ${layer}: (live)`, LIVE_TIMEOUT);
      const sent = h.hub.bytesSent(/\.safetensors$/);
      expect(sent >= GATE_BYTES, `a reload after eviction fetched only ${sent} bytes`);
      expect(p.page.labErrors.length === 0, "page errors: " + p.page.labErrors.join("; "));
    } finally {
      await p.context.close();
      h.hub.close();
    }
  });

  test("model=: Clear empties the weight cache, says what it freed (en, zh), and a reload fetches the weights again", async (site) => {
    const h = await startHub(ensureCheckpoint());
    const p = await profile(site);
    try {
      const model = `${h.base}/swiglu-lab/synthetic-qwen/resolve/main/`;
      await p.open(`#v=1&view=gates&model=${model}`);
      await waitForMirror(p.page, "Layer 23: (live)", LIVE_TIMEOUT);
      const before = await cacheState(p.page);
      expect(before.bytes > 3 * GATE_BYTES / 2.1, `the cache holds only ${before.bytes} bytes`);
      await clickItem(p.page, "cache-clear");
      const freed = (before.bytes / 1048576).toFixed(1);
      await waitForMirror(p.page, `Cleared the weight cache: freed ${freed} MiB.`);
      const after = await cacheState(p.page);
      expect(after.keys.length === 0 && after.bytes === 0, `after Clear the cache holds ${after.keys.length} records`);
      h.log.length = 0;
      await p.page.reload();
      await p.page.waitForSelector("body[data-lab-ready]");
      await waitForMirror(p.page, "Layer 23: (live)", LIVE_TIMEOUT);
      const sent = h.hub.bytesSent(/\.safetensors$/);
      expect(sent >= 3 * GATE_BYTES, `after Clear a reload fetched only ${sent} bytes of weights`);
      // In Chinese: the same button says what it freed in Chinese.
      await p.open(`#v=1&view=gates&lang=zh&model=${model}`);
      await waitForMirror(p.page, "第 23 层：(实时)", LIVE_TIMEOUT);
      const zh = await cacheState(p.page);
      await clickItem(p.page, "cache-clear");
      await waitForMirror(p.page, `已清除权重缓存：释放了 ${(zh.bytes / 1048576).toFixed(1)} MiB。`);
      expect(p.page.labErrors.length === 0, "page errors: " + p.page.labErrors.join("; "));
    } finally {
      await p.context.close();
      h.hub.close();
    }
  });

  const FAULTS = [
    ["a repository that does not exist", "swiglu-lab/nothing", "config.json", null, "HTTP 404"],
    ["a gated repository", "swiglu-lab/synthetic-qwen", "config.json", { status: 403 }, "HTTP 403"],
    ["a host without CORS", "swiglu-lab/synthetic-qwen", "config.json", { noCors: true }, "CORS"],
    ["a host that ignores Range", "swiglu-lab/synthetic-llama", "model.safetensors", { ignoreRange: true }, "Range"],
    ["only pytorch_model.bin", "swiglu-lab/bin-only", "", null, "pytorch_model.bin"],
  ];
  for (const [name, repo, file, fault, words] of FAULTS) {
    test(`model= fault: ${name} says so`, async (site) => {
      const h = await startHub(ensureCheckpoint());
      if (fault) h.faults.set(file, fault);
      try {
        const page = await openPage(site, `#v=1&view=gates&model=${h.base}/${repo}/resolve/main/`);
        await waitForMirror(page, words, 30000);
        // The browser logs the refused requests themselves, and nothing else may appear (once,
        // a CORS refusal was followed by "setRequestHeader ... non ISO-8859-1": see fetch_web.cpp).
        const unexpected = page.labErrors.filter((e) => !/Failed to load|CORS|net::ERR_FAILED|status of 40[34]/.test(e));
        expect(unexpected.length === 0, "page errors: " + unexpected.join("; "));
        await page.context().close();
      } finally {
        h.hub.close();
      }
    });
  }
}
