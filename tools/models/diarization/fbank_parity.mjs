// Compares transformers.js' WeSpeakerFeatureExtractor (configured by
// tools/models/embedding-synth/preprocessor_config.json) with the numpy features of fbank.py
// written by fbank_parity.py; prints the largest absolute difference of the log-mel values.
// usage: node tools/models/diarization/fbank_parity.mjs <parity.json>
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AutoFeatureExtractor } from '@huggingface/transformers';

const here = path.dirname(fileURLToPath(import.meta.url));
const folder = path.join(here, '..', 'embedding-synth');
const input = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const extractor = await AutoFeatureExtractor.from_pretrained(folder, { local_files_only: true });
console.log('extractor:', extractor.constructor.name);
let worst = 0;
for (let c = 0; c < input.clips.length; ++c) {
  const { input_features } = await extractor(new Float32Array(input.clips[c]));
  const ref = input.features[c];
  const [, frames, bins] = input_features.dims;
  if (frames !== ref.length || bins !== ref[0].length) {
    throw new Error(
      `clip ${c}: dims ${input_features.dims} vs numpy [${ref.length}, ${ref[0].length}]`,
    );
  }
  let d = 0;
  for (let i = 0; i < frames; ++i)
    for (let j = 0; j < bins; ++j)
      d = Math.max(d, Math.abs(input_features.data[i * bins + j] - ref[i][j]));
  console.log(
    `clip ${c}: ${input.clips[c].length} samples, dims [${input_features.dims}], max abs diff ${d.toExponential(3)}`,
  );
  worst = Math.max(worst, d);
}
console.log(
  `max abs diff over all clips: ${worst.toExponential(3)} (${worst < 1e-2 ? 'ok' : 'FAIL'})`,
);
process.exit(worst < 1e-2 ? 0 : 1);
