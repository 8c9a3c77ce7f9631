import { expect, it } from 'vitest';
import { concat } from '../../../tools/testing/speech';
import { feed, spokenPhrases, startLive } from '../../../tools/testing/live-runs';

it('a long session holds seconds of audio and settles every phrase', async () => {
  // Ten phrases (more than the repeat guard remembers), each with 0.8 s of silence on both
  // sides, said over and over: ten minutes and more.
  const phrases = Array.from({ length: 10 }, (_, k) => spokenPhrases(4700 + k * 10, 1, 7, 0.8));
  const cycle = concat(...phrases.map((p) => p.samples));
  const repeats = Math.ceil((600 * 16_000) / cycle.length);
  const samples = concat(...Array.from({ length: repeats }, () => cycle));
  // Where each phrase is said (its padding left out).
  const said: { start: number; end: number }[] = [];
  let at = 0;
  for (let r = 0; r < repeats; r++) {
    for (const p of phrases) {
      said.push({ start: at / 16_000 + 0.8, end: (at + p.samples.length) / 16_000 - 0.8 });
      at += p.samples.length;
    }
  }
  const run = startLive();
  // As fast as it goes: ten seconds at a time in quarter seconds, each ten heard before the next.
  await feed(run, [samples], 0.25, 40);
  await run.transcriber.end();
  const lines = run.settled();
  const seconds = samples.length / 16_000;
  expect(seconds).toBeGreaterThanOrEqual(600);
  // Every phrase has a settled line within it.
  const missed = said.filter((p) => !lines.some((l) => l.start < p.end && l.end > p.start));
  expect(missed).toEqual([]);
  expect(lines.length).toBeGreaterThanOrEqual(said.length);
  // The audio held never exceeds the ten seconds fed at once, a window of the test model (10 s)
  // and the VAD's warm-up: seconds of a session of more than ten minutes.
  expect(run.maxRetained / 16_000).toBeLessThan(25);
  expect(run.transcriber.retainedSamples() / 16_000).toBeLessThan(25);
}, 180_000);
