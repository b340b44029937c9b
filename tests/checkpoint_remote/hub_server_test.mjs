// tools/hub_server.mjs behaves like the Hub: 302 from the hub origin to a second (cdn) origin,
// which answers Range with 206, an ETag and CORS that exposes what the page reads; faults per
// file; bytes counted at the host. Loopback only.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import crypto from "node:crypto";
import { createHubServers } from "../../tools/hub_server.mjs";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "hub-"));
fs.mkdirSync(path.join(root, "org", "model"), { recursive: true });
fs.mkdirSync(path.join(root, "org", "model@v2"), { recursive: true });
const bytes = Buffer.alloc(100000, 0).map((_, i) => (i * 7) & 255);
fs.writeFileSync(path.join(root, "org", "model", "model.safetensors"), bytes);
fs.writeFileSync(path.join(root, "org", "model@v2", "config.json"), "{}");

// A GET that does not follow redirects (to see the 302 itself).
function get(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), dropped: true }));
      res.on("aborted", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks), dropped: true }));
    });
    req.on("error", reject);
    req.setTimeout(3000, () => { req.destroy(); resolve({ status: 0, stalled: true }); });
  });
}

const faults = new Map();
const servers = createHubServers(root, { faults });
await new Promise((r) => servers.listen(0, "127.0.0.1", r));
const hub = `http://127.0.0.1:${servers.hub.address().port}`;
test.after(() => { servers.close(); fs.rmSync(root, { recursive: true, force: true }); });

test("resolve answers 302 to the second origin, which serves ranges with ETag and CORS", async () => {
  const r = await get(`${hub}/org/model/resolve/main/model.safetensors`);
  assert.equal(r.status, 302);
  assert.equal(r.headers["access-control-allow-origin"], "*");
  const loc = new URL(r.headers.location);
  assert.notEqual(loc.port, String(servers.hub.address().port));
  const part = await get(r.headers.location, { Range: "bytes=10-19" });
  assert.equal(part.status, 206);
  assert.equal(part.headers["content-range"], "bytes 10-19/100000");
  assert.deepEqual([...part.body], [...bytes.subarray(10, 20)]);
  assert.match(part.headers.etag, /^"[0-9a-f]{40}"$/);
  assert.equal(part.headers["access-control-allow-origin"], "*");
  for (const h of ["Content-Range", "Accept-Ranges", "ETag"]) assert.ok(part.headers["access-control-expose-headers"].includes(h));
  const whole = await get(r.headers.location);
  assert.equal(whole.status, 200);
  assert.equal(whole.body.length, 100000);
  assert.equal(whole.headers.etag, part.headers.etag);
  const past = await get(r.headers.location, { Range: "bytes=100000-100010" });
  assert.equal(past.status, 416);
  assert.equal(servers.bytesSent(/model\.safetensors$/), 10 + 100000);
});

test("revisions, missing repositories and files", async () => {
  const v2 = await get(`${hub}/org/model/resolve/v2/config.json`);
  assert.equal(v2.status, 302);
  assert.equal((await get(v2.headers.location)).body.toString(), "{}");
  assert.equal((await get(`${hub}/org/model/resolve/v2/model.safetensors`)).status, 404);
  assert.equal((await get(`${hub}/org/nothing/resolve/main/config.json`)).status, 404);
  assert.equal((await get(`${hub}/org/model/resolve/main/../../x`)).status, 404);
  assert.equal((await get(`${hub}/org/model/blob/main/model.safetensors`)).status, 404);
});

test("faults: gated, no CORS, Range ignored, truncated, stalled", async () => {
  const url = `${hub}/org/model/resolve/main/model.safetensors`;
  faults.set("model.safetensors", { status: 403, times: 1 });
  assert.equal((await get(url)).status, 403);
  const loc = (await get(url)).headers.location;
  faults.set("model.safetensors", { noCors: true, times: 1 });
  assert.equal((await get(loc, { Range: "bytes=0-9" })).headers["access-control-allow-origin"], undefined);
  faults.set("model.safetensors", { ignoreRange: true, times: 1 });
  const ign = await get(loc, { Range: "bytes=0-9" });
  assert.equal(ign.status, 200);
  assert.equal(ign.body.length, 100000);
  faults.set("model.safetensors", { truncate: true, times: 1 });
  const tr = await get(loc, { Range: "bytes=0-999" });
  assert.ok(tr.body.length < 1000);
  faults.set("model.safetensors", { stall: true, times: 1 });
  assert.equal((await get(loc, { Range: "bytes=0-9" })).stalled, true);
  faults.set("model.safetensors", { status: 500, times: 1 });
  assert.equal((await get(loc)).status, 500);
  assert.equal((await get(loc, { Range: "bytes=0-9" })).status, 206);  // faults with times run out
});

test("linked: the 302 carries the Hub's X-Linked-Etag (sha256), X-Linked-Size and X-Repo-Commit; corrupt flips a byte; a HEAD takes status faults only", async () => {
  const linkedFaults = new Map();
  const linked = createHubServers(root, { faults: linkedFaults, linked: true });
  await new Promise((r) => linked.listen(0, "127.0.0.1", r));
  try {
    const base = `http://127.0.0.1:${linked.hub.address().port}`;
    const r = await get(`${base}/org/model/resolve/main/model.safetensors`);
    assert.equal(r.status, 302);
    assert.equal(r.headers["x-linked-etag"], `"${crypto.createHash("sha256").update(bytes).digest("hex")}"`);
    assert.equal(r.headers["x-linked-size"], "100000");
    assert.match(r.headers["x-repo-commit"], /^[0-9a-f]{40}$/);
    const config = await get(`${base}/org/model/resolve/v2/config.json`);
    assert.equal(config.headers["x-linked-etag"], undefined, "a small file is not in LFS");
    assert.notEqual(config.headers["x-repo-commit"], r.headers["x-repo-commit"], "another revision, another commit");
    linkedFaults.set("model.safetensors", { corrupt: true, times: 1 });
    const head = await new Promise((resolve) => http.request(r.headers.location, { method: "HEAD" }, resolve).end());
    assert.equal(head.statusCode, 200);
    const bad = await get(r.headers.location, { Range: "bytes=0-999" });
    assert.equal(bad.status, 206);
    assert.equal(bad.body.length, 1000);
    assert.deepEqual([...bad.body].filter((b, i) => b !== bytes[i]).length, 1, "one byte flipped");
    assert.deepEqual([...(await get(r.headers.location, { Range: "bytes=0-999" })).body], [...bytes.subarray(0, 1000)], "times: 1 used by the GET, not the HEAD");
    linkedFaults.set("model.safetensors", { status: 500, times: 1 });
    const failedHead = await new Promise((resolve) => http.request(r.headers.location, { method: "HEAD" }, resolve).end());
    assert.equal(failedHead.statusCode, 500);
    assert.equal((await get(r.headers.location)).status, 500, "the HEAD did not use up the fault");
  } finally {
    linked.close();
  }
});

test("latency: each origin answers a request no sooner than latencyMs after it came", async () => {
  const far = createHubServers(root, { latencyMs: 120 });
  await new Promise((r) => far.listen(0, "127.0.0.1", r));
  try {
    const t0 = performance.now();
    const redirect = await get(`http://127.0.0.1:${far.hub.address().port}/org/model/resolve/main/model.safetensors`);
    const t1 = performance.now();
    const range = await get(redirect.headers.location, { Range: "bytes=0-9" });
    const t2 = performance.now();
    assert.equal(redirect.status, 302);
    assert.equal(range.status, 206);
    assert.deepEqual([...range.body], [...bytes.subarray(0, 10)]);
    assert.ok(t1 - t0 >= 115 && t2 - t1 >= 115, `answered after ${(t1 - t0).toFixed(0)} and ${(t2 - t1).toFixed(0)} ms`);
  } finally {
    far.close();
  }
});
