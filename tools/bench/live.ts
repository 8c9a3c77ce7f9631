/**
 * Live captions on the Node host with the test models: generated phrases fed a quarter second
 * at a time at real time, and the latency of their captions (from the end of a phrase in the
 * audio fed to its settled line, and to the first provisional line over it), the share of
 * real time the transcriber is busy (a phrase's end is that of espeak-ng's utterance, its own
 * trailing silence included); then a long session fed as fast as it goes, and the
 * audio it holds. `live-browser.ts` measures the same in Chromium's worker.
 * usage: npx tsx tools/bench/live.ts [--seconds 60 --long-minutes 10]
 */
import { concat, silence } from '../testing/speech';
import { feed, spokenPhrases, startLive } from '../testing/live-runs';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seconds = arg('seconds', 60);
const longMinutes = arg('long-minutes', 10);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
};

/** Phrases of 6-10 words with pauses of 1.6 s, to `total` seconds. */
function session(total: number) {
  const parts: Float32Array[] = [];
  const said: { start: number; end: number }[] = [];
  let at = 0;
  for (let k = 0; at < total * 16_000; k++) {
    const p = spokenPhrases(5000 + k * 10, 1, 6 + (k % 5), 0.8).samples;
    said.push({ start: at / 16_000 + 0.8, end: (at + p.length) / 16_000 - 0.8 });
    parts.push(p);
    at += p.length;
  }
  return { samples: concat(...parts, silence(2)), said };
}

async function realTime(): Promise<void> {
  const { samples, said } = session(seconds);
  const run = startLive();
  await run.transcriber.idle();
  const chunk = 4000;
  const started = performance.now() / 1000;
  const arrivals: {
    wall: number;
    lines: { start: number; end: number }[];
    provisional: number[];
  }[] = [];
  let seen = run.updates.length;
  const busyBefore = run.transcriber.busySeconds;
  for (let at = 0; at < samples.length; at += chunk) {
    run.transcriber.push([samples.slice(at, at + chunk)]);
    run.fed = (at + chunk) / 16_000;
    // The audio of the next chunk is recorded a quarter second later.
    const due = started + (at + chunk) / 16_000;
    while (performance.now() / 1000 < due) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (; seen < run.updates.length; seen++) {
        const u = run.updates[seen]!.update;
        arrivals.push({
          wall: performance.now() / 1000 - started,
          lines: u.settled,
          provisional: u.provisional.flatMap((p) => (p ? [p.start, p.end] : [])),
        });
      }
    }
  }
  const wall = performance.now() / 1000 - started;
  const busy = run.transcriber.busySeconds - busyBefore;
  await run.transcriber.end();
  const toSettled: number[] = [];
  const toProvisional: number[] = [];
  for (const phrase of said) {
    const settled = arrivals.find((a) =>
      a.lines.some((l) => l.start < phrase.end && l.end > phrase.start),
    );
    if (settled) toSettled.push(settled.wall - phrase.end);
    const provisional = arrivals.find(
      (a) =>
        a.provisional.length === 2 &&
        a.provisional[0]! < phrase.end &&
        a.provisional[1]! > phrase.start,
    );
    if (provisional) toProvisional.push(provisional.wall - phrase.start);
  }
  console.log(
    `real time: ${said.length} phrases in ${(samples.length / 16_000).toFixed(0)} s of audio`,
  );
  console.log(
    `  settled line after the phrase's end: p50 ${percentile(toSettled, 0.5).toFixed(2)} s, p90 ${percentile(toSettled, 0.9).toFixed(2)} s (${toSettled.length} of ${said.length} phrases)`,
  );
  console.log(
    `  first provisional words after the phrase's start: p50 ${percentile(toProvisional, 0.5).toFixed(2)} s, p90 ${percentile(toProvisional, 0.9).toFixed(2)} s (${toProvisional.length} phrases)`,
  );
  console.log(`  busy: ${((100 * busy) / wall).toFixed(0)}% of real time`);
}

async function long(): Promise<void> {
  const { samples } = session(60);
  const repeats = Math.ceil((longMinutes * 60 * 16_000) / samples.length);
  const all = concat(...Array.from({ length: repeats }, () => samples));
  const run = startLive();
  const started = performance.now() / 1000;
  await feed(run, [all], 0.25, 40);
  await run.transcriber.end();
  const wall = performance.now() / 1000 - started;
  console.log(
    `long session: ${(all.length / 16_000 / 60).toFixed(1)} min fed ten seconds at a time in ${wall.toFixed(0)} s (${(all.length / 16_000 / wall).toFixed(1)}x real time); audio held at most ${(run.maxRetained / 16_000).toFixed(1)} s, at the end ${(run.transcriber.retainedSamples() / 16_000).toFixed(1)} s; ${run.settled().length} settled lines`,
  );
}

await realTime();
await long();
