// Checks that an exported Whisper folder has the ONNX inputs/outputs transformers.js uses,
// and runs one no-past and one with-past decoder step.
// usage: node onnx-io.mjs <model folder> [suffix ('' or '_quantized')] [parity.json]
// parity.json (optional, from tools/models/verify/parity.py): features and the torch logits to compare.
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';

const [folder, suffix = '', parityPath] = process.argv.slice(2);
const cfg = JSON.parse(fs.readFileSync(path.join(folder, 'config.json'), 'utf8'));
const L = cfg.decoder_layers;
const H = cfg.decoder_attention_heads;
const dh = cfg.d_model / H;
const S = cfg.max_source_positions;

const enc = await ort.InferenceSession.create(
  path.join(folder, 'onnx', `encoder_model${suffix}.onnx`),
);
const dec = await ort.InferenceSession.create(
  path.join(folder, 'onnx', `decoder_model_merged${suffix}.onnx`),
);
const kv = (p) =>
  Array.from({ length: L }, (_, i) =>
    ['decoder.key', 'decoder.value', 'encoder.key', 'encoder.value'].map((k) => `${p}.${i}.${k}`),
  ).flat();
const want = {
  encIn: ['input_features'],
  encOut: ['last_hidden_state'],
  decIn: ['input_ids', 'encoder_hidden_states', ...kv('past_key_values'), 'use_cache_branch'],
  decOut: [
    'logits',
    ...kv('present'),
    ...Array.from({ length: L }, (_, i) => `cross_attentions.${i}`),
  ],
};
const same = (a, b) => a.length === b.length && a.every((x) => b.includes(x));
const problems = [];
if (!same(enc.inputNames, want.encIn)) problems.push(`encoder inputs ${enc.inputNames}`);
if (!same(enc.outputNames, want.encOut)) problems.push(`encoder outputs ${enc.outputNames}`);
if (!same(dec.inputNames, want.decIn)) problems.push(`decoder inputs ${dec.inputNames}`);
if (!same(dec.outputNames, want.decOut)) problems.push(`decoder outputs ${dec.outputNames}`);

let features;
let parity = null;
if (parityPath) {
  parity = JSON.parse(fs.readFileSync(parityPath, 'utf8'));
  features = Float32Array.from(parity.features);
} else {
  features = new Float32Array(cfg.num_mel_bins * 2 * S).map(() => Math.random() * 2 - 1);
}
const { last_hidden_state } = await enc.run({
  input_features: new ort.Tensor('float32', features, [1, cfg.num_mel_bins, 2 * S]),
});
if (last_hidden_state.dims.join() !== [1, S, cfg.d_model].join())
  problems.push(`encoder output dims ${last_hidden_state.dims}`);
const prompt = [50258n, 50259n, 50359n];
const feeds = {
  input_ids: new ort.Tensor('int64', BigInt64Array.from(prompt), [1, prompt.length]),
  encoder_hidden_states: last_hidden_state,
  use_cache_branch: new ort.Tensor('bool', [false], [1]),
};
for (const n of kv('past_key_values'))
  feeds[n] = new ort.Tensor('float32', new Float32Array(0), [1, H, 0, dh]);
const t0 = performance.now();
const first = await dec.run(feeds);
const t1 = performance.now();
if (first.logits.dims.join() !== [1, 3, cfg.vocab_size].join())
  problems.push(`logits dims ${first.logits.dims}`);
for (let i = 0; i < L; i++) {
  const c = first[`cross_attentions.${i}`];
  if (c.dims.join() !== [1, H, 3, S].join()) problems.push(`cross_attentions.${i} dims ${c.dims}`);
}
const feeds2 = {
  input_ids: new ort.Tensor('int64', BigInt64Array.from([50364n]), [1, 1]),
  encoder_hidden_states: last_hidden_state,
  use_cache_branch: new ort.Tensor('bool', [true], [1]),
};
for (const n of kv('past_key_values')) feeds2[n] = first[n.replace('past_key_values', 'present')];
const t2 = performance.now();
const second = await dec.run(feeds2);
const t3 = performance.now();
if (second['present.0.decoder.key'].dims[2] !== 4)
  problems.push(`present length ${second['present.0.decoder.key'].dims}`);
const V = cfg.vocab_size;
const maxdiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);
let report = {
  folder,
  suffix,
  problems,
  encoder_ms: null,
  first_step_ms: t1 - t0,
  next_step_ms: t3 - t2,
};
if (parity) {
  report.first_logits_maxdiff = maxdiff(
    first.logits.data.subarray(2 * V, 3 * V),
    parity.logits_first,
  );
  report.next_logits_maxdiff = maxdiff(second.logits.data.subarray(0, V), parity.logits_next);
  report.logit_scale = Math.max(...parity.logits_first.map(Math.abs));
}
console.log(JSON.stringify(report));
process.exit(problems.length ? 1 : 0);
