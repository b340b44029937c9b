// A safetensors file's header, read from disk without the tensors (8-byte little-endian length,
// then that many bytes of JSON): for the benchmarks, which need where each tensor lies.
import fs from "node:fs";

// { head: bytes before the first tensor (8 + the JSON's length), tensors: the parsed JSON }.
export function readSafetensorsHeader(file) {
  const fd = fs.openSync(file, "r");
  try {
    const len = Buffer.alloc(8);
    fs.readSync(fd, len, 0, 8, 0);
    const n = Number(len.readBigUInt64LE(0));
    const json = Buffer.alloc(n);
    fs.readSync(fd, json, 0, n, 8);
    return { head: 8 + n, tensors: JSON.parse(json.toString()) };
  } finally {
    fs.closeSync(fd);
  }
}
