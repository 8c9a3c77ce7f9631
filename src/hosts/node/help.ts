import { FIELD_SPECS } from '../../core/contract/fields';
import { DEFAULT_WHISPER } from '../../core/model-catalog';

/** The text of `murmur --help`: usage, CLI options, and every request field with its default. */
export function helpText(): string {
  const width = Math.max(...FIELD_SPECS.map((f) => f.name.length)) + 4;
  const fields = FIELD_SPECS.filter((f) => f.kind !== 'file').map((f) => {
    const values = f.values ? ` One of: ${f.values.map((v) => `"${v}"`).join(', ')}.` : '';
    const kind = f.kind === 'boolean' ? ' (true or false)' : '';
    const def = f.default === null ? '' : ` Default: ${f.default === '' ? '(empty)' : f.default}.`;
    const only = f.endpoint ? ` [${f.endpoint} endpoint]` : '';
    return `  --${f.name.padEnd(width)}${f.description}${kind}${values}${def}${only}`;
  });
  return [
    'Usage: murmur transcribe [FILE] [--<field> <value>]... [--endpoint audio|video]',
    '                         [--models DIR|URL] [--model ID]',
    '',
    'Transcribes FILE (the "audio" field, or "video" with --endpoint video) or a URL, and prints',
    'the response JSON of the transcription service on stdout.',
    '',
    'Options:',
    '  --endpoint audio|video   Which endpoint to call. Default: audio.',
    "  --models DIR|URL         Where models are loaded from: a model host URL in the hub's",
    '                           layout, or a folder of <model id>/<file>. Default: the hub.',
    `  --model ID               The recognition model. Default: ${DEFAULT_WHISPER}.`,
    '  --help                   This text.',
    '',
    'Request fields (names as in the service interface; values as text):',
    ...fields,
    '',
    'Exit status: 0 success; 2 a problem with the request (the error body names each field);',
    '1 any other failure; 130 or 143 when interrupted by Ctrl-C or SIGTERM (error "cancelled").',
    'On failure the error body JSON is printed on stdout and a sentence on stderr.',
    '',
  ].join('\n');
}
