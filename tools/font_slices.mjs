#!/usr/bin/env node
// Cuts the page's full fonts into slices of 128 code points each, so a page that needs a few
// characters the embedded fonts lack (a token in Korean, a Chinese piece of the real model) fetches
// a few slices of some tens of KB, not the 5.9 MB of the whole files.
//
//   node tools/font_slices.mjs --out DIR --table FILE.cpp FONT[#FACE] ...
//
// Writes DIR/F-BBB.ttf for font F (its place in the list) and block BBB (the code point / 128, three
// hex digits) wherever the font maps a character of the block, and FILE.cpp: which slices exist
// (font_slices.h, which the page reads to know what to ask for). A slice is a TrueType font of the
// tables stb_truetype reads (cmap, glyf, head, hhea, hmtx, loca, maxp): the block's characters, their
// glyphs as they are in the font (composite glyphs with their parts), renumbered from 1 (0 is the
// font's .notdef). Only the Basic Multilingual Plane: ImGui's characters are 16 bits here.
// Beside each, its gzip twin (F-BBB.ttf.gz, about 45 % smaller), which tools/serve.mjs sends as it
// is (brotli would save a little more, at 30 s of every build).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const BLOCK = 128, BLOCKS = 0x10000 / BLOCK;

// [SECTION] reading a font
function tablesOf(buf, face) {
  let at = 0;
  if (buf.toString("latin1", 0, 4) === "ttcf") {
    if (face >= buf.readUInt32BE(8)) throw new Error(`no face ${face} in the collection`);
    at = buf.readUInt32BE(12 + 4 * face);
  }
  const tables = {};
  for (let i = 0, n = buf.readUInt16BE(at + 4); i < n; i++) {
    const r = at + 12 + 16 * i;
    tables[buf.toString("latin1", r, r + 4)] = buf.subarray(buf.readUInt32BE(r + 8), buf.readUInt32BE(r + 8) + buf.readUInt32BE(r + 12));
  }
  for (const t of ["cmap", "glyf", "head", "hhea", "hmtx", "loca", "maxp"])
    if (!tables[t]) throw new Error(`the font has no ${t} table`);
  return tables;
}

// Code point → glyph over the BMP, from the Unicode subtable (format 12 or 4).
function charMap(cmap) {
  const subtables = [];
  for (let i = 0, n = cmap.readUInt16BE(2); i < n; i++) {
    const platform = cmap.readUInt16BE(4 + 8 * i), encoding = cmap.readUInt16BE(6 + 8 * i);
    const table = cmap.subarray(cmap.readUInt32BE(8 + 8 * i));
    if (platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10))) subtables.push(table);
  }
  const map = new Map();
  const t = subtables.find((s) => s.readUInt16BE(0) === 12) || subtables.find((s) => s.readUInt16BE(0) === 4);
  if (!t) throw new Error("the font has no Unicode character map of format 4 or 12");
  if (t.readUInt16BE(0) === 12) {
    for (let g = 0, n = t.readUInt32BE(12); g < n; g++) {
      const start = t.readUInt32BE(16 + 12 * g), end = t.readUInt32BE(20 + 12 * g), glyph = t.readUInt32BE(24 + 12 * g);
      for (let c = start; c <= Math.min(end, 0xffff); c++) map.set(c, glyph + c - start);
    }
  } else {
    const segs = t.readUInt16BE(6) / 2;
    const ends = 14, starts = 16 + 2 * segs, deltas = starts + 2 * segs, offsets = deltas + 2 * segs;
    for (let s = 0; s < segs; s++) {
      const start = t.readUInt16BE(starts + 2 * s), end = t.readUInt16BE(ends + 2 * s);
      const delta = t.readInt16BE(deltas + 2 * s), ro = t.readUInt16BE(offsets + 2 * s);
      for (let c = start; c <= end && c !== 0xffff; c++) {
        let g = 0;
        if (ro === 0) g = (c + delta) & 0xffff;
        else {
          const at = offsets + 2 * s + ro + 2 * (c - start);
          g = t.readUInt16BE(at);
          if (g) g = (g + delta) & 0xffff;
        }
        if (g) map.set(c, g);
      }
    }
  }
  return map;
}

function fontOf(buf, face) {
  const t = tablesOf(buf, face);
  const glyphs = t.maxp.readUInt16BE(4), longLoca = t.head.readInt16BE(50) === 1, metrics = t.hhea.readUInt16BE(34);
  const loca = (g) => (longLoca ? t.loca.readUInt32BE(4 * g) : 2 * t.loca.readUInt16BE(2 * g));
  return {
    t, glyphs, chars: charMap(t.cmap),
    glyph: (g) => t.glyf.subarray(loca(g), loca(g + 1)),
    advance: (g) => t.hmtx.readUInt16BE(4 * Math.min(g, metrics - 1)),
    lsb: (g) => (g < metrics ? t.hmtx.readInt16BE(4 * g + 2) : t.hmtx.readInt16BE(4 * metrics + 2 * (g - metrics))),
  };
}

// A composite glyph's parts: where each part's glyph index sits, and the index.
function parts(glyph) {
  const out = [];
  if (glyph.length < 10 || glyph.readInt16BE(0) >= 0) return out;
  for (let at = 10; ;) {
    const flags = glyph.readUInt16BE(at);
    out.push({ at: at + 2, glyph: glyph.readUInt16BE(at + 2) });
    at += 4 + (flags & 1 ? 4 : 2) + (flags & 8 ? 2 : flags & 0x40 ? 4 : flags & 0x80 ? 8 : 0);
    if (!(flags & 0x20)) return out;
  }
}

// [SECTION] writing a slice
function slice(font, chars) {
  const order = [0], index = new Map([[0, 0]]);
  const take = (g) => {
    if (!index.has(g)) index.set(g, order.length), order.push(g);
  };
  for (const c of chars) take(font.chars.get(c));
  for (let i = 0; i < order.length; i++) for (const p of parts(font.glyph(order[i]))) take(p.glyph);

  const glyf = [], loca = Buffer.alloc(4 * (order.length + 1)), hmtx = Buffer.alloc(4 * order.length);
  let size = 0;
  order.forEach((g, i) => {
    const bytes = Buffer.from(font.glyph(g));
    for (const p of parts(bytes)) bytes.writeUInt16BE(index.get(p.glyph), p.at);
    const padded = Buffer.concat([bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4)]);
    loca.writeUInt32BE(size, 4 * i);
    glyf.push(padded);
    size += padded.length;
    hmtx.writeUInt16BE(font.advance(g), 4 * i);
    hmtx.writeInt16BE(font.lsb(g), 4 * i + 2);
  });
  loca.writeUInt32BE(size, 4 * order.length);

  // cmap: one format-12 subtable (Microsoft, full Unicode), a group per run of characters whose
  // glyphs follow each other.
  const groups = [];
  for (const c of chars) {
    const g = index.get(font.chars.get(c)), last = groups[groups.length - 1];
    if (last && c === last[1] + 1 && g === last[2] + (c - last[0])) last[1] = c;
    else groups.push([c, c, g]);
  }
  const cmap = Buffer.alloc(12 + 16 + 12 * groups.length);
  cmap.writeUInt16BE(1, 2);
  cmap.writeUInt16BE(3, 4), cmap.writeUInt16BE(10, 6), cmap.writeUInt32BE(12, 8);
  cmap.writeUInt16BE(12, 12), cmap.writeUInt32BE(16 + 12 * groups.length, 16), cmap.writeUInt32BE(groups.length, 24);
  groups.forEach(([a, b, g], i) => { cmap.writeUInt32BE(a, 28 + 12 * i), cmap.writeUInt32BE(b, 32 + 12 * i), cmap.writeUInt32BE(g, 36 + 12 * i); });

  const head = Buffer.from(font.t.head), hhea = Buffer.from(font.t.hhea), maxp = Buffer.from(font.t.maxp);
  head.writeUInt32BE(0, 8);      // checkSumAdjustment: not kept
  head.writeInt16BE(1, 50);      // long offsets in loca
  hhea.writeUInt16BE(order.length, 34);
  maxp.writeUInt16BE(order.length, 4);
  return sfnt({ cmap, glyf: Buffer.concat(glyf), head, hhea, hmtx, loca, maxp });
}

function checksum(b) {
  let sum = 0;
  const padded = Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

function sfnt(tables) {
  const tags = Object.keys(tables).sort(), n = tags.length;
  const log2 = Math.floor(Math.log2(n));
  const dir = Buffer.alloc(12 + 16 * n);
  dir.writeUInt32BE(0x00010000, 0);
  dir.writeUInt16BE(n, 4), dir.writeUInt16BE(16 << log2, 6), dir.writeUInt16BE(log2, 8), dir.writeUInt16BE(16 * n - (16 << log2), 10);
  const body = [];
  let at = dir.length;
  tags.forEach((tag, i) => {
    const b = tables[tag], r = 12 + 16 * i;
    dir.write(tag, r, "latin1");
    dir.writeUInt32BE(checksum(b), r + 4), dir.writeUInt32BE(at, r + 8), dir.writeUInt32BE(b.length, r + 12);
    const padded = Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
    body.push(padded);
    at += padded.length;
  });
  return Buffer.concat([dir, ...body]);
}

// [SECTION] the command
const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : null; };
const out = opt("--out"), table = opt("--table");
if (!out || !table || args.length === 0) {
  console.error("usage: node tools/font_slices.mjs --out DIR --table FILE.cpp FONT[#FACE] ...");
  process.exit(2);
}
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const bits = [];
let files = 0, bytes = 0;
args.forEach((spec, f) => {
  const [file, face] = spec.split("#");
  const font = fontOf(fs.readFileSync(file), Number(face || 0));
  const blocks = new Map();
  for (const c of [...font.chars.keys()].sort((a, b) => a - b)) {
    if (c < 0x20) continue;
    const b = Math.floor(c / BLOCK);
    if (!blocks.has(b)) blocks.set(b, []);
    blocks.get(b).push(c);
  }
  const set = new Uint8Array(BLOCKS / 8);
  for (const [b, chars] of blocks) {
    const ttf = slice(font, chars);
    const name = path.join(out, `${f}-${b.toString(16).padStart(3, "0")}.ttf`);
    fs.writeFileSync(name, ttf);
    fs.writeFileSync(name + ".gz", zlib.gzipSync(ttf, { level: 9 }));
    set[b >> 3] |= 1 << (b & 7);
    files++, bytes += ttf.length;
  }
  bits.push(set);
});
const rows = bits.map((set) => "    {" + Array.from(set, (v) => "0x" + v.toString(16).padStart(2, "0")).join(", ") + "},").join("\n");
fs.writeFileSync(table, `// Written by tools/font_slices.mjs: which slices of the full fonts the site holds.
#include "core/base/font_slices.h"

static_assert(FONT_SLICE_FONTS == ${bits.length}, "tools/font_slices.mjs was given another number of fonts");
const font_slice_table font_slice_present = {
${rows}
};
`);
console.log(`font_slices: ${files} slices, ${(bytes / 1e6).toFixed(2)} MB, in ${out}`);
