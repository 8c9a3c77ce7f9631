// Prints transformers.js' Whisper features and tokenizer ids for inputs written by
// tools/models/verify/compare.py, so that the torch side can be checked against them.
// usage: node features.mjs <model folder with preprocessor_config.json and tokenizer files> <in.json> <out.json>
import fs from 'node:fs';
import { AutoProcessor, AutoTokenizer } from '@huggingface/transformers';

const [folder, inPath, outPath] = process.argv.slice(2);
const input = JSON.parse(fs.readFileSync(inPath, 'utf8'));
const processor = await AutoProcessor.from_pretrained(folder, { local_files_only: true });
const tokenizer = await AutoTokenizer.from_pretrained(folder, { local_files_only: true });
const out = { features: [], tokens: [] };
for (const a of input.audio) {
  const { input_features } = await processor(new Float32Array(a));
  out.features.push({ dims: input_features.dims, data: Array.from(input_features.data) });
}
for (const t of input.texts) {
  out.tokens.push(tokenizer.encode(t, { add_special_tokens: false }));
}
fs.writeFileSync(outPath, JSON.stringify(out));
