import { ENDPOINTS, type Endpoint } from './endpoints';
import { ERROR_CODES, type ErrorCode } from './errors';
import { FIELD_SPECS, type FieldSpec } from './fields';
import { LANGUAGE_NAMES_SORTED, TRANSLATION_TARGET_NAMES_SORTED } from './languages';

/**
 * The OpenAPI 3.0 description of the HTTP service, made from the same field table the request
 * parser reads (`FIELD_SPECS`) and the same error table every host answers with, so that the
 * description and the service cannot drift apart.
 */

type Schema = Record<string, unknown>;

const number = (description: string): Schema => ({ type: 'number', description });
const string = (description: string): Schema => ({ type: 'string', description });

function fieldSchema(field: FieldSpec): Schema {
  const base: Schema = { description: field.description };
  switch (field.kind) {
    case 'file':
      return { ...base, type: 'string', format: 'binary' };
    case 'url':
      return { ...base, type: 'string', format: 'uri', pattern: '^https?://' };
    case 'enum':
      // `plain` is read as `txt`, as the original service's later format list had it.
      return {
        ...base,
        type: 'string',
        enum: field.name === 'output_format' ? [...(field.values ?? []), 'plain'] : field.values,
      };
    case 'language': {
      // Names are matched without regard to case (and a few aliases are read), so they are
      // listed rather than made an enum that would refuse "French".
      const names =
        field.name === 'target_translation_language'
          ? TRANSLATION_TARGET_NAMES_SORTED
          : LANGUAGE_NAMES_SORTED;
      return {
        type: 'string',
        description: `${field.description} One of: ${names.join(', ')}.`,
        example: 'french',
      };
    }
    case 'boolean':
      return { ...base, type: 'string', enum: ['true', 'false', 'True', 'False'] };
    case 'count':
      return { ...base, type: 'integer', minimum: 1 };
    case 'text':
      return { ...base, type: 'string' };
  }
}

/** The multipart fields one endpoint accepts, by name. */
export function endpointFields(endpoint: Endpoint): FieldSpec[] {
  return FIELD_SPECS.filter((f) => f.endpoint === undefined || f.endpoint === endpoint);
}

function requestSchema(endpoint: Endpoint): Schema {
  const { fileField, urlField } = ENDPOINTS[endpoint];
  const properties: Record<string, Schema> = {};
  for (const field of endpointFields(endpoint)) {
    const schema = fieldSchema(field);
    if (field.default !== null && field.default !== '') schema.default = field.default;
    properties[field.name] = schema;
  }
  return {
    type: 'object',
    description: `Give ${fileField} or ${urlField}; when both are given, ${urlField} is ignored.`,
    properties,
    additionalProperties: false,
  };
}

const wordSchema: Schema = {
  type: 'object',
  required: ['word', 'time_begin', 'time_end', 'confidence'],
  properties: {
    word: string('The word, with its leading space.'),
    time_begin: number('Start, in seconds.'),
    time_end: number('End, in seconds.'),
    confidence: { type: 'number', minimum: 0, maximum: 1, description: 'From 0 to 1.' },
  },
};

const segmentSchema: Schema = {
  type: 'object',
  required: ['words', 'transcription', 'language', 'time_begin', 'time_end', 'speaker', 'channel'],
  properties: {
    words: { type: 'array', items: { $ref: '#/components/schemas/Word' } },
    transcription: string('Text of the segment, with a leading space.'),
    language: string('Short language code, such as "en".'),
    time_begin: number('Start, in seconds.'),
    time_end: number('End, in seconds.'),
    speaker: string('"speaker_not_activated" when diarization is off.'),
    channel: { type: 'string', pattern: '^channel_[0-9]+$' },
    source_transcription: string(
      'Translated segments only (an added field): the recognised text, with a leading space.',
    ),
    source_language: string(
      'Translated segments only (an added field): the code of the language it was heard in.',
    ),
    not_said: {
      type: 'boolean',
      enum: [true],
      description:
        'Aligned segments only (an added field): true on a line of the script that nobody said; absent otherwise.',
    },
  },
};

const speakerSpanSchema: Schema = {
  type: 'object',
  required: ['speaker', 'channel', 'time_begin', 'time_end'],
  properties: {
    speaker: { type: 'string' },
    channel: { type: 'string' },
    time_begin: { type: 'number' },
    time_end: { type: 'number' },
  },
};

const TIMES = [
  'audio_conversion_time',
  'vad_time',
  'inference_time',
  'diarization_time',
  'translation_time',
  'emotion_time',
  'summarization_time',
  'chapterization_time',
  'total_transcription_time',
] as const;

const metadataSchema: Schema = {
  type: 'object',
  required: ['provided_file_metadata', 'nb_silent_channels', 'total_speech_duration', ...TIMES],
  properties: {
    provided_file_metadata: {
      type: 'object',
      required: [
        'nb_channels',
        'sample_rate',
        'sample_width',
        'duration',
        'original_file_type',
        'number_similar_channels',
      ],
      properties: {
        nb_channels: { type: 'integer' },
        sample_rate: { type: 'integer', description: 'Hz.' },
        sample_width: { type: 'integer', description: 'Bits.' },
        duration: number('Seconds.'),
        original_file_type: { type: 'string', enum: ['audio', 'video'] },
        number_similar_channels: { type: 'integer' },
      },
    },
    nb_silent_channels: { type: 'integer', description: '-1 for a single-channel file.' },
    total_speech_duration: number('Seconds of speech.'),
    ...Object.fromEntries(TIMES.map((t) => [t, number('Seconds.')])),
    billing: {
      type: 'array',
      description: 'Billable seconds per channel, by the billing rules (an added field).',
      items: {
        type: 'object',
        required: ['channel', 'billable_seconds', 'reason', 'similar_to'],
        properties: {
          channel: { type: 'string' },
          billable_seconds: { type: 'number' },
          reason: { type: 'string', enum: ['billed', 'silent', 'similar'] },
          similar_to: { type: 'string', nullable: true },
        },
      },
    },
    source_page: {
      type: 'object',
      description:
        'The web page the media was read from, when audio_url or video_url linked to one (an added field).',
      required: ['url', 'title'],
      properties: {
        url: { type: 'string' },
        title: { type: 'string', nullable: true },
      },
    },
  },
};

const chapterSchema: Schema = {
  type: 'object',
  description: 'A stretch of the transcript on one topic (an added field).',
  required: [
    'headline',
    'gist',
    'keywords',
    'summary',
    'time_begin',
    'time_end',
    'first_segment',
    'last_segment',
  ],
  properties: {
    headline: string('A few words of its own text that hold its most characteristic terms.'),
    gist: string('Its few most characteristic terms.'),
    keywords: {
      type: 'array',
      items: { type: 'string' },
      description: 'Its most characteristic terms against the rest of the file.',
    },
    summary: string('Its key sentences, in the order they were said.'),
    time_begin: number('Seconds.'),
    time_end: number('Seconds.'),
    first_segment: { type: 'integer', description: 'Index in transcription.' },
    last_segment: { type: 'integer', description: 'Index in transcription.' },
  },
};

const summarizationSchema: Schema = {
  type: 'object',
  description: 'An extractive summary: sentences of the transcript, in order (an added field).',
  required: ['type', 'text', 'sentences'],
  properties: {
    type: { type: 'string', enum: ['general', 'concise', 'bullet_points'] },
    text: string('Paragraphs (general), sentences (concise) or "- " points (bullet_points).'),
    sentences: {
      type: 'array',
      items: {
        type: 'object',
        required: ['text', 'time_begin', 'time_end'],
        properties: {
          text: { type: 'string' },
          time_begin: number('Seconds.'),
          time_end: number('Seconds.'),
        },
      },
    },
  },
};

const shareProperties: Schema = {
  seconds: number('Seconds of sentences with a sentiment.'),
  positive: number('Share of those seconds, 0 to 1.'),
  negative: number('Share of those seconds, 0 to 1.'),
  neutral: number('Share of those seconds, 0 to 1.'),
  mixed: number('Share of those seconds, 0 to 1.'),
};
const SHARES = ['seconds', 'positive', 'negative', 'neutral', 'mixed'];

const sentenceEmotionSchema: Schema = {
  type: 'object',
  description: 'A sentence of the transcript and how it was said (an added field).',
  required: [
    'text',
    'sentiment',
    'confidence',
    'emotion',
    'emotion_confidence',
    'time_begin',
    'time_end',
    'channel',
    'speaker',
  ],
  properties: {
    text: { type: 'string' },
    sentiment: {
      type: 'string',
      nullable: true,
      enum: ['positive', 'negative', 'neutral', 'mixed'],
      description: 'From its words; null in a language without a sentiment lexicon.',
    },
    confidence: { type: 'number', nullable: true, description: 'From 0 to 1.' },
    emotion: {
      type: 'string',
      nullable: true,
      enum: ['neutral', 'calm', 'happy', 'sad', 'angry', 'fearful', 'disgusted', 'surprised'],
      description:
        'From the voice, with emotion_model; null without one, under 1 s, or below 0.5 probability.',
    },
    emotion_confidence: { type: 'number', nullable: true, description: 'From 0 to 1.' },
    time_begin: number('Seconds.'),
    time_end: number('Seconds.'),
    channel: { type: 'string' },
    speaker: { type: 'string' },
  },
};

const emotionSummarySchema: Schema = {
  type: 'object',
  description: 'The time said with each sentiment, for the file and by speaker (an added field).',
  required: ['file', 'speakers'],
  properties: {
    file: { type: 'object', required: SHARES, properties: shareProperties },
    speakers: {
      type: 'array',
      items: {
        type: 'object',
        description: 'One speaker on one channel.',
        required: ['speaker', 'channel', ...SHARES],
        properties: {
          speaker: { type: 'string' },
          channel: { type: 'string' },
          ...shareProperties,
        },
      },
    },
  },
};

const responseSchema: Schema = {
  type: 'object',
  required: ['prediction', 'prediction_raw'],
  properties: {
    prediction: string(
      'The result in output_format: the SRT or VTT file, one line a segment (txt), or the JSON text of the segments (json).',
    ),
    prediction_raw: {
      type: 'object',
      required: ['transcription', 'metadata', 'speaker_mapping'],
      properties: {
        transcription: { type: 'array', items: { $ref: '#/components/schemas/Segment' } },
        metadata: { $ref: '#/components/schemas/Metadata' },
        speaker_mapping: { type: 'array', items: { $ref: '#/components/schemas/SpeakerSpan' } },
        chapters: {
          type: 'array',
          items: { $ref: '#/components/schemas/Chapter' },
          description: 'With toggle_chapterization (an added field).',
        },
        chapters_note: string(
          'Beside chapters, when the transcript is one chapter (or none) without a search: why.',
        ),
        summarization: { $ref: '#/components/schemas/Summarization' },
        emotions: {
          type: 'array',
          items: { $ref: '#/components/schemas/SentenceEmotion' },
          description: 'With toggle_emotion_recognition (an added field).',
        },
        emotions_summary: { $ref: '#/components/schemas/EmotionSummary' },
        emotions_note: string('Beside emotions: which sentences have no sentiment, and why.'),
      },
    },
  },
};

const errorSchema: Schema = {
  type: 'object',
  required: [
    'timestamp',
    'path',
    'request_id',
    'statusCode',
    'error',
    'message',
    'validation_errors',
    'field_errors',
  ],
  properties: {
    timestamp: { type: 'string', format: 'date-time' },
    path: { type: 'string' },
    request_id: { type: 'string', pattern: '^M-[0-9a-f]{8}$' },
    statusCode: { type: 'integer' },
    error: { type: 'string', enum: Object.keys(ERROR_CODES) },
    message: { type: 'string' },
    validation_errors: { type: 'array', items: { type: 'string' } },
    field_errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

/** Failures an endpoint can answer with, one entry per status (codes that share it listed). */
function errorResponses(codes: readonly ErrorCode[]): Record<string, Schema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Schema> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const description = list.map((c) => `${c}: ${ERROR_CODES[c].title}`).join('; ');
    const headers =
      status === 429
        ? { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } }
        : undefined;
    responses[String(status)] = {
      description,
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return responses;
}

const TRANSCRIPTION_FAILURES = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
  (c) => c !== 'not_found',
);

function transcriptionOperation(endpoint: Endpoint): Schema {
  return {
    operationId: `${endpoint}Transcription`,
    summary: `Transcribe ${endpoint === 'audio' ? 'an audio' : 'a video'} file or URL`,
    description:
      'Synchronous: the connection stays open until the result is ready. When webhook_url is given, the same response is also POSTed there as {"request_id", "payload"}.',
    tags: ['transcription'],
    security: [{ serviceKey: [] }],
    requestBody: {
      required: true,
      content: { 'multipart/form-data': { schema: requestSchema(endpoint) } },
    },
    responses: {
      '200': {
        description: 'The transcription.',
        headers: { 'x-request-id': { schema: { type: 'string' } } },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Response' } } },
      },
      ...errorResponses(TRANSCRIPTION_FAILURES),
    },
  };
}

/** The async endpoint takes either endpoint's fields: a video file or URL makes it a video job. */
function jobRequestSchema(): Schema {
  const audio = requestSchema('audio');
  const video = requestSchema('video');
  return {
    type: 'object',
    description:
      'The fields of either synchronous endpoint: audio or audio_url, or video or video_url (a video job), and every option.',
    properties: {
      ...(audio.properties as Record<string, Schema>),
      ...(video.properties as Record<string, Schema>),
    },
    additionalProperties: false,
  };
}

const JOB_STATUSES = ['queued', 'processing', 'done', 'error', 'cancelled'];

const jobSchema: Schema = {
  type: 'object',
  required: ['id', 'status', 'stage', 'progress', 'created_at', 'finished_at', 'result', 'error'],
  properties: {
    id: string('The job id.'),
    status: { type: 'string', enum: JOB_STATUSES },
    stage: { type: 'string', nullable: true, description: 'The stage running now.' },
    progress: { type: 'number', nullable: true, minimum: 0, maximum: 1 },
    created_at: { type: 'string', format: 'date-time' },
    finished_at: { type: 'string', format: 'date-time', nullable: true },
    result: {
      allOf: [{ $ref: '#/components/schemas/Response' }],
      nullable: true,
      description: 'The response, once done.',
    },
    error: {
      allOf: [{ $ref: '#/components/schemas/Error' }],
      nullable: true,
      description: 'The error body, once failed or cancelled.',
    },
  },
};

const jobIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
};

function jobOperations(): Record<string, Schema> {
  const jobAnswer = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } },
  });
  return {
    '/v2/transcription': {
      post: {
        operationId: 'submitTranscription',
        summary: 'Submit a transcription job',
        description:
          'Answers 202 at once with the job id; the request is validated first (422 at once). With webhook_url, the result is POSTed there as a signed Standard Webhooks event (transcription.success or transcription.error).',
        tags: ['jobs'],
        security: [{ serviceKey: [] }],
        requestBody: {
          required: true,
          content: { 'multipart/form-data': { schema: jobRequestSchema() } },
        },
        responses: {
          '202': {
            description: 'Queued.',
            headers: { location: { schema: { type: 'string' } } },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'result_url'],
                  properties: { id: { type: 'string' }, result_url: { type: 'string' } },
                },
              },
            },
          },
          ...errorResponses(TRANSCRIPTION_FAILURES),
        },
      },
    },
    '/v2/transcription/{id}': {
      get: {
        operationId: 'getTranscription',
        summary: "A job's state, and its result once done",
        tags: ['jobs'],
        security: [{ serviceKey: [] }],
        parameters: [jobIdParameter],
        responses: {
          '200': jobAnswer('The job.'),
          ...errorResponses(['unauthorized', 'not_found']),
        },
      },
      delete: {
        operationId: 'cancelTranscription',
        summary: 'Cancel a queued or running job (a finished one is left as it is)',
        tags: ['jobs'],
        security: [{ serviceKey: [] }],
        parameters: [jobIdParameter],
        responses: {
          '200': jobAnswer('The job, after the cancellation.'),
          ...errorResponses(['unauthorized', 'not_found']),
        },
      },
    },
  };
}

export function openApiDocument(version: string): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Murmur transcription service',
      version,
      description:
        'Speech to text with timed segments and words, languages, channels and speakers; subtitles in SRT and VTT. Every failure answers a non-200 status with the Error body.',
    },
    tags: [{ name: 'transcription' }, { name: 'jobs' }, { name: 'service' }],
    paths: {
      [ENDPOINTS.audio.path]: { post: transcriptionOperation('audio') },
      [ENDPOINTS.video.path]: { post: transcriptionOperation('video') },
      ...jobOperations(),
      '/health': {
        get: {
          operationId: 'health',
          summary: 'Whether the service is up, and its load',
          tags: ['service'],
          responses: {
            '200': {
              description: 'Up.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
            },
            ...errorResponses(['engine_unavailable']),
          },
        },
      },
    },
    components: {
      securitySchemes: { serviceKey: { type: 'apiKey', in: 'header', name: 'x-service-key' } },
      schemas: {
        Response: responseSchema,
        Segment: segmentSchema,
        Chapter: chapterSchema,
        Summarization: summarizationSchema,
        SentenceEmotion: sentenceEmotionSchema,
        EmotionSummary: emotionSummarySchema,
        Word: wordSchema,
        SpeakerSpan: speakerSpanSchema,
        Metadata: metadataSchema,
        Error: errorSchema,
        Job: jobSchema,
        Health: {
          type: 'object',
          required: ['status', 'running', 'waiting'],
          properties: {
            status: { type: 'string', enum: ['ok', 'stopping', 'unavailable'] },
            running: { type: 'integer', description: 'Transcriptions running: requests and jobs.' },
            waiting: {
              type: 'integer',
              description: 'Requests admitted (their upload arrived) and waiting for a slot.',
            },
            concurrency: { type: 'integer' },
            queue: { type: 'integer' },
            uploads: {
              type: 'object',
              description:
                'Uploads being read (they hold no place yet), the bytes they hold, and the most they may hold together.',
              properties: {
                reading: { type: 'integer' },
                bytes: { type: 'integer' },
                max_bytes: { type: 'integer' },
              },
            },
            jobs: {
              type: 'object',
              description:
                'The async jobs: where they are kept (memory or redis), how many wait and run.',
            },
            redis: {
              type: 'object',
              description: 'With a Redis queue: whether it answers (503 when it does not).',
            },
          },
        },
      },
    },
  };
}
