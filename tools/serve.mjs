#!/usr/bin/env node
// A small static server for the page: honours HTTP Range requests (the weight streaming reads
// files in ranges), serves .wasm as application/wasm (so browsers compile while downloading) and
// sends the build's brotli (.br) or gzip (.gz) twin of a file when the browser accepts it.
// python3 -m http.server does neither. It allows any origin to read (CORS), so a pack it hosts
// opens from a page on another host, as a teacher's own server would be set up (README).
// The browser tests also give it faults to inject per file (options.faults) and read its log.
//
//   node tools/serve.mjs [--root build-wasm/site] [--port 8080] [--host 127.0.0.1]
//   PORT=9000 node tools/serve.mjs
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const MIME = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm", ".css": "text/css; charset=utf-8", ".json": "application/json",
  ".png": "image/png", ".svg": "image/svg+xml", ".ttf": "font/ttf", ".txt": "text/plain; charset=utf-8",
};
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".wasm", ".css", ".json", ".svg", ".txt"]);

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Content-Range, Content-Length, Accept-Ranges",
};

// options.faults: Map of file name -> { status, truncate, corrupt, drop, stall, ignoreRange, times }
// (stall: the request is never answered, as on a dead link).
// (times: how many requests it hits; absent: all). options.log: an array that gets one entry per
// request: { path, range, status }.
export function createServer(root, options = {}) {
  root = path.resolve(root);
  const faults = options.faults || new Map();
  return http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    if (req.method === "OPTIONS") {  // a preflight, for a Range request from another origin
      res.writeHead(204, { ...CORS, "Access-Control-Allow-Headers": "Range", "Access-Control-Max-Age": "600" });
      return res.end();
    }
    let rel;
    try { rel = decodeURIComponent(url.pathname); } catch { return send(res, 400, "bad path"); }
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.resolve(root, "." + rel);
    if (file !== root && !file.startsWith(root + path.sep)) return send(res, 403, "forbidden");
    const fault = takeFault(faults, path.basename(file));
    if (options.log) options.log.push({ path: rel, range: req.headers.range || "", status: fault?.status || 0 });
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
      if (range) {
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
        return fs.createReadStream(file, { start, end }).pipe(res);
      }
      // Whole files may go compressed, as a real host would; ranges never are (offsets must hold).
      // A file compressed at build time (FILE.br, FILE.gz: tools/compress_site.mjs) is sent as
      // is when the browser accepts its encoding and it is not older than the file itself.
      const accepts = req.headers["accept-encoding"] || "";
      const pre = COMPRESSIBLE.has(ext) && precompressed(file, st, accepts);
      if (pre) {
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
  createServer(root).listen(port, host, () => {
    console.log(`SwiGLU Lab is served at http://${host}:${port}/  (files from ${root}; Ctrl+C stops)`);
  }).on("error", (e) => { console.error(`cannot serve on ${host}:${port}: ${e.message}`); process.exit(1); });
}
