#!/usr/bin/env node
// A test host that behaves like the Hugging Face Hub, for checkpoints read by byte ranges
// (model=, core/checkpoint_remote/): two origins on this machine.
//   hub  http://HOST:PORT/OWNER/NAME/resolve/REV/FILE  -> 302 to the cdn (as the Hub redirects to its CDN)
//   cdn  http://HOST:PORT+1/OWNER/NAME/REV/FILE        -> the bytes, with Range (206), an ETag, and CORS
//        (Access-Control-Allow-Origin: *, exposing Content-Range, Content-Length, Accept-Ranges, ETag)
// Files come from ROOT/OWNER/NAME/ (revision main) or ROOT/OWNER/NAME@REV/ (any other revision).
// Faults per file name, as tools/serve.mjs injects them for packs: { status, stall, ignoreRange,
// truncate, drop, corrupt, noCors, times }; status 401/403 is a gated repository, noCors a host that
// does not let a page read it, corrupt a body with one byte flipped (a bad proxy); a HEAD gets only
// a status fault. Hosts that misbehave on purpose add:
//   retryAfter: N     with status 429, the Retry-After it sends
//   bytesPerSecond: N the body trickles (1: a byte a second)
//   redirect: "loop"  the hub redirects to itself, forever; any other string is sent as Location
//                     (e.g. "javascript:alert(1)")
//   from: N           the cdn's fault hits only a Range that starts at byte N or later, and a request
//                     for the whole file (the weights, not the safetensors header before them)
// and options.onServe(entry, p) is called before a cdn answer (a test replaces a file mid-load).
// options.linked: the hub's 302 for a .safetensors file carries what the Hub sends for a file kept
// in LFS (X-Linked-Etag: the sha256 of its bytes, X-Linked-Size), and every 302 an X-Repo-Commit
// (fixed per revision directory): what a download tool checks (tools/mirror.mjs).
// options.latencyMs: both origins answer each request that long after it came (a host far away:
// the round trips a page pays, on loopback; the bytes then flow at loopback's speed).
// Every request is logged with the bytes sent, so tests count at the host.
//
//   node tools/hub_server.mjs --root DIR [--port 8081] [--host 127.0.0.1] [--latency MS]
//   -> model=http://127.0.0.1:8081/OWNER/NAME/resolve/main/
//      (or the cdn alone, no redirect: http://127.0.0.1:8082/OWNER/NAME/main/)
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";

const EXPOSE = "Content-Range, Content-Length, Accept-Ranges, ETag, Retry-After";
const cors = (fault) => (fault?.noCors ? {} : { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": EXPOSE });

// A fault with `from` hits only a Range that starts at that byte or later, and a GET of the whole
// file (which holds those bytes too), never a HEAD.
const inRange = (f, range, whole = true) =>
  f.from === undefined || (whole && !range) || Number((/^bytes=(\d+)-/.exec(range || "") || [])[1]) >= f.from;

function takeFault(faults, name, range = "") {
  const f = faults.get(name);
  if (!f || f.times === 0) return null;
  if (!inRange(f, range)) return null;
  if (f.times > 0) f.times--;
  return f;
}

function statusFault(faults, name, range = "") {
  const f = faults.get(name);
  return f && f.status && f.times !== 0 && inRange(f, range, false) ? { status: f.status, retryAfter: f.retryAfter } : null;
}

// /OWNER/NAME/resolve/REV/FILE or /OWNER/NAME/REV/FILE -> its parts, or null.
function parseRepoPath(pathname, resolve) {
  let parts;
  try { parts = pathname.split("/").slice(1).map(decodeURIComponent); } catch { return null; }
  const n = resolve ? 5 : 4;
  if (parts.length !== n || (resolve && parts[2] !== "resolve")) return null;
  const [owner, name] = parts;
  const rev = parts[n - 2], file = parts[n - 1];
  const ok = (s) => /^[A-Za-z0-9_.-]+$/.test(s) && s !== "." && s !== "..";
  if (!ok(owner) || !ok(name) || !ok(file) || !/^[A-Za-z0-9_.\/-]+$/.test(rev) || rev.includes("..")) return null;
  return { owner, name, rev, file };
}

function repoFile(root, p) {
  const dir = p.rev === "main" ? path.join(root, p.owner, p.name) : path.join(root, p.owner, `${p.name}@${p.rev}`);
  return path.join(dir, p.file);
}

// The Hub's headers for a file in LFS, hashed at each request (test files are small).
function linkedHeaders(file, p) {
  const headers = { "X-Repo-Commit": crypto.createHash("sha1").update(path.dirname(file)).digest("hex") };
  if (!p.file.endsWith(".safetensors")) return headers;
  const bytes = fs.readFileSync(file);
  headers["X-Linked-Etag"] = `"${crypto.createHash("sha256").update(bytes).digest("hex")}"`;
  headers["X-Linked-Size"] = String(bytes.length);
  return headers;
}

function etagOf(st) {
  return `"${crypto.createHash("sha1").update(`${st.size}-${st.mtimeMs}`).digest("hex")}"`;
}

// options: { faults: Map(file -> fault), log: [] of { origin, method, path, range, status, bytes }, linked, onServe, latencyMs }
export function createHubServers(root, options = {}) {
  root = path.resolve(root);
  const faults = options.faults || new Map();
  const log = options.log || [];
  const state = { cdnOrigin: "" };  // set once the cdn listens
  // Each answer after latencyMs (a preflight too: it is a round trip like any other).
  const later = (answer) => (req, res) => {
    if (!(options.latencyMs > 0)) return answer(req, res);
    const timer = setTimeout(() => answer(req, res), options.latencyMs);
    res.on("close", () => clearTimeout(timer));
  };

  const hub = http.createServer(later((req, res) => {
    const url = new URL(req.url, "http://localhost");
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors(), "Access-Control-Allow-Headers": "Range", "Access-Control-Max-Age": "600" });
      return res.end();
    }
    const p = parseRepoPath(url.pathname, true);
    const entry = { origin: "hub", method: req.method, path: url.pathname, range: req.headers.range || "", status: 0, bytes: 0 };
    log.push(entry);
    if (!p) return send(res, (entry.status = 404), "Repository not found", {});
    const file = repoFile(root, p);
    if (!fs.existsSync(file)) return send(res, (entry.status = 404), "Entry not found", {});
    const f = faults.get(p.file);
    if (f && (f.status === 401 || f.status === 403) && f.times !== 0) {  // gated: the Hub itself refuses
      takeFault(faults, p.file);
      return send(res, (entry.status = f.status), "Access to this model is restricted", {});
    }
    if (f?.redirect && f.times !== 0) {  // a redirect the browser must not (or cannot) follow
      takeFault(faults, p.file);
      entry.status = 302;
      res.writeHead(302, { ...cors(), Location: f.redirect === "loop" ? req.url : f.redirect });
      return res.end();
    }
    entry.status = 302;
    const rev = encodeURIComponent(p.rev);
    res.writeHead(302, { ...cors(), ...(options.linked ? linkedHeaders(file, p) : {}),
      Location: `${state.cdnOrigin}/${p.owner}/${p.name}/${rev}/${p.file}` });
    res.end();
  }));

  const cdn = http.createServer(later((req, res) => {
    const url = new URL(req.url, "http://localhost");
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors(), "Access-Control-Allow-Headers": "Range", "Access-Control-Max-Age": "600" });
      return res.end();
    }
    const p = parseRepoPath(url.pathname, false);
    const entry = { origin: "cdn", method: req.method, path: url.pathname, range: req.headers.range || "", status: 0, bytes: 0 };
    log.push(entry);
    if (!p) return send(res, (entry.status = 404), "not found", {});
    options.onServe?.(entry, p);
    const fault = req.method === "HEAD" ? statusFault(faults, p.file, req.headers.range) : takeFault(faults, p.file, req.headers.range);
    if (fault?.status === 429 && fault.retryAfter !== undefined) {
      res.writeHead((entry.status = 429), { ...cors(fault), "Content-Type": "text/plain", "Retry-After": String(fault.retryAfter) });
      return res.end("slow down\n");
    }
    if (fault?.status) return send(res, (entry.status = fault.status), `injected ${fault.status}`, fault);
    if (fault?.stall) return;  // hangs until the client gives up or the server closes
    const file = repoFile(root, p);
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) return send(res, (entry.status = 404), "not found", fault);
      const headers = {
        ...cors(fault), "Content-Type": "application/octet-stream", "Accept-Ranges": "bytes", ETag: etagOf(st),
        "Cache-Control": "public, max-age=0, must-revalidate",
      };
      let start = 0, end = st.size - 1, status = 200;
      const m = /^bytes=(\d*)-(\d*)$/.exec((req.headers.range || "").trim());
      if (m && !fault?.ignoreRange && (m[1] !== "" || m[2] !== "")) {
        if (m[1] === "") start = Math.max(0, st.size - Number(m[2]));
        else { start = Number(m[1]); end = m[2] === "" ? st.size - 1 : Math.min(Number(m[2]), st.size - 1); }
        if (start > end || start >= st.size) {
          res.writeHead((entry.status = 416), { ...cors(fault), "Content-Range": `bytes */${st.size}` });
          return res.end();
        }
        status = 206;
        headers["Content-Range"] = `bytes ${start}-${end}/${st.size}`;
      }
      let length = end - start + 1;
      const sent = fault?.truncate || fault?.drop ? Math.floor(length / 2) : length;
      headers["Content-Length"] = length;  // a truncated or dropped body promises more than it sends
      entry.status = status;
      res.writeHead(status, headers);
      if (req.method === "HEAD") return res.end();
      if (fault?.bytesPerSecond) {  // a trickle: the body a few bytes at a time, until the client gives up
        let at = start;
        const fd = fs.openSync(file, "r");
        const timer = setInterval(() => {
          const n = Math.min(fault.bytesPerSecond, end + 1 - at);
          if (n <= 0 || res.destroyed) { clearInterval(timer); fs.closeSync(fd); return res.end(); }
          const b = Buffer.alloc(n);
          fs.readSync(fd, b, 0, n, at);
          at += n;
          entry.bytes += n;
          res.write(b);
        }, 1000);
        res.on("close", () => { clearInterval(timer); try { fs.closeSync(fd); } catch {} });
        return;
      }
      if (fault?.corrupt) {  // the whole answer, one byte of it flipped
        const body = Buffer.from(fs.readFileSync(file).subarray(start, end + 1));
        if (body.length) body[body.length >> 1] ^= 0x40;
        entry.bytes += body.length;
        return res.end(body);
      }
      const stream = fs.createReadStream(file, { start, end: start + sent - 1 });
      stream.on("data", (b) => { entry.bytes += b.length; });
      res.on("close", () => stream.destroy());  // a client that stops reading (Cancel, Range ignored)
      if (sent === 0) return fault ? res.socket.destroy() : res.end();
      stream.pipe(res, { end: !fault?.truncate && !fault?.drop });
      if (fault?.truncate || fault?.drop) stream.on("end", () => res.socket.destroy());
    });
  }));

  return {
    hub, cdn, log,
    // The cdn on port + 1 (both on free ports when port is 0).
    listen(port, host, done) {
      cdn.listen(port ? port + 1 : 0, host, () => {
        state.cdnOrigin = `http://${host}:${cdn.address().port}`;
        hub.listen(port, host, done);
      });
      return this;
    },
    close() { hub.close(); cdn.close(); hub.closeAllConnections?.(); cdn.closeAllConnections?.(); },
    // Bytes the cdn sent for files whose name matches re (e.g. /\.safetensors$/).
    bytesSent(re) { return log.filter((e) => e.origin === "cdn" && re.test(e.path)).reduce((a, e) => a + e.bytes, 0); },
  };
}

function send(res, code, text, fault) {
  res.writeHead(code, { ...cors(fault), "Content-Type": "text/plain; charset=utf-8" });
  res.end(text + "\n");
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("hub_server.mjs")) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
  const root = opt("--root", "build-native/hub");
  const port = Number(opt("--port", process.env.PORT || 8081));
  const host = opt("--host", process.env.HOST || "127.0.0.1");
  const latencyMs = Number(opt("--latency", "0"));
  createHubServers(root, { latencyMs }).listen(port, host, () => {
    console.log(`Hub-like host at http://${host}:${port}/OWNER/NAME/resolve/main/FILE (bytes from :${port + 1}; files from ${root}/OWNER/NAME/)` +
                (latencyMs > 0 ? `, each answer after ${latencyMs} ms` : ""));
  });
}
