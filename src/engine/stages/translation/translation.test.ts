import { describe, expect, it } from 'vitest';
import type { RecognisedSegment } from '../../../core/assemble/response';
import { spreadWords } from '../../../core/translation/words';
import type { EnginePorts, LoadedTranslator } from '../../ports';
import type { StageContext } from '../../stage-context';
import { DEFAULT_TRANSLATION_SETTINGS } from '../../stage-settings';
import { run } from './index';

const settings = DEFAULT_TRANSLATION_SETTINGS;

function segment(text: string, language: string, start: number, end: number): RecognisedSegment {
  const words = text.split(' ').map((w, i, all) => ({
    text: w,
    start: start + ((end - start) * i) / all.length,
    end: start + ((end - start) * (i + 1)) / all.length,
    confidence: 0.5 + 0.1 * i,
  }));
  return { text, language, start, end, channel: 0, words };
}

/** A translator that tags each text with its language pair, and records its calls. */
function fakeTranslator(id = 'Xenova/m2m100_418M') {
  const calls: { texts: string[]; from: string; to: string }[] = [];
  const translator: LoadedTranslator = {
    id,
    translate: async (texts, from, to) => {
      calls.push({ texts: [...texts], from, to });
      return texts.map((t) => `${t.toUpperCase()} ${from}>${to}`);
    },
    dispose: async () => {},
  };
  return { translator, calls };
}

function context(): StageContext & { reports: (number | null)[] } {
  let now = 10;
  const reports: (number | null)[] = [];
  return {
    signal: undefined,
    clock: () => (now += 0.25),
    ports: {} as EnginePorts,
    progress: (fraction) => reports.push(fraction),
    reports,
  };
}

describe('translation stage', () => {
  it('translates segments not in the target, keeps the recognised text beside them', async () => {
    const { translator, calls } = fakeTranslator();
    const ctx = context();
    const segments = [
      segment('night and day', 'en', 0, 2),
      segment('bonjour', 'fr', 2, 3),
      segment('good dog', 'en', 3, 5),
      segment('wǒ', 'zh', 5, 6),
    ];
    const out = await run(
      { segments, target: 'fr', translator: Promise.resolve(translator), settings },
      ctx,
    );
    // The French segment is already in the target; the two English ones go in one call.
    expect(calls).toEqual([
      { texts: ['night and day', 'good dog'], from: 'en', to: 'fr' },
      { texts: ['wǒ'], from: 'zh', to: 'fr' },
    ]);
    expect(out.segments.map((s) => [s.text, s.language])).toEqual([
      ['NIGHT AND DAY en>fr', 'fr'],
      ['bonjour', 'fr'],
      ['GOOD DOG en>fr', 'fr'],
      ['WǑ zh>fr', 'fr'],
    ]);
    expect(out.segments[0]!.source).toEqual({ text: 'night and day', language: 'en' });
    expect(out.segments[1]!.source).toBeUndefined();
    expect(out.seconds).toBeGreaterThan(0);
    expect(ctx.reports.at(-1)).toBe(1);
  });

  it('leaves a segment in a language the model cannot read as recognised', async () => {
    const { translator, calls } = fakeTranslator();
    const out = await run(
      {
        segments: [segment('ave', 'la', 0, 1), segment('hello', 'en', 1, 2)],
        target: 'de',
        translator: Promise.resolve(translator),
        settings,
      },
      context(),
    );
    expect(calls.map((c) => c.from)).toEqual(['en']);
    expect(out.segments.map((s) => s.language)).toEqual(['la', 'de']);
  });

  it('uses the language codes of the model family (NLLB-200)', async () => {
    const { translator, calls } = fakeTranslator('Xenova/nllb-200-distilled-600M');
    await run(
      {
        segments: [segment('hola', 'es', 0, 1)],
        target: 'wo',
        translator: Promise.resolve(translator),
        settings,
      },
      context(),
    );
    expect(calls).toEqual([{ texts: ['hola'], from: 'spa_Latn', to: 'wol_Latn' }]);
  });

  it('does nothing, and takes no time, when everything is already in the target', async () => {
    const { translator, calls } = fakeTranslator();
    const out = await run(
      {
        segments: [segment('hola', 'es', 0, 1)],
        target: 'es',
        translator: Promise.resolve(translator),
        settings,
      },
      context(),
    );
    expect(calls).toEqual([]);
    expect(out.seconds).toBe(0);
    expect(out.segments[0]!.text).toBe('hola');
  });
});

describe('spreadWords', () => {
  it("spreads the translated words over the segment's time by length, with the mean confidence", () => {
    const source = segment('a b', 'en', 1, 3).words;
    const words = spreadWords('le grand chien', 1, 3, source);
    expect(words.map((w) => w.text)).toEqual(['le', 'grand', 'chien']);
    expect(words[0]!.start).toBe(1);
    expect(words.at(-1)!.end).toBe(3);
    for (let i = 1; i < words.length; i++) expect(words[i]!.start).toBe(words[i - 1]!.end);
    // 'grand' (5 letters) takes twice as long as 'le' (2): weights are length + 1.
    const length = (w: { start: number; end: number }) => w.end - w.start;
    expect(length(words[1]!) / length(words[0]!)).toBeCloseTo(2, 6);
    for (const w of words) expect(w.confidence).toBeCloseTo(0.55, 6);
    expect(spreadWords('  ', 0, 1, source)).toEqual([]);
  });

  it('says when it has to wait for its model, and not when the model is ready', async () => {
    const { translator } = fakeTranslator();
    const segments = [segment('night and day', 'en', 0, 2)];
    let waited = 0;
    await run(
      {
        segments,
        target: 'fr',
        translator: Promise.resolve(translator),
        settings,
        onWaitForModel: () => waited++,
      },
      context(),
    );
    expect(waited).toBe(0);
    let release: (t: LoadedTranslator) => void = () => {};
    const pending = new Promise<LoadedTranslator>((resolve) => (release = resolve));
    const running = run(
      { segments, target: 'fr', translator: pending, onWaitForModel: () => waited++, settings },
      context(),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(waited).toBe(1);
    release(translator);
    expect((await running).segments[0]!.language).toBe('fr');
  });
});
