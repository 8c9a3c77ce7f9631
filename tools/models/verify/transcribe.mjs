// Runs a staged Whisper-architecture model through transformers.js on a list of WAV files.
// usage: node transcribe.mjs <models root> <model id> <dtype> <list.json> <out.jsonl>
// list.json: { "asr": [{ "id", "wav", "language" }], "langid": [{ "id", "wav" }] }
// For each asr item: the pipeline's output with return_timestamps false, true and 'word'.
// For each langid item: the decoder's logits after <|startoftranscript|> (top token and the
// best language token).
import fs from 'node:fs';
import {
  env,
  pipeline,
  AutoProcessor,
  AutoModelForSpeechSeq2Seq,
  AutoTokenizer,
  Tensor,
} from '@huggingface/transformers';

const [root, modelId, dtype, listPath, outPath] = process.argv.slice(2);
env.localModelPath = root.endsWith('/') ? root : root + '/';
env.allowRemoteModels = false;
env.allowLocalModels = true;

function readWav(p) {
  const b = fs.readFileSync(p);
  let off = 12;
  let fmt = null;
  while (off + 8 <= b.length) {
    const id = b.toString('ascii', off, off + 4);
    const size = b.readUInt32LE(off + 4);
    if (id === 'fmt ') fmt = { ch: b.readUInt16LE(off + 10), rate: b.readUInt32LE(off + 12) };
    if (id === 'data') {
      const n = size / 2 / fmt.ch;
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = b.readInt16LE(off + 8 + i * 2 * fmt.ch) / 32768;
      return out;
    }
    off += 8 + size + (size % 2);
  }
  throw new Error('no data chunk in ' + p);
}

const list = JSON.parse(fs.readFileSync(listPath, 'utf8'));
const out = fs.createWriteStream(outPath);
const asr = await pipeline('automatic-speech-recognition', modelId, { dtype });
for (const item of list.asr ?? []) {
  const audio = readWav(item.wav);
  const res = { id: item.id };
  for (const [key, rt] of [
    ['text', false],
    ['segments', true],
    ['words', 'word'],
  ]) {
    const t = performance.now();
    try {
      res[key] = await asr(audio, {
        language: item.language,
        task: 'transcribe',
        return_timestamps: rt,
      });
    } catch (e) {
      res[key] = { error: String(e) };
    }
    res[key + '_ms'] = performance.now() - t;
  }
  out.write(JSON.stringify(res) + '\n');
}
if (list.langid?.length) {
  const processor = await AutoProcessor.from_pretrained(modelId);
  const tokenizer = await AutoTokenizer.from_pretrained(modelId);
  const model = await AutoModelForSpeechSeq2Seq.from_pretrained(modelId, { dtype });
  const gen = model.generation_config;
  const langIds = new Map(Object.entries(gen.lang_to_id).map(([k, v]) => [v, k.slice(2, -2)]));
  for (const item of list.langid) {
    const { input_features } = await processor(readWav(item.wav));
    const decoder_input_ids = new Tensor(
      'int64',
      BigInt64Array.from([BigInt(gen.decoder_start_token_id)]),
      [1, 1],
    );
    const o = await model({ input_features, decoder_input_ids });
    const logits = o.logits.data;
    const V = o.logits.dims.at(-1);
    const last = logits.subarray(logits.length - V);
    let top = 0;
    for (let i = 1; i < V; i++) if (last[i] > last[top]) top = i;
    let bestLang = null;
    for (const [id, code] of langIds)
      if (bestLang === null || last[id] > last[bestLang[0]]) bestLang = [id, code];
    out.write(
      JSON.stringify({
        id: item.id,
        top: tokenizer.decode([top]),
        top_id: top,
        lang: bestLang[1],
      }) + '\n',
    );
  }
}
out.end();
