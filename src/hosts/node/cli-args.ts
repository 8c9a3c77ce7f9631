import { isEndpoint, type Endpoint } from '../../core/contract/endpoints';
import { FIELD_NAMES } from '../../core/contract/fields';
import { nearestName } from '../../core/nearest-name';
import { DEFAULT_CUE_LIMITS, type CueLimits } from '../../core/format/readable-cues';
import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  DEFAULT_WHISPER,
} from '../../core/model-catalog';
import { unknownCommand } from './help';
import { DEFAULT_YT_DLP } from './yt-dlp';

export interface CliArgs {
  command: 'transcribe' | 'align';
  /** `--help` was given: the command's help is printed and nothing is run. */
  help: boolean;
  file: string | null;
  /** `murmur align`: the text file whose words are timed to FILE. */
  script: string | null;
  endpoint: Endpoint;
  models: string | null;
  model: string;
  /** The translation model (used when a request asks for translation). */
  translationModel: string;
  segmentationModel: string;
  embeddingModel: string;
  fields: Record<string, string>;
  /** Print readable subtitles in this format instead of the response JSON. */
  subtitles: 'srt' | 'vtt' | null;
  cueLimits: CueLimits;
  /** Tell each stage and its progress on stderr as the run goes. */
  progress: boolean;
  /** The yt-dlp that reads links to web pages. */
  ytDlp: string;
  /** A voices file whose voices name the speakers found (diarization on). */
  voices: string | null;
}

/** CLI options that set a limit of readable subtitles: name, limit, smallest value. */
const CUE_OPTIONS: [string, keyof CueLimits, number][] = [
  ['line-chars', 'maxLineChars', 8],
  ['lines', 'maxLines', 1],
  ['reading-speed', 'maxCharsPerSecond', 1],
  ['min-seconds', 'minSeconds', 0],
  ['max-seconds', 'maxSeconds', 0.5],
  ['gap-seconds', 'gapSeconds', 0],
];

export class CliUsageError extends Error {}

/** The options of `murmur transcribe` and `murmur align` that are not request fields. */
const OWN_OPTIONS = [
  'help',
  'progress',
  'endpoint',
  'models',
  'model',
  'translation-model',
  'segmentation-model',
  'embedding-model',
  'yt-dlp',
  'voices',
  'subtitles',
  'speaker-names',
  ...CUE_OPTIONS.map(([option]) => option),
];

/**
 * The sentence for an option that is neither the command's own nor a request field, with the
 * nearest of either when one is a slip or two away. It is a mistake of the command line, said
 * on stderr before anything runs: stdout stays for results.
 */
export function unknownOption(typed: string, known: Iterable<string>): string {
  const meant = nearestName(typed.replace(/^-+/, ''), known);
  return `Unknown option --${typed.replace(/^-+/, '')}.${meant ? ` Did you mean --${meant}?` : ''}`;
}

/**
 * `murmur transcribe [FILE] [--<field> <value>]... [--endpoint audio|video] [--models DIR|URL]
 * [--model ID] [--translation-model ID]
 * [--segmentation-model ID] [--embedding-model ID] [--subtitles srt|vtt [--line-chars N] [--lines N] [--reading-speed N]
 * [--min-seconds S] [--max-seconds S] [--gap-seconds S] [--speaker-names true|false]] [--yt-dlp PATH]`.
 * The subtitle options are the CLI's own (hyphenated, so they never shadow a request field).
 * Every `--name value` (or `--name=value`) that is not a CLI option is a request field, passed
 * on verbatim so the request parser reports bad values the same way for every host; a name that
 * is neither is refused here (`unknownOption`).
 * `murmur align MEDIA TEXT` takes the same options.
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = {
    command: 'transcribe',
    help: false,
    file: null,
    script: null,
    endpoint: 'audio',
    models: null,
    model: DEFAULT_WHISPER,
    translationModel: DEFAULT_TRANSLATION_MODEL,
    segmentationModel: DEFAULT_SEGMENTATION_MODEL,
    embeddingModel: DEFAULT_EMBEDDING_MODEL,
    fields: {},
    subtitles: null,
    cueLimits: { ...DEFAULT_CUE_LIMITS },
    progress: false,
    ytDlp: DEFAULT_YT_DLP,
    voices: null,
  };
  const rest = [...argv];
  const first = rest.shift() ?? '';
  if (first !== 'transcribe' && first !== 'align') throw new CliUsageError(unknownCommand(first));
  args.command = first;
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--help' || arg === '-h') return { ...args, help: true };
    if (!arg.startsWith('--')) {
      if (args.file === null) args.file = arg;
      else if (args.command === 'align' && args.script === null) args.script = arg;
      else if (args.command === 'align')
        throw new CliUsageError(`murmur align takes MEDIA and TEXT only; got "${arg}" too.`);
      else throw new CliUsageError(`Only one FILE may be given; got "${arg}" too.`);
      continue;
    }
    if (arg === '--progress') {
      args.progress = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!OWN_OPTIONS.includes(name) && !FIELD_NAMES.has(name))
      throw new CliUsageError(unknownOption(name, [...OWN_OPTIONS, ...FIELD_NAMES]));
    let value: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
    if (value === undefined) {
      value = rest.shift();
      if (value === undefined) throw new CliUsageError(`--${name} needs a value.`);
    }
    if (name === 'endpoint') {
      if (!isEndpoint(value))
        throw new CliUsageError(`--endpoint must be audio or video; got "${value}".`);
      args.endpoint = value;
    } else if (name === 'models') {
      args.models = value;
    } else if (name === 'model') {
      args.model = value;
    } else if (name === 'translation-model') {
      args.translationModel = value;
    } else if (name === 'segmentation-model') {
      args.segmentationModel = value;
    } else if (name === 'embedding-model') {
      args.embeddingModel = value;
    } else if (name === 'yt-dlp') {
      args.ytDlp = value;
    } else if (name === 'voices') {
      args.voices = value;
    } else if (name === 'subtitles') {
      if (value !== 'srt' && value !== 'vtt')
        throw new CliUsageError(`--subtitles must be srt or vtt; got "${value}".`);
      args.subtitles = value;
    } else if (name === 'speaker-names') {
      if (value !== 'true' && value !== 'false')
        throw new CliUsageError(`--speaker-names must be true or false; got "${value}".`);
      args.cueLimits.speakerNames = value === 'true';
    } else if (CUE_OPTIONS.some(([option]) => option === name)) {
      const [, key, least] = CUE_OPTIONS.find(([option]) => option === name) as [
        string,
        keyof CueLimits,
        number,
      ];
      const number = Number(value);
      if (value.trim() === '' || !Number.isFinite(number) || number < least)
        throw new CliUsageError(`--${name} must be a number of at least ${least}; got "${value}".`);
      (args.cueLimits[key] as number) = key === 'maxLines' ? Math.floor(number) : number;
    } else {
      args.fields[name] = value;
    }
  }
  if (args.command === 'align' && args.script === null)
    throw new CliUsageError('murmur align needs MEDIA and TEXT (the text that was said).');
  return args;
}
