import { describe, expect, it } from 'vitest';
import { fieldsFromRecord, parseRequest, parseRequestOrThrow } from './parse-request';
import { ServiceError } from './errors';
import { requestWithDefaults, type MediaFile } from './request';

const wav: MediaFile = { name: 'talk.wav', size: 1234, type: 'audio/wav' };
const mp4: MediaFile = { name: 'clip.mp4', size: 9999, type: 'video/mp4' };

function audio(strings: Record<string, string>, file: MediaFile | null = wav) {
  return parseRequest(fieldsFromRecord(strings, file ? { audio: file } : {}), 'audio');
}

function problemsOf(result: ReturnType<typeof audio>) {
  if (result.ok) throw new Error('expected problems');
  return result.problems;
}

function fieldsWithProblems(result: ReturnType<typeof audio>) {
  return problemsOf(result).map((p) => p.field);
}

describe('parseRequest', () => {
  it('applies the defaults to a file-only request', () => {
    const result = audio({});
    expect(result).toEqual({
      ok: true,
      request: {
        endpoint: 'audio',
        media: { kind: 'file', file: wav },
        language_behaviour: 'automatic single language',
        language: null,
        toggle_noise_reduction: false,
        transcription_hint: '',
        toggle_diarization: false,
        diarization: { num_speakers: null, min_speakers: null, max_speakers: null },
        toggle_direct_translate: false,
        target_translation_language: null,
        webhook_url: null,
        output_format: 'json',
        toggle_chapterization: false,
        toggle_summarization: false,
        summarization_type: 'general',
        toggle_emotion_recognition: false,
        emotion_model: null,
        notices: [],
      },
    });
  });

  it('reads emotion recognition and the emotion model', () => {
    const result = audio({
      toggle_emotion_recognition: 'True',
      emotion_model: ' onnx-community/wav2vec2-emotion-recognition-ONNX ',
    });
    expect(result.ok && result.request).toMatchObject({
      toggle_emotion_recognition: true,
      emotion_model: 'onnx-community/wav2vec2-emotion-recognition-ONNX',
      notices: [],
    });
  });

  it('refuses an emotion model that is not a model id, and ignores one without the toggle', () => {
    expect(
      problemsOf(audio({ toggle_emotion_recognition: 'true', emotion_model: 'https://x/y' })),
    ).toEqual([
      {
        field: 'emotion_model',
        message:
          'emotion_model must be a model id as the model host names it (owner/name); got "https://x/y".',
      },
    ]);
    const ignored = audio({ emotion_model: 'murmur-test/emotion-synth' });
    expect(ignored.ok && ignored.request).toMatchObject({
      emotion_model: null,
      notices: ['emotion_model was ignored because toggle_emotion_recognition is off.'],
    });
  });

  it('reads chapters, summaries and the summary type', () => {
    const result = audio({
      toggle_chapterization: 'true',
      toggle_summarization: 'True',
      summarization_type: 'Bullet_Points',
    });
    expect(result.ok && result.request).toMatchObject({
      toggle_chapterization: true,
      toggle_summarization: true,
      summarization_type: 'bullet_points',
      notices: [],
    });
  });

  it('refuses an unknown summary type, naming the field and the types', () => {
    expect(
      problemsOf(audio({ toggle_summarization: 'true', summarization_type: 'short' })),
    ).toEqual([
      {
        field: 'summarization_type',
        message: 'summarization_type must be one of general, concise, bullet_points; got "short".',
      },
    ]);
  });

  it('notes a summary type given without summaries, which then has no effect', () => {
    const result = audio({ summarization_type: 'concise' });
    expect(result.ok && result.request).toMatchObject({
      toggle_summarization: false,
      summarization_type: 'general',
      notices: ['summarization_type was ignored because toggle_summarization is off.'],
    });
  });

  it('reads every field of a full request', () => {
    const result = audio({
      language_behaviour: 'manual',
      language: 'French',
      toggle_noise_reduction: 'True',
      transcription_hint: '  Murmur, ComfyUI ',
      toggle_diarization: 'true',
      diarization_min_speakers: '2',
      diarization_max_speakers: '4',
      diarization_num_speakers: '3',
      toggle_direct_translate: 'true',
      target_translation_language: 'english',
      webhook_url: 'https://hooks.example.com/done',
      output_format: 'srt',
    });
    expect(result.ok && result.request).toMatchObject({
      language_behaviour: 'manual',
      language: 'fr',
      toggle_noise_reduction: true,
      transcription_hint: 'Murmur, ComfyUI',
      toggle_diarization: true,
      diarization: { num_speakers: 3, min_speakers: 2, max_speakers: 4 },
      toggle_direct_translate: true,
      target_translation_language: 'en',
      webhook_url: 'https://hooks.example.com/done',
      output_format: 'srt',
    });
  });

  it('rejects a request with neither file nor URL', () => {
    const problems = problemsOf(audio({}, null));
    expect(problems).toEqual([
      { field: 'audio', message: 'Give a file in audio or a URL in audio_url.' },
    ]);
  });

  it('accepts a URL alone', () => {
    const result = audio({ audio_url: 'https://media.example.com/a.mp3' }, null);
    expect(result.ok && result.request.media).toEqual({
      kind: 'url',
      url: 'https://media.example.com/a.mp3',
    });
  });

  it('ignores the URL when a file is given, and says so', () => {
    const result = audio({ audio_url: 'https://media.example.com/a.mp3' });
    expect(result.ok && result.request.media).toEqual({ kind: 'file', file: wav });
    expect(result.ok && result.request.notices).toEqual([
      'audio_url was ignored because a file was given in audio.',
    ]);
  });

  it('rejects a URL that is not http(s)', () => {
    expect(problemsOf(audio({ audio_url: 'ftp://x.example.com/a.mp3' }, null))).toEqual([
      { field: 'audio_url', message: 'audio_url must use http or https; got "ftp".' },
    ]);
    expect(fieldsWithProblems(audio({ audio_url: 'not a url' }, null))).toEqual(['audio_url']);
  });

  it('rejects an empty file', () => {
    const empty = { name: 'empty.wav', size: 0, type: 'audio/wav' };
    expect(problemsOf(audio({}, empty))).toEqual([
      { field: 'audio', message: 'audio is empty (0 bytes): "empty.wav".' },
    ]);
  });

  it('rejects text in the file field', () => {
    expect(fieldsWithProblems(audio({ audio: 'hello' }, null))).toEqual(['audio']);
  });

  it('rejects the video fields on the audio endpoint', () => {
    const result = parseRequest(
      fieldsFromRecord({ video_url: 'https://x.example.com/v.mp4' }, { audio: wav, video: mp4 }),
      'audio',
    );
    expect(problemsOf(result)).toEqual([
      {
        field: 'video_url',
        message: 'video_url belongs to the video endpoint; use audio_url on the audio endpoint.',
      },
      {
        field: 'video',
        message: 'video belongs to the video endpoint; use audio on the audio endpoint.',
      },
    ]);
  });

  it('rejects the audio fields on the video endpoint and reads video fields there', () => {
    const bad = parseRequest(fieldsFromRecord({}, { audio: wav }), 'video');
    expect(fieldsWithProblems(bad)).toEqual(['audio', 'video']);
    const good = parseRequest(fieldsFromRecord({}, { video: mp4 }), 'video');
    expect(good.ok && good.request.media).toEqual({ kind: 'file', file: mp4 });
    expect(good.ok && good.request.endpoint).toBe('video');
  });

  it('rejects unknown fields, naming them', () => {
    expect(problemsOf(audio({ languge: 'french' }))).toEqual([
      {
        field: 'languge',
        message: 'languge is not a field of this service. Did you mean language?',
      },
    ]);
  });

  it('cuts a long unknown name as it cuts values', () => {
    const name = 'x'.repeat(60_000);
    const [problem] = problemsOf(audio({ [name]: '1' }));
    expect(problem).toEqual({
      field: `${'x'.repeat(128)}…`,
      message: `${'x'.repeat(128)}… is not a field of this service.`,
    });
  });

  it.each(['true', 'True', 'false', 'False'])('accepts the boolean %s', (value) => {
    const result = audio({ toggle_diarization: value });
    expect(result.ok && result.request.toggle_diarization).toBe(value.toLowerCase() === 'true');
  });

  it.each(['yes', '1', 'TRUE', 'on', 'no'])('rejects the boolean %s', (value) => {
    for (const field of [
      'toggle_noise_reduction',
      'toggle_diarization',
      'toggle_direct_translate',
      'toggle_chapterization',
      'toggle_summarization',
      'toggle_emotion_recognition',
    ]) {
      expect(problemsOf(audio({ [field]: value }))).toEqual([
        { field, message: `${field} must be true or false; got "${value}".` },
      ]);
    }
  });

  it('rejects an unknown language_behaviour', () => {
    expect(fieldsWithProblems(audio({ language_behaviour: 'automatic' }))).toEqual([
      'language_behaviour',
    ]);
  });

  it('quotes the start of a long value it refuses, so that the error stays short', () => {
    const huge = 'x'.repeat(60_000);
    const problems = problemsOf(
      audio({
        output_format: huge,
        language_behaviour: huge,
        toggle_diarization: huge,
        diarization_num_speakers: huge,
        language: huge,
        webhook_url: huge,
      }),
    );
    const start = `"${'x'.repeat(64)}…" (60000 characters)`;
    expect(problems.find((p) => p.field === 'output_format')?.message).toBe(
      `output_format must be one of json, srt, vtt, txt; got ${start}.`,
    );
    expect(problems.find((p) => p.field === 'webhook_url')?.message).toBe(
      `webhook_url must be an absolute http(s) URL; got ${start}.`,
    );
    expect(problems).toHaveLength(6);
    for (const problem of problems) {
      expect(problem.message).toContain(start);
      expect(problem.message.length).toBeLessThan(300);
    }
    const empty = problemsOf(audio({}, { name: `${'n'.repeat(5000)}.wav`, size: 0, type: '' }));
    expect(empty[0]?.message).toBe(
      `audio is empty (0 bytes): "${'n'.repeat(64)}…" (5004 characters).`,
    );
  });

  it('accepts language_behaviour values in any case', () => {
    const result = audio({ language_behaviour: 'Automatic Multiple  Languages' });
    expect(result.ok && result.request.language_behaviour).toBe('automatic multiple languages');
  });

  it('rejects an unknown output_format and accepts plain as txt', () => {
    expect(fieldsWithProblems(audio({ output_format: 'docx' }))).toEqual(['output_format']);
    const plain = audio({ output_format: 'plain' });
    expect(plain.ok && plain.request.output_format).toBe('txt');
  });

  it('requires a language for manual behaviour', () => {
    expect(problemsOf(audio({ language_behaviour: 'manual' }))).toEqual([
      { field: 'language', message: 'language is required when language_behaviour is manual.' },
    ]);
  });

  it('rejects a language Whisper does not know, and explains a code given for a name', () => {
    expect(
      fieldsWithProblems(audio({ language_behaviour: 'manual', language: 'klingon' })),
    ).toEqual(['language']);
    const [problem] = problemsOf(audio({ language_behaviour: 'manual', language: 'fr' }));
    expect(problem?.message).toContain('"fr" is a language code; the name is "french"');
  });

  it('matches language names case-insensitively and keeps the short code', () => {
    const result = audio({ language_behaviour: 'manual', language: 'Haitian Creole' });
    expect(result.ok && result.request.language).toBe('ht');
  });

  it('ignores the language outside manual behaviour, with a notice', () => {
    const result = audio({ language: 'german' });
    expect(result.ok && result.request.language).toBeNull();
    expect(result.ok && result.request.notices).toHaveLength(1);
  });

  it('requires a target when translation is on, and a known one', () => {
    expect(problemsOf(audio({ toggle_direct_translate: 'true' }))).toEqual([
      {
        field: 'target_translation_language',
        message: 'target_translation_language is required when toggle_direct_translate is true.',
      },
    ]);
    expect(
      fieldsWithProblems(
        audio({ toggle_direct_translate: 'true', target_translation_language: 'elvish' }),
      ),
    ).toEqual(['target_translation_language']);
    const wolof = audio({ toggle_direct_translate: 'true', target_translation_language: 'Wolof' });
    expect(wolof.ok && wolof.request.target_translation_language).toBe('wo');
  });

  it.each(['0', '-1', '2.5', 'two', '1e3'])('rejects the speaker count %s', (value) => {
    for (const field of [
      'diarization_num_speakers',
      'diarization_min_speakers',
      'diarization_max_speakers',
    ]) {
      expect(problemsOf(audio({ toggle_diarization: 'true', [field]: value }))).toEqual([
        { field, message: `${field} must be a positive whole number; got "${value}".` },
      ]);
    }
  });

  it('rejects min greater than max', () => {
    expect(
      problemsOf(
        audio({
          toggle_diarization: 'true',
          diarization_min_speakers: '5',
          diarization_max_speakers: '2',
        }),
      ),
    ).toEqual([
      {
        field: 'diarization_min_speakers',
        message: 'diarization_min_speakers (5) is greater than diarization_max_speakers (2).',
      },
    ]);
  });

  it('rejects num outside [min, max]', () => {
    const over = audio({
      toggle_diarization: 'true',
      diarization_num_speakers: '6',
      diarization_max_speakers: '4',
    });
    expect(fieldsWithProblems(over)).toEqual(['diarization_num_speakers']);
    const under = audio({
      toggle_diarization: 'true',
      diarization_num_speakers: '1',
      diarization_min_speakers: '2',
    });
    expect(fieldsWithProblems(under)).toEqual(['diarization_num_speakers']);
  });

  it('rejects a webhook_url that is not http(s)', () => {
    expect(fieldsWithProblems(audio({ webhook_url: 'mailto:me@example.com' }))).toEqual([
      'webhook_url',
    ]);
  });

  it('reports every problem at once', () => {
    const result = audio(
      {
        language_behaviour: 'manual',
        toggle_diarization: 'maybe',
        output_format: 'pdf',
        webhook_url: 'file:///etc/passwd',
      },
      null,
    );
    expect(fieldsWithProblems(result).sort()).toEqual(
      ['audio', 'language', 'output_format', 'toggle_diarization', 'webhook_url'].sort(),
    );
  });

  it('treats empty text fields as absent, as HTML forms send them', () => {
    const result = audio({ language: '', output_format: '', toggle_diarization: '' });
    expect(result.ok).toBe(true);
  });

  it('reads a browser FormData as it is', () => {
    const form = new FormData();
    form.set('audio', new File([new Uint8Array([1, 2, 3])], 'a.wav', { type: 'audio/wav' }));
    form.set('output_format', 'vtt');
    const result = parseRequest(form, 'audio');
    expect(result.ok && result.request.output_format).toBe('vtt');
    expect(result.ok && result.request.media.kind).toBe('file');
  });
});

describe('requestWithDefaults', () => {
  it('gives the same defaults as the parser', () => {
    const parsed = audio({});
    expect(parsed.ok && parsed.request).toEqual(
      requestWithDefaults('audio', { kind: 'file', file: wav }),
    );
  });

  it('takes the options given', () => {
    const request = requestWithDefaults(
      'video',
      { kind: 'url', url: 'https://x.example.com/v.mp4' },
      {
        output_format: 'vtt',
      },
    );
    expect(request.output_format).toBe('vtt');
    expect(request.endpoint).toBe('video');
    expect(request.language_behaviour).toBe('automatic single language');
  });
});

describe('parseRequestOrThrow', () => {
  it('throws one invalid_request error carrying all field problems', () => {
    try {
      parseRequestOrThrow(fieldsFromRecord({ output_format: 'x' }), 'audio');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ServiceError);
      const error = e as ServiceError;
      expect(error.code).toBe('invalid_request');
      expect(error.status).toBe(422);
      expect(error.problems.map((p) => p.field)).toEqual(['audio', 'output_format']);
    }
  });
});
