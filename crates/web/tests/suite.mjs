// PuzzleScript's regression suite on the WebAssembly engine, under Node: the module that the
// exported pages run (target/web/tessera_web.wasm, from crates/web/build.sh) runs every case of
// testdata.js as `tessera puzzlescript test` does, and prints the count and the time.
//
//   node crates/web/tests/suite.mjs [SUITE] [WASM] [ROUNDS]
//
// SUITE defaults to ../shared/benchmarks/puzzlescript/reference/tests/resources/testdata.js.
// Exits 1 when a case fails.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const suite = process.argv[2] || path.join(root, '../shared/benchmarks/puzzlescript/reference/tests/resources/testdata.js');
const wasm = process.argv[3] || path.join(root, 'target/web/tessera_web.wasm');
const rounds = Number(process.argv[4] || 1);
const t0 = performance.now();
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasm), {});
const ex = instance.exports;
const loaded = performance.now();
const text = new TextEncoder().encode(fs.readFileSync(suite, 'utf8'));
const times = [];
let result;
for (let r = 0; r < rounds; r++) {
  const p = ex.tessera_alloc(text.length);
  new Uint8Array(ex.memory.buffer).set(text, p);
  const t = performance.now();
  ex.tessera_suite(p, text.length);
  times.push((performance.now() - t) / 1000);
  const out = new Uint8Array(ex.memory.buffer, ex.tessera_out_ptr(), ex.tessera_out_len());
  result = JSON.parse(new TextDecoder().decode(out));
}
if (result.error) {
  console.error(result.error);
  process.exit(2);
}
times.sort((a, b) => a - b);
const total = result.passed + result.failed.length;
console.log(`${result.passed} passed, ${result.failed.length} failed (of ${total}) on the WebAssembly engine`);
console.log(`suite: median ${times[times.length >> 1].toFixed(2)} s of ${rounds} round(s) (min ${times[0].toFixed(2)} s); module compiled in ${(loaded - t0).toFixed(0)} ms`);
for (const f of result.failed) console.log('FAILED ' + f);
process.exit(result.failed.length ? 1 : 0);
