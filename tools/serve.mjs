#!/usr/bin/env node
// A small static server for the page: honours HTTP Range requests (the weight streaming reads
// files in ranges), serves .wasm as application/wasm (so browsers compile while downloading) and
// sends the build's brotli (.br) or gzip (.gz) twin of a file when the browser accepts it.
// python3 -m http.server does neither. It allows any origin to read (CORS), so a pack it hosts
// opens from a page on another host, as a teacher's own server would be set up (README).
// The browser tests also give it faults to inject per file (options.faults) and read its log.
// A class mirror (tools/mirror.sh) is mounted at /models/NAME/ beside the page (--model-dir):
// its files go as they are, with Range, If-Range and a strong ETag, and the link to give the
// students is printed, with this machine's network addresses when it serves the room (0.0.0.0).
//
//   node tools/serve.mjs [--root build-wasm/site] [--port 8080] [--host 127.0.0.1]
//                        [--model-dir DIR [--model-name NAME]] [--isolate]
// --isolate sends COOP and COEP (cross-origin isolation: the model worker's threads). Off by
// default for now (docs/model.md, "Threads": the benchmark's isolated cold visit of the 1.5 GB
// model stops answering, cause not found); without it the page runs the pass on one thread.
//   PORT=9000 node tools/serve.mjs
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";

const MIME = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm", ".css": "text/css; charset=utf-8", ".json": "application/json",
  ".png": "image/png", ".svg": "image/svg+xml", ".ttf": "font/ttf", ".txt": "text/plain; charset=utf-8",
};
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".wasm", ".css", ".json", ".svg", ".txt"]);
// Sent compressed only as the build's twin (the built-in model's shard, which the page asks for
// whole): compressing a checkpoint of gigabytes on every request would hold the host.
const TWIN_ONLY = new Set([".safetensors"]);

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Content-Range, Content-Length, Accept-Ranges, ETag",
};

// options.faults: Map of file name -> { status, truncate, corrupt, drop, stall, ignoreRange, times }
// (stall: the request is never answered, as on a dead link).
// (times: how many requests it hits; absent: all). options.log: an array that gets one entry per
// request: { path, range, status, encoding } (encoding: the twin sent, "br" or "gzip", or "").
// options.mounts: modelMount()s, served before the root.
export function createServer(root, options = {}) {
  root = path.resolve(root);
  const faults = options.faults || new Map();
  const mounts = options.mounts || [];
  return http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    // Cross-origin isolation (options.isolate): the page may share memory with its threads, so
    // the model worker runs the forward pass on every core (docs/model.md, "Threads").
    if (options.isolate) {
      res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
      res.setHeader("Cross-Origin-Embedder-Policy", "require-corp");
    }
    if (req.method === "OPTIONS") {  // a preflight, for a Range request from another origin
      res.writeHead(204, { ...CORS, "Access-Control-Allow-Headers": "Range, If-Range", "Access-Control-Max-Age": "600" });
      return res.end();
    }
    let rel;
    try { rel = decodeURIComponent(url.pathname); } catch { return send(res, 400, "bad path"); }
    const mount = mounts.find((m) => rel.startsWith(m.prefix));
    if (mount) {
      if (options.log) options.log.push({ path: rel, range: req.headers.range || "", status: 0 });
      return serveModelFile(req, res, mount, rel.slice(mount.prefix.length));
    }
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.resolve(root, "." + rel);
    if (file !== root && !file.startsWith(root + path.sep)) return send(res, 403, "forbidden");
    const fault = takeFault(faults, path.basename(file));
    const entry = { path: rel, range: req.headers.range || "", status: fault?.status || 0, encoding: "" };
    if (options.log) options.log.push(entry);
    if (fault?.status) return send(res, fault.status, `injected ${fault.status}`);
    if (fault?.stall) return;  // hangs until the client gives up or the server closes
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) return send(res, 404, "not found");
      const ext = path.extname(file);
      if (fault?.truncate || fault?.corrupt || fault?.drop) return sendFaulty(res, file, st, req.headers.range, fault);
      const headers = {
        ...CORS,
        "Content-Type": MIME[ext] || "application/octet-stream",
        "Accept-Ranges": "bytes",
        "Cache-Control": "no-cache",
        "Last-Modified": st.mtime.toUTCString(),
      };
      // Revalidation of an unchanged file: 304, no body (a reload then costs only the headers).
      if (!req.headers.range && req.headers["if-modified-since"] === headers["Last-Modified"]) {
        res.writeHead(304, headers);
        return res.end();
      }
      const range = fault?.ignoreRange ? undefined : req.headers.range;
      if (range) return sendRange(req, res, file, st, range, headers);
      // Whole files may go compressed, as a real host would; ranges never are (offsets must hold).
      // A file compressed at build time (FILE.br, FILE.gz: tools/compress_site.mjs) is sent as
      // is when the browser accepts its encoding and it is not older than the file itself.
      const accepts = req.headers["accept-encoding"] || "";
      const pre = (COMPRESSIBLE.has(ext) || TWIN_ONLY.has(ext)) && precompressed(file, st, accepts);
      if (pre) {
        entry.encoding = pre.encoding;
        res.writeHead(200, { ...headers, "Content-Encoding": pre.encoding, "Content-Length": pre.size, Vary: "Accept-Encoding" });
        if (req.method === "HEAD") return res.end();
        return fs.createReadStream(pre.file).pipe(res);
      }
      if (COMPRESSIBLE.has(ext) && /\bgzip\b/.test(accepts)) {
        res.writeHead(200, { ...headers, "Content-Encoding": "gzip", Vary: "Accept-Encoding" });
        if (req.method === "HEAD") return res.end();
        return fs.createReadStream(file).pipe(zlib.createGzip({ level: 6 })).pipe(res);
      }
      res.writeHead(200, { ...headers, "Content-Length": st.size });
      if (req.method === "HEAD") return res.end();
      fs.createReadStream(file).pipe(res);
    });
  });
}

// A Range request's bytes (206), or 416 when the range is not in the file.
function sendRange(req, res, file, st, range, headers) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  let start, end;
  if (m && (m[1] !== "" || m[2] !== "")) {
    if (m[1] === "") { start = Math.max(0, st.size - Number(m[2])); end = st.size - 1; }
    else { start = Number(m[1]); end = m[2] === "" ? st.size - 1 : Math.min(Number(m[2]), st.size - 1); }
  }
  if (start === undefined || start > end || start >= st.size) {
    res.writeHead(416, { ...CORS, "Content-Range": `bytes */${st.size}`, "Content-Type": "text/plain" });
    return res.end("range not satisfiable");
  }
  res.writeHead(206, { ...headers, "Content-Range": `bytes ${start}-${end}/${st.size}`, "Content-Length": end - start + 1 });
  if (req.method === "HEAD") return res.end();
  fs.createReadStream(file, { start, end }).pipe(res);
}

// [SECTION] a class mirror at /models/NAME/
// The directory's files to serve: those tools/mirror.sh verified (DIR/mirror.json, which must say
// the mirror is complete), or, for a checkpoint directory made another way, its files as they are.
// Throws an Error whose message says what is wrong.
export function modelMount(dir, name = path.basename(path.resolve(dir))) {
  dir = path.resolve(dir);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory (tools/mirror.sh makes one)`);
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name) || name === "synthetic")
    throw new Error(`'${name}' cannot name the model in its link (letters, digits, '_', '.', '-'; 'synthetic' is the built-in model's): give --model-name`);
  const manifestFile = path.join(dir, "mirror.json");
  let files, source = null;
  if (fs.existsSync(manifestFile)) {
    let m;
    try { m = JSON.parse(fs.readFileSync(manifestFile, "utf8")); } catch (e) { throw new Error(`${manifestFile} cannot be read (${e.message})`); }
    if (!m.complete || typeof m.files !== "object")
      throw new Error(`${dir} is an unfinished mirror of ${m.source}: run tools/mirror.sh ${m.source} ${dir} again to finish it`);
    files = Object.keys(m.files);
    source = m.source;
  } else {
    files = fs.readdirSync(dir).filter((f) => !f.startsWith(".") && !f.endsWith(".part") && fs.statSync(path.join(dir, f)).isFile());
  }
  if (!files.includes("config.json")) throw new Error(`${dir} holds no config.json: not a checkpoint directory`);
  const bytes = files.reduce((a, f) => a + fs.statSync(path.join(dir, f)).size, 0);
  return { prefix: `/models/${name}/`, name, dir, files: new Set(files), source, bytes };
}

// A strong validator: another size or modification time is another ETag (as nginx makes them).
const strongEtag = (st) => `"${st.size.toString(16)}-${Math.round(st.mtimeMs * 1000).toString(16)}"`;

function serveModelFile(req, res, mount, name) {
  if (!mount.files.has(name)) return send(res, 404, "not found");  // only what the mirror verified
  const file = path.join(mount.dir, name);
  fs.stat(file, (err, st) => {
    if (err || !st.isFile()) return send(res, 404, "not found");
    const etag = strongEtag(st);
    const headers = {
      ...CORS,
      "Content-Type": MIME[path.extname(file)] || "application/octet-stream",
      "Accept-Ranges": "bytes",
      "Cache-Control": "no-cache",
      "Last-Modified": st.mtime.toUTCString(),
      ETag: etag,
    };
    let range = req.headers.range;
    if (!range && req.headers["if-none-match"] === etag) {
      res.writeHead(304, headers);
      return res.end();
    }
    // If-Range: the range only of the version the client holds; another version goes whole.
    const ifRange = req.headers["if-range"];
    if (range && ifRange && ifRange !== etag && ifRange !== headers["Last-Modified"]) range = undefined;
    if (range) return sendRange(req, res, file, st, range, headers);
    res.writeHead(200, { ...headers, "Content-Length": st.size });  // as it is: lengths and offsets hold
    if (req.method === "HEAD") return res.end();
    fs.createReadStream(file).pipe(res);
  });
}

// The link students open: the rule book on the mirrored model. Bound to every interface (0.0.0.0
// or ::), one link per network address of this machine (loopback only when it has none).
export function classLinks(host, port, name, interfaces = os.networkInterfaces()) {
  let addresses = [host];
  if (host === "0.0.0.0" || host === "::") {
    addresses = Object.values(interfaces).flat().filter((a) => a && !a.internal && (a.family === "IPv4" || a.family === 4))
      .map((a) => a.address);
    if (addresses.length === 0) addresses = ["127.0.0.1"];
  }
  return addresses.map((a) => {
    const origin = `http://${a.includes(":") ? `[${a}]` : a}:${port}`;
    return { address: a, origin, link: `${origin}/#v=1&view=rules&model=${origin}/models/${name}/` };
  });
}

// The best build-time compressed twin of `file` the request accepts (brotli first), or null.
function precompressed(file, st, accepts) {
  for (const [encoding, suffix] of [["br", ".br"], ["gzip", ".gz"]]) {
    if (!new RegExp(`\\b${encoding}\\b`).test(accepts)) continue;
    let twin;
    try { twin = fs.statSync(file + suffix); } catch { continue; }
    if (twin.isFile() && twin.mtimeMs >= st.mtimeMs) return { encoding, file: file + suffix, size: twin.size };
  }
  return null;
}

function send(res, code, text) {
  res.writeHead(code, { ...CORS, "Content-Type": "text/plain; charset=utf-8" });
  res.end(text + "\n");
}

function takeFault(faults, name) {
  const f = faults.get(name);
  if (!f || f.times === 0) return null;
  if (f.times > 0) f.times--;
  return f;
}

// The requested bytes, cut to half (truncate) or with one byte flipped (corrupt), sent as if
// that were the file: what a broken upload or a bad proxy hands out. drop: the connection dies
// halfway through the body (a network drop mid-stream; a browser does not retry that).
function sendFaulty(res, file, st, range, fault) {
  const m = /^bytes=(\d+)-(\d*)$/.exec((range || "").trim());
  const start = m ? Number(m[1]) : 0, end = m && m[2] !== "" ? Math.min(Number(m[2]), st.size - 1) : st.size - 1;
  let body = fs.readFileSync(file).subarray(start, end + 1);
  if (fault.truncate) body = body.subarray(0, body.length >> 1);
  if (fault.corrupt && body.length) { body = Buffer.from(body); body[body.length >> 1] ^= 0x40; }
  const headers = { ...CORS, "Content-Type": "application/octet-stream", "Content-Length": body.length };
  if (m) headers["Content-Range"] = `bytes ${start}-${start + body.length - 1}/${st.size}`;
  if (fault.drop) headers["Content-Length"] = body.length * 2;  // promised, never delivered
  res.writeHead(m ? 206 : 200, headers);
  if (fault.drop) return res.write(body.subarray(0, body.length >> 1), () => res.socket.destroy());
  res.end(body);
}

// Run directly: serve until stopped.
if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("serve.mjs")) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
  const root = opt("--root", "build-wasm/site");
  const port = Number(opt("--port", process.env.PORT || 8080));
  const host = opt("--host", process.env.HOST || "127.0.0.1");
  const modelDir = opt("--model-dir", "");
  let mounts = [];
  if (modelDir) {
    try { mounts = [modelMount(modelDir, opt("--model-name", process.env.MODEL_NAME || undefined))]; } catch (e) {
      console.error(`serve: MODEL_DIR: ${e.message}`);
      process.exit(2);
    }
  }
  const isolate = args.includes("--isolate");  // COOP + COEP only when asked (see the top)
  const server = createServer(root, { mounts, isolate }).listen(port, host, () => {
    const at = server.address().port;
    const origins = classLinks(host, at, "").map((l) => `${l.origin}/`).join(", ");  // 0.0.0.0: this machine's addresses
    console.log(`SwiGLU Lab is served at ${origins}  (files from ${root}; Ctrl+C stops)`);
    for (const m of mounts) {
      console.log(`The model in ${m.dir}${m.source ? ` (${m.source})` : ""}: ${m.files.size} files, ` +
        `${(m.bytes / 1048576).toFixed(1)} MiB, at /models/${m.name}/`);
      const links = classLinks(host, at, m.name);
      if (links[0].address === "127.0.0.1" && host !== "127.0.0.1")
        console.log("This machine has no network address but loopback: the students cannot reach it.");
      console.log(`Give the students this link${links.length > 1 ? " (one per network of this machine)" : ""}:`);
      for (const l of links) console.log(`  ${l.link}`);
      if (host === "127.0.0.1" || host === "localhost") console.log("(only this machine can open it: HOST=0.0.0.0 serves the room)");
    }
  }).on("error", (e) => { console.error(`cannot serve on ${host}:${port}: ${e.message}`); process.exit(1); });
}
