import { isEndpoint, type Endpoint } from '../../core/contract/endpoints';
import { DEFAULT_TRANSLATION_MODEL, DEFAULT_WHISPER } from '../../core/model-catalog';

export interface CliArgs {
  command: 'transcribe' | 'help';
  file: string | null;
  endpoint: Endpoint;
  models: string | null;
  model: string;
  /** The translation model (used when a request asks for translation). */
  translationModel: string;
  fields: Record<string, string>;
}

export class CliUsageError extends Error {}

/**
 * `murmur transcribe [FILE] [--<field> <value>]... [--endpoint audio|video] [--models DIR|URL]
 * [--model ID] [--translation-model ID]`.
 * Every `--name value` (or `--name=value`) that is not a CLI option is a request field, passed
 * on verbatim so the request parser reports unknown or bad fields the same way for every host.
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  const args: CliArgs = {
    command: 'help',
    file: null,
    endpoint: 'audio',
    models: null,
    model: DEFAULT_WHISPER,
    translationModel: DEFAULT_TRANSLATION_MODEL,
    fields: {},
  };
  const rest = [...argv];
  const first = rest.shift();
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') return args;
  if (first !== 'transcribe') throw new CliUsageError(`Unknown command "${first}".`);
  args.command = 'transcribe';
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--help' || arg === '-h') {
      args.command = 'help';
      return args;
    }
    if (!arg.startsWith('--')) {
      if (args.file !== null)
        throw new CliUsageError(`Only one FILE may be given; got "${arg}" too.`);
      args.file = arg;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
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
    } else {
      args.fields[name] = value;
    }
  }
  return args;
}
