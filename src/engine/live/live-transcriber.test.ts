import { beforeAll, describe, expect, it } from 'vitest';
import { musicBed, pinkNoise } from '../../../tools/testing/music';
import { concat, silence } from '../../../tools/testing/speech';
import { normaliseWords, wordErrorRate } from '../../../tools/testing/wer';
import { feed, fileTranscripts, spokenPhrases, startLive } from '../../../tools/testing/live-runs';

const text = (lines: readonly { text: string }[]) => lines.map((l) => l.text).join(' ');

describe('live captions of phrases with pauses, fed a quarter second at a time', () => {
  let phrases: { samples: Float32Array; texts: string[] };
  let run: ReturnType<typeof startLive>;
  let settledBeforeEnd = 0;
  let fileText = '';
  beforeAll(async () => {
    // Five phrases of eight words, 1.6 s apart (each padded with 0.8 s of silence).
    phrases = spokenPhrases(4100, 5, 8, 0.8);
    run = startLive();
    await feed(run, [phrases.samples]);
    settledBeforeEnd = run.settled().length;
    await run.transcriber.end();
    fileText = (await fileTranscripts([phrases.samples]))[0]!;
  }, 120_000);

  it('settles lines while the audio is still coming', () => {
    // The last phrase is followed by too short a pause to settle before the end.
    expect(settledBeforeEnd).toBeGreaterThanOrEqual(phrases.texts.length - 1);
    const first = run.updates.find((u) => u.update.settled.length > 0)!;
    // The first phrase ends after about 4 s of the 25: its line comes long before the end.
    expect(first.fed).toBeLessThan(phrases.samples.length / 16_000 / 2);
    const times = run.settled().map((l) => l.start);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('hears the words the file transcription hears', () => {
    const live = text(run.settled());
    // The live windows are one phrase each, the file's several: close, not the same. The
    // test model hears these voices with some errors; against the file's words, and against
    // what was said, the live words do not do much worse than the file's.
    expect(wordErrorRate(fileText, live)).toBeLessThan(0.25);
    const said = phrases.texts.join(' ');
    expect(wordErrorRate(said, live)).toBeLessThan(wordErrorRate(said, fileText) + 0.15);
  });

  it('shows a provisional line for a phrase before it settles', () => {
    let withProvisional = 0;
    for (const line of run.settled()) {
      const settledAt = run.updates.findIndex((u) => u.update.settled.includes(line));
      const words = new Set(normaliseWords(line.text));
      const earlier = run.updates.slice(0, settledAt).some(({ update }) => {
        const p = update.provisional[0];
        return (
          p !== null &&
          p !== undefined &&
          p.end > line.start &&
          p.start < line.end &&
          normaliseWords(p.text).some((w) => words.has(w))
        );
      });
      if (earlier) withProvisional++;
    }
    expect(withProvisional).toBeGreaterThanOrEqual(phrases.texts.length - 1);
    // The last update leaves no provisional line: everything is settled.
    expect(run.updates.at(-1)!.update.provisional).toEqual([null]);
  });
});

describe('live captions of audio with no speech', () => {
  const settledOf = async (samples: Float32Array) => {
    const run = startLive();
    await feed(run, [samples], 0.5);
    await run.transcriber.end();
    return run;
  };

  it('settle nothing for silence', async () => {
    const run = await settledOf(silence(12));
    expect(run.settled()).toEqual([]);
    expect(run.updates.every((u) => u.update.provisional[0] === null)).toBe(true);
  }, 60_000);

  it('settle nothing for music or noise', async () => {
    const music = await settledOf(musicBed({ seconds: 20, seed: 7 }));
    expect(music.settled()).toEqual([]);
    const noise = await settledOf(pinkNoise(12, 3));
    expect(noise.settled()).toEqual([]);
  }, 90_000);
});

describe('two channels', () => {
  it('caption each channel from its own audio', async () => {
    const a = spokenPhrases(4200, 2, 7, 0.8);
    const b = spokenPhrases(4300, 2, 7, 0.8);
    // The second channel speaks while the first pauses, and the other way round.
    const first = concat(a.samples, silence(b.samples.length / 16_000));
    const second = concat(silence(a.samples.length / 16_000), b.samples);
    const run = startLive({ channels: 2 });
    await feed(run, [first, second]);
    await run.transcriber.end();
    const lines = run.settled();
    const of = (channel: number) => text(lines.filter((l) => l.channel === channel));
    expect(wordErrorRate(a.texts.join(' '), of(0))).toBeLessThan(0.35);
    expect(wordErrorRate(b.texts.join(' '), of(1))).toBeLessThan(0.35);
    // Each channel's lines lie within its own speech.
    const aEnd = a.samples.length / 16_000;
    expect(lines.filter((l) => l.channel === 0).every((l) => l.end <= aEnd)).toBe(true);
    expect(lines.filter((l) => l.channel === 1).every((l) => l.start >= aEnd)).toBe(true);
    expect(run.updates.every((u) => u.update.provisional.length === 2)).toBe(true);
  }, 120_000);
});

describe('cancelling', () => {
  it('stops the updates at once', async () => {
    const { samples } = spokenPhrases(4400, 3, 7, 0.8);
    const run = startLive();
    // Half of it, then more audio and a cancel while it is being heard.
    await feed(run, [samples.subarray(0, samples.length / 2)]);
    run.transcriber.push([samples.slice(samples.length / 2)]);
    run.transcriber.cancel();
    const count = run.updates.length;
    await run.transcriber.finished;
    run.transcriber.push([samples.slice(0, 16_000)]);
    await run.transcriber.end();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(run.updates.length).toBe(count);
    expect(count).toBeGreaterThan(0);
  }, 60_000);
});
