import type { Endpoint } from '../../core/contract/endpoints';
import { ENDPOINTS } from '../../core/contract/endpoints';

/** What the user has entered, kept as the text the form will send (spec field names). */
export interface FormValues {
  endpoint: Endpoint;
  file: File | null;
  url: string;
  language_behaviour: string;
  language: string;
  toggle_noise_reduction: boolean;
  transcription_hint: string;
  toggle_diarization: boolean;
  diarization_num_speakers: string;
  diarization_min_speakers: string;
  diarization_max_speakers: string;
  toggle_direct_translate: boolean;
  target_translation_language: string;
  webhook_url: string;
  output_format: string;
  toggle_chapterization: boolean;
  toggle_summarization: boolean;
  summarization_type: string;
  toggle_emotion_recognition: boolean;
  /** The emotion model's id; '' for none. */
  emotion_model: string;
  /**
   * Not a field of the request: the text that was said, when the user has it and asks for it
   * to be timed (`align_script`), sent beside the request.
   */
  align_script: boolean;
  script: string;
}

export const DEFAULT_VALUES: FormValues = {
  endpoint: 'audio',
  file: null,
  url: '',
  language_behaviour: 'automatic single language',
  language: '',
  toggle_noise_reduction: false,
  transcription_hint: '',
  toggle_diarization: false,
  diarization_num_speakers: '',
  diarization_min_speakers: '',
  diarization_max_speakers: '',
  toggle_direct_translate: false,
  target_translation_language: '',
  webhook_url: '',
  output_format: 'json',
  toggle_chapterization: false,
  toggle_summarization: false,
  summarization_type: 'general',
  toggle_emotion_recognition: false,
  emotion_model: '',
  align_script: false,
  script: '',
};

/**
 * The request exactly as the HTTP interface would receive it. Options that are switched off
 * are not sent with their dependent values, so hidden leftovers never cause errors; the values
 * stay in the form for when the option is switched back on.
 */
export function toFormData(values: FormValues): FormData {
  const form = new FormData();
  const { fileField, urlField } = ENDPOINTS[values.endpoint];
  if (values.file) form.set(fileField, values.file);
  if (values.url.trim() !== '') form.set(urlField, values.url.trim());
  form.set('language_behaviour', values.language_behaviour);
  if (values.language_behaviour === 'manual') form.set('language', values.language);
  form.set('toggle_noise_reduction', String(values.toggle_noise_reduction));
  if (values.transcription_hint.trim() !== '') {
    form.set('transcription_hint', values.transcription_hint);
  }
  form.set('toggle_diarization', String(values.toggle_diarization));
  if (values.toggle_diarization) {
    for (const field of [
      'diarization_num_speakers',
      'diarization_min_speakers',
      'diarization_max_speakers',
    ] as const) {
      if (values[field].trim() !== '') form.set(field, values[field]);
    }
  }
  form.set('toggle_direct_translate', String(values.toggle_direct_translate));
  if (values.toggle_direct_translate) {
    form.set('target_translation_language', values.target_translation_language);
  }
  if (values.webhook_url.trim() !== '') form.set('webhook_url', values.webhook_url);
  form.set('output_format', values.output_format);
  form.set('toggle_chapterization', String(values.toggle_chapterization));
  form.set('toggle_summarization', String(values.toggle_summarization));
  if (values.toggle_summarization) form.set('summarization_type', values.summarization_type);
  form.set('toggle_emotion_recognition', String(values.toggle_emotion_recognition));
  if (values.toggle_emotion_recognition && values.emotion_model !== '') {
    form.set('emotion_model', values.emotion_model);
  }
  return form;
}

/** Problems reported on a media field are shown on the media input, whatever the endpoint. */
export function formFieldOf(field: string): string {
  if (field === 'audio' || field === 'video') return 'file';
  if (field === 'audio_url' || field === 'video_url') return 'url';
  return field;
}
