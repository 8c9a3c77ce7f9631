import { beforeAll, describe, expect, it } from 'vitest';
import { pcmFloats, pcmPrefix } from '../../../core/audio/pcm';
import { scratchDir, sentence, spokenFile } from '../../../../tools/testing/speech';
import { wordErrorRate } from '../../../../tools/testing/wer';
import type { RecognisedSegment } from '../../../core/assemble/response';
import { settledSpeechRegions } from '../../../core/audio/speech-regions';
import type { LanguageBehaviour } from '../../../core/contract/request';
import { SAMPLE_RATE } from '../../../core/units';
import { loadSileroVad, VAD_WINDOW } from '../../models/silero-vad';
import { prepareAudio } from '../../pipeline';
import type { LoadedWhisper } from '../../ports';
import { DEFAULT_RECOGNITION_SETTINGS, type RecognitionSettings } from '../../stage-settings';
import { transcribeChannel } from './transcribe-channel';
import { ChannelFeed } from '../../streams/growing-channel';
import type { SpeechAudio } from '../../streams/speech-audio';
import {
  mediaRequest,
  testEnginePorts,
  testModelFiles,
  TEST_VAD_MODEL_ID,
} from '../../../../tools/testing/ffmpeg-fixtures';
import { diskFile } from '../../../hosts/node/media-file';
import { nodeOnnxRuntime } from '../../../hosts/node/onnx-runtime';

/**
 * Windows decoded one at a time, each shown the text before it: what the tests of earlier text
 * and of shared encoder passes are about (windows decoded together have no earlier text).
 */
const ONE_AT_A_TIME: RecognitionSettings = { ...DEFAULT_RECOGNITION_SETTINGS, batchWindows: 1 };

/** The test recogniser, loaded once. */
const testWhisper = () => testEnginePorts().recogniser({});

/** A file on disk decoded and checked for speech as the CLI does it. */
async function preparedFile(path: string): Promise<SpeechAudio> {
  const media = (await diskFile(path))!;
  return prepareAudio(mediaRequest({ kind: 'file', file: media }), testEnginePorts());
}

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
  let audio: SpeechAudio;
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
    audio = await preparedFile(file.path);
    model = await testWhisper();
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
        // Whole first windows, as detection encodes them (the manual one is otherwise cut short).
        settings: { ...ONE_AT_A_TIME, firstWindowSeconds: 0 },
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

describe("a channel's first window", () => {
  it('is cut short at a pause where the language is known, so that its words come first', async () => {
    const file = spokenFile(
      scratchDir(),
      'first-window',
      [0, 1, 2, 3].map((k) => ({ language: 'en' as const, text: sentence('en', 1700 + k, 5) })),
      1.2,
    );
    const audio = await preparedFile(file.path);
    const loaded = await testWhisper();
    const settings = { ...DEFAULT_RECOGNITION_SETTINGS, firstWindowSeconds: 7 };
    const run = async (languageBehaviour: LanguageBehaviour) => {
      const windows: number[] = [];
      const model: LoadedWhisper = {
        ...loaded,
        features: (samples) => {
          windows.push(samples.length / SAMPLE_RATE);
          return loaded.features(samples);
        },
      };
      const segments = await transcribeChannel(model, audio.channels[0]!, audio.file.duration, {
        languageBehaviour,
        language: 'en',
        task: 'transcribe',
        hint: '',
        settings,
      });
      return { windows, segments };
    };
    const manual = await run('manual');
    // The first window holds the first sentence or two and ends in a pause after them: the
    // first segment ends inside it, and the next window starts no later than its end.
    const first = manual.windows[0]!;
    expect(first).toBeGreaterThanOrEqual(settings.firstWindowMinSeconds);
    expect(first).toBeLessThanOrEqual(settings.firstWindowSeconds);
    expect(manual.segments[0]!.end - manual.segments[0]!.start).toBeLessThan(first);
    const text = manual.segments.map((s) => s.text).join(' ');
    expect(wordErrorRate(file.text, text)).toBeLessThanOrEqual(0.15);
    // Where the first window is encoded ahead for language detection, it stays whole.
    const single = await run('automatic single language');
    expect(single.windows[0]).toBeGreaterThan(settings.firstWindowSeconds);
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
    const ports = testEnginePorts();
    const model = await testWhisper();
    const transcript = async (windowSeconds?: number) => {
      const audio = await prepareAudio(
        mediaRequest({ kind: 'file', file: media }),
        ports,
        windowSeconds ? { windowSeconds } : {},
      );
      const segments = await transcribeChannel(model, audio.channels[0]!, audio.file.duration, {
        languageBehaviour: 'manual',
        language: 'de',
        task: 'transcribe',
        hint: '',
        settings: DEFAULT_RECOGNITION_SETTINGS,
      });
      return segments.map((s) => [s.text, s.start.toFixed(2), s.end.toFixed(2)]);
    };
    const whole = await transcript();
    expect(whole.length).toBeGreaterThan(2);
    expect(await transcript(8)).toEqual(whole);
  });
});

/** What one recognition returned and what it posted as it went. */
interface Recognised {
  segments: string[][];
  posted: string[][];
}

const rows = (segments: RecognisedSegment[]) =>
  segments.map((s) => [s.language, s.text, s.start.toFixed(2), s.end.toFixed(2)]);

/**
 * Recognises a file's channel whole, then handed over 3 s at a time with only the regions
 * settled by then, and only when the recogniser waits for more (it always has the least it
 * could have). Returns both, and the number of regions settled at each hand-over.
 */
async function wholeAndGrowing(
  media: Awaited<ReturnType<typeof sixSentences>>,
  options: Omit<Parameters<typeof transcribeChannel>[3], 'onSegment' | 'settings'>,
  settings: RecognitionSettings = DEFAULT_RECOGNITION_SETTINGS,
): Promise<{
  whole: Recognised;
  growing: Recognised;
  settled: number[];
  regions: number;
  /** The most windows decoded at once, and in how many decoder calls, whole and growing. */
  batches: { most: number; calls: number }[];
}> {
  const audio = await prepareAudio(mediaRequest({ kind: 'file', file: media }), testEnginePorts());
  const loaded = await testWhisper();
  const channel = audio.channels[0]!;
  const batches: { most: number; calls: number }[] = [];
  const run = async (input: Parameters<typeof transcribeChannel>[1]): Promise<Recognised> => {
    const posted: RecognisedSegment[] = [];
    const batch = { most: 1, calls: 0 };
    batches.push(batch);
    const model: LoadedWhisper = {
      ...loaded,
      stepBatch: (encoded, tokens, past) => {
        batch.most = Math.max(batch.most, tokens.length);
        batch.calls++;
        return loaded.stepBatch(encoded, tokens, past);
      },
    };
    const segments = await transcribeChannel(model, input, audio.file.duration, {
      ...options,
      settings,
      onSegment: (s) => posted.push(s),
    });
    return { segments: rows(segments), posted: rows(posted) };
  };
  const whole = await run(channel);

  const vad = await loadSileroVad(nodeOnnxRuntime(), testModelFiles(), {
    modelId: TEST_VAD_MODEL_ID,
  });
  const probabilities = await vad.probabilities(pcmFloats(channel.samples));
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
          pcmPrefix(channel.samples, windows * VAD_WINDOW),
          settledSpeechRegions(probabilities.subarray(0, windows), end / SAMPLE_RATE, false),
        );
        settled.push(this.speech.length);
      });
      return more;
    }
  }
  const growing = await run(new OnDemand(0, new Float32Array(0), audio.file.duration));
  return { whole, growing, settled, regions: channel.speech.length, batches };
}

describe('conditioning on earlier text', () => {
  it('does not let the earlier text end a window of speech before its text', async () => {
    const file = spokenFile(
      scratchDir(),
      'talk',
      Array.from({ length: 14 }, (_, k) => ({
        language: 'en' as const,
        text: sentence('en', 700 + k, 10),
      })),
      0.8,
    );
    const audio = await preparedFile(file.path);
    const model = await testWhisper();
    const segments = await transcribeChannel(model, audio.channels[0]!, audio.file.duration, {
      languageBehaviour: 'manual',
      language: 'en',
      task: 'transcribe',
      hint: '',
      settings: DEFAULT_RECOGNITION_SETTINGS,
    });
    // Every utterance is a speech region of its own; nearly each gets its segment, to the end.
    const regions = audio.channels[0]!.speech;
    expect(regions.length).toBeGreaterThanOrEqual(14);
    expect(segments.length).toBeGreaterThanOrEqual(12);
    expect(segments.at(-1)!.end).toBeGreaterThan(regions.at(-1)!.start);
  });

  it('keeps the prompt within half the decoder context, however long the hint', async () => {
    const file = spokenFile(
      scratchDir(),
      'hinted',
      [0, 1, 2].map((k) => ({ language: 'en' as const, text: sentence('en', 720 + k, 9) })),
      1,
    );
    const audio = await preparedFile(file.path);
    const loaded = await testWhisper();
    const prompts: number[][] = [];
    const model: LoadedWhisper = {
      ...loaded,
      step: (encoded, tokens, past) => {
        if (past === null) prompts.push([...tokens]);
        return loaded.step(encoded, tokens, past);
      },
    };
    // About 400 tokens: more than the 223 a prompt may hold.
    const hint = sentence('en', 730, 300);
    const segments = await transcribeChannel(model, audio.channels[0]!, audio.file.duration, {
      languageBehaviour: 'manual',
      language: 'en',
      settings: DEFAULT_RECOGNITION_SETTINGS,
      task: 'transcribe',
      hint,
    });
    const room = Math.floor(model.maxTargetPositions / 2) - 1;
    const hintTokens = model.encodeText(` ${hint}`);
    expect(hintTokens.length).toBeGreaterThan(room);
    expect(segments.length).toBeGreaterThan(0);
    expect(prompts.length).toBeGreaterThan(1);
    for (const prompt of prompts) {
      // <|startofprev|>, the hint's newest tokens and no earlier text, then the task's three
      expect(prompt.slice(1, -3)).toEqual(hintTokens.slice(-room));
    }
  });
});

describe('conditioning that is tried before it is kept', () => {
  let audio: SpeechAudio;
  let loaded: LoadedWhisper;
  beforeAll(async () => {
    // Six sentences with short pauses: three or more windows of the test model.
    const file = spokenFile(
      scratchDir(),
      'tried',
      [0, 1, 2, 3, 4, 5].map((k) => ({
        language: 'en' as const,
        text: sentence('en', 740 + k, 9),
      })),
      0.8,
    );
    audio = await preparedFile(file.path);
    loaded = await testWhisper();
  });

  /**
   * A model that hears each window as the test model does without earlier text, and, shown
   * earlier text, decodes the same text with its logits multiplied by `scale` (surer above 1,
   * less sure below). Counts the windows and the decodes started with and without earlier text.
   */
  async function run(scale: number) {
    const { startOfPrevious, startOfTranscript } = loaded.vocab;
    // Positions of the prompt left out of the current decode.
    let dropped = 0;
    const starts = { with: 0, without: 0 };
    const model: LoadedWhisper = {
      ...loaded,
      step: async (encoded, tokens, past) => {
        if (past === null) {
          dropped = tokens[0] === startOfPrevious ? tokens.indexOf(startOfTranscript) : 0;
          if (dropped > 0) starts.with++;
          else if (tokens[0] === startOfTranscript && tokens.length === 3) starts.without++;
        }
        const step = await loaded.step(
          encoded,
          past === null ? tokens.slice(dropped) : tokens,
          past,
        );
        if (dropped === 0) return step;
        return {
          ...step,
          lastLogits: step.lastLogits.map((x) => x * scale),
          logitsAt: (position: number) => step.logitsAt(position - dropped),
        };
      },
    };
    let windows = 0;
    const segments = await transcribeChannel(model, audio.channels[0]!, audio.file.duration, {
      languageBehaviour: 'manual',
      language: 'en',
      task: 'transcribe',
      hint: '',
      settings: ONE_AT_A_TIME,
      onWindow: () => windows++,
    });
    return { segments, starts, windows };
  }

  it('keeps the earlier text for a model that is surer with it, at one extra decode', async () => {
    const { segments, starts, windows } = await run(3);
    expect(windows).toBeGreaterThanOrEqual(3);
    expect(segments.length).toBeGreaterThan(0);
    // Every window after the first is shown the earlier text; only the first of them is also
    // decoded without it.
    expect(starts.with).toBe(windows - 1);
    expect(starts.without).toBe(2);
  });

  it('drops the earlier text for the rest of the channel once it makes the model less sure', async () => {
    const { segments, starts, windows } = await run(0.6);
    expect(windows).toBeGreaterThanOrEqual(3);
    expect(segments.length).toBeGreaterThan(0);
    expect(starts.with).toBe(1);
    expect(starts.without).toBeGreaterThanOrEqual(windows);
  });
});

describe('recognition that starts while speech is still being found', () => {
  it.each([
    ['manual', 'es'],
    ['automatic multiple languages', null],
    ['automatic single language', null],
  ] as const)('gives the same transcript as of the whole channel (%s)', async (mode, language) => {
    const { whole, growing, settled, regions } = await wholeAndGrowing(
      await sixSentences('es', 1400, 1.3),
      { languageBehaviour: mode, language, task: 'transcribe', hint: '' },
    );
    expect(whole.segments.length).toBeGreaterThan(2);
    expect(growing).toEqual(whole);
    expect(whole.posted).toEqual(whole.segments);
    // It waited at every step (in single-language mode, until the end), and regions settled a
    // few at a time.
    expect(settled.length).toBeGreaterThan(8);
    expect(settled[0]).toBeLessThan(regions);
    expect(new Set(settled).size).toBeGreaterThan(2);
  });

  it.each(['manual', 'automatic multiple languages', 'automatic single language'] as const)(
    'gives the same transcript as of the whole channel with windows decoded together (%s)',
    async (mode) => {
      // Twelve sentences, English and French in turn: several windows, in two languages.
      const file = spokenFile(
        scratchDir(),
        'batched-turns',
        Array.from({ length: 12 }, (_, k) => {
          const language = k % 4 < 2 ? ('en' as const) : ('fr' as const);
          return { language, text: sentence(language, 1600 + k, 10) };
        }),
        1.3,
      );
      const { whole, growing, batches } = await wholeAndGrowing(
        (await diskFile(file.path))!,
        {
          languageBehaviour: mode,
          language: mode === 'manual' ? 'en' : null,
          task: 'transcribe',
          hint: '',
        },
        { ...DEFAULT_RECOGNITION_SETTINGS, batchWindows: 4 },
      );
      expect(whole.segments.length).toBeGreaterThan(6);
      expect(growing).toEqual(whole);
      expect(whole.posted).toEqual(whole.segments);
      // The whole channel's windows were decoded together. The growing one is handed the
      // least it could have: one settled window at a time, which is decoded at once rather
      // than waiting for a batch to fill, and says the same.
      expect(batches[0]!.most).toBeGreaterThan(1);
      expect(batches[1]!.calls).toBeGreaterThan(0);
      if (mode === 'automatic multiple languages')
        expect(new Set(whole.segments.map(([code]) => code))).toEqual(new Set(['en', 'fr']));
    },
  );

  it("starts over when the first window's language is not the prominent one", async () => {
    const file = spokenFile(
      scratchDir(),
      'en-then-fr',
      [
        { language: 'en', text: sentence('en', 1500, 12) },
        ...[0, 1, 2, 3, 4].map((k) => ({
          language: 'fr' as const,
          text: sentence('fr', 1501 + k, 9),
        })),
      ],
      1.3,
    );
    const { whole, growing } = await wholeAndGrowing((await diskFile(file.path))!, {
      languageBehaviour: 'automatic single language',
      language: null,
      task: 'transcribe',
      hint: '',
    });
    expect(new Set(whole.segments.map(([code]) => code))).toEqual(new Set(['fr']));
    // Nothing decoded in the guessed language was posted.
    expect(growing).toEqual(whole);
  });

  it('fails with the media stage instead of waiting for ever', async () => {
    const model = await testWhisper();
    const feed = new ChannelFeed(0, new Float32Array(SAMPLE_RATE), 60);
    const recognising = transcribeChannel(model, feed, 60, {
      languageBehaviour: 'manual',
      language: 'en',
      task: 'transcribe',
      hint: '',
      settings: DEFAULT_RECOGNITION_SETTINGS,
    });
    feed.fail(new Error('The file ends early.'));
    await expect(recognising).rejects.toThrow('The file ends early.');
  });
});
