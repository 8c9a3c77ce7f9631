/**
 * Speaker diarization through `murmur serve` with the test models given on its command line,
 * on a generated conversation whose turns are known.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../core/contract/endpoints';
import type { TranscriptionResponse } from '../../core/contract/response';
import { diarizationError } from '../../core/evaluation/der';
import { conversation, writeConversationWav } from '../../../tools/testing/conversation';
import {
  responseTurns,
  speakersOf,
  TEST_DIARIZATION_MODELS,
} from '../../../tools/testing/diarization-cli';
import { scratchDir } from '../../../tools/testing/speech';
import { curl } from '../../../tools/testing/server/curl';
import { startServe } from '../../../tools/testing/server/serve-process';

const COLLAR = 0.25;
const RUN_TIMEOUT = 240_000;

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('murmur serve with toggle_diarization', () => {
  it(
    'labels the speakers of a two-person conversation with the models given on its command line',
    async () => {
      const talk = conversation({ speakers: 2, turns: 6, overlapShare: 0, seed: 31 });
      const path = writeConversationWav(join(dir, 'served.wav'), talk);
      const server = await startServe([
        '--no-auth',
        '--segmentation-model',
        TEST_DIARIZATION_MODELS.segmentationModel,
        '--embedding-model',
        TEST_DIARIZATION_MODELS.embeddingModel,
      ]);
      try {
        const answer = await curl([
          '-F',
          `audio=@${path}`,
          '-F',
          'toggle_diarization=true',
          '-F',
          'diarization_num_speakers=2',
          `${server.url}${ENDPOINTS.audio.path}`,
        ]);
        expect(answer.status).toBe(200);
        const response = answer.json() as unknown as TranscriptionResponse;
        expect([...speakersOf(response)].sort()).toEqual(['speaker_0', 'speaker_1']);
        const e = diarizationError(talk.turns, responseTurns(response), { collar: COLLAR });
        expect(e.der).toBeLessThanOrEqual(0.15);
        expect(response.prediction_raw.metadata.diarization_time).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    },
    RUN_TIMEOUT,
  );
});
