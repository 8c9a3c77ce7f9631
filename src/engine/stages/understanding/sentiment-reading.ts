/**
 * How each sentence was said (`prediction_raw.emotions`): its sentiment from its words, with the
 * time said with each sentiment by speaker and for the whole file, and with an emotion model its
 * emotion from its voice. Loaded only when asked for (see `loadSentimentReading`).
 */
import type { TranscriptionResponse } from '../../../core/contract/response';
import { findEmotions } from '../../../core/understanding/emotions';
import { roundToMillisecond } from '../../../core/units';
import type { StageContext } from '../../stage-context';
import type { ChannelAudio } from '../../streams/speech-audio';
import { loadSentimentLexicons } from './sentiment-lexicons';
import { hearEmotions } from './voice-emotions';

export { loadSentimentLexicons };

export interface EmotionsInput {
  response: TranscriptionResponse;
  asked: boolean;
  /** The model that tells emotion from the voice; null: emotion stays null. */
  emotionModel: string | null;
  /** The transcribed channels' audio, which the emotion model hears. */
  channels: readonly ChannelAudio[];
}

/**
 * Reads how each sentence was said: its sentiment from its words and, with an
 * emotion model, its emotion from its voice. `emotion_time` is the seconds this took (loading
 * the word lists and the model included), added to the total.
 */
export async function readEmotions(
  input: EmotionsInput,
  context: StageContext,
): Promise<TranscriptionResponse> {
  const raw = input.response.prediction_raw;
  const started = context.clock();
  context.progress(null, 'Reading how each sentence was said');
  const lexicons = await loadSentimentLexicons(
    context.ports.wordLists,
    raw.transcription.map((s) => s.language),
  );
  context.signal?.throwIfAborted();
  const found = findEmotions(raw.transcription, lexicons);
  const emotions =
    input.emotionModel === null
      ? found.emotions
      : await hearEmotions(found.emotions, input.channels, input.emotionModel, context);
  const seconds = context.clock() - started;
  return {
    ...input.response,
    prediction_raw: {
      ...raw,
      metadata: {
        ...raw.metadata,
        emotion_time: roundToMillisecond(seconds),
        total_transcription_time: roundToMillisecond(
          raw.metadata.total_transcription_time + seconds,
        ),
      },
      emotions,
      emotions_summary: found.summary,
      ...(found.note !== null ? { emotions_note: found.note } : {}),
    },
  };
}
