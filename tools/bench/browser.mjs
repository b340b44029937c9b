// The kernel benchmark in Chromium (what the page runs on), beside onnxruntime-web's int8 in the
// same page: the relaxed-SIMD build of the bench module (kernel_bench_web, every registry variant,
// SIMD128 and relaxed), the SwiGLU layer at Qwen3.5-0.8B dims, T = 1, 6, 64, one thread. Rounds in
// shuffled order, ratios within a round, medians; the memory floor is the same module's streaming
// read of 64 MiB. Node 20's V8 lowers relaxed SIMD's dot product to five instructions; Chromium's
// uses AVX-VNNI where the CPU has it, which is why this second driver exists (run.mjs is Node's).
//   tools/bench/run.sh --browser [--rounds N] [--tokens 1,6,64] [--variants REGEX]
//   node tools/bench/browser.mjs --build build-bench/wasm [same flags]
// Files are served to the page from memory (playwright's routing): no server, no network.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf('--' + name);
  return i >= 0 ? args[i + 1] : def;
};
const cfg = {
  rounds: +opt('rounds', 5),
  layers: +opt('layers', 8),
  minMs: +opt('min-ms', 150),
  tokens: opt('tokens', '1,6,64').split(',').map(Number),
  variants: opt('variants', 'wasm'),
  seed: (Math.random() * 2 ** 31) | 0,
};
const BUILD = path.resolve(opt('build', 'build-bench/wasm'));
const here = path.dirname(fileURLToPath(import.meta.url));
const ortDist = path.dirname(require.resolve('onnxruntime-web'));  // its dist/ folder
const files = {
  '/index.html': ['text/html', '<!doctype html><meta charset="utf-8"><title>kernel bench</title>'],
  '/kernel_bench_web.js': ['text/javascript', path.join(BUILD, 'kernel_bench_web.js')],
  '/kernel_bench_web.wasm': ['application/wasm', path.join(BUILD, 'kernel_bench_web.wasm')],
  '/ort_swiglu.mjs': ['text/javascript', path.join(here, 'ort_swiglu.mjs')],
  '/ort/ort.wasm.bundle.min.mjs': ['text/javascript', path.join(ortDist, 'ort.wasm.bundle.min.mjs')],
  '/ort/ort-wasm-simd-threaded.mjs': ['text/javascript', path.join(ortDist, 'ort-wasm-simd-threaded.mjs')],
  '/ort/ort-wasm-simd-threaded.wasm': ['application/wasm', path.join(ortDist, 'ort-wasm-simd-threaded.wasm')],
};

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--js-flags=--no-liftoff'] });
const page = await browser.newPage();
page.on('console', (m) => process.stderr.write('[page] ' + m.text() + '\n'));
await page.route('http://localhost:8917/**', (route) => {
  const f = files[new URL(route.request().url()).pathname];
  if (!f) return route.fulfill({ status: 404, body: '' });
  const body = f[1].startsWith('/') ? fs.readFileSync(f[1]) : f[1];
  // Cross-origin isolated, so performance.now() has 5 us steps rather than 100 us (the single-call
  // timings at one token need them); onnxruntime-web still runs one thread (numThreads = 1).
  const headers = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
  return route.fulfill({ status: 200, contentType: f[0], headers, body });
});
await page.goto('http://localhost:8917/index.html');  // localhost: a trustworthy origin, so COOP/COEP apply
const version = browser.version();

// [SECTION] in the page
const res = await page.evaluate(async (cfg) => {
  const log = (m) => console.log(m);
  log(`cross-origin isolated: ${self.crossOriginIsolated}`);
  await new Promise((ok, bad) => {
    const s = document.createElement('script');
    s.src = '/kernel_bench_web.js';
    s.onload = ok;
    s.onerror = bad;
    document.head.appendChild(s);
  });
  const W = await createKernelBench();  // eslint-disable-line no-undef
  const H = 1024, I = 3584;
  if (W._bench_init(cfg.layers, cfg.seed) !== 0) throw new Error('bench_init failed');
  const only = new RegExp(cfg.variants);
  const variants = [];
  for (let v = 0; v < W._bench_variant_count(); v++) {
    const name = W.UTF8ToString(W._bench_variant_name(v));
    if (!W._bench_variant_is_ref(v) && !name.includes('scalar') && only.test('wasm ' + name)) variants.push({ v, name });
  }
  const defName = Object.fromEntries(cfg.tokens.map((T) => [T, W.UTF8ToString(W._bench_variant_name(W._bench_default_variant(1, T)))]));
  // onnxruntime-web on the same int8 weights (tools/bench/ort_swiglu.mjs).
  const { ortSwigluModel } = await import('/ort_swiglu.mjs');
  const ort = await import('/ort/ort.wasm.bundle.min.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.wasm.wasmPaths = '/ort/';
  ort.env.logLevel = 'error';
  const layers = [];
  for (let l = 0; l < cfg.layers; l++) {
    const mat = (m) => {
      const rows = m < 2 ? I : H, cols = m < 2 ? H : I;
      const q = W._bench_matrix_int8(l, m), sc = W._bench_matrix_scales(l, m) / 4;
      return { rows, cols, q: W.HEAP8.slice(q, q + rows * cols), scales: W.HEAPF32.slice(sc, sc + rows) };
    };
    layers.push({ gate: mat(0), up: mat(1), down: mat(2) });
  }
  const opts = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  const session = await ort.InferenceSession.create(ortSwigluModel(layers, H, 'qdq'), opts);
  const one = await ort.InferenceSession.create(ortSwigluModel(layers.slice(0, 1), H, 'qdq'), opts);
  const xAll = W.HEAPF32.slice(W._bench_input() / 4, W._bench_input() / 4 + 64 * H);
  const ortX = Object.fromEntries(cfg.tokens.map((T) => [T, new ort.Tensor('float32', xAll.slice(0, T * H), [T, H])]));
  const ortMs = async (T) => {
    await session.run({ x: ortX[T] });
    const t0 = performance.now();
    let n = 0, t1 = t0;
    while (n < 2 || t1 - t0 < cfg.minMs) {
      await session.run({ x: ortX[T] });
      n++;
      t1 = performance.now();
    }
    return (t1 - t0) / n / cfg.layers;
  };
  log(`onnxruntime-web ${ort.env.versions.web} ready; dispatch picks ${JSON.stringify(defName)}`);
  const results = {}, floors = [], best = {};  // best: the fastest single T=1 call of 30, per round
  const put = (k, T, ms) => ((results[k] ??= {})[T] ??= []).push(ms);
  const contenders = [{ key: 'ort-web int8 qdq (DynamicQuantizeMatMul)', ort: true }, ...variants.map((x) => ({ key: 'wasm ' + x.name, v: x.v }))];
  for (const T of cfg.tokens) {  // warm-up
    await ortMs(T);
    for (const x of variants) W._bench_layer_ms(x.v, T, 0, 1, 0);
  }
  for (let r = 0; r < cfg.rounds; r++) {
    floors.push(W._bench_bandwidth_gbs(3));
    for (const T of cfg.tokens) {
      const order = [...contenders].sort(() => Math.random() - 0.5);
      for (const c of order) {
        put(c.key, T, c.ort ? await ortMs(T) : W._bench_layer_ms(c.v, T, 0, 3, cfg.minMs));
        if (T === 1 && !c.ort) ((best[c.key] ??= []).push(W._bench_layer_best_ms(c.v, 1, 30)));
      }
    }
    log(`round ${r + 1}/${cfg.rounds} done`);
  }
  // Accuracy at T=6 on layer 0 against the double reference.
  const ref = W.HEAPF64.slice(W._bench_reference_output(6) / 8, W._bench_reference_output(6) / 8 + 6 * H);
  const y = (await one.run({ x: new ort.Tensor('float32', xAll.slice(0, 6 * H), [6, H]) })).y.data;
  let err = 0, ymax = 0;
  for (let i = 0; i < 6 * H; i++) { err = Math.max(err, Math.abs(y[i] - ref[i])); ymax = Math.max(ymax, Math.abs(ref[i])); }
  const errors = { 'ort-web int8 qdq (DynamicQuantizeMatMul)': err / ymax };
  for (const x of variants) errors['wasm ' + x.name] = W._bench_rel_error(x.v, 6);
  return { results, best, floors, errors, defName, weightBytes: W._bench_weight_bytes_per_layer(), keys: contenders.map((c) => c.key), ortVersion: ort.env.versions.web };
}, cfg);
await browser.close();

// [SECTION] report
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};
const fmt = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const spread = (a, d = 3) => `${fmt(Math.min(...a), d)}-${fmt(Math.max(...a), d)}`;
const ORT = 'ort-web int8 qdq (DynamicQuantizeMatMul)';
const floorGBs = median(res.floors), floorMs = res.weightBytes / floorGBs / 1e6;
const out = [];
out.push(`SwiGLU layer in Chromium ${version} (headless), hidden 1024, intermediate 3584; ${cfg.rounds} rounds, median (min-max); ` +
         `${cfg.layers} int8 layers (${fmt(cfg.layers * res.weightBytes / 1e6, 0)} MB) cycled; one thread; onnxruntime-web ${res.ortVersion}`);
out.push(`machine: ${os.cpus()[0]?.model ?? '?'}, ${os.cpus().length} cores; load average (1 min) ${fmt(os.loadavg()[0])} after the rounds`);
out.push(`memory floor (streaming read of 64 MiB in the page's module, best of 3 per round): ${fmt(floorGBs)} GB/s ` +
         `(${spread(res.floors, 1)}) = ${fmt(floorMs, 3)} ms per int8 layer`);
out.push('');
out.push('| contender | T | ms/layer | min-max | GFLOP/s | x ORT int8 | % of floor | best call ms, % of floor |');
out.push('|---|---|---|---|---|---|---|---|');
for (const T of cfg.tokens) {
  const o = res.results[ORT][T];
  for (const k of res.keys) {
    const a = res.results[k][T];
    const ms = median(a);
    const vsOrt = k === ORT ? NaN : median(a.map((v, i) => o[i] / v));
    const b = T === 1 && res.best[k] ? median(res.best[k]) : NaN;
    out.push(`| ${k} | ${T} | ${fmt(ms, 3)} | ${spread(a)} | ${fmt((6 * T * 1024 * 3584) / ms / 1e6, 1)} | ${fmt(vsOrt)} | ` +
             `${T === 1 ? fmt((100 * floorMs) / ms, 0) : '-'} | ${Number.isFinite(b) ? fmt(b, 3) + ', ' + fmt((100 * floorMs) / b, 0) : '-'} |`);
  }
}
out.push('');
out.push('accuracy, T=6, layer 0, max abs err / max abs output vs double reference: ' +
         Object.entries(res.errors).map(([k, e]) => `${k} ${e.toExponential(2)}`).join('; '));
out.push('');
out.push('aims (per-round figures in brackets), for the q16 variant swiglu_layer_forward picks in this page at each T:');
for (const T of cfg.tokens) {
  const def = res.results['wasm ' + res.defName[T]];
  if (!def) continue;
  if (T === 1) {
    const p = def[1].map((ms) => (100 * floorMs) / ms);
    out.push(`  ${res.defName[T]} T=1: ${fmt(median(p), 0)}% of the memory floor (aim >= 90%) ${median(p) >= 90 ? 'MET' : 'NOT MET'} [${p.map((v) => fmt(v, 0)).join(' ')}]`);
    const bp = (res.best['wasm ' + res.defName[T]] ?? []).map((ms) => (100 * floorMs) / ms);
    out.push(`  ${res.defName[T]} T=1, fastest single call of 30 per round (as the floor is the best of its passes): ` +
             `${fmt(median(bp), 0)}% of the floor ${median(bp) >= 90 ? 'MET' : 'NOT MET'} [${bp.map((v) => fmt(v, 0)).join(' ')}]`);
  } else {
    const r = def[T].map((v, i) => res.results[ORT][T][i] / v);
    out.push(`  ${res.defName[T]} T=${T}: ${fmt(median(r))}x onnxruntime-web int8 (aim >= 1.3) ${median(r) >= 1.3 ? 'MET' : 'NOT MET'} [${r.map((v) => fmt(v)).join(' ')}]`);
  }
}
console.log(out.join('\n'));
