/**
 * A man and a woman taking turns, as any listener tells apart: a low male espeak-ng voice (m3,
 * pitch 35, speed 150) and a high female one (f5, pitch 90, speed 175), ten turns, through the
 * CLI binary with the test models. Each voice's turns must come back under one label of its
 * own, with the count given and without it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpeakerTurn } from '../../core/evaluation/rttm';
import { conversation, writeConversationWav } from '../../../tools/testing/conversation';
import {
  responseOf,
  responseTurns,
  speakersOf,
  STAGED_DIARIZATION_MODELS as MODELS,
  transcribeWithSpeakers,
} from '../../../tools/testing/diarization-cli';
import { scratchDir } from '../../../tools/testing/speech';

const RUN_TIMEOUT = 240_000;
/** Seconds left out at each end of a turn: where a change of speaker is placed is judged elsewhere. */
const EDGE = 0.25;

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Seconds of each found label within [from, to). */
function labelsIn(turns: readonly SpeakerTurn[], from: number, to: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of turns) {
    const overlap = Math.min(to, t.end) - Math.max(from, t.start);
    if (overlap > 0) out.set(t.speaker, (out.get(t.speaker) ?? 0) + overlap);
  }
  return out;
}

describe('murmur transcribe: a man and a woman taking turns', () => {
  for (const seed of [1, 2]) {
    const spoken = conversation({
      speakers: 2,
      turns: 10,
      seed,
      voices: [
        { variant: 'm3', pitch: 35, speed: 150 },
        { variant: 'f5', pitch: 90, speed: 175 },
      ],
    });
    const path = writeConversationWav(join(dir, `man-woman-${seed}.wav`), spoken);

    for (const numSpeakers of [2, undefined]) {
      it(
        `conversation ${seed}, ${numSpeakers === undefined ? 'no count' : 'two asked for'}: two speakers, each voice's turns under its own label`,
        async () => {
          const run = await transcribeWithSpeakers(path, {
            ...MODELS,
            ...(numSpeakers === undefined ? {} : { numSpeakers }),
          });
          const response = responseOf(run);
          expect(speakersOf(response).size).toBe(2);
          const found = responseTurns(response);
          const labelOf = new Map<string, string>();
          for (const turn of spoken.turns) {
            const heard = labelsIn(found, turn.start + EDGE, turn.end - EDGE);
            const [label, seconds] = [...heard.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
            const where = `${turn.speaker} at ${turn.start.toFixed(1)} s`;
            expect(label, where).toBeDefined();
            expect(seconds!, where).toBeGreaterThan((2 / 3) * (turn.end - turn.start - 2 * EDGE));
            expect(labelOf.get(turn.speaker) ?? label, where).toBe(label);
            labelOf.set(turn.speaker, label!);
          }
          expect(new Set(labelOf.values()).size).toBe(2);
        },
        RUN_TIMEOUT,
      );
    }
  }
});
