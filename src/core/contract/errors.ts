/**
 * One table of error codes. Each code has the HTTP status a server host answers with and the
 * exit code the CLI ends with; every host builds its failure body with `errorBody`.
 */
export const ERROR_CODES = {
  bad_request: { status: 400, title: 'Bad request' },
  unauthorized: { status: 401, title: 'Missing or unknown service key' },
  not_found: { status: 404, title: 'No such endpoint' },
  request_timeout: { status: 408, title: 'The request was not sent in time' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media: { status: 415, title: 'Unsupported media' },
  invalid_request: { status: 422, title: 'Invalid request' },
  undecodable_media: { status: 422, title: 'Media cannot be decoded' },
  too_many_requests: { status: 429, title: 'Too many requests' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  url_fetch_failed: { status: 502, title: 'Media URL could not be fetched' },
  not_supported: { status: 501, title: 'Not supported yet' },
  engine_unavailable: { status: 503, title: 'Transcription engine not available' },
  cancelled: { status: 499, title: 'Cancelled' },
  internal_error: { status: 500, title: 'Internal failure' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem with one request field. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * The JSON body of every failure. `timestamp`, `path`, `request_id`, `statusCode`, `message`
 * and `validation_errors` keep the shape API users of the original service already parse;
 * `error` (a stable code) and `field_errors` (structured problems) are added.
 */
export interface ErrorBody {
  timestamp: string;
  path: string;
  request_id: string;
  statusCode: number;
  error: ErrorCode;
  message: string;
  validation_errors: string[];
  field_errors: FieldProblem[];
}

/** A failure of the service, carried through every layer until a host renders it. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly problems: readonly FieldProblem[];

  constructor(code: ErrorCode, message: string, problems: readonly FieldProblem[] = []) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.problems = problems;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}

/** Request problems (4xx) are the caller's to fix; everything else is ours or the media's host. */
export function isClientError(code: ErrorCode): boolean {
  const status = ERROR_CODES[code].status;
  return status >= 400 && status < 500;
}

/** A request id in the original service's style: a letter, a dash and 8 hex digits. */
export function newRequestId(random: () => number = Math.random): string {
  let hex = '';
  for (let i = 0; i < 8; i++) hex += Math.floor(random() * 16).toString(16);
  return `M-${hex}`;
}

export interface ErrorContext {
  path: string;
  requestId: string;
  now: Date;
}

export function errorBody(error: ServiceError, context: ErrorContext): ErrorBody {
  return {
    timestamp: context.now.toISOString(),
    path: context.path,
    request_id: context.requestId,
    statusCode: error.status,
    error: error.code,
    message: error.message,
    validation_errors: error.problems.map((p) => `${p.field}: ${p.message}`),
    field_errors: error.problems.map((p) => ({ ...p })),
  };
}

/** Any thrown value as a ServiceError: unknown failures become `internal_error`. */
export function toServiceError(thrown: unknown): ServiceError {
  if (thrown instanceof ServiceError) return thrown;
  if (thrown instanceof Error && thrown.name === 'AbortError') {
    return new ServiceError('cancelled', 'The transcription was cancelled.');
  }
  return new ServiceError('internal_error', `Internal failure: ${thrownMessage(thrown)}`);
}

/**
 * What a thrown value says, as a sentence: an Error's message, and for other values (a
 * runtime's exit status, a plain object) their own `message` or a short description, never
 * "[object Object]".
 */
export function thrownMessage(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  if (typeof thrown === 'string') return thrown;
  if (typeof thrown === 'object' && thrown !== null) {
    const { message, name } = thrown as { message?: unknown; name?: unknown };
    if (typeof message === 'string' && message !== '') return message;
    if (typeof name === 'string' && name !== '') return name;
    try {
      const json = JSON.stringify(thrown);
      if (json !== undefined && json !== '{}') return json.slice(0, 200);
    } catch {
      // Not serialisable (a cycle): described by its kind below.
    }
    return 'an unexpected value was thrown';
  }
  return String(thrown);
}
