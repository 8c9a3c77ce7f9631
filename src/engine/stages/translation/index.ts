/**
 * The translation stage. In: the recognised segments (each in the language it was heard in),
 * the target's code and the host's translation model. Out: the segments in the target language,
 * each keeping its recognised text and language beside the translation, and the seconds spent.
 */
import type { RecognisedSegment } from '../../../core/assemble/response';
import { translationChoiceOf } from '../../../core/model-catalog';
import { modelLanguageCode } from '../../../core/translation/model-language';
import { spreadWords } from '../../../core/translation/words';
import { awaitModel } from '../../model-loading';
import type { LoadedTranslator } from '../../ports';
import type { StageContext } from '../../stage-context';
import type { TranslationSettings } from '../../stage-settings';

export interface TranslationStageInput {
  segments: readonly RecognisedSegment[];
  /** The service's code of the target language. */
  target: string;
  translator: Promise<LoadedTranslator>;
  /** Called when the stage has to wait for the model (still downloading or loading). */
  onWaitForModel?: () => void;
  settings: TranslationSettings;
}

export async function run(
  input: TranslationStageInput,
  context: StageContext,
): Promise<{ segments: RecognisedSegment[]; seconds: number }> {
  const { segments, target } = input;
  const batch = input.settings.batchSegments;
  const out: RecognisedSegment[] = segments.map((s) => ({ ...s }));
  // Segments already in the target are kept as they are; so are empty ones.
  const todo = out
    .map((s, index) => ({ s, index }))
    .filter(({ s }) => s.language !== target && s.text.trim() !== '');
  if (todo.length === 0) return { segments: out, seconds: 0 };
  const translator = await awaitModel(input.translator, input.onWaitForModel);
  const started = context.clock();
  const model = translationChoiceOf(translator.id);
  const to = modelLanguageCode(model, target);
  if (to === null) throw new Error(`${translator.id} cannot write "${target}".`);
  // Runs of segments in one source language, translated in batches.
  const groups: (typeof todo)[] = [];
  for (const item of todo) {
    const last = groups.at(-1);
    const from = modelLanguageCode(model, item.s.language);
    // A language the model cannot read stays as recognised; its code says what it is.
    if (from === null) continue;
    if (last && last[0]!.s.language === item.s.language && last.length < batch) last.push(item);
    else groups.push([item]);
  }
  let done = 0;
  const total = groups.reduce((n, g) => n + g.length, 0);
  context.progress(0, `Translating ${total} segment${total === 1 ? '' : 's'}`);
  for (const group of groups) {
    context.signal?.throwIfAborted();
    const from = modelLanguageCode(model, group[0]!.s.language)!;
    const texts = await translator.translate(
      group.map(({ s }) => s.text.trim()),
      from,
      to,
      context.signal ? { signal: context.signal } : {},
    );
    group.forEach(({ s, index }, i) => {
      const text = texts[i] ?? '';
      out[index] = {
        ...s,
        text,
        language: target,
        words: spreadWords(text, s.start, s.end, s.words),
        source: { text: s.text, language: s.language },
      };
    });
    done += group.length;
    context.progress(done / total, `Translated ${done} of ${total} segments`);
  }
  return { segments: out, seconds: context.clock() - started };
}
