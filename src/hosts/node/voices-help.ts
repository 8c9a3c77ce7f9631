import { optionTable, paragraph, usage } from './help-layout';

/**
 * The help of `murmur voices` and of each of its commands. A voice is personal data: every
 * text says where it is kept.
 */

const KEPT =
  'A voice is what a person sounds like to the speaker-embedding model: personal data (a biometric trait), kept in FILE.json and nowhere else.';

const VOICES_FILE = [
  '--voices FILE.json',
  'The voices file (the format the Murmur page exports and imports).',
] as const;

const EXIT =
  'Exit status: 0 done; 2 a problem with the command line, the voices file or the name; 1 any other failure.';

export const VOICES_COMMANDS = [
  [
    'add',
    'add MEDIA RESULT.json',
    'Remember a speaker of a result as a person (--speaker LABEL --name NAME).',
  ],
  ['list', 'list', 'List the voices of a voices file.'],
  ['remove', 'remove NAME', 'Forget a voice.'],
] as const;

export type VoicesCommand = (typeof VOICES_COMMANDS)[number][0];

export function isVoicesCommand(name: string): name is VoicesCommand {
  return VOICES_COMMANDS.some(([command]) => command === name);
}

/** `murmur voices --help`. */
export function voicesHelp(): string {
  return [
    ...usage('voices', 'add|list|remove [ARGUMENTS] --voices FILE.json'),
    '',
    ...paragraph(
      `Remembers people by their voices, so that "murmur transcribe --toggle_diarization true --voices FILE.json" (and "murmur serve --voices FILE.json") gives a speaker it recognises the person's name instead of speaker_N. ${KEPT}`,
    ),
    '',
    'Commands:',
    ...optionTable(VOICES_COMMANDS.map(([, synopsis, text]) => [synopsis, text])),
    '',
    ...paragraph('"murmur voices COMMAND --help" gives what a command takes and does.'),
    '',
  ].join('\n');
}

/** `murmur voices add --help`. */
export function voicesAddHelp(): string {
  return [
    ...usage(
      'voices add',
      'MEDIA RESULT.json --speaker LABEL --name NAME --voices FILE.json [--FIELD VALUE]... [OPTIONS]',
    ),
    '',
    ...paragraph(
      'Remembers speaker LABEL of RESULT.json (what "murmur transcribe MEDIA --toggle_diarization true" printed) as NAME in FILE.json, which is made when it is not there. MEDIA is transcribed again with diarization on, for the speakers\' embeddings; the speaker of that run whose time overlaps most with LABEL\'s time in RESULT.json is remembered, so a result whose speakers were renamed still works. A NAME already in FILE.json (for the same embedding model) is strengthened: its embedding becomes the mean of the old and the new one, weighted by the seconds of speech each rests on.',
    ),
    '',
    ...paragraph(KEPT),
    '',
    'Options:',
    ...optionTable([
      ['--speaker LABEL', 'The speaker in RESULT.json (speaker_0, or the name given to it).'],
      ['--name NAME', "The person's name."],
      VOICES_FILE,
      ['--endpoint audio|video', 'MEDIA as "audio" or as "video". Default: audio.'],
      [
        '--models DIR|URL',
        'Where models are loaded from, as for murmur transcribe. Default: the hub.',
      ],
      [
        '--model ID',
        'The recognition model, as for murmur transcribe; give the models RESULT.json was made with.',
      ],
      ['--segmentation-model ID', 'The speaker-segmentation model, as for murmur transcribe.'],
      [
        '--embedding-model ID',
        'The speaker-embedding model, as for murmur transcribe. A voice is compared only with speakers of the same model.',
      ],
      ['--progress', 'Tell each stage on stderr as it starts, and every tenth of it.'],
      ['--help', 'This text.'],
    ]),
    '',
    ...paragraph(
      'Other --FIELD VALUE pairs are request fields, as for murmur transcribe (diarization_num_speakers, for one); toggle_diarization is always true.',
    ),
    '',
    ...paragraph(EXIT),
    '',
  ].join('\n');
}

/** `murmur voices list --help`. */
export function voicesListHelp(): string {
  return [
    ...usage('voices list', '--voices FILE.json'),
    '',
    ...paragraph(
      'Lists the voices of FILE.json: each name, the seconds of speech and the recordings it rests on, its embedding model, and when it was made and last strengthened (UTC).',
    ),
    '',
    'Options:',
    ...optionTable([VOICES_FILE, ['--help', 'This text.']]),
    '',
    ...paragraph(EXIT),
    '',
  ].join('\n');
}

/** `murmur voices remove --help`. */
export function voicesRemoveHelp(): string {
  return [
    ...usage('voices remove', 'NAME --voices FILE.json'),
    '',
    ...paragraph(
      'Forgets the voice called NAME (case and spacing aside; of every embedding model) in FILE.json. The file is rewritten whole, without it.',
    ),
    '',
    'Options:',
    ...optionTable([VOICES_FILE, ['--help', 'This text.']]),
    '',
    ...paragraph(EXIT),
    '',
  ].join('\n');
}
