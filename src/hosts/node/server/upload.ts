import { createWriteStream } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { rm, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../../../core/contract/errors';
import { MAX_NAME_CHARS, shortened } from '../../../core/contract/quoted';
import type { DiskFile } from '../media-file';
import { watchBody, type BodyLimits } from './body-watch';
import type { UploadBudget } from './upload-budget';

/** The form of one request: its text fields, and its files on disk. */
export interface UploadedForm {
  strings: Record<string, string>;
  files: Record<string, DiskFile>;
  /** Deletes the files; called once the request is done, whatever its outcome. */
  remove: () => Promise<void>;
}

export interface UploadLimits extends Omit<BodyLimits, 'maxBytes' | 'share'> {
  maxFileBytes: number;
  /** What the uploads being read may hold on disk together (429 past it). */
  budget?: UploadBudget;
}

/** The form fields and multipart framing around a file: a body may exceed the file limit by this. */
export const FORM_OVERHEAD_BYTES = 1024 * 1024;

/** Text fields are short; a megabyte-long "language" is a broken or hostile client. */
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_PARTS = 64;

const safeName = (name: string) => {
  const ext = extname(basename(name)).toLowerCase();
  return `upload${/^\.[a-z0-9]{1,8}$/.test(ext) ? ext : ''}`;
};

/** `promise`, or the signal's reason as soon as it aborts (the promise is left to settle). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

function repeated(name: string): ServiceError {
  const message = `${name} is given more than once; give it once.`;
  return new ServiceError('invalid_request', message, [{ field: name, message }]);
}

/**
 * The 413 of a body whose Content-Length is larger than a form may be (the file's limit and the
 * form's overhead), or null: such a body is refused before a byte of it is read, and before the
 * request is admitted, so that it is told it is too large whatever the load.
 */
export function declaredTooLarge(
  headers: IncomingHttpHeaders,
  maxFileBytes: number,
): ServiceError | null {
  const declared = Number(headers['content-length']);
  if (!(declared > maxFileBytes + FORM_OVERHEAD_BYTES)) return null;
  const mb = Math.round(maxFileBytes / (1024 * 1024));
  return new ServiceError(
    'payload_too_large',
    `The request is larger than this service accepts (${mb} MB of media).`,
  );
}

/** The upload limits of a server's settings (the same for every route that reads a form). */
export function uploadLimits(settings: {
  maxUploadBytes: number;
  idleSeconds: number;
  totalSeconds: number;
}): UploadLimits {
  return {
    maxFileBytes: settings.maxUploadBytes,
    idleSeconds: settings.idleSeconds,
    totalSeconds: settings.totalSeconds,
  };
}

/**
 * Reads a multipart body as it streams in, into `dir` (a folder of the request's own): text
 * fields into memory (they are small), the one file straight to disk, so that an upload of any
 * size is never held in memory whole. Stops with the service's error when the file passes its
 * limit, the body passes file + form overhead, the client stalls or takes too long (see
 * `watchBody`), a field comes twice, or a second file comes: the disk an upload takes is at most
 * one file's limit. `signal` (the client gone, the server stopping) stops it too.
 */
export async function readUpload(
  request: FastifyRequest,
  dir: string,
  limits: UploadLimits,
  signal: AbortSignal,
): Promise<UploadedForm> {
  const declared = declaredTooLarge(request.headers, limits.maxFileBytes);
  if (declared !== null) throw declared;
  const remove = () => rm(dir, { recursive: true, force: true });
  // Null prototypes: a field named __proto__ is a field like any other (and an unknown one).
  const strings = Object.create(null) as Record<string, string>;
  const files = Object.create(null) as Record<string, DiskFile>;
  let parts: ReturnType<FastifyRequest['parts']>;
  try {
    parts = request.parts({
      limits: {
        fileSize: limits.maxFileBytes,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_PARTS,
        files: 1,
      },
    });
  } catch (thrown) {
    await remove();
    throw uploadError(thrown, limits.maxFileBytes);
  }
  const share = limits.budget?.open();
  const watch = watchBody(request.raw, {
    idleSeconds: limits.idleSeconds,
    totalSeconds: limits.totalSeconds,
    maxBytes: limits.maxFileBytes + FORM_OVERHEAD_BYTES,
    ...(share ? { share } : {}),
  });
  const stopped = AbortSignal.any([signal, watch.signal]);
  try {
    const iterator = parts[Symbol.asyncIterator]();
    let count = 0;
    for (;;) {
      const next = await abortable(iterator.next(), stopped);
      if (next.done) break;
      const part = next.value;
      const name = part.fieldname;
      if (name in strings || name in files) {
        if (part.type === 'file') part.file.resume();
        throw repeated(name);
      }
      if (part.type === 'field') {
        if (typeof part.value !== 'string') continue;
        // A file field sent without a file name arrives as text: said as such, however long.
        if (part.valueTruncated && (name === 'audio' || name === 'video')) {
          const message = `${name} must be a file upload, not text (its form part has no file name).`;
          throw new ServiceError('invalid_request', message, [{ field: name, message }]);
        }
        if (part.valueTruncated) {
          throw new ServiceError(
            'bad_request',
            `${name} is longer than ${MAX_FIELD_BYTES} bytes.`,
            [{ field: name, message: `${name} is longer than ${MAX_FIELD_BYTES} bytes.` }],
          );
        }
        strings[name] = part.value;
        continue;
      }
      const path = join(dir, `${++count}-${safeName(part.filename)}`);
      await pipeline(part.file, createWriteStream(path), { signal: stopped });
      if (part.file.truncated) throw tooLarge(name, limits.maxFileBytes);
      files[name] = {
        path,
        // Every message about the file names it: a name no file system would hold is cut.
        name: shortened(part.filename || name, MAX_NAME_CHARS),
        size: (await stat(path)).size,
        type: part.mimetype,
      };
    }
    return { strings, files, remove };
  } catch (thrown) {
    // The body is no longer read: the answer goes out and the connection is closed.
    request.raw.unpipe();
    await remove();
    throw uploadError(stopped.aborted ? stopped.reason : thrown, limits.maxFileBytes);
  } finally {
    watch.stop();
    share?.close();
  }
}

function tooLarge(field: string, maxBytes: number): ServiceError {
  const mb = Math.round(maxBytes / (1024 * 1024));
  return new ServiceError(
    'payload_too_large',
    `The file in ${field} is larger than this service accepts (${mb} MB).`,
    [{ field, message: `${field} is larger than ${mb} MB.` }],
  );
}

/** The multipart reader's own failures as the service's errors. */
function uploadError(thrown: unknown, maxBytes: number): unknown {
  if (thrown instanceof ServiceError) return thrown;
  const error = thrown as { code?: string; message?: string; part?: { fieldname?: string } };
  switch (error.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(error.part?.fieldname ?? 'the upload', maxBytes);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ServiceError(
        'bad_request',
        'The request must be multipart/form-data (with its boundary), as the service interface says.',
      );
    case 'FST_FILES_LIMIT':
      return new ServiceError(
        'bad_request',
        'The form has more than one file; send one (audio or video) per request.',
      );
    case 'FST_PROTO_VIOLATION':
      return new ServiceError(
        'invalid_request',
        'A field of the form is named after a built-in property (such as __proto__ or constructor); no field of this service is.',
      );
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ServiceError('bad_request', `The form has too many parts (at most ${MAX_PARTS}).`);
    default:
      if (
        error.message &&
        (/multipart|boundary|Unexpected end of form/i.test(error.message) ||
          error.code?.startsWith('FST_'))
      ) {
        return new ServiceError('bad_request', `The form cannot be read: ${error.message}`);
      }
      return thrown;
  }
}
