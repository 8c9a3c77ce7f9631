import { describe, expect, it } from 'vitest';
import { parseRequest } from '../../core/contract/parse-request';
import { DEFAULT_VALUES, toFormData, type FormValues } from './form-fields';
import { advanceProgress, downloadTransfer } from './progress';
import { segmentStartNear } from './shortcuts';
import { FIELD_SPECS } from '../../core/contract/fields';
import { scriptProblems } from '../../core/alignment/script';
import { CONTROL_LABELS, userError, userProblem } from './user-wording';

const FIELD_NAMES =
  /\b(audio|audio_url|language_behaviour|toggle_\w+|diarization_\w+|target_translation_language|webhook_url|output_format|summarization_type)\b/;

/** The page's wording of every problem the parser finds in a form. */
function pageProblems(values: FormValues): string[] {
  const parsed = parseRequest(toFormData(values), values.endpoint);
  return parsed.ok ? [] : parsed.problems.map((p) => userProblem(p.field, p.message, values));
}

describe('the page speaks the words of its controls', () => {
  it('has a label for every field a problem can name, the script included', () => {
    const named = [...FIELD_SPECS.map((f) => f.name), ...scriptProblems('').map((p) => p.field)];
    expect(named).toContain('script');
    for (const field of named) expect(CONTROL_LABELS[field], field).toBeDefined();
    expect(CONTROL_LABELS.script).toBe('Text that was said');
  });

  it('names the summary control when a summary type is not one of the list', () => {
    const values: FormValues = {
      ...DEFAULT_VALUES,
      file: new File(['x'], 'talk.wav'),
      toggle_summarization: true,
      summarization_type: 'short',
    };
    expect(pageProblems(values)).toEqual([
      '“Summary” must be one of general, concise, bullet_points; got "short".',
    ]);
  });

  it('names controls, not service fields, for every form problem', () => {
    const values: FormValues = {
      ...DEFAULT_VALUES,
      url: 'ftp://files.example.com/talk.mp3',
      language_behaviour: 'manual',
      toggle_diarization: true,
      diarization_num_speakers: '5',
      diarization_min_speakers: '4',
      diarization_max_speakers: '2',
      toggle_direct_translate: true,
      webhook_url: 'mailto:me@example.com',
    };
    const problems = pageProblems(values);
    expect(problems).toHaveLength(6);
    for (const p of problems) expect(p).not.toMatch(FIELD_NAMES);
    expect(problems).toContain(
      '“Media link” must be a web address starting with https:// or http://.',
    );
    expect(problems).toContain(
      'Choose the spoken language, since “I know the language” is selected.',
    );
    expect(problems).toContain('“At least” (4) is more than “At most” (2).');
    expect(problems).toContain('Choose a language in “Translate into”.');
    expect(pageProblems(DEFAULT_VALUES)).toEqual(['Choose a recording or paste a link to one.']);
    expect(
      pageProblems({ ...DEFAULT_VALUES, language_behaviour: 'manual', language: 'fr' })[1],
    ).toMatch(/^“fr” is not a language Murmur knows/);
  });

  it('names the translation model that cannot write a target, and where to change it', () => {
    const values: FormValues = {
      ...DEFAULT_VALUES,
      toggle_direct_translate: true,
      target_translation_language: 'latin',
    };
    const shown = userError(
      'The translation model Xenova/m2m100_418M cannot translate into latin.',
      [
        {
          field: 'target_translation_language',
          message: 'latin is not a language of the translation model Xenova/m2m100_418M.',
        },
      ],
      values,
    );
    expect(shown).toBe(
      'Translation into Latin is not available with the translation model Xenova/m2m100_418M: choose another language in “Translate into”, or another translation model under Models.',
    );
    expect(shown).not.toMatch(FIELD_NAMES);
  });

  it('keeps the words audio, video and file inside a sentence about the media', () => {
    const message = '"notes.mp3" is a text file, not audio or video. Give an audio or video file.';
    expect(userError(message, [], DEFAULT_VALUES)).toBe(message);
    expect(userProblem('audio', 'audio must be a file upload, not text.', DEFAULT_VALUES)).toBe(
      '“Media” must be a file upload, not text.',
    );
  });

  it('relabels field names left in any other message', () => {
    expect(userError('The diarization_* counts were ignored.', [], DEFAULT_VALUES)).not.toMatch(
      /diarization_\w/,
    );
  });
});

describe('the status line', () => {
  it('does not repeat its title as its detail', () => {
    const shown = advanceProgress(null, {
      stage: 'validate',
      fraction: null,
      detail: 'Checking the request',
    });
    expect([shown.title, shown.detail]).toEqual(['Checking the request', '']);
  });

  it('never goes back a stage, and titles the model download that recognition waits for', () => {
    let shown = advanceProgress(null, { stage: 'models', fraction: 0.5, detail: 'Whisper 50%' });
    expect(shown.title).toBe('Loading models');
    shown = advanceProgress(shown, { stage: 'decode', fraction: 0.1, detail: 'Decoded 1 s' });
    shown = advanceProgress(shown, { stage: 'vad', fraction: 0.2, detail: 'Checked 2 s' });
    expect(shown.title).toBe('Finding speech');
    const late = advanceProgress(shown, { stage: 'decode', fraction: 0.3, detail: 'Decoded 3 s' });
    expect(late).toBe(shown);
    shown = advanceProgress(shown, { stage: 'models', fraction: 0.8, detail: 'Whisper 80%' });
    expect([shown.title, shown.detail]).toEqual(['Loading the recognition model', 'Whisper 80%']);
    expect(advanceProgress(shown, { stage: 'vad', fraction: 1, detail: 'x' })).toBe(shown);
    shown = advanceProgress(shown, { stage: 'recognise', fraction: 0, detail: 'Recognised 0 s' });
    expect(shown.title).toBe('Recognising speech');
    const noise = advanceProgress(null, { stage: 'vad', fraction: null, detail: 'Reducing noise' });
    expect(noise.title).toBe('Reducing noise');
  });

  it('shows the stage the job is at once the recognition model has downloaded', () => {
    const download = (fraction: number) => ({
      stage: 'models' as const,
      fraction,
      detail: `Downloading murmur-test/whisper-synth (${(12.6 * fraction).toFixed(1)} MB)`,
    });
    let shown = advanceProgress(null, { stage: 'decode', fraction: 0.5, detail: 'Decoded 5 s' });
    shown = advanceProgress(shown, { stage: 'vad', fraction: 0.2, detail: 'Checked 2 s' });
    shown = advanceProgress(shown, download(0.5));
    // While it downloads, speech detection goes on underneath.
    expect(advanceProgress(shown, { stage: 'vad', fraction: 0.4, detail: 'Checked 4 s' })).toBe(
      shown,
    );
    shown = advanceProgress(shown, download(1));
    expect([shown.title, shown.detail]).toEqual([
      'Loading the recognition model',
      'Downloading murmur-test/whisper-synth (12.6 MB)',
    ]);
    shown = advanceProgress(shown, { stage: 'vad', fraction: 0.6, detail: 'Checked 6 s' });
    expect([shown.title, shown.fraction]).toEqual(['Finding speech', 0.6]);
    // The ended download says nothing more, and the line still never goes back.
    expect(advanceProgress(shown, download(1))).toBe(shown);
    expect(advanceProgress(shown, { stage: 'decode', fraction: 0.9, detail: 'x' })).toBe(shown);
    shown = advanceProgress(shown, {
      stage: 'recognise',
      fraction: 0,
      detail: 'Recognised 0 of 12 s',
    });
    expect(shown.title).toBe('Recognising speech');
    expect(advanceProgress(shown, download(1))).toBe(shown);
  });

  it('titles a download beside the recognition model by the model it brings', () => {
    const models = {
      whisperModel: 'murmur-test/whisper-synth',
      translationModel: 'Xenova/m2m100_418M',
      segmentationModel: 'onnx-community/pyannote-segmentation-3.0',
      embeddingModel: 'onnx-community/wespeaker-voxceleb-resnet34-LM',
    };
    const download = (id: string) => ({
      stage: 'models' as const,
      fraction: 0.3,
      detail: `Downloading ${id}: 12.3 of 40.1 MB · 2.1 MB/s · about 13 s left`,
    });
    const decoding = advanceProgress(null, { stage: 'decode', fraction: 0.5, detail: 'Decoded' });
    const titleOf = (id: string) => advanceProgress(decoding, download(id), models).title;
    expect(titleOf('murmur-test/whisper-synth')).toBe('Loading the recognition model');
    expect(titleOf('Xenova/m2m100_418M')).toBe('Loading the translation model');
    expect(titleOf('onnx-community/pyannote-segmentation-3.0')).toBe('Loading the speaker models');
    expect(titleOf('onnx-community/wespeaker-voxceleb-resnet34-LM')).toBe(
      'Loading the speaker models',
    );
    expect(titleOf('someone/else')).toBe('Loading models');
    // The translation model's download ending does not end the recognition model's.
    let shown = advanceProgress(decoding, download('murmur-test/whisper-synth'), models);
    shown = advanceProgress(shown, { ...download('Xenova/m2m100_418M'), fraction: 1 }, models);
    shown = advanceProgress(shown, download('murmur-test/whisper-synth'), models);
    expect(shown.title).toBe('Loading the recognition model');
  });

  it('titles a translation model download that the translation stage waits for', () => {
    let shown = advanceProgress(null, { stage: 'recognise', fraction: 1, detail: 'Recognised' });
    shown = advanceProgress(shown, {
      stage: 'translate',
      fraction: 0.4,
      detail: 'Downloading Xenova/m2m100_418M (210.0 MB)',
    });
    expect(shown.title).toBe('Loading the translation model');
    shown = advanceProgress(shown, {
      stage: 'translate',
      fraction: 0.5,
      detail: 'Translated 2 of 4 segments',
    });
    expect(shown.title).toBe('Translating');
  });

  it('shows the speaker stage with its windows between recognition and translation', () => {
    let shown = advanceProgress(null, { stage: 'recognise', fraction: 1, detail: 'Recognised' });
    shown = advanceProgress(shown, {
      stage: 'diarize',
      fraction: 0,
      detail: 'Downloading onnx-community/pyannote-segmentation-3.0 (6.0 MB)',
    });
    expect(shown.title).toBe('Loading the speaker models');
    shown = advanceProgress(shown, {
      stage: 'diarize',
      fraction: 0.25,
      detail: 'Finding speakers: 3 of 12 windows',
    });
    expect([shown.title, shown.detail, shown.fraction]).toEqual([
      'Telling speakers apart',
      'Finding speakers: 3 of 12 windows',
      0.25,
    ]);
    // A late recognition report does not take the line back.
    expect(advanceProgress(shown, { stage: 'recognise', fraction: 1, detail: 'x' })).toBe(shown);
    shown = advanceProgress(shown, { stage: 'translate', fraction: 0, detail: 'Translating' });
    expect(shown.title).toBe('Translating');
  });
});

describe('segment shortcuts', () => {
  it('go to the next start, or back past the one just begun', () => {
    const starts = [0.2, 4, 9];
    expect(segmentStartNear(starts, 0, 'next')).toBe(0.2);
    expect(segmentStartNear(starts, 4, 'next')).toBe(9);
    expect(segmentStartNear(starts, 9.5, 'next')).toBeNull();
    expect(segmentStartNear(starts, 4.2, 'previous')).toBe(0.2);
    expect(segmentStartNear(starts, 6, 'previous')).toBe(4);
    expect(segmentStartNear(starts, 0.3, 'previous')).toBe(0);
    expect(segmentStartNear([], 3, 'previous')).toBeNull();
  });
});

describe('downloadTransfer', () => {
  it('gives the bytes, speed and time left of a model download, and nothing for other work', () => {
    expect(
      downloadTransfer('Downloading org/model: 12.3 of 40.1 MB · 2.1 MB/s · about 13 s left'),
    ).toBe('12.3 of 40.1 MB · 2.1 MB/s · about 13 s left');
    expect(downloadTransfer('Loading org/model')).toBeNull();
    expect(downloadTransfer('Recognised 3 s')).toBeNull();
  });
});
