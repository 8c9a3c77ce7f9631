import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../../core/contract/response';
import {
  scratchDir,
  sentence,
  spokenFile,
  type SpokenFile,
} from '../../../../tools/testing/speech';
import { wordErrorRate } from '../../../../tools/testing/wer';
import { mediaRequest, testEnginePorts } from '../../../../tools/testing/ffmpeg-fixtures';
import { diskFile } from '../../../hosts/node/media-file';
import { runPipeline } from '../../pipeline';
import type { LoadedWhisper } from '../../ports';

/**
 * Windows decoded together (`batchWindows`) through the whole pipeline with the test model.
 * Their tokens cannot all be the ones of one-at-a-time decoding: one at a time, each window
 * starts where the last one's segments ended and is shown that window's text; in a batch,
 * windows are cut where the speech pauses before any is decoded, and none is shown earlier
 * text. What each window of a batch says is the same as alone (decode-batch.test.ts); here
 * both ways are held to the pipeline's word error (15%, tools/models/MODEL_CARD.md).
 */
let file: SpokenFile;
const MAX_WORD_ERROR = 0.15;

beforeAll(() => {
  // About 100 s: 14 sentences with pauses, several windows.
  const parts = Array.from({ length: 14 }, (_, i) => ({
    language: 'en' as const,
    text: sentence('en', 7100 + i, 9 + (i % 6)),
  }));
  file = spokenFile(scratchDir(), 'batched', parts, 1);
});

/** Every decoder call, as the number of windows it decoded at once. */
function counted(model: LoadedWhisper, calls: number[]): LoadedWhisper {
  return {
    ...model,
    step: (encoded, tokens, past) => {
      calls.push(1);
      return model.step(encoded, tokens, past);
    },
    stepBatch: (encoded, tokens, past) => {
      calls.push(tokens.length);
      return model.stepBatch(encoded, tokens, past);
    },
  };
}

async function transcribe(batchWindows: number) {
  const ports = testEnginePorts();
  const model = await ports.recogniser({});
  const calls: number[] = [];
  const firstSegmentCalls: number[] = [];
  const response: TranscriptionResponse = await runPipeline(
    mediaRequest(
      { kind: 'file', file: (await diskFile(file.path))! },
      { language_behaviour: 'manual', language: 'en' },
    ),
    { ...ports, recogniser: async () => counted(model, calls) },
    {
      settings: { recognition: { batchWindows: batchWindows } },
      onSegment: () => void (firstSegmentCalls.length === 0 && firstSegmentCalls.push(...calls)),
    },
  );
  const text = response.prediction_raw.transcription.map((s) => s.transcription).join(' ');
  return { calls, firstSegmentCalls, error: wordErrorRate(file.text, text), response };
}

describe('windows of speech decoded together', () => {
  it('transcribe a recording of several windows within the word error of one at a time', async () => {
    const one = await transcribe(1);
    const four = await transcribe(4);
    // One at a time: no batch at all.
    expect(one.calls.every((rows) => rows === 1)).toBe(true);
    // Four: batches of more than one window, no more than four.
    expect(Math.max(...four.calls)).toBeGreaterThan(1);
    expect(Math.max(...four.calls)).toBeLessThanOrEqual(4);
    // Fewer decoder calls for about the same tokens.
    expect(four.calls.length).toBeLessThan(one.calls.length * 0.75);
    expect(one.error).toBeLessThanOrEqual(MAX_WORD_ERROR);
    expect(four.error).toBeLessThanOrEqual(MAX_WORD_ERROR);
    // The same stretch of the file is transcribed.
    const span = (r: TranscriptionResponse) => {
      const segments = r.prediction_raw.transcription;
      return [segments[0]!.time_begin, segments.at(-1)!.time_end];
    };
    const [start1, end1] = span(one.response);
    const [start4, end4] = span(four.response);
    expect(Math.abs(start4! - start1!)).toBeLessThan(1);
    expect(Math.abs(end4! - end1!)).toBeLessThan(2);
  });

  it('decode the first window alone, so that its words come as soon as one at a time', async () => {
    const four = await transcribe(4);
    // Up to the first segment: one window's decode, row by row.
    expect(four.firstSegmentCalls.length).toBeGreaterThan(0);
    expect(four.firstSegmentCalls.every((rows) => rows === 1)).toBe(true);
  });
});
