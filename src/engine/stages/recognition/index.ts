/**
 * The recognition stage. In: the channels of the speech stage as their speech is found, the
 * recogniser (loading meanwhile), and the request's language behaviour, task and hint. Out:
 * the recognised segments of every channel, in channel order, and the stage's own time. Each
 * segment is also posted as soon as it is decoded. A channel is recognised while its speech
 * is still being found: a window is decoded once its audio is settled.
 */
import type { ProvisionalSegment } from '../../../core/assemble/provisional-segment';
import type { RecognisedSegment } from '../../../core/assemble/response';
import type { LanguageBehaviour } from '../../../core/contract/request';
import type { LoadedWhisper } from '../../ports';
import type { StageContext } from '../../stage-context';
import type { RecognitionSettings } from '../../stage-settings';
import type { GrowingChannel } from '../../streams/growing-channel';
import { transcribeChannel } from './transcribe-channel';

// The window decoder is recognition's face to live captions, which decide what to decode when.
export type { EncodedWindow } from './language-detection';
export {
  segmentAt,
  WindowDecoder,
  type HeardWindow,
  type WindowDecoderOptions,
  type WindowToDecode,
} from './window-decoder';

export interface RecognitionStageInput {
  channels: readonly GrowingChannel[];
  /** How many of the channels go on to recognition, once the speech stage knows. */
  keptChannels: () => number | null;
  recogniser: Promise<LoadedWhisper>;
  languageBehaviour: LanguageBehaviour;
  language: string | null;
  task: 'transcribe' | 'translate';
  hint: string;
  onSegment: (segment: RecognisedSegment) => void;
  /** The window being decoded, before its checks (`RecognitionOptions.onProvisional`). */
  onProvisional?: (segments: ProvisionalSegment[]) => void;
  settings: RecognitionSettings;
}

export interface Recognised {
  segments: RecognisedSegment[];
  /** From the first window's start to the last one's end (wall-clock; it may overlap others). */
  seconds: number;
}

export async function run(
  input: RecognitionStageInput,
  context: StageContext,
): Promise<Recognised> {
  const { clock, signal } = context;
  const model = await input.recogniser;
  signal?.throwIfAborted();
  let started: number | null = null;
  const segments: RecognisedSegment[] = [];
  let position = 0;
  for (const channel of input.channels) {
    const report = (fileSeconds: number) => {
      const of = input.keptChannels() ?? input.channels.length;
      const label = of > 1 ? `Channel ${position + 1} of ${of}: r` : 'R';
      context.progress(
        Math.min(1, (position + fileSeconds / Math.max(channel.duration, 1e-9)) / of),
        `${label}ecognised ${Math.round(fileSeconds)} of ${Math.round(channel.duration)} s`,
      );
    };
    const found = await transcribeChannel(model, channel, Infinity, {
      languageBehaviour: input.languageBehaviour,
      language: input.language,
      task: input.task,
      hint: input.hint,
      ...(signal ? { signal } : {}),
      onSegment: input.onSegment,
      ...(input.onProvisional ? { onProvisional: input.onProvisional } : {}),
      settings: input.settings,
      onWindow: () => {
        // The first window's text shows before the window is done: from its start, the stage
        // reported is recognition, not the model download it waited for.
        if (started === null) report(0);
        started ??= clock();
      },
      onAdvance: (_, fileSeconds) => report(fileSeconds),
    });
    // A channel that turned out silent or a copy of another (its speech emptied once that was
    // known) gives no segments, whatever was heard in it before.
    if (channel.speech.length === 0) continue;
    // One at a time: spread as arguments, a very long recording's segments overflow the stack.
    for (const segment of found) segments.push(segment);
    position++;
  }
  return { segments, seconds: started === null ? 0 : clock() - started };
}
