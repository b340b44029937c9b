#!/usr/bin/env node
// Writes FILE.br (brotli, quality 11) and FILE.gz (gzip -9) beside each compressible file of the
// page, once at build time, so a server sends the smallest encoding the browser accepts without
// compressing on every request (tools/serve.mjs does; so do several static hosts, see README).
// A file whose compressed form would not be smaller gets none.
//
//   node tools/compress_site.mjs DIR [FILE...]   (no FILE: every .html .js .wasm .json .svg in DIR)
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const [dir, ...names] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node tools/compress_site.mjs DIR [FILE...]");
  process.exit(2);
}
const EXTS = new Set([".html", ".js", ".wasm", ".json", ".svg", ".css", ".txt"]);
const files = names.length ? names : fs.readdirSync(dir).filter((f) => EXTS.has(path.extname(f)));

for (const name of files) {
  const file = path.join(dir, name);
  const bytes = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
    },
  });
  const gz = zlib.gzipSync(bytes, { level: 9 });
  for (const [ext, out] of [[".br", br], [".gz", gz]]) {
    if (out.length < bytes.length) fs.writeFileSync(file + ext, out);
    else fs.rmSync(file + ext, { force: true });  // never leave a stale one behind
  }
}
