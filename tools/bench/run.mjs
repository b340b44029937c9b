// Kernel benchmark driver: the SwiGLU layer at Qwen3.5-0.8B dims (hidden 1024, intermediate 3584)
// for T = 1, 6, 64, single thread. In ONE Node process, round by round and in shuffled order:
//   - every wasm variant of the layer registry (kernel_bench.js, the wasm build of bench_core.cpp),
//   - the same kernels built natively (kernel_bench, a child process on stdin/stdout),
//   - the int8 peer: onnxruntime-web (its wasm backend, SIMD, one thread) on a model written by
//     ort_swiglu.mjs from the same int8 weights and scales, in two formulations (qdq, nbits),
//   - the f32 peer: @tensorflow/tfjs-backend-wasm, float32 SwiGLU from tf.matMul with [in, out]
//     weights (XNNPACK): the yardstick of our f32-activation path, which the page's views run.
// Ratios are taken within a round (the machine is shared and noisy), then the median over rounds.
// Weights cycle through more layers than fit in L3 (8 x 11 MB int8, ORT's chain the same 8 layers;
// 3 x 44 MB f32 for tfjs), and a cache-resident column repeats layer 0. Memory floor: streaming read
// of 64 MiB in the same wasm module (best of 3 passes, best of wasm and native).
// Usage: tools/bench/run.sh [--rounds N] [--layers N] [--tokens 1,6,64] [--variants REGEX]   (builds, then runs this)
//        node --no-experimental-fetch tools/bench/run.mjs --wasm <kernel_bench.js> --native <kernel_bench>
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';

import { ortSwigluModel } from './ort_swiglu.mjs';

// Compile all wasm (ours and tfjs's) with the optimizing tier up front. With V8's dynamic tiering,
// one of our kernels once stayed on the baseline tier for a whole run (3x slower) while tfjs's
// module was compiling on the same 2 cores; the benchmark compares steady-state code.
v8.setFlagsFromString('--no-liftoff');
// Node 20's V8 (11.3) has relaxed SIMD behind this flag (Node 22 and Chromium 114+ have it on).
v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf('--' + name);
  return i >= 0 ? args[i + 1] : def;
};
const ROUNDS = +opt('rounds', 5);
const N_LAYERS = +opt('layers', 8);
const TFJS_LAYERS = +opt('tfjs-layers', 3);
const MIN_MS = +opt('min-ms', 150);
// The kernel module: its relaxed-SIMD build where the engine validates relaxed SIMD (a module of
// one i32x4.relaxed_dot_i8x16_i7x16_add_s), else the plain SIMD128 build: the same choice a page makes.
const RELAXED_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 19, 1, 17, 0, 65, 1,
  253, 15, 65, 2, 253, 15, 65, 3, 253, 15, 253, 147, 2, 11]);
const HAS_RELAXED = WebAssembly.validate(RELAXED_PROBE);
const WASM_JS = path.resolve(HAS_RELAXED ? opt('wasm-relaxed', 'build-bench/wasm/kernel_bench_relaxed.js')
                                         : opt('wasm', 'build-bench/wasm/kernel_bench.js'));
const NATIVE = path.resolve(opt('native', 'build-bench/native/kernel_bench'));
const TS = (opt('tokens', '1,6,64')).split(',').map(Number);
const ONLY = new RegExp(opt('variants', '.'));  // a subset of the registry's variants, by name
const H = 1024, I = 3584;
const flops = (T) => 6 * T * H * I;  // 3 matmuls, 2 flops per multiply-add (elementwise ignored)

const median = (a) => {
  const s = [...a].filter((v) => Number.isFinite(v)).sort((x, y) => x - y);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
};
const shuffle = (a) => {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};
const log = (...m) => process.stderr.write(m.join(' ') + '\n');

// [SECTION] wasm kernels
const W = await require(WASM_JS)();
// [SECTION] native kernels (child process, line protocol of bench_native.cpp)
const child = spawn(NATIVE, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout });
const waiting = [];
lines.on('line', (l) => waiting.shift()(l));
const native = (cmd) => new Promise((res) => { waiting.push(res); child.stdin.write(cmd + '\n'); });

log(`[bench] building ${N_LAYERS} random int8 layers in wasm and natively...`);
const seed = (Math.random() * 2 ** 31) | 0;
if (W._bench_init(N_LAYERS, seed) !== 0) throw new Error('wasm bench_init failed');
if ((await native(`init ${N_LAYERS} ${seed}`)) !== 'ok') throw new Error('native init failed');
const nVariants = W._bench_variant_count();
const variants = [];
for (let v = 0; v < nVariants; v++) {
  const name = W.UTF8ToString(W._bench_variant_name(v));
  if (!W._bench_variant_is_ref(v) && ONLY.test(name)) variants.push({ v, name, scalar: name.includes('scalar') });
}
// Natively every variant exists (the relaxed ones through their x86 twin): pair them by name.
const nativeNames = (await native('variants')).split(',');
for (const x of variants) {
  x.nv = nativeNames.indexOf(x.name);
  if (x.nv < 0) throw new Error(`${x.name} is not in the native registry`);
}
log(`[bench] kernel module: ${path.basename(WASM_JS)} (relaxed SIMD ${HAS_RELAXED ? 'validates' : 'does not validate'} here); ` +
    `q16 dispatch (timed now, once): T=1 ${W.UTF8ToString(W._bench_variant_name(W._bench_default_variant(1, 1)))}, ` +
    `T>1 ${W.UTF8ToString(W._bench_variant_name(W._bench_default_variant(1, 6)))}`);
const weightBytes = W._bench_weight_bytes_per_layer();

// [SECTION] tfjs-backend-wasm peer
const tf = require('@tensorflow/tfjs-core');
const tfwasm = require('@tensorflow/tfjs-backend-wasm');
tfwasm.setThreadsCount?.(1);
await tf.setBackend('wasm');
await tf.ready();
log(`[bench] tfjs ${tf.version_core} backend=${tf.getBackend()} simd=${await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')} ` +
    `threads=${await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT')}`);
const tfLayers = [];
for (let i = 0; i < TFJS_LAYERS; i++) {
  tfLayers.push({  // [in, out] so tf.matMul(x, W) needs no transpose and reaches XNNPACK's f32 gemm
    wg: tf.randomUniform([H, I], -0.03, 0.03), wu: tf.randomUniform([H, I], -0.03, 0.03),
    wd: tf.randomUniform([I, H], -0.03, 0.03),
  });
}
const tfX = Object.fromEntries(TS.map((T) => [T, tf.randomUniform([T, H], -1.5, 1.5)]));
let tfNext = 0;
const tfForward = (T) => {
  const L = tfLayers[tfNext];
  tfNext = (tfNext + 1) % tfLayers.length;
  const y = tf.tidy(() => {
    const x = tfX[T];
    const g = tf.matMul(x, L.wg), u = tf.matMul(x, L.wu);
    return tf.matMul(tf.mul(tf.mul(g, tf.sigmoid(g)), u), L.wd);
  });
  y.dataSync();
  y.dispose();
};
const tfMs = (T) => {
  tfForward(T);
  const t0 = performance.now();
  let n = 0, t1 = t0;
  while (n < 3 || t1 - t0 < MIN_MS) {
    tfForward(T);
    n++;
    t1 = performance.now();
  }
  return (t1 - t0) / n;
};

// [SECTION] onnxruntime-web peer (int8): the same layers' int8 weights and scales, chained
const ort = require('onnxruntime-web');
ort.env.wasm.numThreads = 1;  // single thread, as ours
ort.env.wasm.simd = true;
ort.env.wasm.proxy = false;
ort.env.logLevel = 'error';
const ortLayers = [];
for (let l = 0; l < N_LAYERS; l++) {
  const mat = (m) => {
    const rows = m < 2 ? I : H, cols = m < 2 ? H : I;
    const q = W._bench_matrix_int8(l, m), sc = W._bench_matrix_scales(l, m) / 4;
    return { rows, cols, q: W.HEAP8.slice(q, q + rows * cols), scales: W.HEAPF32.slice(sc, sc + rows) };
  };
  ortLayers.push({ gate: mat(0), up: mat(1), down: mat(2) });
}
// MatMulNBits (bits 8, accuracy_level 4) was measured too: in onnxruntime-web 1.31 it computes in
// f32 (its error against the double reference was 4e-7, where int8 activations give ~3e-2) and took
// 30-40x the time of qdq (it dequantizes per run), so it is no int8 peer; ort_swiglu.mjs keeps it.
const ORT_KINDS = ['qdq'];
const ortSessions = {}, ortOne = {};
for (const kind of ORT_KINDS) {
  const opts = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  ortSessions[kind] = await ort.InferenceSession.create(ortSwigluModel(ortLayers, H, kind), opts);
  ortOne[kind] = await ort.InferenceSession.create(ortSwigluModel(ortLayers.slice(0, 1), H, kind), opts);  // accuracy
}
log(`[bench] onnxruntime-web ${ort.env.versions.web}, wasm backend, simd, threads=${ort.env.wasm.numThreads}, ` +
    `models ${ORT_KINDS.join(', ')} (${N_LAYERS} chained layers each)`);
const xAll = W.HEAPF32.slice(W._bench_input() / 4, W._bench_input() / 4 + 64 * H);
const ortX = Object.fromEntries(TS.map((T) => [T, new ort.Tensor('float32', xAll.slice(0, T * H), [T, H])]));
const ortMs = async (kind, T) => {  // ms per layer: one run() streams all N_LAYERS layers
  const s = ortSessions[kind];
  await s.run({ x: ortX[T] });
  const t0 = performance.now();
  let n = 0, t1 = t0;
  while (n < 2 || t1 - t0 < MIN_MS) {
    await s.run({ x: ortX[T] });
    n++;
    t1 = performance.now();
  }
  return (t1 - t0) / n / N_LAYERS;
};
const ortError = async (kind, T) => {  // as bench_rel_error: layer 0, x's first T tokens
  const y = (await ortOne[kind].run({ x: ortX[T] })).y.data;
  const ref = W.HEAPF64.subarray(W._bench_reference_output(T) / 8, W._bench_reference_output(T) / 8 + T * H);
  let err = 0, ymax = 0;
  for (let i = 0; i < T * H; i++) {
    err = Math.max(err, Math.abs(y[i] - ref[i]));
    ymax = Math.max(ymax, Math.abs(ref[i]));
  }
  return err / ymax;
};

// [SECTION] rounds
// results[key][T][cache] = [ms per round]
const results = {};
const put = (key, T, cache, ms) => {
  results[key] ??= {};
  results[key][T] ??= { 0: [], 1: [] };
  results[key][T][cache].push(ms);
};
const floors = { wasm: [], native: [] };
const best = {};  // key -> [fastest single T=1 call of 30, per round]
const TFJS_KEY = 'tfjs-wasm f32 (XNNPACK)';
const ORT_KEY = { qdq: 'ort-web int8 qdq (DynamicQuantizeMatMul)', nbits: 'ort-web int8 MatMulNBits' };
const contenders = [{ kind: 'tfjs', key: TFJS_KEY }, ...ORT_KINDS.map((k) => ({ kind: 'ort', ort: k, key: ORT_KEY[k] }))];
for (const x of variants) {
  contenders.push({ kind: 'wasm', key: 'wasm ' + x.name, ...x });
  contenders.push({ kind: 'native', key: 'native ' + x.name, ...x });
}

// Warm-up, not recorded: tfjs compiles and allocates per shape on first use, wasm memory grows.
for (const T of TS) {
  tfMs(T);
  for (const k of ORT_KINDS) await ortMs(k, T);
  for (const x of variants) {
    if (x.scalar && T > 6) continue;
    W._bench_layer_ms(x.v, T, 0, 1, 0);
    await native(`layer ${x.nv} ${T} 0 1 0`);
  }
}

const loadBefore = os.loadavg()[0];
for (let r = 0; r < ROUNDS; r++) {
  floors.wasm.push(W._bench_bandwidth_gbs(3));
  floors.native.push(+(await native('bandwidth 3')));
  for (const T of TS) {
    for (const cache of [0, 1]) {
      for (const c of shuffle([...contenders])) {
        if ((c.kind === 'tfjs' || c.kind === 'ort') && cache) continue;  // peers: weights from memory only
        if (c.scalar && cache) continue;
        const minCalls = c.scalar && T > 6 ? 1 : 3, minMs = c.scalar && T > 6 ? 0 : MIN_MS;
        let ms;
        if (c.kind === 'tfjs') ms = tfMs(T);
        else if (c.kind === 'ort') ms = await ortMs(c.ort, T);
        else if (c.kind === 'wasm') ms = W._bench_layer_ms(c.v, T, cache, minCalls, minMs);
        else ms = +(await native(`layer ${c.nv} ${T} ${cache} ${minCalls} ${minMs}`));
        put(c.key, T, cache, ms);
        if (T === 1 && !cache && (c.kind === 'wasm' || c.kind === 'native') && !c.scalar) {
          best[c.key] ??= [];
          best[c.key].push(c.kind === 'wasm' ? W._bench_layer_best_ms(c.v, 1, 30) : +(await native(`best ${c.nv} 1 30`)));
        }
      }
    }
  }
  log(`[bench] round ${r + 1}/${ROUNDS} done`);
}

// [SECTION] elementwise share and accuracy (wasm)
const share = {};
for (const x of variants) {
  if (x.scalar) continue;
  share[x.name] = {};
  for (const T of TS) {
    share[x.name][T] = { swiglu: W._bench_elementwise_ms(x.v, T, 0), quant: W._bench_elementwise_ms(x.v, T, 1) };
  }
}
const errors = {};
for (const x of variants) errors[x.name] = { wasm: W._bench_rel_error(x.v, 6), native: +(await native(`error ${x.nv} 6`)) };
const ortErrors = {};
for (const k of ORT_KINDS) ortErrors[k] = await ortError(k, 6);
child.stdin.write('quit\n');

// [SECTION] report
const floorGBs = Math.max(median(floors.wasm), median(floors.native));
const floorMs = weightBytes / floorGBs / 1e6;
const perRound = (key, T, cache = 0) => results[key]?.[T]?.[cache] ?? [];
const ratioMed = (a, b) => median(a.map((v, i) => v / b[i]));  // within-round ratios
const fmt = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
const spread = (a, d = 3) => (a.length ? `${fmt(Math.min(...a), d)}-${fmt(Math.max(...a), d)}` : '-');
// The int8 peer of a round: the fastest of ORT's formulations in that round.
const ortRounds = (T) => perRound(ORT_KEY[ORT_KINDS[0]], T).map((v, i) => Math.min(...ORT_KINDS.map((k) => perRound(ORT_KEY[k], T)[i])));
const out = [];
out.push(`SwiGLU layer, hidden ${H}, intermediate ${I}; ${ROUNDS} rounds, median (min-max); ${N_LAYERS} int8 layers ` +
         `(${fmt(N_LAYERS * weightBytes / 1e6, 0)} MB) cycled; single thread; node ${process.version}; onnxruntime-web ${ort.env.versions.web}`);
out.push(`machine: ${os.cpus()[0]?.model ?? '?'}, ${os.cpus().length} cores; load average (1 min) ${fmt(loadBefore)} before, ` +
         `${fmt(os.loadavg()[0])} after the rounds (above ~1 someone else shares the cores: expect noise)`);
out.push(`memory floor (streaming read of 64 MiB, best of 3 passes per round): wasm ${fmt(median(floors.wasm))} GB/s ` +
         `(${spread(floors.wasm, 1)}), native ${fmt(median(floors.native))} GB/s (${spread(floors.native, 1)}) -> floor ` +
         `${fmt(floorGBs)} GB/s = ${fmt(floorMs, 3)} ms per int8 layer (${fmt(weightBytes / 1e6, 2)} MB)`);
out.push('');
out.push('| contender | T | ms/layer | min-max | GFLOP/s | GB/s weights | x ORT int8 | x tfjs f32 | wasm/native | cache-resident ms | % of floor | best call ms, % of floor |');
out.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const T of TS) {
  const tfjsRounds = perRound(TFJS_KEY, T), ortBest = ortRounds(T);
  for (const c of contenders) {
    const a = perRound(c.key, T);
    if (!a.length) continue;
    const ms = median(a);
    const wb = c.kind === 'tfjs' ? 3 * H * I * 4 : weightBytes;
    const vsOrt = c.kind === 'ort' ? NaN : ratioMed(ortBest, a);
    const vsTfjs = c.kind === 'tfjs' ? NaN : ratioMed(tfjsRounds, a);
    const vsNative = c.kind === 'wasm' ? ratioMed(a, perRound('native ' + c.name, T)) : NaN;
    const cacheMs = median(perRound(c.key, T, 1));
    const floorPct = T === 1 && c.kind !== 'tfjs' ? (100 * floorMs) / ms : NaN;
    const b = T === 1 && best[c.key] ? median(best[c.key]) : NaN;
    out.push(`| ${c.key} | ${T} | ${fmt(ms, 3)} | ${spread(a)} | ${fmt(flops(T) / ms / 1e6, 1)} | ${fmt(wb / ms / 1e6, 1)} | ` +
             `${fmt(vsOrt)} | ${fmt(vsTfjs)} | ${fmt(vsNative)} | ${fmt(cacheMs, 3)} | ${fmt(floorPct, 0)} | ` +
             `${Number.isFinite(b) ? fmt(b, 3) + ', ' + fmt((100 * floorMs) / b, 0) : '-'} |`);
  }
}
out.push('');
out.push('elementwise share of the wasm layer time (weights from memory): silu(g)*u [+ q16 activation quantization]');
for (const name of Object.keys(share)) {
  out.push(`  ${name}: ` + TS.map((T) => {
    const ms = median(perRound('wasm ' + name, T));
    const s = share[name][T];
    return `T=${T} ${fmt(100 * s.swiglu / ms)}%` + (s.quant ? ` [+${fmt(100 * s.quant / ms)}%]` : '');
  }).join(', '));
}
out.push('');
out.push('accuracy, T=6, layer 0, max abs err / max abs output vs double reference on the dequantized weights:');
for (const [name, e] of Object.entries(errors)) out.push(`  ${name}: wasm ${e.wasm.toExponential(2)}, native ${e.native.toExponential(2)}`);
for (const k of ORT_KINDS) out.push(`  ${ORT_KEY[k]}: ${ortErrors[k].toExponential(2)}`);

// [SECTION] aims: the q16 variant swiglu_layer_forward dispatches to in this module (timed once at
// the first call: swiglu_layer.cpp), with every round's figure so the spread is visible.
out.push('');
const defFor = (T) => W.UTF8ToString(W._bench_variant_name(W._bench_default_variant(1, T)));
out.push(`aims (single thread, weights from memory, ratios within a round; per-round figures in brackets), ` +
         `for the q16 variant swiglu_layer_forward picks in this module at each T:`);
for (const T of TS) {
  const def = variants.find((x) => x.name === defFor(T)) ?? variants.find((x) => x.name.includes('q16'));
  const a = perRound('wasm ' + def.name, T);
  if (T === 1) {
    const pcts = a.map((ms) => (100 * floorMs) / ms);
    const pct = median(pcts);
    out.push(`  ${def.name} T=1: ${fmt(pct, 0)}% of the memory floor (aim >= 90%) ${pct >= 90 ? 'MET' : 'NOT MET'} ` +
             `[${pcts.map((v) => fmt(v, 0)).join(' ')}]`);
    const bp = (best['wasm ' + def.name] ?? []).map((ms) => (100 * floorMs) / ms);
    out.push(`  ${def.name} T=1, fastest single call of 30 per round (as the floor is the best of its passes): ` +
             `${fmt(median(bp), 0)}% of the floor ${median(bp) >= 90 ? 'MET' : 'NOT MET'} [${bp.map((v) => fmt(v, 0)).join(' ')}]`);
  } else {
    const ortBest = ortRounds(T);
    const r = a.map((v, i) => ortBest[i] / v);
    const ratio = median(r);
    out.push(`  ${def.name} T=${T}: ${fmt(ratio)}x onnxruntime-web int8 (aim >= 1.3) ${ratio >= 1.3 ? 'MET' : 'NOT MET'} ` +
             `[${r.map((v) => fmt(v)).join(' ')}]`);
  }
}
console.log(out.join('\n'));
process.exit(0);
