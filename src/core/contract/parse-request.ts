import { ENDPOINTS, type Endpoint } from './endpoints';
import { ServiceError, type FieldProblem } from './errors';
import { FIELD_NAMES } from './fields';
import { nearestName } from '../nearest-name';
import {
  isLanguageCode,
  languageCodeOf,
  languageNameOf,
  translationTargetCodeOf,
} from './languages';
import { quoted, shortened } from './quoted';
import {
  LANGUAGE_BEHAVIOURS,
  OUTPUT_FORMATS,
  SUMMARY_TYPES,
  type SummaryType,
  type DiarizationBounds,
  type LanguageBehaviour,
  type MediaFile,
  type MediaInput,
  type OutputFormat,
  type TranscriptionRequest,
} from './request';

/**
 * The multipart fields of a request, as every host has them: a browser `FormData` fits this
 * shape as it is; Node hosts wrap a record of strings and files with `fieldsFromRecord`.
 */
export interface FieldSource<F extends MediaFile = MediaFile> {
  keys(): Iterable<string>;
  get(name: string): string | F | null;
}

export function fieldsFromRecord<F extends MediaFile>(
  strings: Readonly<Record<string, string>>,
  files: Readonly<Record<string, F>> = {},
): FieldSource<F> {
  return {
    keys: () => [...Object.keys(strings), ...Object.keys(files)],
    // Own fields only: names such as __proto__ or constructor must not reach Object's members.
    get: (name) =>
      (Object.hasOwn(files, name) ? files[name] : undefined) ??
      (Object.hasOwn(strings, name) ? strings[name] : undefined) ??
      null,
  };
}

export type ParseResult<F extends MediaFile> =
  { ok: true; request: TranscriptionRequest<F> } | { ok: false; problems: FieldProblem[] };

function given<F extends MediaFile>(value: string | F | null): value is string | F {
  return value !== null && (typeof value !== 'string' || value.trim() !== '');
}

function isFile<F extends MediaFile>(value: string | F): value is F {
  return typeof value !== 'string';
}

/** A model id on a model host: `owner/name`, letters, digits, `.`, `_` and `-`. */
const MODEL_ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;

/**
 * Reads the fields of one request for one endpoint, applies the defaults, and returns the typed
 * request or every problem found (never only the first), each naming its field.
 *
 * Decisions where the spec is silent: empty text fields count as absent (HTML forms send them);
 * unknown fields are problems (they are usually typos of real ones); language names are matched
 * without regard to case or extra spaces; `plain` is accepted for `txt`.
 */
export function parseRequest<F extends MediaFile>(
  source: FieldSource<F>,
  endpoint: Endpoint,
): ParseResult<F> {
  const problems: FieldProblem[] = [];
  const notices: string[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const { fileField, urlField } = ENDPOINTS[endpoint];
  const other = ENDPOINTS[endpoint === 'audio' ? 'video' : 'audio'];

  for (const key of new Set(source.keys())) {
    if (key === other.fileField || key === other.urlField) {
      const own = key === other.fileField ? fileField : urlField;
      problem(
        key,
        `${key} belongs to the ${other === ENDPOINTS.video ? 'video' : 'audio'} endpoint; use ${own} on the ${endpoint} endpoint.`,
      );
    } else if (!FIELD_NAMES.has(key)) {
      const meant = nearestName(key, FIELD_NAMES);
      const hint = meant !== null ? ` Did you mean ${meant}?` : '';
      // A name is cut as a value is: the answer never grows with what it is sent.
      const name = shortened(key);
      problem(name, `${name} is not a field of this service.${hint}`);
    }
  }

  /** A text field, trimmed; null when absent or empty. Files in text fields are problems. */
  const text = (field: string): string | null => {
    const value = source.get(field);
    if (value === null) return null;
    if (isFile(value)) {
      problem(field, `${field} must be text, not a file.`);
      return null;
    }
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  };

  const httpUrl = (field: string): string | null => {
    const value = text(field);
    if (value === null) return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      problem(field, `${field} must be an absolute http(s) URL; got ${quoted(value)}.`);
      return null;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      problem(
        field,
        `${field} must use http or https; got ${quoted(url.protocol.replace(':', ''))}.`,
      );
      return null;
    }
    return url.href;
  };

  const boolean = (field: string): boolean => {
    const value = text(field);
    if (value === null) return false;
    if (value === 'true' || value === 'True') return true;
    if (value === 'false' || value === 'False') return false;
    problem(field, `${field} must be true or false; got ${quoted(value)}.`);
    return false;
  };

  const count = (field: string): number | null => {
    const value = text(field);
    if (value === null) return null;
    if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
      problem(field, `${field} must be a positive whole number; got ${quoted(value)}.`);
      return null;
    }
    return Number(value);
  };

  // Media: the file wins over the URL (spec 4.3, rule 1).
  let media: MediaInput<F> | null = null;
  const fileValue = source.get(fileField);
  if (given(fileValue)) {
    if (!isFile(fileValue)) {
      problem(fileField, `${fileField} must be a file upload, not text.`);
    } else if (fileValue.size === 0) {
      problem(fileField, `${fileField} is empty (0 bytes): ${quoted(fileValue.name)}.`);
    } else {
      media = { kind: 'file', file: fileValue };
    }
  }
  const url = httpUrl(urlField);
  if (given(fileValue) && url !== null) {
    notices.push(`${urlField} was ignored because a file was given in ${fileField}.`);
  } else if (url !== null) {
    media = { kind: 'url', url };
  }
  if (!given(fileValue) && !given(source.get(urlField))) {
    problem(fileField, `Give a file in ${fileField} or a URL in ${urlField}.`);
  }

  // Language.
  let behaviour: LanguageBehaviour = 'automatic single language';
  const behaviourText = text('language_behaviour');
  if (behaviourText !== null) {
    const normalised = behaviourText.toLowerCase().replace(/\s+/g, ' ');
    const known = LANGUAGE_BEHAVIOURS.find((b) => b === normalised);
    if (known === undefined) {
      problem(
        'language_behaviour',
        `language_behaviour must be one of ${LANGUAGE_BEHAVIOURS.map((b) => `"${b}"`).join(', ')}; got ${quoted(behaviourText)}.`,
      );
    } else {
      behaviour = known;
    }
  }
  let language = null;
  const languageText = text('language');
  if (languageText !== null) {
    language = languageCodeOf(languageText);
    if (language === null) problem('language', unknownLanguage('language', languageText));
    else if (behaviour !== 'manual') {
      notices.push('language was ignored because language_behaviour is not manual.');
    }
  } else if (behaviour === 'manual') {
    problem('language', 'language is required when language_behaviour is manual.');
  }

  // Translation.
  const translate = boolean('toggle_direct_translate');
  let target = null;
  const targetText = text('target_translation_language');
  if (targetText !== null) {
    target = translationTargetCodeOf(targetText);
    if (target === null) {
      problem(
        'target_translation_language',
        unknownLanguage('target_translation_language', targetText),
      );
    } else if (!translate) {
      notices.push(
        'target_translation_language was ignored because toggle_direct_translate is off.',
      );
    }
  } else if (translate) {
    problem(
      'target_translation_language',
      'target_translation_language is required when toggle_direct_translate is true.',
    );
  }

  // Diarization bounds.
  const diarize = boolean('toggle_diarization');
  const diarization: DiarizationBounds = {
    num_speakers: count('diarization_num_speakers'),
    min_speakers: count('diarization_min_speakers'),
    max_speakers: count('diarization_max_speakers'),
  };
  const { num_speakers: num, min_speakers: min, max_speakers: max } = diarization;
  if (min !== null && max !== null && min > max) {
    problem(
      'diarization_min_speakers',
      `diarization_min_speakers (${min}) is greater than diarization_max_speakers (${max}).`,
    );
  }
  if (num !== null && ((min !== null && num < min) || (max !== null && num > max))) {
    problem(
      'diarization_num_speakers',
      `diarization_num_speakers (${num}) is outside [${min ?? 1}, ${max ?? '∞'}] set by the min and max fields.`,
    );
  }
  if (!diarize && (num !== null || min !== null || max !== null)) {
    notices.push('The diarization_* counts were ignored because toggle_diarization is off.');
  }

  // Output.
  let outputFormat: OutputFormat = 'json';
  const formatText = text('output_format');
  if (formatText !== null) {
    const lower = formatText.toLowerCase();
    const known = lower === 'plain' ? 'txt' : OUTPUT_FORMATS.find((f) => f === lower);
    if (known === undefined) {
      problem(
        'output_format',
        `output_format must be one of json, srt, vtt, txt; got ${quoted(formatText)}.`,
      );
    } else {
      outputFormat = known;
    }
  }

  // Understanding.
  const chapterization = boolean('toggle_chapterization');
  const summarization = boolean('toggle_summarization');
  let summaryType: SummaryType = 'general';
  const summaryTypeText = text('summarization_type');
  if (summaryTypeText !== null) {
    const known = SUMMARY_TYPES.find((t) => t === summaryTypeText.toLowerCase());
    if (known === undefined) {
      problem(
        'summarization_type',
        `summarization_type must be one of general, concise, bullet_points; got ${quoted(summaryTypeText)}.`,
      );
    } else {
      summaryType = known;
      if (!summarization) {
        notices.push('summarization_type was ignored because toggle_summarization is off.');
      }
    }
  }

  const emotionRecognition = boolean('toggle_emotion_recognition');
  let emotionModel = text('emotion_model');
  if (emotionModel !== null) {
    if (!MODEL_ID.test(emotionModel)) {
      problem(
        'emotion_model',
        `emotion_model must be a model id as the model host names it (owner/name); got ${quoted(shortened(emotionModel))}.`,
      );
      emotionModel = null;
    } else if (!emotionRecognition) {
      notices.push('emotion_model was ignored because toggle_emotion_recognition is off.');
      emotionModel = null;
    }
  }

  const noiseReduction = boolean('toggle_noise_reduction');
  const hint = text('transcription_hint') ?? '';
  const webhook = httpUrl('webhook_url');

  if (problems.length > 0 || media === null) return { ok: false, problems };
  return {
    ok: true,
    request: {
      endpoint,
      media,
      language_behaviour: behaviour,
      language: behaviour === 'manual' ? language : null,
      toggle_noise_reduction: noiseReduction,
      transcription_hint: hint,
      toggle_diarization: diarize,
      diarization: diarize
        ? diarization
        : { num_speakers: null, min_speakers: null, max_speakers: null },
      toggle_direct_translate: translate,
      target_translation_language: translate ? target : null,
      webhook_url: webhook,
      output_format: outputFormat,
      toggle_chapterization: chapterization,
      toggle_summarization: summarization,
      summarization_type: summarization ? summaryType : 'general',
      toggle_emotion_recognition: emotionRecognition,
      emotion_model: emotionModel,
      notices,
    },
  };
}

function unknownLanguage(field: string, name: string): string {
  const asCode = name.trim().toLowerCase();
  const hint = isLanguageCode(asCode)
    ? ` "${asCode}" is a language code; the name is "${languageNameOf(asCode)}".`
    : '';
  return `${field} ${quoted(name)} is not a language Whisper knows; give its English name (e.g. "french").${hint}`;
}

/** `parseRequest` for hosts that work with exceptions: problems become one `invalid_request`. */
export function parseRequestOrThrow<F extends MediaFile>(
  source: FieldSource<F>,
  endpoint: Endpoint,
): TranscriptionRequest<F> {
  const result = parseRequest(source, endpoint);
  if (result.ok) return result.request;
  const n = result.problems.length;
  throw new ServiceError(
    'invalid_request',
    `The request has ${n} problem${n === 1 ? '' : 's'}: ${result.problems.map((p) => p.message).join(' ')}`,
    result.problems,
  );
}
