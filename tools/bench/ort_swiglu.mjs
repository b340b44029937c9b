// The onnxruntime-web peer's model, written as ONNX protobuf bytes here (no binary in the
// repository): a chain of SwiGLU layers y = W_down (silu(W_gate x) * W_up x) on the benchmark's own
// int8 weights (q[n][k], one f32 scale per output row, as in the q8 format), f32 in and out.
// Two int8 formulations, both what an ONNX Runtime user would ship:
//   'qdq'   DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul(x scale) -> Mul(row scales): what
//           onnxruntime's quantize_dynamic(per_channel=True) writes for a MatMul; ORT's optimizer fuses
//           it into its DynamicQuantizeMatMul kernel (activations: uint8, one scale per tensor).
//   'nbits' com.microsoft MatMulNBits, bits 8, block 256 (the row's scale repeated per block),
//           accuracy_level 4: activations quantized to int8 per block of 256, int8 dot products.
// SiLU is x * Sigmoid(x) (ORT fuses it). Layers are chained (layer l reads layer l-1's output) so
// one run() streams every layer's weights once and the per-run JavaScript cost is shared by them.
// Used by tools/bench/run.mjs.

// [SECTION] protobuf writer (only what ONNX's ModelProto needs: varints, lengths, fixed32)
class Pb {
  constructor() { this.parts = []; this.n = 0; }
  raw(u8) { this.parts.push(u8); this.n += u8.length; return this; }
  varint(v) {
    let b = BigInt(v);
    if (b < 0n) b += 1n << 64n;
    const out = [];
    while (b >= 0x80n) { out.push(Number(b & 0x7fn) | 0x80); b >>= 7n; }
    out.push(Number(b));
    return this.raw(Uint8Array.from(out));
  }
  key(field, wire) { return this.varint((field << 3) | wire); }
  int(field, v) { return this.key(field, 0).varint(v); }
  bytes(field, u8) { return this.key(field, 2).varint(u8.length).raw(u8); }
  str(field, s) { return this.bytes(field, new TextEncoder().encode(s)); }
  msg(field, pb) { return this.bytes(field, pb.done()); }
  done() {
    const out = new Uint8Array(this.n);
    let o = 0;
    for (const p of this.parts) { out.set(p, o); o += p.length; }
    return out;
  }
}

// [SECTION] ONNX messages (field numbers from onnx.proto)
const ONNX_FLOAT = 1, ONNX_UINT8 = 2, ONNX_INT8 = 3;
const tensor = (name, dims, type, data) => {
  const t = new Pb();
  for (const d of dims) t.int(1, d);
  return t.int(2, type).str(8, name).bytes(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
};
const valueInfo = (name, type, dims) => {
  const shape = new Pb();
  for (const d of dims) shape.msg(1, typeof d === 'string' ? new Pb().str(2, d) : new Pb().int(1, d));
  return new Pb().str(1, name).msg(2, new Pb().msg(1, new Pb().int(1, type).msg(2, shape)));
};
const attrInt = (name, v) => new Pb().str(1, name).int(3, v).int(20, 2);  // AttributeProto.INT
const node = (op, inputs, outputs, { domain = '', attrs = [] } = {}) => {
  const n = new Pb();
  for (const i of inputs) n.str(1, i);
  for (const o of outputs) n.str(2, o);
  n.str(3, outputs[0] + '_' + op).str(4, op);
  for (const a of attrs) n.msg(5, a);
  if (domain) n.str(7, domain);
  return n;
};

// [SECTION] the model
// layers: [{gate, up, down}], each {q: Int8Array (rows, cols) row-major, scales: Float32Array(rows),
// rows, cols}; gate, up (inter, hidden), down (hidden, inter).
export function ortSwigluModel(layers, hidden, kind) {
  const g = new Pb();
  const inits = [];
  // y (T, rows) = x (T, cols) . W^T: the MatMul's B is W transposed, (cols, rows).
  const matmul = (x, m, name) => {
    const { q, scales, rows, cols } = m;
    if (kind === 'qdq') {
      const b = new Int8Array(rows * cols);
      for (let n = 0; n < rows; n++) for (let k = 0; k < cols; k++) b[k * rows + n] = q[n * cols + k];
      inits.push(tensor(name + '_B', [cols, rows], ONNX_INT8, b), tensor(name + '_scale', [rows], ONNX_FLOAT, scales));
      g.msg(1, node('DynamicQuantizeLinear', [x], [name + '_xq', name + '_xs', name + '_xz']));
      g.msg(1, node('MatMulInteger', [name + '_xq', name + '_B', name + '_xz'], [name + '_acc']));
      g.msg(1, node('Cast', [name + '_acc'], [name + '_accf'], { attrs: [attrInt('to', ONNX_FLOAT)] }));
      g.msg(1, node('Mul', [name + '_accf', name + '_xs'], [name + '_y0']));
      g.msg(1, node('Mul', [name + '_y0', name + '_scale'], [name]));
    } else if (kind === 'nbits') {
      const block = 256, nb = Math.ceil(cols / block);
      const b = new Uint8Array(rows * nb * block), s = new Float32Array(rows * nb);
      for (let n = 0; n < rows; n++) {
        for (let k = 0; k < nb * block; k++) b[n * nb * block + k] = (k < cols ? q[n * cols + k] : 0) + 128;  // zero point 128
        s.fill(scales[n], n * nb, (n + 1) * nb);
      }
      inits.push(tensor(name + '_B', [rows, nb, block], ONNX_UINT8, b), tensor(name + '_scale', [rows * nb], ONNX_FLOAT, s));
      g.msg(1, node('MatMulNBits', [x, name + '_B', name + '_scale'], [name], {
        domain: 'com.microsoft',
        attrs: [attrInt('K', cols), attrInt('N', rows), attrInt('bits', 8), attrInt('block_size', block), attrInt('accuracy_level', 4)],
      }));
    } else {
      throw new Error('unknown ORT model kind ' + kind);
    }
  };
  let x = 'x';
  layers.forEach((L, l) => {
    const p = 'l' + l + '_';
    matmul(x, L.gate, p + 'gate');
    matmul(x, L.up, p + 'up');
    g.msg(1, node('Sigmoid', [p + 'gate'], [p + 'sig']));
    g.msg(1, node('Mul', [p + 'gate', p + 'sig'], [p + 'silu']));
    g.msg(1, node('Mul', [p + 'silu', p + 'up'], [p + 'h']));
    matmul(p + 'h', L.down, l === layers.length - 1 ? 'y' : p + 'y');
    x = p + 'y';
  });
  g.str(2, 'swiglu_chain');
  for (const t of inits) g.msg(5, t);
  g.msg(11, valueInfo('x', ONNX_FLOAT, ['T', hidden]));
  g.msg(12, valueInfo('y', ONNX_FLOAT, ['T', hidden]));
  return new Pb()
    .int(1, 8)                                            // ir_version
    .msg(8, new Pb().str(1, '').int(2, 17))               // opset ai.onnx 17
    .msg(8, new Pb().str(1, 'com.microsoft').int(2, 1))
    .str(2, 'swiglu-lab tools/bench')
    .msg(7, g)
    .done();
}
