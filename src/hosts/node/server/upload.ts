import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../../../core/contract/errors';
import type { DiskFile } from '../media-file';

/** The form of one request: its text fields, and its files on disk. */
export interface UploadedForm {
  strings: Record<string, string>;
  files: Record<string, DiskFile>;
  /** Deletes the files; called once the request is done, whatever its outcome. */
  remove: () => Promise<void>;
}

export interface UploadLimits {
  maxFileBytes: number;
  /** Where the upload folder of each request is made (default: the system's). */
  tmpDir?: string;
}

/** Text fields are short; a megabyte-long "language" is a broken or hostile client. */
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_PARTS = 64;

const safeName = (name: string) => {
  const ext = extname(basename(name)).toLowerCase();
  return `upload${/^\.[a-z0-9]{1,8}$/.test(ext) ? ext : ''}`;
};

/**
 * Reads a multipart body as it streams in: text fields into memory (they are small), each file
 * straight into a temporary folder of its own, so that an upload of any size is never held in
 * memory whole. A file over the limit stops the upload with `payload_too_large`.
 */
export async function readUpload(
  request: FastifyRequest,
  limits: UploadLimits,
): Promise<UploadedForm> {
  const dir = await mkdtemp(join(limits.tmpDir ?? tmpdir(), 'murmur-upload-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const strings: Record<string, string> = {};
  const files: Record<string, DiskFile> = {};
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxFileBytes,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_PARTS,
      },
    });
    let count = 0;
    for await (const part of parts) {
      const name = part.fieldname;
      if (part.type === 'field') {
        if (typeof part.value !== 'string') continue;
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
      await pipeline(part.file, createWriteStream(path));
      if (part.file.truncated) throw tooLarge(name, limits.maxFileBytes);
      files[name] = {
        path,
        name: part.filename || name,
        size: (await stat(path)).size,
        type: part.mimetype,
      };
    }
    return { strings, files, remove };
  } catch (thrown) {
    await remove();
    throw uploadError(thrown, limits.maxFileBytes);
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
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ServiceError('bad_request', `The form has too many parts (at most ${MAX_PARTS}).`);
    default:
      if (error.message && /multipart|boundary|Unexpected end of form/i.test(error.message)) {
        return new ServiceError('bad_request', `The form cannot be read: ${error.message}`);
      }
      return thrown;
  }
}
