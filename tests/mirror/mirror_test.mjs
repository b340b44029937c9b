// tools/mirror.sh against the Hub-like loopback host (tools/hub_server.mjs), on make_checkpoint's
// whole models: a mirror byte for byte equal to the host's files and nothing the page never reads;
// nothing fetched again when nothing changed; an interrupted download continued (in the run, and
// by the next run) with fewer bytes than the whole, counted at the host; a file that changed on
// the host (between runs, while it was fetched) fetched again, and said; the Hub's sha256 checked;
// a 404 shard, a shard longer than its header says, and bad arguments, with their exit codes.
//
//   MAKE_CHECKPOINT=build-native/make_checkpoint node --test tests/mirror/mirror_test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHubServers } from "../../tools/hub_server.mjs";

const MAKE_CHECKPOINT = process.env.MAKE_CHECKPOINT || "build-native/make_checkpoint";
const MIRROR = new URL("../../tools/mirror.sh", import.meta.url).pathname;
const SHARD1 = "model-00001-of-00002.safetensors", SHARD2 = "model-00002-of-00002.safetensors";
// What the page reads of a sharded checkpoint; the host also holds files it never reads.
const READ = ["config.json", "model.safetensors.index.json", SHARD1, SHARD2, "tokenizer.json"];
const NEVER_READ = ["README.md", "generation_config.json", "tokenizer_config.json"];

const work = fs.mkdtempSync(path.join(os.tmpdir(), "mirror-test-"));
const hubRoot = path.join(work, "hub");
test.after(() => fs.rmSync(work, { recursive: true, force: true }));

// A random whole model in two shards (Qwen3.5's layout, 2 layers), as the repository org/NAME,
// with a tokenizer.json and the files a repository also has that the page never reads.
function makeRepo(name, { seed = 7, shards = 2, tokenizer = true } = {}) {
  const dir = path.join(hubRoot, "org", name);
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(MAKE_CHECKPOINT, ["--out", dir, "--whole", "random", "--hidden", "64", "--intermediate", "192",
    "--num-layers", "2", "--vocab", "512", "--shards", String(shards), "--seed", String(seed)], { stdio: "ignore" });
  if (shards === 1) {  // one file, no index (make_checkpoint's whole models always write an index)
    const only = fs.readdirSync(dir).find((f) => f.endsWith(".safetensors"));
    fs.renameSync(path.join(dir, only), path.join(dir, "model.safetensors"));
    fs.rmSync(path.join(dir, "model.safetensors.index.json"));
  }
  if (tokenizer) fs.writeFileSync(path.join(dir, "tokenizer.json"), JSON.stringify({ version: "1.0", seed }));
  for (const f of NEVER_READ) fs.writeFileSync(path.join(dir, f), `not for the page ${seed}\n`);
  return dir;
}

async function startHub(options = {}) {
  const faults = new Map(), log = [];
  const servers = createHubServers(hubRoot, { faults, log, ...options });
  await new Promise((r) => servers.listen(0, "127.0.0.1", r));
  return { servers, faults, log, base: `http://127.0.0.1:${servers.hub.address().port}`, close: () => servers.close() };
}

// Runs tools/mirror.sh (asynchronously: the host answers from this process).
function mirror(hub, args, env = {}) {
  return new Promise((resolve) => {
    const p = spawn(MIRROR, args, { env: { ...process.env, SWIGLU_HUB: hub?.base ?? "http://127.0.0.1:9", ...env } });
    let out = "", err = "";
    p.stdout.on("data", (d) => { out += d; });
    p.stderr.on("data", (d) => { err += d; });
    p.on("close", (code) => resolve({ code, out, err, all: out + err }));
  });
}

// What the host's cdn sent of `file` (bodies only), in the requests logged from `from` on.
const sentOf = (hub, file, from = 0) => hub.log.slice(from).filter((e) => e.origin === "cdn" && e.path.endsWith("/" + file));
const bytesOf = (entries) => entries.reduce((a, e) => a + e.bytes, 0);
const readManifest = (dir) => JSON.parse(fs.readFileSync(path.join(dir, "mirror.json"), "utf8"));
const sha256 = (file) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

function assertSameFiles(src, dir, names) {
  for (const f of names) assert.ok(fs.readFileSync(path.join(dir, f)).equals(fs.readFileSync(path.join(src, f))), `${f} differs from the host's`);
  assert.deepEqual(fs.readdirSync(dir).sort(), [...names, "mirror.json"].sort(), "the mirror holds other files");
}

test("a full mirror equals the host's files byte for byte, fetches nothing the page never reads, and a second run fetches nothing", async () => {
  const src = makeRepo("full");
  const hub = await startHub();
  try {
    const out = path.join(work, "out-full");
    const r = await mirror(hub, ["hf:org/full", out]);
    assert.equal(r.code, 0, r.all);
    assertSameFiles(src, out, READ);
    for (const f of NEVER_READ) assert.ok(!hub.log.some((e) => e.path.endsWith("/" + f)), `${f} was asked for`);
    const m = readManifest(out);
    assert.equal(m.source, "hf:org/full");
    assert.equal(m.revision, "main");
    assert.equal(m.complete, true);
    for (const f of READ) {
      assert.equal(m.files[f].size, fs.statSync(path.join(src, f)).size, `${f}'s recorded size`);
      assert.match(m.files[f].etag, /^"[0-9a-f]{40}"$/, `${f}'s recorded ETag`);
    }
    assert.deepEqual(m.partial, {});
    // Again: every file asked about (HEAD), none sent.
    const from = hub.log.length;
    const again = await mirror(hub, ["hf:org/full", out]);
    assert.equal(again.code, 0, again.all);
    for (const f of READ) {
      assert.match(again.out, new RegExp(`${f.replaceAll(".", "\\.")}: up to date`), again.out);
      assert.equal(bytesOf(sentOf(hub, f, from)), 0, `${f} sent again`);
      assert.ok(sentOf(hub, f, from).every((e) => e.method === "HEAD"), `${f} asked for with GET`);
    }
    assertSameFiles(src, out, READ);
  } finally {
    hub.close();
  }
});

test("a single-file checkpoint without tokenizer.json: model.safetensors, and the absent tokenizer said", async () => {
  const src = makeRepo("single", { shards: 1, tokenizer: false });
  const hub = await startHub();
  try {
    const out = path.join(work, "out-single");
    const r = await mirror(hub, ["hf:org/single", out]);
    assert.equal(r.code, 0, r.all);
    assertSameFiles(src, out, ["config.json", "model.safetensors"]);
    assert.match(r.out, /tokenizer\.json: not on the host \(fine/);
    assert.deepEqual(readManifest(out).absent, ["tokenizer.json"]);
  } finally {
    hub.close();
  }
});

test("an interrupted download resumes on the next run and ends identical, fetching only what was missing", async () => {
  const src = makeRepo("resume");
  const hub = await startHub();
  try {
    const out = path.join(work, "out-resume");
    const size = fs.statSync(path.join(src, SHARD1)).size;
    hub.faults.set(SHARD1, { drop: true, times: 1 });  // the connection dies halfway through the body
    const first = await mirror(hub, ["hf:org/resume", out], { SWIGLU_MIRROR_RETRIES: "0" });
    assert.equal(first.code, 1, first.all);
    assert.match(first.err, new RegExp(`${SHARD1}: interrupted: .*run the same command again to continue`), first.err);
    const kept = fs.statSync(path.join(out, SHARD1 + ".part")).size;
    assert.ok(kept > 0 && kept < size, `kept ${kept} of ${size}`);
    assert.equal(readManifest(out).complete, false);
    const from = hub.log.length;
    const second = await mirror(hub, ["hf:org/resume", out]);
    assert.equal(second.code, 0, second.all);
    assert.match(second.out, new RegExp(`${SHARD1}: resuming at ${kept} bytes of ${size} bytes`));
    const gets = sentOf(hub, SHARD1, from).filter((e) => e.method === "GET");
    assert.deepEqual(gets.map((e) => e.range), [`bytes=${kept}-`]);
    assert.equal(bytesOf(gets), size - kept, "bytes sent by the second run");
    assertSameFiles(src, out, READ);
  } finally {
    hub.close();
  }
});

test("a dropped connection is continued within the run: the second request sends only the rest", async () => {
  const src = makeRepo("retry");
  const hub = await startHub();
  try {
    const out = path.join(work, "out-retry");
    hub.faults.set(SHARD2, { drop: true, times: 1 });
    const r = await mirror(hub, ["hf:org/retry", out]);
    assert.equal(r.code, 0, r.all);
    const gets = sentOf(hub, SHARD2).filter((e) => e.method === "GET");
    assert.deepEqual(gets.map((e) => e.range.replace(/\d+/, "N")), ["", "bytes=N-"]);
    // (what curl kept: what the host sent before the drop, less what was still in flight)
    const kept = Number(/\d+/.exec(gets[1].range)[0]), size = fs.statSync(path.join(src, SHARD2)).size;
    assert.ok(kept > 0 && kept <= gets[0].bytes, `continued at ${kept} after ${gets[0].bytes} sent`);
    assert.equal(gets[1].bytes, size - kept, "the second request sent only the rest");
    assertSameFiles(src, out, READ);
  } finally {
    hub.close();
  }
});

test("a host that ignores Range on the resumed request: the kept bytes are discarded and the file comes whole", async () => {
  const src = makeRepo("norange");
  const hub = await startHub();
  try {
    const out = path.join(work, "out-norange");
    hub.faults.set(SHARD1, { drop: true, times: 1 });
    assert.equal((await mirror(hub, ["hf:org/norange", out], { SWIGLU_MIRROR_RETRIES: "0" })).code, 1);
    hub.faults.set(SHARD1, { ignoreRange: true, times: 1 });
    const r = await mirror(hub, ["hf:org/norange", out]);
    assert.equal(r.code, 0, r.all);
    assert.match(r.out, new RegExp(`${SHARD1}: the host does not continue a download`));
    assertSameFiles(src, out, READ);
  } finally {
    hub.close();
  }
});

test("a checkpoint changed on the host between two runs: the partial file is discarded, every changed file fetched again, and said", async () => {
  makeRepo("changed", { seed: 7 });
  const hub = await startHub();
  try {
    const out = path.join(work, "out-changed");
    hub.faults.set(SHARD1, { drop: true, times: 1 });
    assert.equal((await mirror(hub, ["hf:org/changed", out], { SWIGLU_MIRROR_RETRIES: "0" })).code, 1);
    const kept = fs.statSync(path.join(out, SHARD1 + ".part")).size;
    const src = makeRepo("changed", { seed: 8 });  // a new version: same sizes, other bytes, other ETags
    const from = hub.log.length;
    const r = await mirror(hub, ["hf:org/changed", out]);
    assert.equal(r.code, 0, r.all);
    assert.match(r.out, new RegExp(`${SHARD1}: changed on the host since the interrupted download \\(ETag "[0-9a-f]{40}" -> "[0-9a-f]{40}"\\): ` +
      `the ${kept} bytes kept are discarded, fetched from the start`));
    for (const f of ["config.json", "model.safetensors.index.json"])
      assert.match(r.out, new RegExp(`${f.replaceAll(".", "\\.")}: changed on the host since it was mirrored`));
    const gets = sentOf(hub, SHARD1, from).filter((e) => e.method === "GET");
    assert.deepEqual(gets.map((e) => e.range), [""], "the new version asked for from its start");
    assert.equal(bytesOf(gets), fs.statSync(path.join(src, SHARD1)).size);
    assertSameFiles(src, out, READ);
    // And a mirror that was complete: the next version replaces every file, nothing of the old kept.
    const src3 = makeRepo("changed", { seed: 9 });
    const again = await mirror(hub, ["hf:org/changed", out]);
    assert.equal(again.code, 0, again.all);
    for (const f of READ) assert.match(again.out, new RegExp(`${f.replaceAll(".", "\\.")}: changed on the host since it was mirrored`));
    assertSameFiles(src3, out, READ);
  } finally {
    hub.close();
  }
});

test("a file replaced on the host while it is fetched: its bytes are discarded and the new version fetched", async () => {
  const src = makeRepo("racing");
  let gets = 0;
  const hub = await startHub({
    onServe(entry, p) {  // the first GET of shard 1 finds a new version in place
      if (p.file !== SHARD1 || entry.method !== "GET" || gets++ > 0) return;
      const file = path.join(src, SHARD1), bytes = fs.readFileSync(file);
      bytes[bytes.length - 1] ^= 1;
      fs.writeFileSync(file, bytes);
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(file, later, later);
    },
  });
  try {
    const out = path.join(work, "out-racing");
    const r = await mirror(hub, ["hf:org/racing", out]);
    assert.equal(r.code, 0, r.all);
    assert.match(r.out, new RegExp(`${SHARD1}: changed on the host while it was fetched`));
    assertSameFiles(src, out, READ);
  } finally {
    hub.close();
  }
});

test("the Hub's sha256 (X-Linked-Etag) is checked: recorded when it matches, a corrupted body fetched again, a host that keeps corrupting it fails", async () => {
  const src = makeRepo("linked");
  const hub = await startHub({ linked: true });
  try {
    const out = path.join(work, "out-linked");
    const r = await mirror(hub, ["hf:org/linked", out]);
    assert.equal(r.code, 0, r.all);
    const m = readManifest(out);
    for (const f of [SHARD1, SHARD2]) {
      assert.equal(m.files[f].sha256, sha256(path.join(src, f)), `${f}'s sha256`);
      assert.equal(m.files[f].etag, `"${sha256(path.join(src, f))}"`);
    }
    assert.match(m.commit, /^[0-9a-f]{40}$/, "the host's X-Repo-Commit recorded");
    // The Hub's redirect said what a shard is: its CDN (a URL signed for GET) was not asked HEAD.
    assert.ok(!hub.log.some((e) => e.origin === "cdn" && e.method === "HEAD" && e.path.endsWith(".safetensors")), "a HEAD sent to the cdn");
    // A body with one byte flipped (the size is right): only the hash tells.
    const out2 = path.join(work, "out-linked-2");
    hub.faults.set(SHARD2, { corrupt: true, times: 1 });
    const once = await mirror(hub, ["hf:org/linked", out2]);
    assert.equal(once.code, 0, once.all);
    assert.match(once.out, new RegExp(`${SHARD2}: its bytes do not match the sha256 the host gives`));
    assertSameFiles(src, out2, READ);
    const out3 = path.join(work, "out-linked-3");
    hub.faults.set(SHARD2, { corrupt: true });
    const always = await mirror(hub, ["hf:org/linked", out3], { SWIGLU_MIRROR_RETRIES: "1" });
    assert.equal(always.code, 1, always.all);
    assert.match(always.err, new RegExp(`^mirror: ${SHARD2}: its bytes do not match the sha256 the host gives .*tried 2 times`, "m"));
    assert.ok(!fs.existsSync(path.join(out3, SHARD2)) && !fs.existsSync(path.join(out3, SHARD2 + ".part")), "unverified bytes kept");
  } finally {
    hub.close();
  }
});

test("a shard the host does not have (404) names the file and exits 1; so does a shard longer than its header says", async () => {
  const src = makeRepo("broken");
  const hub = await startHub();
  try {
    fs.rmSync(path.join(src, SHARD2));
    const out = path.join(work, "out-broken");
    const r = await mirror(hub, ["hf:org/broken", out]);
    assert.equal(r.code, 1, r.all);
    assert.match(r.err, new RegExp(`^mirror: ${SHARD2}: not found on the host \\(HTTP 404\\)`, "m"));
    assert.equal(readManifest(out).complete, false);
    makeRepo("broken");
    fs.appendFileSync(path.join(src, SHARD1), Buffer.alloc(100));
    const out2 = path.join(work, "out-broken-2");
    const longer = await mirror(hub, ["hf:org/broken", out2]);
    assert.equal(longer.code, 1, longer.all);
    assert.match(longer.err, new RegExp(`^mirror: ${SHARD1}: not a whole safetensors file: its header says its tensors end at byte \\d+, but the file has \\d+ bytes`, "m"));
    assert.ok(!fs.existsSync(path.join(out2, SHARD1)) && !fs.existsSync(path.join(out2, SHARD1 + ".part")), "the broken shard kept");
  } finally {
    hub.close();
  }
});

test("a stalled answer is given up after SWIGLU_MIRROR_STALL_S and asked again", async () => {
  const src = makeRepo("stall");
  const hub = await startHub();
  try {
    const out = path.join(work, "out-stall");
    hub.faults.set(SHARD1, { stall: true, times: 1 });
    const r = await mirror(hub, ["hf:org/stall", out], { SWIGLU_MIRROR_STALL_S: "1" });
    assert.equal(r.code, 0, r.all);
    assert.match(r.out, new RegExp(`${SHARD1}: interrupted: no progress for 1 s`));
    assertSameFiles(src, out, READ);
  } finally {
    hub.close();
  }
});

test("bad arguments exit 2 with the usage or the reason", async () => {
  const file = path.join(work, "a-file");
  fs.writeFileSync(file, "x");
  const other = path.join(work, "out-other");
  fs.mkdirSync(other, { recursive: true });
  fs.writeFileSync(path.join(other, "mirror.json"), JSON.stringify({ mirror: 1, source: "hf:org/other", files: {}, partial: {} }));
  const cases = [
    [[], /usage: tools\/mirror\.sh hf:OWNER\/NAME\[@REVISION\] DIR/],
    [["hf:org/full"], /usage:/],
    [["hf:org/full", "a", "b"], /usage:/],
    [["--verbose", "hf:org/full"], /usage:/],
    [["hf:org", path.join(work, "x")], /'org' is not a Hugging Face repository id/],
    [["hf:org/-bad", path.join(work, "x")], /'org\/-bad' is not a Hugging Face repository id/],
    [["hf:org/full@../x", path.join(work, "x")], /'\.\.\/x' is not a revision/],
    [["ftp://host/dir/", path.join(work, "x")], /neither hf:OWNER\/NAME\[@REVISION\] nor an http\(s\) URL/],
    [["models/qwen/", path.join(work, "x")], /neither hf:/],
    [["hf:org/full", file], /is not a directory/],
    [["hf:org/full", other], /holds a mirror of hf:org\/other, not hf:org\/full: give another DIR/],
  ];
  const runs = await Promise.all(cases.map(([args]) => mirror(null, args)));
  cases.forEach(([args, reason], i) => {
    assert.equal(runs[i].code, 2, `${JSON.stringify(args)}: ${runs[i].all}`);
    assert.match(runs[i].err, reason, JSON.stringify(args));
  });
  const env = await mirror(null, ["hf:org/full", path.join(work, "x")], { SWIGLU_MIRROR_RETRIES: "many" });
  assert.equal(env.code, 2);
  assert.match(env.err, /SWIGLU_MIRROR_RETRIES=many is not a whole number/);
  assert.ok(!fs.existsSync(path.join(work, "x")), "a refused command made its DIR");
});

test("an http(s) directory URL is mirrored as model= reads it", async () => {
  const src = makeRepo("plain");
  const hub = await startHub();
  try {
    const out = path.join(work, "out-plain");
    const r = await mirror(hub, [`${hub.base}/org/plain/resolve/main`, out]);
    assert.equal(r.code, 0, r.all);
    assertSameFiles(src, out, READ);
    assert.equal(readManifest(out).revision, null);
  } finally {
    hub.close();
  }
});
