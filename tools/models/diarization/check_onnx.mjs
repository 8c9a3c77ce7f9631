// Runs the exported models in onnxruntime-node on the inputs export.py wrote and compares with
// the torch outputs (largest absolute difference must be below 1e-4).
// usage: node tools/models/diarization/check_onnx.mjs [.cache/diar/onnx-check.json]
import fs from 'node:fs';
import * as ort from 'onnxruntime-node';

const file = process.argv[2] || '.cache/diar/onnx-check.json';
const check = JSON.parse(fs.readFileSync(file, 'utf8'));
let ok = true;
for (const [name, inName, outName] of [
  ['segmentation', 'input_values', 'logits'],
  ['embedding', 'input_features', 'embeddings'],
]) {
  const { path, cases } = check[name];
  const session = await ort.InferenceSession.create(path);
  console.log(`${name}: inputs ${session.inputNames}, outputs ${session.outputNames}`);
  for (const [x, y] of cases) {
    const feeds = { [inName]: new ort.Tensor('float32', Float32Array.from(x.data), x.dims) };
    const out = (await session.run(feeds))[outName];
    let d = 0;
    for (let i = 0; i < y.data.length; ++i) d = Math.max(d, Math.abs(out.data[i] - y.data[i]));
    const same = JSON.stringify(out.dims) === JSON.stringify(y.dims);
    console.log(
      `  in [${x.dims}] -> out [${out.dims}] (torch [${y.dims}]), max abs diff ${d.toExponential(3)}`,
    );
    if (!same || !(d < 1e-4)) ok = false;
  }
}
console.log(ok ? 'onnxruntime matches torch' : 'MISMATCH');
process.exit(ok ? 0 : 1);
