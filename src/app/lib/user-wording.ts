import { CHECK_MODEL, modelFailureKind } from '../../core/model-failure';
import type { FormValues } from './form-fields';

/**
 * The page's words for the service's fields: what the person reads next to each control.
 * The service's own messages name fields as an API caller writes them (`toggle_diarization`,
 * "language_behaviour is manual"); the CLI, the JSON and the prediction panel keep that
 * wording, the page says it with the names of the controls it shows.
 */
export const CONTROL_LABELS: Record<string, string> = {
  audio: 'Media',
  video: 'Media',
  file: 'Media',
  audio_url: 'Media link',
  video_url: 'Media link',
  url: 'Media link',
  language_behaviour: 'Language detection',
  language: 'Spoken language',
  toggle_noise_reduction: 'Reduce background noise',
  transcription_hint: 'Vocabulary hint',
  toggle_diarization: 'Tell speakers apart',
  diarization_num_speakers: 'Exactly',
  diarization_min_speakers: 'At least',
  diarization_max_speakers: 'At most',
  toggle_direct_translate: 'Translate the transcript',
  target_translation_language: 'Translate into',
  webhook_url: 'Webhook URL',
  output_format: 'Result format',
  toggle_chapterization: 'Find chapters',
  toggle_summarization: 'Summarise',
  summarization_type: 'Summary',
  toggle_emotion_recognition: 'Read sentiment',
  emotion_model: 'Emotion from the voice',
  align_script: 'Time a text I already have',
  script: 'Text that was said',
};

const quoted = (field: string) => `“${CONTROL_LABELS[field] ?? field}”`;

/** "french" as the person sees it in the list: "French". */
function languageName(name: string): string {
  const trimmed = name.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/** The values a problem quotes ("got "x"", "(4)"), in order. */
function quotedValues(message: string): string[] {
  return [...message.matchAll(/"([^"]*)"|\((\d+)\)/g)].map((m) => m[1] ?? m[2] ?? '');
}

/**
 * Field names left in a message, each replaced by its control's label. Only names that cannot
 * be ordinary words are renamed anywhere (`toggle_diarization`, `audio_url`): `audio`, `video`,
 * `file`, `url` and `language` are also words of the sentences themselves ("not audio or
 * video"), so they are renamed only as the subject a problem of that very field begins with
 * ("audio must be a file upload").
 */
function relabel(message: string, field?: string): string {
  const identifiers = Object.keys(CONTROL_LABELS)
    .filter((name) => name.includes('_'))
    .sort((a, b) => b.length - a.length);
  const renamed = identifiers.reduce(
    (text, name) => text.replace(new RegExp(`\\b${name}\\b`, 'g'), quoted(name)),
    message,
  );
  if (field === undefined || field.includes('_') || !renamed.startsWith(`${field} `)) {
    return renamed;
  }
  return `${quoted(field)}${renamed.slice(field.length)}`;
}

/** A problem with a field, as the page says it. */
export function userProblem(field: string, message: string, values: FormValues): string {
  const [first, second] = quotedValues(message);
  const media = values.endpoint === 'video' ? 'a video' : 'a recording';
  if (/^Give a file in/.test(message)) return `Choose ${media} or paste a link to one.`;
  if (/is empty \(0 bytes\)/.test(message)) return `The file “${first}” is empty.`;
  if (/ page, not a media file/.test(message)) return message.replace(/^\w+ is/, 'The link is');
  if (/must use http or https|must be an absolute http\(s\) URL/.test(message)) {
    return `${quoted(field)} must be a web address starting with https:// or http://.`;
  }
  if (/is required when language_behaviour is manual/.test(message)) {
    return `Choose the spoken language, since “I know the language” is selected.`;
  }
  if (/is required when toggle_direct_translate/.test(message)) {
    return `Choose a language in ${quoted(field)}.`;
  }
  if (/is not a language Whisper knows/.test(message)) {
    return `“${first}” is not a language Murmur knows: pick one from the list by its English name (e.g. French).`;
  }
  if (/must be a positive whole number/.test(message)) {
    return `${quoted(field)} must be a whole number of speakers, 1 or more.`;
  }
  if (/is greater than/.test(message)) {
    return `${quoted('diarization_min_speakers')} (${first}) is more than ${quoted('diarization_max_speakers')} (${second}).`;
  }
  if (/is outside \[/.test(message)) {
    return `${quoted('diarization_num_speakers')} (${first}) must lie between ${quoted('diarization_min_speakers')} and ${quoted('diarization_max_speakers')}.`;
  }
  if (field === 'toggle_diarization' && /speaker models/.test(message)) {
    return `${quoted('toggle_diarization')} needs speaker models, and none are set up: switch it off to transcribe.`;
  }
  if (field === 'target_translation_language') {
    const chosen = values.target_translation_language.trim();
    const name = chosen === '' ? 'that language' : languageName(chosen);
    const model = /translation model (\S+?)\.?$/.exec(message)?.[1];
    if (model !== undefined) {
      return `Translation into ${name} is not available with the translation model ${model}: choose another language in ${quoted(field)}, or another translation model under Models.`;
    }
    if (/translation model|translation target/.test(message)) {
      return `Translation into ${name} is not available yet: choose English in ${quoted(field)}, or switch ${quoted('toggle_direct_translate')} off.`;
    }
  }
  return relabel(message, field);
}

/**
 * A failed job's message as the page says it: the problems with the options the person set,
 * when the service named them, its message otherwise (with field names relabelled).
 */
export function userError(
  message: string,
  problems: readonly { field: string; message: string }[],
  values: FormValues,
): string {
  if (problems.length > 0)
    return problems.map((p) => userProblem(p.field, p.message, values)).join(' ');
  if (modelFailureKind(message) !== null) {
    return `${message.slice(0, -CHECK_MODEL.length)}Check the model and the model host under Models.`;
  }
  return relabel(message);
}
