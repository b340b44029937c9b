// Turns a wasm module linked with SWIGLU_RELAXED_SIMD into a relaxed-SIMD module, in place:
//   node cmake/kernels_relaxed.mjs MODULE.wasm
// clang 14 (Emscripten 3.1.6) has no relaxed dot product, so the kernels call an import
// (src/core/kernels/simd128.h: dot_i8x16_i7x16_add, v128 x3 -> v128). Here every call
// becomes the instruction i32x4.relaxed_dot_i8x16_i7x16_add_s (same operands, same order, same
// result on the stack) and the import goes:
//   1. binaryen's wasm-dis prints the module; each "(call $IMPORT" becomes binaryen 108's
//      "(i32x4.dot_i8x16_i7x16_add_s" and the import's line is dropped; wasm-as assembles it;
//   2. binaryen 108 encodes that instruction with the proposal's draft opcode 0xfd 0x114; the final
//      opcode (what Chromium and Node's V8 decode) is 0xfd 0x113: the code section's 0xfd 0x94 0x02
//      become 0xfd 0x93 0x02 (same length), and their count must equal the calls replaced (a match
//      inside some other instruction's immediate would change the count: the build fails instead);
//   3. node --experimental-wasm-relaxed-simd must validate the result, and the plain engine must not
//      (the module really uses the instruction).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const file = process.argv[2];
if (!file) throw new Error('usage: node cmake/kernels_relaxed.mjs MODULE.wasm');
const fail = (m) => { console.error(`kernels_relaxed: ${file}: ${m}`); process.exit(1); };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kernels-relaxed-'));
const feat = ['--enable-simd', '--enable-relaxed-simd', '--enable-sign-ext', '--enable-mutable-globals',
  '--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-multivalue'];

// [SECTION] 1. the calls become instructions
const text = execFileSync('wasm-dis', [...feat, file], { maxBuffer: 1 << 30 }).toString();
// Emscripten minifies import names at -O2 and up ("a" "a"), so the stand-in is found by its type:
// the one import taking three v128 and returning one (no JavaScript import can take a v128).
const imps = [...text.matchAll(/^\s*\(import "[^"]*" "[^"]*" \(func (\$\S+) \(param v128 v128 v128\) \(result v128\)\)\)\s*$/gm)];
if (imps.length !== 1) fail(`${imps.length} imports of type (v128, v128, v128) -> v128, expected the stand-in alone (linked with SWIGLU_RELAXED_SIMD?)`);
const imp = imps[0];
const call = '(call ' + imp[1] + '\n';
const calls = text.split(call).length - 1;
if (calls === 0) fail('the import is never called');
const rewritten = text.replace(imp[0], '').split(call).join('(i32x4.dot_i8x16_i7x16_add_s\n');
if (rewritten.includes(imp[1] + ' ') || rewritten.includes(imp[1] + ')') || rewritten.includes(imp[1] + '\n'))
  fail(`${imp[1]} is still referenced (other than by a plain call)`);
fs.writeFileSync(path.join(tmp, 'm.wat'), rewritten);
execFileSync('wasm-as', [...feat, path.join(tmp, 'm.wat'), '-o', path.join(tmp, 'm.wasm')]);
const bin = fs.readFileSync(path.join(tmp, 'm.wasm'));
fs.rmSync(tmp, { recursive: true });

// [SECTION] 2. draft opcode -> final opcode, in the code section only
const leb = (b, at) => {
  let v = 0, shift = 0, i = at;
  for (;;) {
    const c = b[i++];
    v += (c & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(c & 0x80)) return [v, i];
  }
};
let at = 8, code = null;
while (at < bin.length) {
  const id = bin[at];
  const [size, start] = leb(bin, at + 1);
  if (id === 10) code = [start, start + size];
  at = start + size;
}
if (!code) fail('no code section');
let patched = 0;
for (let i = code[0]; i + 2 < code[1]; i++) {
  if (bin[i] === 0xfd && bin[i + 1] === 0x94 && bin[i + 2] === 0x02) {
    bin[i + 1] = 0x93;
    patched++;
    i += 2;
  }
}
if (patched !== calls) fail(`${calls} calls replaced but ${patched} draft opcodes found in the code section`);

// [SECTION] 3. validate with and without relaxed SIMD
const check = (flags) => execFileSync(process.execPath, [...flags, '-e',
  'process.stdout.write(String(WebAssembly.validate(require("fs").readFileSync(process.argv[1]))))', file + '.tmp']).toString();
fs.writeFileSync(file + '.tmp', bin);
const withRelaxed = check(['--experimental-wasm-relaxed-simd']), plain = check([]);
if (withRelaxed !== 'true') { fs.rmSync(file + '.tmp'); fail('the rewritten module does not validate with relaxed SIMD'); }
if (plain !== 'false') { fs.rmSync(file + '.tmp'); fail('the rewritten module validates without relaxed SIMD: no relaxed instruction in it?'); }
fs.renameSync(file + '.tmp', file);
console.log(`kernels_relaxed: ${path.basename(file)}: ${calls} relaxed dot products`);
