#!/usr/bin/env node
// Builds the local model folder `.models/` (hub layout, served by the local model host):
//   .models/murmur-test/whisper-synth/   <- tools/models/whisper-synth/** + the Whisper tokenizer files
//   .models/murmur-test/m2m100-synth/    <- tools/models/m2m100-synth/** (the translation test model,
//                                           its own tokenizer included)
//   .models/murmur-test/segmentation-synth/ <- tools/models/segmentation-synth/** (speaker
//                                           segmentation test model, pyannote 3.0 layout)
//   .models/murmur-test/embedding-synth/ <- tools/models/embedding-synth/** (speaker embedding
//                                           test model, WeSpeaker ResNet34 layout)
//   .models/murmur-test/emotion-synth/   <- tools/models/emotion-synth/** (emotion test model,
//                                           wav2vec2 sequence-classification layout)
//   .models/murmur-test/silero-vad/      <- Silero VAD v5 as onnx/model.onnx (and the same under
//   .models/onnx-community/silero-vad/, its production id)
// The tokenizer files and the VAD weights are read from the shared folder (<repo>/../shared,
// or the folder named by MURMUR_SHARED); they are not part of the repository.
// usage: node tools/models/stage.mjs [--out <folder>]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const shared = path.resolve(process.env.MURMUR_SHARED || path.join(repo, '..', 'shared'));
const outArg = process.argv.indexOf('--out');
const out = path.resolve(outArg > 0 ? process.argv[outArg + 1] : path.join(repo, '.models'));

export const TOKENIZER_FILES = [
  'tokenizer.json',
  'tokenizer_config.json',
  'vocab.json',
  'merges.txt',
  'added_tokens.json',
  'special_tokens_map.json',
  'normalizer.json',
];

function copy(src, dst) {
  if (!fs.existsSync(src)) throw new Error(`missing ${src}`);
  fs.mkdirSync(path.dirname(dst), { recursive: true });
  const s = fs.statSync(src);
  if (fs.existsSync(dst)) {
    const d = fs.statSync(dst);
    if (d.size === s.size && d.mtimeMs >= s.mtimeMs) return false;
  }
  fs.copyFileSync(src, dst);
  return true;
}

function copyTree(src, dst) {
  let n = 0;
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    const s = path.join(src, entry.name);
    const d = path.join(dst, entry.name);
    if (entry.isDirectory()) n += copyTree(s, d);
    else if (entry.isFile()) n += copy(s, d) ? 1 : 0;
  }
  return n;
}

export function stageTestModels(target = out) {
  const model = path.join(target, 'murmur-test', 'whisper-synth');
  let n = copyTree(path.join(here, 'whisper-synth'), model);
  const tok = path.join(shared, 'models', 'whisper-tokenizer');
  for (const f of TOKENIZER_FILES) n += copy(path.join(tok, f), path.join(model, f)) ? 1 : 0;
  const translation = path.join(target, 'murmur-test', 'm2m100-synth');
  n += copyTree(path.join(here, 'm2m100-synth'), translation);
  const segmentation = path.join(target, 'murmur-test', 'segmentation-synth');
  n += copyTree(path.join(here, 'segmentation-synth'), segmentation);
  const embedding = path.join(target, 'murmur-test', 'embedding-synth');
  n += copyTree(path.join(here, 'embedding-synth'), embedding);
  const emotion = path.join(target, 'murmur-test', 'emotion-synth');
  n += copyTree(path.join(here, 'emotion-synth'), emotion);
  // The real Silero VAD, under the test id and under its production id, so that a host
  // pointed at this folder finds it where it finds it on the hub.
  const vad = path.join(target, 'murmur-test', 'silero-vad');
  for (const folder of [vad, path.join(target, 'onnx-community', 'silero-vad')]) {
    n += copy(
      path.join(shared, 'models', 'silero-vad', 'silero_vad.onnx'),
      path.join(folder, 'onnx', 'model.onnx'),
    )
      ? 1
      : 0;
    n += copy(path.join(shared, 'models', 'silero-vad', 'LICENSE'), path.join(folder, 'LICENSE'))
      ? 1
      : 0;
  }
  return { model, translation, segmentation, embedding, emotion, vad, copied: n };
}

// Copies the tokenizer files into a generated model folder (used by make-bench-models.py).
export function addTokenizer(folder) {
  const tok = path.join(shared, 'models', 'whisper-tokenizer');
  for (const f of TOKENIZER_FILES) copy(path.join(tok, f), path.join(folder, f));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tokOnly = process.argv.indexOf('--tokenizer-into');
  if (tokOnly > 0) {
    addTokenizer(path.resolve(process.argv[tokOnly + 1]));
  } else {
    const r = stageTestModels();
    console.log(
      `staged ${r.model}, ${r.translation}, ${r.segmentation}, ${r.embedding}, ${r.emotion} and ${r.vad} (${r.copied} files copied) from ${shared}`,
    );
  }
}
