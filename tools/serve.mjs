#!/usr/bin/env node
// A small static server for the page: honours HTTP Range requests (the weight streaming reads
// files in ranges) and serves .wasm as application/wasm (so browsers compile while downloading).
// python3 -m http.server does neither.
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

export function createServer(root) {
  root = path.resolve(root);
  return http.createServer((req, res) => {
    const url = new URL(req.url, "http://localhost");
    let rel;
    try { rel = decodeURIComponent(url.pathname); } catch { return send(res, 400, "bad path"); }
    if (rel.endsWith("/")) rel += "index.html";
    const file = path.resolve(root, "." + rel);
    if (file !== root && !file.startsWith(root + path.sep)) return send(res, 403, "forbidden");
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) return send(res, 404, "not found");
      const ext = path.extname(file);
      const headers = {
        "Content-Type": MIME[ext] || "application/octet-stream",
        "Accept-Ranges": "bytes",
        "Cache-Control": "no-cache",
        "Last-Modified": st.mtime.toUTCString(),
      };
      const range = req.headers.range;
      if (range) {
        const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
        let start, end;
        if (m && (m[1] !== "" || m[2] !== "")) {
          if (m[1] === "") { start = Math.max(0, st.size - Number(m[2])); end = st.size - 1; }
          else { start = Number(m[1]); end = m[2] === "" ? st.size - 1 : Math.min(Number(m[2]), st.size - 1); }
        }
        if (start === undefined || start > end || start >= st.size) {
          res.writeHead(416, { "Content-Range": `bytes */${st.size}`, "Content-Type": "text/plain" });
          return res.end("range not satisfiable");
        }
        res.writeHead(206, { ...headers, "Content-Range": `bytes ${start}-${end}/${st.size}`, "Content-Length": end - start + 1 });
        if (req.method === "HEAD") return res.end();
        return fs.createReadStream(file, { start, end }).pipe(res);
      }
      // Whole files may go gzipped, as a real host would; ranges never are (offsets must hold).
      if (COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers["accept-encoding"] || "")) {
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

function send(res, code, text) {
  res.writeHead(code, { "Content-Type": "text/plain; charset=utf-8" });
  res.end(text + "\n");
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
