import { nearestName } from '../../core/nearest-name';
import { FIELD_SPECS, type FieldSpec } from '../../core/contract/fields';
import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  DEFAULT_WHISPER,
} from '../../core/model-catalog';
import { optionTable, paragraph, usage } from './help-layout';

/** The commands of `murmur`, in the order the overview lists them, each with its line there. */
export const COMMANDS = [
  ['transcribe', 'transcribe FILE', 'Transcribe a media file or URL.'],
  ['align', 'align MEDIA TEXT', 'Time the words of a text that was said to the media.'],
  ['export', 'export RESULT.json', 'Write a result as Word, a web page or Markdown.'],
  ['check', 'check FILE.srt|.vtt', "Check subtitles against a profile's limits."],
  ['serve', 'serve', 'Serve the transcription service over HTTP.'],
  ['worker', 'worker', 'Run the jobs that murmur serve --redis queues.'],
  ['voices', 'voices add|list|remove', 'Remember people by their voices, to name them.'],
] as const;

export type Command = (typeof COMMANDS)[number][0];

export function isCommand(name: string): name is Command {
  return COMMANDS.some(([command]) => command === name);
}

/** The text of `murmur --help` (and, on stderr, of a bare `murmur`): what each command does. */
export function overviewHelp(): string {
  return [
    'Usage: murmur COMMAND [ARGUMENTS] [OPTIONS]',
    '',
    ...paragraph(
      'Transcribes speech on this machine, with the pipeline of the Murmur page and of its HTTP service.',
    ),
    '',
    'Commands:',
    ...optionTable(COMMANDS.map(([, synopsis, text]) => [synopsis, text])),
    '',
    ...paragraph(
      '"murmur COMMAND --help" (or "murmur help COMMAND") gives what a command takes and does.',
    ),
    '',
  ].join('\n');
}

/**
 * The command `name` was most likely meant to be, or null when none is close: at most two
 * slips, and fewer than a third of the name's letters (so "translate" suggests nothing).
 */
export function nearestCommand(name: string): Command | null {
  return nearestName(
    name,
    COMMANDS.map(([command]) => command),
  );
}

/** The sentence for a command that does not exist, with the nearest one when there is one. */
export function unknownCommand(name: string): string {
  const meant = nearestCommand(name);
  return `Unknown command "${name}".${meant ? ` Did you mean ${meant}?` : ''}`;
}

/** The options `murmur transcribe` and `murmur align` share. */
function transcriptionOptions(): string[] {
  return optionTable([
    ['--endpoint audio|video', 'Which endpoint to call. Default: audio.'],
    [
      '--models DIR|URL',
      "Where models are loaded from: a model host URL in the hub's layout, or a folder of <model id>/<file>. Default: the hub.",
    ],
    ['--model ID', `The recognition model. Default: ${DEFAULT_WHISPER}.`],
    [
      '--translation-model ID',
      `The translation model (toggle_direct_translate; every target, english included). Default: ${DEFAULT_TRANSLATION_MODEL} (MIT); Xenova/nllb-200-distilled-600M is CC-BY-NC-4.0 (no commercial use).`,
    ],
    [
      '--segmentation-model ID',
      `The speaker-segmentation model (toggle_diarization). Default: ${DEFAULT_SEGMENTATION_MODEL} (MIT).`,
    ],
    [
      '--embedding-model ID',
      `The speaker-embedding model (toggle_diarization). Default: ${DEFAULT_EMBEDDING_MODEL} (CC-BY-4.0).`,
    ],
    [
      '--voices FILE.json',
      'Name the speakers that the voices of FILE.json recognise (see murmur voices --help); needs --toggle_diarization true. A speaker close to a voice but not close enough is told on stderr, not named.',
    ],
    [
      '--subtitles srt|vtt',
      "Print subtitles that read well instead of the response JSON: cues built from the word times within the limits below, a new cue at each speaker change. The response's prediction is not changed by this option.",
    ],
    ['--line-chars N', 'Characters a subtitle line may hold. Default: 42.'],
    ['--lines N', 'Lines a cue may hold. Default: 2.'],
    ['--reading-speed N', 'Characters a second a cue may ask to read. Default: 17.'],
    ['--min-seconds S', 'Shortest time a cue stays up, room allowing. Default: 1.'],
    ['--max-seconds S', 'Longest time a cue stays up. Default: 7.'],
    ['--gap-seconds S', 'Gap between cues. Default: 0.08.'],
    ['--speaker-names true|false', 'Start a cue with its speaker. Default: false.'],
    [
      '--progress',
      'Tell each stage on stderr as it starts, and every tenth of it: "murmur: progress: recognise 40%: …".',
    ],
    [
      '--yt-dlp PATH',
      'The yt-dlp that reads the media of a web page given as audio_url or video_url. Default: yt-dlp.',
    ],
    ['--help', 'This text.'],
  ]);
}

/**
 * The request fields a command takes, with their meaning and default. `murmur align` has its
 * media as MEDIA, so it takes no media URL.
 */
function requestFields(mediaUrls: boolean): string[] {
  // The media's own fields (a file, or its URL) belong to one endpoint each.
  const media = (f: FieldSpec) => f.endpoint !== undefined && f.kind === 'url';
  const fields = FIELD_SPECS.filter((f) => f.kind !== 'file' && (mediaUrls || !media(f)));
  return optionTable(
    fields.map((f) => {
      const values = f.values ? ` One of: ${f.values.map((v) => `"${v}"`).join(', ')}.` : '';
      const kind = f.kind === 'boolean' ? ' (true or false)' : '';
      const def =
        f.default === null ? '' : ` Default: ${f.default === '' ? '(empty)' : f.default}.`;
      const only = f.endpoint ? ` [${f.endpoint} endpoint]` : '';
      return [`--${f.name}`, `${f.description}${kind}${values}${def}${only}`] as const;
    }),
  );
}

/** What `murmur transcribe` and `murmur align` say after their options. */
function transcriptionEnd(): string[] {
  return [
    ...paragraph(
      'With webhook_url, the response is then POSTed there as {"request_id", "payload"} (up to 3 tries); the delivery\'s outcome is told on stderr and does not change the exit status.',
    ),
    '',
    ...paragraph(
      'Exit status: 0 success; 2 a problem with the request (the error body names each field); 1 any other failure; 130 or 143 when interrupted by Ctrl-C or SIGTERM (error "cancelled"). On failure the error body JSON is printed on stdout and a sentence on stderr.',
    ),
    '',
  ];
}

/** The text of `murmur transcribe --help`. */
export function transcribeHelp(): string {
  return [
    ...usage('transcribe', '[FILE] [--FIELD VALUE]... [OPTIONS]'),
    '',
    ...paragraph(
      'Transcribes FILE (the "audio" field, or "video" with --endpoint video) or the media at audio_url or video_url, and prints the response JSON of the transcription service on stdout.',
    ),
    '',
    'Options:',
    ...transcriptionOptions(),
    '',
    'Request fields (names as in the service interface; values as text):',
    ...requestFields(true),
    '',
    ...transcriptionEnd(),
  ].join('\n');
}

/** The text of `murmur align --help`. */
export function alignHelp(): string {
  return [
    ...usage('align', 'MEDIA TEXT [--FIELD VALUE]... [OPTIONS]'),
    '',
    ...paragraph(
      'Times the words of TEXT (a script, notes, or an SRT or VTT file whose times are wrong) to MEDIA (the "audio" field, or "video" with --endpoint video), and prints the response JSON of the transcription service on stdout: the words stay exactly as written, one segment per sentence or line (per cue for subtitles), and the response has the same shape as a transcription\'s. A line never said gets no time and confidence 0.',
    ),
    '',
    'Options:',
    ...transcriptionOptions(),
    '',
    'Request fields (names as in the service interface; values as text):',
    ...requestFields(false),
    '',
    ...transcriptionEnd(),
  ].join('\n');
}
