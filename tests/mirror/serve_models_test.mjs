// tools/serve.mjs with a class mirror mounted at /models/NAME/ (tools/serve.sh's MODEL_DIR): the
// mirror's files with Range, If-Range, a strong ETag and CORS that lets a page read them; only
// the files the mirror verified; the link students open, with this machine's network addresses;
// an unfinished mirror refused with the command that finishes it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer, modelMount, classLinks } from "../../tools/serve.mjs";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "serve-models-"));
const site = path.join(work, "site"), dir = path.join(work, "Qwen3.5-0.8B");
fs.mkdirSync(site);
fs.mkdirSync(dir);
fs.writeFileSync(path.join(site, "index.html"), "<!doctype html><title>lab</title>\n");
const shard = Buffer.alloc(300000, 0).map((_, i) => (i * 13) & 255);
const config = JSON.stringify({ model_type: "qwen3_5", hidden_size: 64 }) + " ".repeat(2000);  // long enough to be compressed
fs.writeFileSync(path.join(dir, "config.json"), config);
fs.writeFileSync(path.join(dir, "model.safetensors"), shard);
fs.writeFileSync(path.join(dir, "model.safetensors.part"), "an unfinished download");
const manifest = (complete) => JSON.stringify({ mirror: 1, source: "hf:Qwen/Qwen3.5-0.8B", complete, partial: {},
  files: { "config.json": { size: config.length, etag: "\"a\"" }, "model.safetensors": { size: shard.length, etag: "\"b\"" } } });
fs.writeFileSync(path.join(dir, "mirror.json"), manifest(true));

const server = createServer(site, { mounts: [modelMount(dir)] });
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
test.after(() => { server.closeAllConnections(); server.close(); fs.rmSync(work, { recursive: true, force: true }); });

const get = async (p, headers = {}, method = "GET") => {
  const r = await fetch(base + p, { headers, method });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
};

test("the mirror's files: Range, a strong ETag that stays, CORS exposing what the page reads, no compression", async () => {
  const part = await get("/models/Qwen3.5-0.8B/model.safetensors", { Range: "bytes=1000-1999" });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get("content-range"), `bytes 1000-1999/${shard.length}`);
  assert.equal(part.headers.get("content-length"), "1000");
  assert.ok(part.body.equals(shard.subarray(1000, 2000)));
  const etag = part.headers.get("etag");
  assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+"$/, "a strong ETag (no W/)");
  assert.equal(part.headers.get("access-control-allow-origin"), "*");
  const exposed = part.headers.get("access-control-expose-headers").split(/,\s*/);
  for (const h of ["Content-Range", "Content-Length", "Accept-Ranges", "ETag"]) assert.ok(exposed.includes(h), `${h} not exposed`);
  const whole = await get("/models/Qwen3.5-0.8B/model.safetensors");
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get("etag"), etag);
  assert.ok(whole.body.equals(shard));
  const json = await get("/models/Qwen3.5-0.8B/config.json", { "Accept-Encoding": "gzip, br" });
  assert.equal(json.headers.get("content-encoding"), null);
  assert.equal(json.headers.get("content-length"), String(config.length));
  const head = await get("/models/Qwen3.5-0.8B/model.safetensors", {}, "HEAD");
  assert.equal(head.headers.get("content-length"), String(shard.length));
  assert.equal((await get("/models/Qwen3.5-0.8B/model.safetensors", { Range: `bytes=${shard.length}-` })).status, 416);
  const preflight = await get("/models/Qwen3.5-0.8B/model.safetensors", { "Access-Control-Request-Headers": "range" }, "OPTIONS");
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get("access-control-allow-headers"), /Range/);
});

test("If-Range: the range of the version the client holds, the whole file when it changed; If-None-Match: 304", async () => {
  const etag = (await get("/models/Qwen3.5-0.8B/model.safetensors", {}, "HEAD")).headers.get("etag");
  assert.equal((await get("/models/Qwen3.5-0.8B/model.safetensors", { Range: "bytes=0-9", "If-Range": etag })).status, 206);
  const other = await get("/models/Qwen3.5-0.8B/model.safetensors", { Range: "bytes=0-9", "If-Range": "\"0-0\"" });
  assert.equal(other.status, 200);
  assert.equal(other.body.length, shard.length);
  assert.equal((await get("/models/Qwen3.5-0.8B/model.safetensors", { "If-None-Match": etag })).status, 304);
  // A new version of the file (another modification time) has another ETag.
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(path.join(dir, "model.safetensors"), later, later);
  assert.notEqual((await get("/models/Qwen3.5-0.8B/model.safetensors", {}, "HEAD")).headers.get("etag"), etag);
});

test("only the files the mirror verified; the page itself as before", async () => {
  assert.equal((await get("/models/Qwen3.5-0.8B/model.safetensors.part")).status, 404);
  assert.equal((await get("/models/Qwen3.5-0.8B/mirror.json")).status, 404);
  assert.equal((await get("/models/Qwen3.5-0.8B/..%2Fsite%2Findex.html")).status, 404);
  assert.equal((await get("/models/other/config.json")).status, 404);
  const page = await get("/");
  assert.equal(page.status, 200);
  assert.match(page.body.toString(), /<title>lab<\/title>/);
});

test("the students' link: one per network address when serving the room, loopback said otherwise", () => {
  const interfaces = {
    lo: [{ address: "127.0.0.1", family: "IPv4", internal: true }],
    eth0: [{ address: "192.168.1.20", family: "IPv4", internal: false }, { address: "fe80::1", family: "IPv6", internal: false }],
    wlan0: [{ address: "10.0.0.7", family: "IPv4", internal: false }],
  };
  assert.deepEqual(classLinks("0.0.0.0", 8080, "Qwen3.5-0.8B", interfaces).map((l) => l.link), [
    "http://192.168.1.20:8080/#v=1&view=rules&model=http://192.168.1.20:8080/models/Qwen3.5-0.8B/",
    "http://10.0.0.7:8080/#v=1&view=rules&model=http://10.0.0.7:8080/models/Qwen3.5-0.8B/",
  ]);
  assert.deepEqual(classLinks("0.0.0.0", 8080, "m", { lo: interfaces.lo }).map((l) => l.address), ["127.0.0.1"]);
  assert.deepEqual(classLinks("127.0.0.1", 9000, "m", interfaces).map((l) => l.link),
    ["http://127.0.0.1:9000/#v=1&view=rules&model=http://127.0.0.1:9000/models/m/"]);
});

// Runs `node tools/serve.mjs ARGS` until it prints its link (or exits), then stops it.
function serveCli(args) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [new URL("../../tools/serve.mjs", import.meta.url).pathname, "--root", site, "--port", "0", ...args]);
    let out = "", err = "";
    p.stdout.on("data", (d) => {
      out += d;
      if (/^  http:\/\/\S+$/m.test(out)) p.kill();
    });
    p.stderr.on("data", (d) => { err += d; });
    p.on("close", (code) => resolve({ code, out, err }));
  });
}

test("the command prints the link to give the students; an unfinished mirror or a bad name is refused with exit 2", async () => {
  const ok = await serveCli(["--host", "127.0.0.1", "--model-dir", dir]);
  assert.match(ok.out, /The model in .*Qwen3\.5-0\.8B \(hf:Qwen\/Qwen3\.5-0\.8B\): 2 files, 0\.3 MiB, at \/models\/Qwen3\.5-0\.8B\//);
  assert.match(ok.out, /^  http:\/\/127\.0\.0\.1:(\d+)\/#v=1&view=rules&model=http:\/\/127\.0\.0\.1:\1\/models\/Qwen3\.5-0\.8B\/$/m);
  fs.writeFileSync(path.join(dir, "mirror.json"), manifest(false));
  const unfinished = await serveCli(["--model-dir", dir]);
  assert.equal(unfinished.code, 2);
  assert.match(unfinished.err, /is an unfinished mirror of hf:Qwen\/Qwen3\.5-0\.8B: run tools\/mirror\.sh hf:Qwen\/Qwen3\.5-0\.8B .* again to finish it/);
  fs.writeFileSync(path.join(dir, "mirror.json"), manifest(true));
  const named = await serveCli(["--model-dir", dir, "--model-name", "synthetic"]);
  assert.equal(named.code, 2);
  assert.match(named.err, /'synthetic' cannot name the model/);
  const none = await serveCli(["--model-dir", path.join(work, "nothing")]);
  assert.equal(none.code, 2);
  assert.match(none.err, /is not a directory \(tools\/mirror\.sh makes one\)/);
});
