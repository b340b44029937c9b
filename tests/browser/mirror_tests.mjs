// A class mirror in the browser: a Qwen3.5-layout checkpoint on a Hub-like host is mirrored by
// tools/mirror.sh, the host goes away, and tools/serve.mjs serves the page with the mirror at
// /models/NAME/ (tools/serve.sh's MODEL_DIR). The link it gives the students, with the teacher's
// ids and a unit switched off, shows the rule book's top tokens before → after as
// `swiglu forward` computes them on the mirror's files, every weight read from the mirror by ranges.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startHub } from "./hub.mjs";
import { openPage, mirror, waitForMirror } from "./browser.mjs";
import { createServer, modelMount, classLinks } from "../../tools/serve.mjs";

const TIMEOUT = 90000;
const MIRROR_SH = new URL("../../tools/mirror.sh", import.meta.url).pathname;
// fmt_percent1 (number_format.cpp's fmt_share), as model_tests.mjs prints it.
const pct = (p) => {
  const v = 100 * p;
  return (v <= 0 || v >= 0.05 ? v.toFixed(1) : v.toFixed(1 - Math.floor(Math.log10(v)))) + " %";
};

// tools/mirror.sh, run beside this process (whose event loop answers for the host).
function runMirror(args, env) {
  return new Promise((resolve) => {
    const p = spawn(MIRROR_SH, args, { env: { ...process.env, ...env } });
    let all = "";
    p.stdout.on("data", (d) => { all += d; });
    p.stderr.on("data", (d) => { all += d; });
    p.on("close", (code) => resolve({ code, all }));
  });
}

export function registerMirrorTests(test, { expect, expectIncludes, shot, cli }) {
  const forward = (dir, args) => JSON.parse(execFileSync(cli, ["forward", dir, ...args, "--json"], { encoding: "utf8" }));

  test("mirror: the students' link to a class mirror shows the rule book with a unit off, as swiglu forward computes it", async (site) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-mirror-"));
    execFileSync(path.join(path.dirname(cli), "make_checkpoint"), ["--out", path.join(root, "swiglu-lab", "class-whole"),
      "--whole", "random", "--hidden", "64", "--intermediate", "192", "--num-layers", "2", "--vocab", "512", "--shards", "2"],
    { stdio: "ignore" });
    const dir = path.join(root, "mirror", "class-whole");
    const h = await startHub(root);
    let r;
    try {
      r = await runMirror(["hf:swiglu-lab/class-whole", dir], { SWIGLU_HUB: h.base });
    } finally {
      h.hub.close();  // from here on the page can read the model from the mirror only
    }
    expect(r.code === 0, `tools/mirror.sh exited ${r.code}:\n${r.all}`);

    const log = [];
    const server = createServer(site.dir, { mounts: [modelMount(dir)], log });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const [{ link }] = classLinks("127.0.0.1", server.address().port, "class-whole");
      const ids = "5,17,42,99,3,7";
      const unit = forward(dir, ["--ids", ids]).units[0];  // the most active unit: a visible change
      const off = `${unit.layer}:${unit.unit}`;
      const run = forward(dir, ["--ids", ids, "--off", off]);
      expect(run.before_top.length === 10, `the CLI gave ${run.before_top.length} tokens`);
      const url = new URL(link);
      const page = await openPage({ browser: site.browser, base: url.origin + "/" }, `${url.hash}&lang=en&ids=${ids}&off=${off}`);
      // This checkpoint's tokens have no text: each is named by its id once ("id 7: P: …").
      const row = (t) => `id ${t.id}: P: ${pct(t.p_before)} → ${pct(t.p)}`;
      await waitForMirror(page, row(run.before_top[0]), TIMEOUT);
      const text = await mirror(page);
      for (const t of run.before_top) expectIncludes(text, row(t), "the top 10 before → after");
      // Each shard's header by a range (the mirror honours Range); its weights by ranges, or whole
      // (these shards are small: docs/checkpoint.md, "A small file goes whole").
      const weights = log.filter((e) => /^\/models\/class-whole\/model-0000[12]-of-00002\.safetensors$/.test(e.path));
      const ranged = (e) => /^bytes=\d+-\d+$/.test(e.range);
      expect(["model-00001-of-00002", "model-00002-of-00002"].every((f) => weights.some((e) => e.path.includes(f) && ranged(e))) &&
             weights.every((e) => ranged(e) || e.range === ""),
        `the shards were not read from the mirror by ranges: ${JSON.stringify(weights)}`);
      expect(page.labErrors.length === 0, "page errors: " + page.labErrors.join("; "));
      await shot(page, "mirror-rules");
      await page.context().close();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
}
