import { ENDPOINTS, type Endpoint } from '../../core/contract/endpoints';
import type { ServiceError } from '../../core/contract/errors';
import { CHECK_MODEL, modelFailureKind, type ModelKind } from '../../core/model-failure';

/**
 * Where each model is set on the command line, and the request field that needs it (the
 * model is only loaded when that field asks for its stage).
 */
const MODEL_FLAGS: Record<ModelKind, { flag: string | null; neededBy: string | null }> = {
  recognition: { flag: '--model', neededBy: null },
  'voice activity': { flag: null, neededBy: null },
  translation: { flag: '--translation-model', neededBy: '--toggle_direct_translate' },
  'speaker segmentation': { flag: '--segmentation-model', neededBy: '--toggle_diarization' },
  'speaker embedding': { flag: '--embedding-model', neededBy: '--toggle_diarization' },
  emotion: { flag: '--emotion_model', neededBy: null },
};

function modelAdvice(kind: ModelKind): string {
  const { flag, neededBy } = MODEL_FLAGS[kind];
  const where =
    flag === null
      ? 'Check the model host (--models DIR|URL).'
      : `Check the model (${flag} ID) and the model host (--models DIR|URL).`;
  return neededBy === null ? where : `${where} Or transcribe without ${neededBy} true.`;
}

/**
 * A problem of one field as the CLI says it: the field is the flag the user typed (`--name`),
 * and the media file is the FILE argument.
 */
function cliProblem(field: string, message: string, endpoint: Endpoint): string {
  const subject =
    field === ENDPOINTS[endpoint].fileField ? 'The file' : `--${field.replace(/^-+/, '')}`;
  const named = message.startsWith(`${field} `)
    ? `${subject}${message.slice(field.length)}`
    : message;
  return named.replace(/Did you mean (\w+)\?/, 'Did you mean --$1?');
}

/**
 * The error as the CLI prints it on stderr, one line a problem: flags, not the page's panels
 * or the service's bare field names. The JSON body printed on stdout keeps the service's words.
 */
export function cliErrorLines(error: ServiceError, endpoint: Endpoint): string[] {
  if (error.problems.length > 0) {
    return error.problems.map((p) => cliProblem(p.field, p.message, endpoint));
  }
  const kind = modelFailureKind(error.message);
  if (kind !== null) return [`${error.message.slice(0, -CHECK_MODEL.length)}${modelAdvice(kind)}`];
  return [error.message];
}
