/**
 * Emotion from the voice: each sentence's audio, from its channel, heard by the emotion model
 * the request named. A sentence under a second gets none (too little voice to judge), nor does
 * one the model is not sure of; only the start of a long sentence is heard.
 */
import { pcmFloats } from '../../../core/audio/pcm';
import type { SentenceEmotion } from '../../../core/contract/response';
import { EMOTION_RULES, voiceEmotion } from '../../../core/understanding/voice-emotion';
import type { StageContext } from '../../stage-context';
import type { ChannelAudio } from '../../streams/speech-audio';

export async function hearEmotions(
  sentences: readonly SentenceEmotion[],
  channels: readonly ChannelAudio[],
  modelId: string,
  context: StageContext,
): Promise<SentenceEmotion[]> {
  const models = context.ports.emotionModels;
  if (models === undefined) return [...sentences];
  context.progress(null, 'Loading the emotion model');
  const model = await models.load(modelId, {
    signal: context.signal,
    onProgress: (fraction, detail) => context.progress(fraction, detail),
  });
  const byLabel = new Map(channels.map((c) => [`channel_${c.index}`, c]));
  const heard: SentenceEmotion[] = [];
  for (const [i, sentence] of sentences.entries()) {
    context.signal?.throwIfAborted();
    context.progress(i / sentences.length, 'Hearing the emotion of each sentence');
    const channel = byLabel.get(sentence.channel);
    const length = sentence.time_end - sentence.time_begin;
    if (channel === undefined || length < EMOTION_RULES.minSeconds) {
      heard.push(sentence);
      continue;
    }
    const from = Math.floor(sentence.time_begin * model.sampleRate);
    const to = Math.min(
      channel.samples.length,
      from + Math.round(Math.min(length, EMOTION_RULES.maxSeconds) * model.sampleRate),
    );
    const found = voiceEmotion(
      await model.classify(pcmFloats(channel.samples, from, to)),
      model.labels,
    );
    heard.push({
      ...sentence,
      emotion: found.emotion,
      emotion_confidence: found.emotion === null ? null : found.confidence,
    });
  }
  return heard;
}
