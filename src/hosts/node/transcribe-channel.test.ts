import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scratchDir, sentence, spokenFile } from '../../../tools/testing/speech';
import type { RecognisedSegment } from '../../core/assemble/response';
import { settledSpeechRegions } from '../../core/audio/speech-regions';
import type { LanguageBehaviour } from '../../core/contract/request';
import { transcribeChannel } from '../../engine/asr/transcribe-channel';
import type { LoadedWhisper } from '../../engine/asr/whisper-model';
import { ChannelFeed } from '../../engine/media/growing-channel';
import { prepareAudio } from '../../engine/media/prepare-audio';
import { SAMPLE_RATE, type PreparedAudio } from '../../engine/media/prepared-audio';
import { loadSileroVad, VAD_WINDOW } from '../../engine/media/silero-vad';
import { mediaRequest, testModelFiles, TEST_VAD_MODEL_ID } from './ffmpeg-fixtures';
import { nodeMediaPorts } from './ffmpeg-media-ports';
import { diskFile } from './media-file';
import { nodeOnnxRuntime } from './onnx-runtime';
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

/** Six new sentences of one language, `pause` seconds apart, as a file to decode. */
async function sixSentences(language: 'de' | 'es', seed: number, pause: number) {
  const file = spokenFile(
    scratchDir(),
    `six-${language}`,
    [0, 1, 2, 3, 4, 5].map((k) => ({ language, text: sentence(language, seed + k, 9) })),
    pause,
  );
  return (await diskFile(file.path))!;
}

describe('a file decoded in windows', () => {
  it('gives the same transcript as decoded in one go', async () => {
    const media = await sixSentences('de', 1300, 1.2);
    const ports = nodeMediaPorts(testModelFiles());
    const model = await nodeWhisper(MODELS, 'murmur-test/whisper-synth');
    const transcript = async (windowSeconds?: number) => {
      const audio = await prepareAudio(mediaRequest({ kind: 'file', file: media }), ports, {
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

describe('recognition that starts while speech is still being found', () => {
  it.each([
    ['manual', 'es'],
    ['automatic multiple languages', null],
  ] as const)('gives the same transcript as of the whole channel (%s)', async (mode, language) => {
    const media = await sixSentences('es', 1400, 1.3);
    const audio = await prepareAudio(
      mediaRequest({ kind: 'file', file: media }),
      nodeMediaPorts(testModelFiles()),
      { vadModelId: TEST_VAD_MODEL_ID },
    );
    const model = await nodeWhisper(MODELS, 'murmur-test/whisper-synth');
    const channel = audio.channels[0]!;
    const options = {
      languageBehaviour: mode,
      language,
      task: 'transcribe' as const,
      hint: '',
    };
    const text = (segments: RecognisedSegment[]) =>
      segments.map((s) => [s.language, s.text, s.start.toFixed(2), s.end.toFixed(2)]);
    const whole = text(await transcribeChannel(model, channel, audio.file.duration, options));
    expect(whole.length).toBeGreaterThan(2);

    // The same channel handed over 3 s at a time, with only the regions settled by then, and
    // only when the recogniser waits for more: it always has the least it could have.
    const vad = await loadSileroVad(nodeOnnxRuntime(), testModelFiles(), {
      modelId: TEST_VAD_MODEL_ID,
    });
    const probabilities = await vad.probabilities(channel.samples);
    const step = 3 * SAMPLE_RATE;
    let end = 0;
    const settled: number[] = [];
    class OnDemand extends ChannelFeed {
      override changed(signal?: AbortSignal): Promise<void> {
        const more = super.changed(signal);
        queueMicrotask(() => {
          end += step;
          if (end >= channel.samples.length) {
            this.finish(channel.samples, channel.speech);
            return;
          }
          const windows = Math.floor(end / VAD_WINDOW);
          this.update(
            channel.samples.subarray(0, windows * VAD_WINDOW),
            settledSpeechRegions(probabilities.subarray(0, windows), end / SAMPLE_RATE, false),
          );
          settled.push(this.speech.length);
        });
        return more;
      }
    }
    const feed = new OnDemand(0, new Float32Array(0), audio.file.duration);
    expect(text(await transcribeChannel(model, feed, audio.file.duration, options))).toEqual(whole);
    // It waited at every step, and regions settled a few at a time.
    expect(settled.length).toBe(Math.ceil(channel.samples.length / step) - 1);
    expect(settled[0]).toBeLessThan(channel.speech.length);
    expect(new Set(settled).size).toBeGreaterThan(2);
  });

  it('fails with the media stage instead of waiting for ever', async () => {
    const model = await nodeWhisper(MODELS, 'murmur-test/whisper-synth');
    const feed = new ChannelFeed(0, new Float32Array(SAMPLE_RATE), 60);
    const recognising = transcribeChannel(model, feed, 60, {
      languageBehaviour: 'manual',
      language: 'en',
      task: 'transcribe',
      hint: '',
    });
    feed.fail(new Error('The file ends early.'));
    await expect(recognising).rejects.toThrow('The file ends early.');
  });
});
