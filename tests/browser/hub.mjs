// A Hub-like host for the browser tests of model= (tools/hub_server.mjs: 302 to a second origin,
// Range, ETag, CORS), with faults to inject and a log of what it sent, and make_checkpoint's small
// checkpoints on it. Shared by the checkpoint, tokenizer, recovery and words tests.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHubServers } from "../../tools/hub_server.mjs";

// `options`: more of createHubServers' options (a hostile host's limits).
export async function startHub(root, options = {}) {
  const faults = new Map(), log = [];
  const hub = createHubServers(root, { faults, log, ...options });
  await new Promise((r) => hub.listen(0, "127.0.0.1", r));
  return { hub, faults, log, base: `http://127.0.0.1:${hub.hub.address().port}` };
}

// A folder with make_checkpoint's small checkpoint (hidden 128, intermediate 384, 2 layers, a
// 512-token vocabulary, --unmarked: a "real" model, so the lesson's sentence goes through its
// tokenizer.json) as swiglu-lab/small, made once per test run.
const made = new Map();
export function smallCheckpointRoot(cli) {
  if (made.has(cli)) return made.get(cli);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "lab-small-"));
  execFileSync(path.join(path.dirname(cli), "make_checkpoint"), ["--out", path.join(root, "swiglu-lab", "small"), "--hidden", "128",
    "--intermediate", "384", "--num-layers", "2", "--vocab", "512", "--unmarked"]);
  made.set(cli, root);
  return root;
}
