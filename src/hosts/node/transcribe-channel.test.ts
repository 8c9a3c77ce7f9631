import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDir, sentence, spokenFile } from '../../../tools/testing/speech';
import type { LanguageBehaviour } from '../../core/contract/request';
import { transcribeChannel } from '../../engine/asr/transcribe-channel';
import type { LoadedWhisper } from '../../engine/asr/whisper-model';
import { prepareAudio } from '../../engine/media/prepare-audio';
import type { PreparedAudio } from '../../engine/media/prepared-audio';
import { mediaRequest, testModelFiles, TEST_VAD_MODEL_ID } from './ffmpeg-fixtures';
import { nodeMediaPorts } from './ffmpeg-media-ports';
import { diskFile } from './media-file';
import { nodeWhisper } from './whisper-loader';

const MODELS = join(import.meta.dirname, '..', '..', '..', '.models');

/** The model with its encoder calls counted. */
function counting(model: LoadedWhisper): { model: LoadedWhisper; encodes: () => number } {
  let encodes = 0;
  return {
    model: {
      ...model,
      encode: (features) => {
        encodes++;
        return model.encode(features);
      },
    },
    encodes: () => encodes,
  };
}

describe('language detection and decoding share encoder passes', () => {
  let audio: PreparedAudio;
  let model: LoadedWhisper;
  beforeAll(async () => {
    const dir = scratchDir();
    // Two turns, one per language, each shorter than the test model's 10-s window.
    const file = spokenFile(
      dir,
      'turns',
      [
        { language: 'en', text: sentence('en', 1200, 7) },
        { language: 'fr', text: sentence('fr', 1201, 7) },
      ],
      1.5,
    );
    const media = await diskFile(file.path);
    audio = await prepareAudio(
      mediaRequest({ kind: 'file', file: media! }),
      nodeMediaPorts(testModelFiles()),
      { vadModelId: TEST_VAD_MODEL_ID },
    );
    model = await nodeWhisper(MODELS, 'murmur-test/whisper-synth');
  });

  const run = async (languageBehaviour: LanguageBehaviour) => {
    const counted = counting(model);
    const segments = await transcribeChannel(
      counted.model,
      audio.channels[0]!,
      audio.file.duration,
      {
        languageBehaviour,
        language: 'en',
        task: 'transcribe',
        hint: '',
      },
    );
    return { segments, encodes: counted.encodes() };
  };

  it('encodes each window once when the language is known', async () => {
    const { segments, encodes } = await run('manual');
    expect(segments.length).toBeGreaterThan(0);
    expect(encodes).toBeGreaterThanOrEqual(1);
    // The same windows, with detection first: not one encoder pass more per turn.
    const perTurn = await run('automatic multiple languages');
    expect(new Set(perTurn.segments.map((s) => s.language))).toEqual(new Set(['en', 'fr']));
    expect(perTurn.encodes).toBe(2);
    // One detection window, the start of the speech, which is decoded first.
    const single = await run('automatic single language');
    expect(single.encodes).toBe(encodes);
  });
});

describe('a file decoded in windows', () => {
  it('gives the same transcript as decoded in one go', async () => {
    const dir = scratchDir();
    const file = spokenFile(
      dir,
      'long',
      [0, 1, 2, 3, 4, 5].map((k) => ({
        language: 'de' as const,
        text: sentence('de', 1300 + k, 9),
      })),
      1.2,
    );
    const media = await diskFile(file.path);
    const ports = nodeMediaPorts(testModelFiles());
    const model = await nodeWhisper(MODELS, 'murmur-test/whisper-synth');
    const transcript = async (windowSeconds?: number) => {
      const audio = await prepareAudio(mediaRequest({ kind: 'file', file: media! }), ports, {
        vadModelId: TEST_VAD_MODEL_ID,
        ...(windowSeconds ? { windowSeconds } : {}),
      });
      const segments = await transcribeChannel(model, audio.channels[0]!, audio.file.duration, {
        languageBehaviour: 'manual',
        language: 'de',
        task: 'transcribe',
        hint: '',
      });
      return segments.map((s) => [s.text, s.start.toFixed(2), s.end.toFixed(2)]);
    };
    const whole = await transcript();
    expect(whole.length).toBeGreaterThan(2);
    expect(await transcript(8)).toEqual(whole);
  });
});
