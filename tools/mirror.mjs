#!/usr/bin/env node
// A class mirror: downloads the files of a checkpoint the page reads (config.json, the index or
// the one model.safetensors, every shard the index names, tokenizer.json when there is one) into
// a directory, once, so that tools/serve.sh serves them to a room of laptops (docs/checkpoint.md,
// "Mirroring a model for a class"). Every byte is fetched by Debian's curl; this script decides
// what to fetch and checks what came:
//  - each file's size against the host's (X-Linked-Size, Content-Length) and, for a shard, the
//    extent its own safetensors header gives;
//  - its sha256 when the host's ETag is one (the Hub's X-Linked-Etag for a file in LFS), else the
//    ETag is recorded and compared on the next run;
//  - an interrupted download continues where it stopped (curl -C -), on a retry within the run or
//    on the next run, unless the file changed on the host meanwhile (another ETag): then the bytes
//    kept are discarded and the file comes from the start, and the tool says so;
//  - a complete file whose ETag and size still match is not fetched again.
// What was mirrored is recorded in DIR/mirror.json (each file's size and ETag, the revision).
//
//   tools/mirror.sh hf:OWNER/NAME[@REVISION] DIR
//   tools/mirror.sh https://host/dir/ DIR
// Exit 0 mirrored, 1 a file could not be mirrored (its name and why), 2 bad arguments.
// SWIGLU_HUB=http://127.0.0.1:PORT stands for https://huggingface.co (tests/mirror/mirror_test.mjs
// uses tools/hub_server.mjs); SWIGLU_MIRROR_RETRIES (default 4) and SWIGLU_MIRROR_STALL_S (default 30).
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const MANIFEST = "mirror.json", MANIFEST_VERSION = 1;
const INDEX = "model.safetensors.index.json", SINGLE = "model.safetensors";
const MAX_SHARDS = 256;                  // the page's own limit (checkpoint_limits.h)
const MAX_HEADER_BYTES = 100 * 1024 * 1024;  // the safetensors library's bound on a header
const RETRIES = envInt("SWIGLU_MIRROR_RETRIES", 4, 0, 100);
const STALL_S = envInt("SWIGLU_MIRROR_STALL_S", 30, 1, 3600);  // under 1 KiB/s for this long: a stall
const USAGE = "usage: tools/mirror.sh hf:OWNER/NAME[@REVISION] DIR\n" +
  "       tools/mirror.sh https://host/dir/ DIR    (a checkpoint directory, as model= names it)";

class Failure extends Error {
  constructor(message, code = 1) { super(message); this.code = code; }
}
const say = (text) => process.stdout.write(`mirror: ${text}\n`);

function envInt(name, dflt, lo, hi) {
  const v = process.env[name];
  if (v === undefined || v === "") return dflt;
  if (!/^\d+$/.test(v) || Number(v) < lo || Number(v) > hi) {
    process.stderr.write(`mirror: ${name}=${v} is not a whole number in [${lo}, ${hi}]\n`);
    process.exit(2);
  }
  return Number(v);
}

// [SECTION] the source: the same forms and rules as the page's model= (model_location.cpp)
const repoPartOk = (p) => /^[A-Za-z0-9_.-]+$/.test(p) && !/^[-.]|[-.]$/.test(p) && !p.includes("--") && !p.includes("..");
const repoIdOk = (id) => id.length <= 96 && id.split("/").length === 2 && id.split("/").every(repoPartOk);
const revisionOk = (r) => r.length > 0 && r.length <= 255 && /^[A-Za-z0-9_.\/-]+$/.test(r) && !/^[\/.]|\/$/.test(r) &&
  !r.includes("..") && !r.includes("//");

function parseSource(text) {
  if (text.startsWith("hf:")) {
    const rest = text.slice(3), at = rest.indexOf("@");
    const repo = at < 0 ? rest : rest.slice(0, at), revision = at < 0 ? "main" : rest.slice(at + 1);
    if (at >= 0 && !revisionOk(revision)) throw new Failure(`'${revision}' is not a revision (branch, tag or commit)`, 2);
    if (!repoIdOk(repo)) throw new Failure(`'${repo}' is not a Hugging Face repository id (OWNER/NAME)`, 2);
    const hub = (process.env.SWIGLU_HUB || "https://huggingface.co").replace(/\/+$/, "");
    return { text, repo, revision, base: `${hub}/${repo}/resolve/${revision.replaceAll("/", "%2F")}/` };
  }
  if (!/^https?:\/\/[^\s"'<>\\`]+$/.test(text) || text.split("/").includes(".."))
    throw new Failure(`'${text}' is neither hf:OWNER/NAME[@REVISION] nor an http(s) URL of a checkpoint directory`, 2);
  return { text, repo: null, revision: null, base: text.endsWith("/") ? text : text + "/" };
}

// [SECTION] curl: one HEAD for what the host says a file is, one GET (resumed) for its bytes
const STDERR_TTY = process.stderr.isTTY;

function curl(args, { progress = false } = {}) {
  const r = spawnSync("curl", [...(progress && STDERR_TTY ? ["--progress-bar"] : ["-sS"]), "--max-redirs", "10",
    "--connect-timeout", "20", "--speed-limit", "1024", "--speed-time", String(STALL_S), ...args],
  { encoding: "utf8", stdio: ["ignore", "pipe", progress && STDERR_TTY ? "inherit" : "pipe"] });
  if (r.error) throw new Failure(`cannot run curl (${r.error.code === "ENOENT" ? "not installed: tools/setup.sh installs it" : r.error.message})`);
  return { code: r.status, out: r.stdout || "", err: (r.stderr || "").trim().replace(/^curl: (\(\d+\) )?/, "") };
}

// The header blocks of every answer of a request that followed redirects (curl -I / -D).
function parseHops(text) {
  return text.split(/\r?\n\r?\n/).filter((b) => /^HTTP\//.test(b)).map((block) => {
    const [statusLine, ...lines] = block.split(/\r?\n/);
    const headers = new Map();
    for (const l of lines) {
      const i = l.indexOf(":");
      if (i > 0) headers.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
    }
    return { status: Number(statusLine.split(" ")[1]), headers };
  });
}

// What the host says a file is: the Hub's X-Linked-* (on its redirect) for a file in LFS, else
// the final answer's ETag and length; X-Repo-Commit where the host names its revision.
function identity(hops) {
  const find = (name) => hops.map((h) => h.headers.get(name)).find((v) => v !== undefined);
  const last = hops[hops.length - 1] || { status: 0, headers: new Map() };
  const size = find("x-linked-size") ?? (last.status === 200 ? last.headers.get("content-length") : undefined);
  return {
    status: last.status,
    size: size !== undefined && /^\d+$/.test(size) ? Number(size) : null,
    etag: find("x-linked-etag") ?? last.headers.get("etag") ?? null,
    commit: find("x-repo-commit") ?? null,
    retryAfter: Number(last.headers.get("retry-after")) || 0,
  };
}

// "W/\"abc\"" and "abc" name the same version (as the page compares them).
const bareEtag = (e) => (e || "").replace(/^W\//, "").replace(/^"|"$/g, "");
const sameEtag = (a, b) => !!a && !!b && bareEtag(a) === bareEtag(b);
const isSha256 = (e) => /^[0-9a-f]{64}$/.test(bareEtag(e));

// curl's exit codes for a transfer that may go through on a second try: partial body (18),
// timeout or stall (28), nothing or garbage received (52, 56, 92, 16), send error (55).
const TRANSIENT = new Set([16, 18, 28, 52, 55, 56, 92]);
function curlReason(r) {
  if (r.code === 28) return `no progress for ${STALL_S} s (${r.err})`;
  if (r.code === 18) return `the connection closed before the end (${r.err})`;
  return r.err || `curl exit ${r.code}`;
}

function httpReason(status) {
  if (status === 404) return "not found on the host (HTTP 404)";
  if (status === 401 || status === 403) return `the host refuses it (HTTP ${status}: a gated or private repository?)`;
  if (status === 416) return "the host refused the range asked for (HTTP 416)";
  return `the host answered HTTP ${status}`;
}

function sleepSeconds(s) { if (s > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, s * 1000); }

// [SECTION] local files and the manifest
const sizeOf = (f) => { try { return fs.statSync(f).size; } catch { return -1; } };
const mib = (n) => `${(n / 1048576).toFixed(1)} MiB`;
const bytes = (n) => (n >= 1048576 ? mib(n) : `${n} bytes`);

function sha256Of(file) {
  const h = crypto.createHash("sha256"), fd = fs.openSync(file, "r"), buf = Buffer.alloc(1 << 20);
  try { for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0;) h.update(buf.subarray(0, n)); } finally { fs.closeSync(fd); }
  return h.digest("hex");
}

// A safetensors file ends where its header's last tensor ends: 8 + header length + the largest
// data_offsets end. Returns why not, or "".
function safetensorsExtentProblem(file) {
  const size = sizeOf(file), fd = fs.openSync(file, "r");
  try {
    if (size < 8) return `${size} bytes: shorter than a safetensors header`;
    const len = Buffer.alloc(8);
    fs.readSync(fd, len, 0, 8, 0);
    const n = len.readBigUInt64LE(0);
    if (n > BigInt(Math.min(size - 8, MAX_HEADER_BYTES))) return `its header claims ${n} bytes, more than the file holds`;
    const json = Buffer.alloc(Number(n));
    fs.readSync(fd, json, 0, json.length, 8);
    let header;
    try { header = JSON.parse(json.toString("utf8")); } catch (e) { return `its header is not JSON (${e.message})`; }
    let end = 0;
    for (const [name, t] of Object.entries(header)) {
      if (name === "__metadata__") continue;
      const o = t?.data_offsets;
      if (!Array.isArray(o) || o.length !== 2 || !Number.isSafeInteger(o[1])) return `tensor '${name}' has no data_offsets`;
      end = Math.max(end, o[1]);
    }
    const want = 8 + Number(n) + end;
    return want === size ? "" : `its header says its tensors end at byte ${want}, but the file has ${size} bytes`;
  } finally {
    fs.closeSync(fd);
  }
}

function readManifest(dir) {
  const file = path.join(dir, MANIFEST);
  if (!fs.existsSync(file)) return null;
  try {
    const m = JSON.parse(fs.readFileSync(file, "utf8"));
    if (m.mirror !== MANIFEST_VERSION || typeof m.files !== "object" || typeof m.partial !== "object") throw new Error("not a mirror manifest");
    return m;
  } catch (e) {
    throw new Failure(`${file} cannot be read (${e.message}): remove it, or give another DIR`, 2);
  }
}

function writeManifest(dir, m) {  // whole or not at all: written beside, then renamed
  const file = path.join(dir, MANIFEST);
  fs.writeFileSync(file + ".tmp", JSON.stringify(m, null, 2) + "\n");
  fs.renameSync(file + ".tmp", file);
}

// What the host says a file is now (a HEAD request). For a file in LFS the Hub's redirect says it
// all (X-Linked-Size, X-Linked-Etag) and its CDN's signed URL, made for GET, is not asked; any
// other redirect is followed.
function askHost(url) {
  let h = curl(["-I", url]);
  if (h.code !== 0) return { h };
  const first = parseHops(h.out)[0];
  if (first && first.status >= 300 && first.status < 400 && first.headers.has("x-linked-size") && first.headers.has("x-linked-etag"))
    return { h, host: { ...identity([first]), status: 200 } };
  if (first && first.status >= 300 && first.status < 400) h = curl(["-I", "-L", url]);
  return { h, host: h.code === 0 ? identity(parseHops(h.out)) : null };
}

// [SECTION] one file
// Brings `name` into DIR, verified; returns its manifest entry, or null when `optional` and the
// host has no such file (404).
function mirrorFile(run, name, { optional = false } = {}) {
  const url = run.source.base + name, local = path.join(run.dir, name), part = local + ".part";
  const m = run.manifest;
  for (let attempt = 0; ; attempt++) {
    const retry = (why, waitS = Math.min(2 ** attempt - 1, 30)) => {
      if (attempt >= RETRIES)
        throw new Failure(`${name}: ${why} (tried ${attempt + 1} time${attempt ? "s" : ""}; run the same command again to continue)`);
      say(`${name}: ${why}; trying again${waitS ? ` in ${waitS} s` : ""}`);
      sleepSeconds(waitS);
    };
    const { h, host } = askHost(url);
    if (h.code !== 0) {
      if (TRANSIENT.has(h.code)) { retry(curlReason(h)); continue; }
      throw new Failure(`${name}: ${curlReason(h)} (${url})`);
    }
    if (host.status === 404 && optional) return null;
    if (host.status === 429 || host.status >= 500) { retry(httpReason(host.status), Math.min(host.retryAfter || 2 ** attempt, 60)); continue; }
    if (host.status !== 200) throw new Failure(`${name}: ${httpReason(host.status)} (${url})`);
    if (host.commit) {
      if (run.commit && run.commit !== host.commit)
        throw new Failure(`${name}: the repository moved from commit ${run.commit} to ${host.commit} during the mirror; run the same command again`);
      run.commit = host.commit;
    }
    // Complete already?
    const done = m.files[name];
    if (done && fs.existsSync(local)) {
      if (sameEtag(done.etag, host.etag) && (host.size === null || done.size === host.size) && sizeOf(local) === done.size) {
        say(`${name}: up to date (${bytes(done.size)}), not fetched again`);
        return done;
      }
      say(`${name}: changed on the host since it was mirrored (ETag ${done.etag} -> ${host.etag}, ${bytes(done.size)} -> ${host.size === null ? "size unknown" : bytes(host.size)}): fetched again`);
    }
    // A partial download: continue it only if it is of the very file the host has now.
    const kept = sizeOf(part);
    if (kept >= 0) {
      const was = m.partial[name];
      const why = !host.etag ? "the host sends no ETag, so the bytes kept cannot be told to be of this file"
        : !was || !sameEtag(was.etag, host.etag) || was.size !== host.size
          ? `changed on the host since the interrupted download (ETag ${was?.etag ?? "not recorded"} -> ${host.etag})`
          : host.size !== null && kept > host.size ? `${bytes(kept)} kept, more than the file's ${bytes(host.size)}` : "";
      if (why) {
        say(`${name}: ${why}: the ${bytes(kept)} kept are discarded, fetched from the start`);
        fs.rmSync(part);
      } else if (kept > 0 && kept !== host.size) {
        say(`${name}: resuming at ${bytes(kept)} of ${host.size === null ? "?" : bytes(host.size)}`);
      }
    }
    m.partial[name] = { size: host.size, etag: host.etag };
    writeManifest(run.dir, m);
    // The bytes (the rest of them).
    if (sizeOf(part) < 0 || host.size === null || sizeOf(part) < host.size) {
      if (!(sizeOf(part) > 0)) say(`${name}: fetching ${host.size === null ? "" : bytes(host.size) + " "}from ${url}`);
      const headers = path.join(run.scratch, "headers");
      const before = Math.max(0, sizeOf(part));
      const g = curl(["-L", "--fail", "-C", "-", "-o", part, "-D", headers, "-w", "%{http_code}", url], { progress: true });
      const got = fs.existsSync(headers) ? identity(parseHops(fs.readFileSync(headers, "utf8"))) : null;
      fs.rmSync(headers, { force: true });
      run.fetched += Math.max(0, sizeOf(part) - before);
      if (got && got.etag && host.etag && !sameEtag(got.etag, host.etag)) {
        fs.rmSync(part, { force: true });
        retry(`changed on the host while it was fetched (ETag ${host.etag} -> ${got.etag}): the bytes are discarded`, 0);
        continue;
      }
      if (g.code === 33) {  // the host answered the range with the whole file: the kept bytes cannot be continued
        fs.rmSync(part, { force: true });
        retry("the host does not continue a download (it ignores Range): the bytes kept are discarded", 0);
        continue;
      }
      if (g.code === 22) {
        const status = Number(g.out) || got?.status || 0;
        if (status === 429 || status >= 500) { retry(httpReason(status), Math.min(got?.retryAfter || 2 ** attempt, 60)); continue; }
        throw new Failure(`${name}: ${httpReason(status)} (${url})`);
      }
      if (g.code !== 0) {
        const reason = `${curlReason(g)} at ${bytes(Math.max(0, sizeOf(part)))}${host.size === null ? "" : " of " + bytes(host.size)}`;
        if (TRANSIENT.has(g.code)) { retry(`interrupted: ${reason}`); continue; }
        throw new Failure(`${name}: ${reason} (${url})`);
      }
    }
    // The checks, then the file takes its name.
    const size = sizeOf(part);
    if (host.size !== null && size !== host.size) {
      fs.rmSync(part, { force: true });
      retry(`${bytes(size)} arrived where the host says ${bytes(host.size)}: discarded`);
      continue;
    }
    const entry = { size, etag: host.etag };
    if (isSha256(host.etag)) {
      const sum = sha256Of(part);
      if (sum !== bareEtag(host.etag)) {
        fs.rmSync(part, { force: true });
        retry(`its bytes do not match the sha256 the host gives (${bareEtag(host.etag)}, got ${sum}): discarded`);
        continue;
      }
      entry.sha256 = sum;
    }
    if (name.endsWith(".safetensors")) {
      const problem = safetensorsExtentProblem(part);
      if (problem) { fs.rmSync(part, { force: true }); throw new Failure(`${name}: not a whole safetensors file: ${problem}`); }
    }
    fs.renameSync(part, local);
    delete m.partial[name];
    m.files[name] = entry;
    writeManifest(run.dir, m);
    say(`${name}: ${bytes(size)}, ${entry.sha256 ? "sha256 verified" : `ETag ${host.etag ?? "none"} recorded`}`);
    return entry;
  }
}

function readJsonFile(run, name) {
  try { return JSON.parse(fs.readFileSync(path.join(run.dir, name), "utf8")); } catch (e) {
    throw new Failure(`${name}: not JSON (${e.message}): is ${run.source.base} a checkpoint directory?`);
  }
}

// The shards an index names, each a plain file name (the page reads them beside the index).
function shardsOf(run) {
  const index = readJsonFile(run, INDEX);
  const map = index?.weight_map;
  if (!map || typeof map !== "object") throw new Failure(`${INDEX}: no weight_map`);
  const shards = [...new Set(Object.values(map))];
  for (const s of shards)
    if (typeof s !== "string" || !/^[A-Za-z0-9_][A-Za-z0-9_.-]*\.safetensors$/.test(s))
      throw new Failure(`${INDEX}: names the shard ${JSON.stringify(s)}, which is not a plain .safetensors file name`);
  if (shards.length === 0 || shards.length > MAX_SHARDS) throw new Failure(`${INDEX}: names ${shards.length} shards (the page reads 1 to ${MAX_SHARDS})`);
  return shards;
}

// [SECTION] the whole mirror
function mirror(sourceText, dir) {
  const source = parseSource(sourceText);
  if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) throw new Failure(`${dir} is not a directory`, 2);
  fs.mkdirSync(dir, { recursive: true });
  const old = readManifest(dir);
  if (old && old.source !== source.text)
    throw new Failure(`${dir} holds a mirror of ${old.source}, not ${source.text}: give another DIR`, 2);
  const manifest = { mirror: MANIFEST_VERSION, source: source.text, url: source.base, revision: source.revision,
    commit: old?.commit ?? null, complete: false, files: { ...(old?.files || {}) }, partial: { ...(old?.partial || {}) }, absent: [] };
  const run = { source, dir, manifest, commit: null, fetched: 0, scratch: fs.mkdtempSync(path.join(os.tmpdir(), "swiglu-mirror-")) };
  try {
    mirrorAll(run);
  } finally {
    fs.rmSync(run.scratch, { recursive: true, force: true });
  }
}

function mirrorAll(run) {
  const { source, dir, manifest } = run;
  say(`${source.text} -> ${dir}`);

  const wanted = ["config.json"];
  mirrorFile(run, "config.json");
  readJsonFile(run, "config.json");
  if (mirrorFile(run, INDEX, { optional: true })) {
    wanted.push(INDEX);
    for (const s of shardsOf(run)) { wanted.push(s); mirrorFile(run, s); }
  } else {
    say(`${INDEX}: not on the host: one file, ${SINGLE}`);
    if (!mirrorFile(run, SINGLE, { optional: true }))
      throw new Failure(`${SINGLE}: not found on the host (HTTP 404), nor ${INDEX}: ${source.base} holds no safetensors checkpoint`);
    wanted.push(SINGLE);
  }
  if (mirrorFile(run, "tokenizer.json", { optional: true })) wanted.push("tokenizer.json");
  else {
    manifest.absent.push("tokenizer.json");
    say("tokenizer.json: not on the host (fine: the page then needs the prompt's token ids, ids= in the link)");
  }
  // What an earlier run mirrored that the checkpoint no longer has (a new index, shards renamed).
  for (const name of Object.keys(manifest.files))
    if (!wanted.includes(name)) {
      fs.rmSync(path.join(dir, name), { force: true });
      delete manifest.files[name];
      say(`${name}: no longer in the checkpoint: removed`);
    }
  for (const name of Object.keys(manifest.partial))
    if (!wanted.includes(name)) { fs.rmSync(path.join(dir, name + ".part"), { force: true }); delete manifest.partial[name]; }
  manifest.commit = run.commit;
  manifest.complete = true;
  writeManifest(dir, manifest);
  const total = wanted.reduce((a, n) => a + manifest.files[n].size, 0);
  say(`done: ${wanted.length} files, ${bytes(total)} in ${dir} (${bytes(run.fetched)} fetched by this run` +
    `${run.commit ? `; commit ${run.commit}` : ""})`);
  say(`serve it to the room: MODEL_DIR=${dir} HOST=0.0.0.0 tools/serve.sh`);
}

// [SECTION] the command
if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("mirror.mjs")) {
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === "-h" || args[0] === "--help")) { console.log(USAGE); process.exit(0); }
  try {
    if (args.length !== 2 || args.some((a) => a === "" || a.startsWith("-"))) throw new Failure(USAGE, 2);
    mirror(args[0], args[1]);
  } catch (e) {
    if (!(e instanceof Failure)) throw e;
    process.stderr.write(`mirror: ${e.message}\n`);
    process.exit(e.code);
  }
}
