import { beforeAll, describe, expect, it } from 'vitest';
import { alignScript } from '../../../tools/testing/cli-run';
import { scratchDir, LANGUAGES } from '../../../tools/testing/speech';
import {
  random,
  scriptLines,
  spokenLines,
  withUnknownWord,
  written,
} from '../../../tools/testing/script-speech';
import { parseSubtitles } from '../../core/subtitles/parse';

/**
 * `murmur align` on generated scripts: random lines of the vocabularies, one line of each
 * script never said (anywhere: first, middle or last), the script written as people write
 * (capitals, commas, "!", "?", "...", numbers as digits, a name the speaker left out).
 * However a line is written, it is timed to its own speech; the line never said is marked and
 * takes no time; segments stay in the script's order and never overlap.
 */
let dir = '';

beforeAll(() => {
  dir = scratchDir();
});

/** Seconds a said line's start or end may be off its true time. */
const LINE_TOLERANCE = 0.3;

describe('murmur align on scripts as people write them', () => {
  it('times each said line, marks the line never said, keeps order, in four languages', async () => {
    for (const [n, language] of LANGUAGES.entries()) {
      const seed = 300 + n * 7;
      const lines = scriptLines(language, seed, 4);
      const skipped = Math.floor(random(seed + 3)() * lines.length);
      const recording = spokenLines(
        dir,
        `script-${seed}`,
        language,
        lines.filter((_, i) => i !== skipped),
        seed,
      );
      const unknownIn = (skipped + 1) % lines.length;
      const script = lines.map((line, i) =>
        written(i === unknownIn ? withUnknownWord(line, seed) : line, seed * 10 + i),
      );
      const plain = await alignScript(dir, recording.path, lines.join('\n'));
      const response = await alignScript(dir, recording.path, script.join('\n'));
      const segments = response.prediction_raw.transcription;
      const context = `${language}, line ${skipped} not said:\n${script.join('\n')}`;

      expect(
        segments.map((s) => s.transcription.trim()),
        context,
      ).toEqual(script);
      expect(
        segments.map((s) => s.not_said === true),
        context,
      ).toEqual(lines.map((_, i) => i === skipped));
      let truth = 0;
      segments.forEach((segment, i) => {
        if (i > 0)
          expect(segment.time_begin, context).toBeGreaterThanOrEqual(segments[i - 1]!.time_end);
        if (i === skipped) {
          expect(segment.time_end).toBe(segment.time_begin);
          for (const word of segment.words) expect(word.confidence).toBe(0);
          return;
        }
        const said = recording.lines[truth++]!;
        expect(Math.abs(segment.time_begin - said.start), context).toBeLessThanOrEqual(
          LINE_TOLERANCE,
        );
        expect(Math.abs(segment.time_end - said.end), context).toBeLessThanOrEqual(LINE_TOLERANCE);
      });
      // Capitals, punctuation and digits change nothing: the said lines are timed as the same
      // lines written in lower case without punctuation, the left-out name aside.
      plain.prediction_raw.transcription.forEach((segment, i) => {
        if (i === skipped || i === unknownIn) return;
        expect(Math.abs(segments[i]!.time_begin - segment.time_begin), context).toBeLessThanOrEqual(
          0.05,
        );
        expect(Math.abs(segments[i]!.time_end - segment.time_end), context).toBeLessThanOrEqual(
          0.05,
        );
      });
    }
  }, 300_000);

  it('gives subtitles whose cues keep the script order and never overlap', async () => {
    const seed = 410;
    const lines = scriptLines('en', seed, 5, 3, 5);
    const recording = spokenLines(
      dir,
      `cues-${seed}`,
      'en',
      [lines[0]!, lines[1]!, lines[3]!, lines[4]!],
      seed,
    );
    const script = lines.map((line, i) => written(line, seed + i)).join('\n');
    const response = await alignScript(dir, recording.path, script, '--output_format', 'srt');
    const cues = parseSubtitles(response.prediction as string);
    const said = [0, 1, 3, 4].map((i) => written(lines[i]!, seed + i));
    expect(cues.map((c) => c.lines.join(' ').trim())).toEqual(said);
    for (let i = 1; i < cues.length; i++)
      expect(cues[i]!.begin).toBeGreaterThanOrEqual(cues[i - 1]!.end);
  }, 120_000);
});
