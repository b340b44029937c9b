// Browser tests of the whole model's life in an open page: a Llama-named checkpoint on a Hub-like
// host, the cache in OPFS (a reload fetches no weight, a damaged record is fetched again), the pass
// on threads where the page is cross-origin isolated, model= switched both ways, and the failures
// a class meets (a part that failed, a pass that overflows, a dead worker) said with their buttons.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startHub } from "./hub.mjs";
import { openPage, mirror, hash, waitForMirror, clickItem, bringIntoView, settledItems, waitUntil, startServer, words as tableWords } from "./browser.mjs";
import { TIMEOUT, PHONE, pct, stored, settled, ownAnswer, modelCli, viewWords } from "./model_common.mjs";

export function registerModelLoadTests(test, { expect, expectIncludes, shot, cli }) {
  const { forwardIn, forward, llamaCheckpoint } = modelCli(cli);
  const words = viewWords;

  test("model: a Llama-named checkpoint's rule book with a unit off by the link, as swiglu forward computes it", async (site) => {
    const root = llamaCheckpoint();
    const dir = path.join(root, "swiglu-lab", "llama-whole");
    const ids = "5,17,42,99,3,7";
    const unit = forwardIn(dir, ["--ids", ids]).units[0];  // the most active unit: a visible change
    const off = `${unit.layer}:${unit.unit}`;
    const run = forwardIn(dir, ["--ids", ids, "--off", off]);
    expect(run.before_top.length === 10, `the CLI gave ${run.before_top.length} tokens`);
    const h = await startHub(root);
    try {
      const model = `${h.base}/swiglu-lab/llama-whole/resolve/main/`;
      const page = await openPage(site, `#v=1&view=rules&lang=en&model=${model}&ids=${ids}&off=${off}`);
      // This checkpoint's tokens have no text: each is named by its id once ("id 7: P: …").
      const row = (t) => `id ${t.id}: P: ${pct(t.p_before)} → ${pct(t.p)}`;
      await waitForMirror(page, row(run.before_top[0]), TIMEOUT);
      const text = await mirror(page);
      expectIncludes(text, "swiglu-lab/synthetic-llama-whole", "the mirror names the Llama checkpoint");
      expectIncludes(text, "This checkpoint says it is synthetic", "the checkpoint is said synthetic");
      expect(!text.includes("The built-in whole model"), "another checkpoint described as the built-in model");
      expect(!(await page.evaluate(() => window.labItemRect("model-offer-whole"))),
        "the real model offered on a model= link");
      for (const t of run.before_top) expectIncludes(text, row(t), "the top 10 before → after");
      expect(h.log.some((e) => /\.safetensors$/.test(e.path)), "no weights were asked of the host");
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await shot(page, "model-rules-llama");
      await page.context().close();
    } finally {
      h.hub.close();
    }
  });

  // Where what the units write toward is long to compute (their down columns against a wide
  // unembedding), the worker answers first without it and then whole, under the same id: the page
  // shows the next tokens at once, "…" for the lists, then the lists as the CLI computes them.
  test("model: on a wide vocabulary the next tokens come first, then what the units write toward", async (site) => {
    const root = llamaCheckpoint("llama-wide", ["--vocab", "131072"]);  // 10 units x 131072 x 64 > MODEL_TOWARD_SPLIT_MACS
    const dir = path.join(root, "swiglu-lab", "llama-wide");
    const ids = "5,17,42,99,3,7";
    const run = forwardIn(dir, ["--ids", ids]);
    const h = await startHub(root);
    try {
      const model = `${h.base}/swiglu-lab/llama-wide/resolve/main/`;
      // Every answer the worker posts, in order: its id and whether the lists were left out.
      const recordAnswers = () => {
        window.labAnswers = [];
        const Native = window.Worker;
        window.Worker = class extends Native {
          constructor(...a) {
            super(...a);
            this.addEventListener("message", (ev) => {
              if (ev.data && ev.data.type === "answer") {
                const r = JSON.parse(ev.data.json);
                window.labAnswers.push({ id: r.id, pending: r.toward_pending === true, units: (r.units || []).length });
              }
            });
          }
        };
      };
      const page = await openPage(site, `#v=1&view=rules&lang=en&model=${model}&ids=${ids}`, { init: recordAnswers });
      const towardLine = (u) => `${tableWords("STR_RULES_TOWARD", "en")}: ${u.toward.map((t) => `id ${t.id}`).join(" ")}`;
      await waitForMirror(page, towardLine(run.units[0]), TIMEOUT);
      const text = await mirror(page);
      expectIncludes(text, `id ${run.top[0].id}: P: ${pct(run.top[0].p)}`, "the next tokens");
      for (const u of run.units) expectIncludes(text, towardLine(u), "what each unit writes toward");
      expect(!text.includes("…"), "a list still on its way in the settled mirror:\n" + text);
      const answers = await page.evaluate(() => window.labAnswers);
      const first = answers.find((a) => a.units > 0);
      expect(first && first.pending, "the first answer waited for the units' lists: " + JSON.stringify(answers));
      const whole = answers.filter((a) => a.id === first.id);
      expect(whole.length === 2 && !whole[1].pending, "no whole answer under the first one's id: " + JSON.stringify(answers));
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    } finally {
      h.hub.close();
    }
  });

  // The whole model's verified cache, in the worker's Origin Private File System: a reload fetches
  // no weight and stores nothing in IndexedDB's blobs; a record damaged on disk is refused by its
  // checksum and that chunk alone is fetched again (the numbers unchanged); Clear empties the
  // directory, and the reload after it fetches every weight again. Bytes are counted at the host.
  test("model: the whole model's cache is OPFS files: a reload fetches no weight, a damaged record is fetched again, Clear fetches all", async (site) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-opfs-"));
    fs.cpSync(path.join(site.dir, "models", "synthetic"), path.join(root, "swiglu-lab", "cached"), { recursive: true });
    const base = forward(site, ["--text", "中国的首都是"]);
    const row = `id ${base.top[0].id}, P: ${pct(base.top[0].p)}`;
    const h = await startHub(root);
    const weights = () => h.hub.bytesSent(/\.safetensors$/);
    try {
      const model = `${h.base}/swiglu-lab/cached/resolve/main/`;
      const page = await openPage(site, `#v=1&view=rules&lang=en&model=${model}`);
      await waitForMirror(page, row, TIMEOUT);
      const first = weights();
      const st = await settled(page);
      expect(first > 1e6, `the first visit fetched ${first} bytes of weights`);
      expect(st.blobs === 0, `IndexedDB holds ${st.blobs} blobs beside OPFS`);
      const held = st.files.reduce((a, f) => a + f.size, 0);
      expect(held > first / 2, `OPFS holds ${held} bytes in ${st.files.length} files for ${first} bytes fetched`);
      // A reload: the header again (network first), no weight byte.
      h.log.length = 0;
      await page.reload();
      await waitForMirror(page, row, TIMEOUT);
      expect(weights() <= 64 * 1024, `a reload fetched ${weights()} bytes of weights`);
      // One byte of the largest record flipped on disk (the worker holds no file open between reads).
      const victim = st.files[0];
      await page.evaluate(async (name) => {
        const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle("swiglu-lab-model");
        const fh = await dir.getFileHandle(name);
        const bytes = new Uint8Array(await (await fh.getFile()).arrayBuffer());
        bytes[bytes.length >> 1] ^= 0x5a;
        const w = await fh.createWritable();
        await w.write(bytes);
        await w.close();
      }, victim.name);
      h.log.length = 0;
      await page.reload();
      await waitForMirror(page, row, TIMEOUT);
      const again = weights();
      expect(again > 64 * 1024 && again < first, `after one damaged record a reload fetched ${again} of ${first} bytes of weights`);
      expectIncludes(await mirror(page), row, "the numbers after a damaged record");
      // Clear: the directory empties; the reload after it fetches every weight again.
      await clickItem(page, "cache-clear");
      await waitUntil(async () => (await stored(page)).files.length === 0, "Clear to empty the worker's directory", TIMEOUT);
      h.log.length = 0;
      await page.reload();
      await waitForMirror(page, row, TIMEOUT);
      expect(weights() >= first, `after Clear a reload fetched ${weights()} of ${first} bytes of weights`);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    } finally {
      h.hub.close();
    }
  });

  // Threads: the same site served with COOP and COEP (as tools/serve.sh serves it) is cross-origin
  // isolated, and the model worker loads its threaded module and runs the pass on every core the
  // browser reports; served without them, the single-threaded module. Both say which, and both
  // print the same rule book (the threaded pass is the single-threaded one bit for bit: forward_test).
  test("model: served cross-origin isolated, the pass runs on threads and says so; without the headers, one thread, the same numbers", async (site) => {
    const base = forward(site, ["--text", "中国的首都是"]);
    const row = `id ${base.top[0].id}, P: ${pct(base.top[0].p)}`;
    const isolated = await startServer(site.dir, { isolate: true });
    try {
      const texts = [];
      for (const where of [isolated, site]) {
        const from = where.log.length;  // the server's log: the worker's requests too
        const page = await openPage({ ...site, base: where.base }, "#v=1&view=rules&lang=en");
        await waitForMirror(page, row, TIMEOUT);
        await ownAnswer(page);  // the model's, not the precomputed one
        const asked = where.log.slice(from).map((e) => e.path);
        const [iso, cores] = await page.evaluate(() => [self.crossOriginIsolated, navigator.hardwareConcurrency]);
        const threads = Math.min(8, cores);
        const text = await mirror(page);
        if (where === isolated) {
          expect(iso, "the page served with COOP and COEP is not cross-origin isolated");
          if (threads > 1) expectIncludes(text, `The forward pass runs on ${threads} threads`, "the isolated page's mode");
          expect(asked.some((p) => p.endsWith("/swiglu_model_mt.wasm")), `the threaded module was not fetched: ${asked.join(", ")}`);
          // Reloads while the worker reads its records back: a record's file the old worker still
          // held kept the new worker's read waiting, and the load stalled at "2.3 of 2.3 MiB" (about
          // one reload in three, on isolated pages only); such a read is now a miss after 3 s and
          // the part comes from the host. Each reload must answer well inside the 20 s stall
          // window. (These eight failed in each of two runs on the old code.)
          for (const frames of [5, 15, 25, 35, 45, 10, 20, 30]) {
            await page.reload();
            // Into the load by the page's own count of frames drawn (the loading line moves them), or
            // its end: a load from the cache can be done, the page idle, before the later counts.
            await page.waitForFunction((n) => window.labFrames && (window.labFrames() >= n || window.labIdle()), frames,
                                       { polling: "raf", timeout: TIMEOUT });
            await page.reload();
            await page.waitForSelector("body[data-lab-ready]", { timeout: TIMEOUT });
            await waitForMirror(page, row, TIMEOUT);
            await page.waitForFunction(() => !/Precomputed: /.test(document.getElementById("lab-text").textContent), null, { timeout: 15000 })
              .catch(async () => { throw new Error(`a reload during the load did not answer in 15 s:\n${await mirror(page)}`); });
          }
        } else {
          expect(!iso, "the page served without the headers is cross-origin isolated");
          expectIncludes(text, "The forward pass runs on one thread: this host does not send the headers", "the plain page's mode");
          expect(!asked.some((p) => /swiglu_model_mt/.test(p)), "the threaded module was fetched without isolation");
        }
        texts.push(text.slice(text.indexOf("Prompt: ")));
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
        await page.context().close();
      }
      expect(texts[0] === texts[1], `the rule book differs with threads:\n${texts[0]}\n---\n${texts[1]}`);
    } finally {
      await isolated.close();
    }
  });

  // An open page, as a teacher uses it: model= edited to the same built-in files by their absolute
  // address and back (the views are asked again, never left on "cancelled"); then the model's
  // worker dies (its wasm aborted): the page says so in words, and Retry starts a new worker that
  // brings the numbers back.
  test("model: model= switched in an open page answers both ways; a dead worker is said and replaced by Retry", async (site) => {
    const base = forward(site, ["--text", "中国的首都是"]);
    const row = `id ${base.top[0].id}, P: ${pct(base.top[0].p)}`;
    for (const view of ["view=rules", "view=flow", "view=gates&in=stream"]) {
      const page = await openPage(site, `#v=1&${view}&lang=en`);
      const ready = view === "view=rules" ? row : view === "view=flow" ? "ratio" : "Layer 23";
      await waitForMirror(page, ready, TIMEOUT);
      const absolute = new URL("models/synthetic/", page.url()).href;
      for (const model of [`&model=${absolute}`, ""]) {
        await page.evaluate((h) => { location.hash = h; }, `#v=1&${view}&lang=en${model}`);
        await page.waitForFunction((m) => !m || document.getElementById("lab-text").textContent.includes("This checkpoint says it is synthetic"), model, { timeout: TIMEOUT });
        await waitForMirror(page, ready, TIMEOUT);
        const text = await mirror(page);
        expect(!text.includes("cancelled"), `${view}${model}: the view says cancelled:\n${text}`);
      }
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await page.context().close();
    }
    const page = await openPage(site, "#v=1&view=rules&lang=en");
    await waitForMirror(page, row, TIMEOUT);
    await page.evaluate(() => Module.labModel.worker.dispatchEvent(new ErrorEvent("error", { message: "Aborted(OOM)" })));
    await waitForMirror(page, "The whole model's worker stopped (Aborted(OOM))", TIMEOUT);
    await clickItem(page, "model-retry");
    await page.waitForFunction(() => !document.getElementById("lab-text").textContent.includes("worker stopped"), null, { timeout: TIMEOUT });
    await waitForMirror(page, row, TIMEOUT);
    await page.context().close();
  });

  // The whole model's failure lines as a student meets them on a phone, in both languages: each
  // is printed whole inside the 390 px screen, with its buttons reachable there. A part of the
  // weights that fails (the host answers 500 past the header) says where loading stopped, with
  // Retry and the way back; Retry then loads the rest. A model that loads but whose pass overflows
  // f32 (one matrix of BF16 0x7F7F) offers only the way back, which keeps off=. A worker that dies
  // is said as that, with Retry.
  for (const lang of ["en", "zh"])
    test(`model ${lang}: on a phone, a part that failed, a pass that overflows and a dead worker are said whole, their buttons within reach`, async (site) => {
      const root = llamaCheckpoint("llama-overflow", ["--fill", "model.layers.0.mlp.down_proj.weight=0x7F7F"]);
      const before = (id) => tableWords(id, lang).split("%s")[0];
      const onPhone = async (page, what, texts, buttons) => {
        const items = await settledItems(page);
        for (const t of texts) {
          const it = items.find((i) => i.text.includes(t));
          expect(it && it.reachable && it.x0 >= 0 && it.x1 <= 390, `${what}: "${t}" is not printed whole on the phone: ${JSON.stringify(it)}`);
        }
        for (const name of buttons) {
          const r = await bringIntoView(page, name, { phone: true, height: 844 });
          expect(r && r.x >= 0 && r.x + r.w <= 390, `${what}: ${name} is out of the phone's reach: ${JSON.stringify(r)}`);
        }
      };
      const h = await startHub(root);
      try {
        const ids = "5,17,42,99,3,7";
        const run = forwardIn(path.join(root, "swiglu-lab", "llama-whole"), ["--ids", ids, "--off", "1:3"]);
        const c = words[lang].colon, top = run.before_top[0];
        const row = `id ${top.id}${c}P${c}${pct(top.p_before)} → ${pct(top.p)}`;
        // A part that failed: every weight range answers 500 (the header, at byte 0, reads).
        h.faults.set("model.safetensors", { status: 500, from: 1 });
        const model = (name) => `${h.base}/swiglu-lab/${name}/resolve/main/`;
        let page = await openPage(site, `#v=1&view=rules&lang=${lang}&ids=${ids}&off=1:3&model=${model("llama-whole")}`, PHONE);
        await waitForMirror(page, before("STR_MODEL_CHUNK_FAILED"), TIMEOUT);
        await onPhone(page, "a part that failed", [before("STR_MODEL_CHUNK_FAILED"), before("STR_MODEL_STOPPED_AT")],
                      ["model-retry", "model-use-builtin"]);
        expect(!(await mirror(page)).includes(before("STR_MODEL_LOADING")), "a stopped load still says it is loading");
        expect(!(await page.evaluate(() => window.labItemRect("model-cancel"))), "Cancel offered for a load that stopped");
        await shot(page, `model-failed-part-${lang}-phone`);
        h.faults.delete("model.safetensors");
        await bringIntoView(page, "model-retry", { phone: true, height: 844 });
        await clickItem(page, "model-retry");
        await waitForMirror(page, row, TIMEOUT);
        await page.context().close();
        // A pass that overflows f32: the way back, no Retry (the file would be the same).
        page = await openPage(site, `#v=1&view=rules&lang=${lang}&ids=${ids}&off=1:3&model=${model("llama-overflow")}`, PHONE);
        await waitForMirror(page, before("STR_MODEL_NOT_FINITE"), TIMEOUT);
        await onPhone(page, "a pass that overflows", [before("STR_MODEL_NOT_FINITE")], ["model-use-builtin"]);
        expect(!(await page.evaluate(() => window.labItemRect("model-retry"))), "Retry offered for a model whose file is what it is");
        await shot(page, `model-overflow-${lang}-phone`);
        await clickItem(page, "model-use-builtin");
        await page.waitForFunction(() => /[#&]model=(&|$)/.test(location.hash), null, { timeout: TIMEOUT });
        expectIncludes(await hash(page), "off=1:3", "the way back keeps off=");
        await waitForMirror(page, tableWords("STR_MODEL_SYNTHETIC", lang).slice(0, 12), TIMEOUT);
        await page.context().close();
        // A worker that dies (its wasm aborted): said as that, with Retry.
        page = await openPage(site, `#v=1&view=rules&lang=${lang}`, PHONE);
        await ownAnswer(page);
        await page.evaluate(() => Module.labModel.worker.dispatchEvent(new ErrorEvent("error", { message: "Aborted(OOM)" })));
        const stopped = tableWords("STR_FAULT_WORKER_STOPPED", lang, "Aborted(OOM)");
        await waitForMirror(page, stopped, TIMEOUT);
        await onPhone(page, "a dead worker", [stopped], ["model-retry"]);
        await shot(page, `model-worker-stopped-${lang}-phone`);
        expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
        await page.context().close();
      } finally {
        h.hub.close();
      }
    });
}
