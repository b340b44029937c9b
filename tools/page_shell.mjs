#!/usr/bin/env node
// Writes the page shell (web/index.html) into the site with its own words taken from the string
// table, so that src/core/base/strings.inc stays the one source of every user-facing string: the
// shell's `/*STRINGS:STR_A,STR_B*/{}` becomes {"STR_A":["English","中文"],...}, which index.html
// uses for what it says before (or instead of) the app: a file that did not load, Retry, no
// WebGL2 or WebAssembly.
//
//   node tools/page_shell.mjs web/index.html src/core/base/strings.inc OUT.html
import fs from "node:fs";

const [shell, table, out] = process.argv.slice(2);
if (!shell || !table || !out) {
  console.error("usage: node tools/page_shell.mjs SHELL.html strings.inc OUT.html");
  process.exit(2);
}
const strings = new Map();
// S(ID, "English", "中文") and the shell's own PAGE(...) rows, with C string literals (one
// literal each), possibly over two lines.
const literal = String.raw`"((?:[^"\\]|\\.)*)"`;
for (const m of fs.readFileSync(table, "utf8").matchAll(new RegExp(String.raw`\b(?:S|PAGE)\((STR_\w+),\s*${literal},\s*${literal}\)`, "g")))
  strings.set(m[1], [JSON.parse(`"${m[2]}"`), JSON.parse(`"${m[3]}"`)]);

let missing = [];
const html = fs.readFileSync(shell, "utf8").replace(/\/\*STRINGS:([\w,]+)\*\/\{\}/g, (_, ids) => {
  const picked = {};
  for (const id of ids.split(",")) {
    if (!strings.has(id)) missing.push(id);
    picked[id] = strings.get(id);
  }
  return JSON.stringify(picked);
});
if (missing.length) {
  console.error(`page_shell: ${missing.join(", ")} not in ${table}`);
  process.exit(1);
}
fs.writeFileSync(out, html);
