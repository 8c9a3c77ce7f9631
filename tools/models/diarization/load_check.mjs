// Loads both test models the way the app does, through transformers.js, from a local model
// folder (hub layout; `node tools/models/stage.mjs` builds .models/), and prints output dims:
// expected [1, 589, 7] for 10 s of audio and [1, 256] for 3 s of features.
// usage: node tools/models/diarization/load_check.mjs [.models] [segmentation id] [embedding id]
// (the ids default to murmur-test/segmentation-synth and murmur-test/embedding-synth)
import path from 'node:path';
import {
  env,
  AutoModel,
  AutoFeatureExtractor,
  AutoModelForAudioFrameClassification,
  AutoProcessor,
} from '@huggingface/transformers';

const root = path.resolve(process.argv[2] || '.models');
const segId = process.argv[3] || 'murmur-test/segmentation-synth';
const embId = process.argv[4] || 'murmur-test/embedding-synth';
env.localModelPath = root + '/';
env.allowRemoteModels = false;

const audio = new Float32Array(16000 * 10).map(
  (_, i) => 0.1 * Math.sin(i * 0.05) * Math.sin(i * 0.0009),
);

const seg = await AutoModelForAudioFrameClassification.from_pretrained(segId, {
  dtype: 'fp32',
});
const processor = await AutoProcessor.from_pretrained(segId);
const { logits } = await seg(await processor(audio));
console.log(`segmentation ${seg.constructor.name}: 10 s -> logits [${logits.dims}]`);
const segments = processor.post_process_speaker_diarization(logits, audio.length)[0];
console.log(`  post_process_speaker_diarization: ${segments.length} segment(s)`);

const emb = await AutoModel.from_pretrained(embId, { dtype: 'fp32' });
const extractor = await AutoFeatureExtractor.from_pretrained(embId);
const feats = await extractor(audio.subarray(0, 16000 * 3));
const { embeddings } = await emb(feats);
console.log(
  `embedding ${emb.constructor.name}: 3 s -> input_features [${feats.input_features.dims}] -> embeddings [${embeddings.dims}]`,
);
const ok =
  JSON.stringify(logits.dims) === '[1,589,7]' &&
  embeddings.dims[0] === 1 &&
  embeddings.dims[1] === 256;
console.log(ok ? 'both load and give the expected dims' : 'UNEXPECTED DIMS');
process.exit(ok ? 0 : 1);
