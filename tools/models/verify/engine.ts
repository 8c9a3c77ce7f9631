/**
 * Runs Murmur's own engine (media stage, VAD, its decoding loop) on the ASR windows of the
 * held-out set, and writes results in the shape transcribe.mjs writes for transformers.js'
 * pipeline, so that eval.py scores both the same way.
 * usage: tsx tools/models/verify/engine.ts <models root> <model id> <list.json> <out.jsonl>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { LanguageCode } from '../../../src/core/contract/languages';
import { requestWithDefaults } from '../../../src/core/contract/request';
import { runPipeline } from '../../../src/engine/pipeline';
import { testEnginePorts } from '../../testing/ffmpeg-fixtures';
import { diskFile, type DiskFile } from '../../../src/hosts/node';

const [root, modelId, listPath, outPath] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const list = JSON.parse(readFileSync(listPath, 'utf8')) as {
  asr: { id: string; wav: string; language: LanguageCode }[];
};
const ports = testEnginePorts({ models: root, model: modelId });
const lines: string[] = [];
for (const item of list.asr) {
  const file = (await diskFile(item.wav)) as DiskFile;
  const started = performance.now();
  const response = await runPipeline(
    requestWithDefaults<DiskFile>(
      'audio',
      { kind: 'file', file },
      { language_behaviour: 'manual', language: item.language },
    ),
    ports,
  );
  const ms = performance.now() - started;
  const segments = response.prediction_raw.transcription;
  const text = segments.map((s) => s.transcription).join('');
  lines.push(
    JSON.stringify({
      id: item.id,
      text: { text },
      segments: {
        text,
        chunks: segments.map((s) => ({
          timestamp: [s.time_begin, s.time_end],
          text: s.transcription,
        })),
      },
      words: {
        text,
        chunks: segments.flatMap((s) =>
          s.words.map((w) => ({ timestamp: [w.time_begin, w.time_end], text: w.word })),
        ),
      },
      text_ms: ms,
    }),
  );
}
writeFileSync(outPath, lines.join('\n') + '\n');
