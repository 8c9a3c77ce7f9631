import { open, stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import type { MediaFile } from '../../core/contract/request';

/** A file on disk as a request's media file; its bytes are read later by the decoder. */
export interface DiskFile extends MediaFile {
  readonly path: string;
}

const TYPES: Readonly<Record<string, string>> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/opus',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.mkv': 'video/x-matroska',
  '.mov': 'video/quicktime',
};

/**
 * Null when there is no readable regular file at the path: missing, a folder, or one this
 * process may not open (its permissions), all said the same way. It is opened to find out, as
 * permission bits alone do not say what the process may read (a privileged one reads them all).
 */
export async function diskFile(path: string): Promise<DiskFile | null> {
  const absolute = resolve(path);
  try {
    // Only a regular file is opened: opening a named pipe would wait for a writer.
    const info = await stat(absolute);
    if (!info.isFile()) return null;
    await (await open(absolute, 'r')).close();
    return {
      path: absolute,
      name: basename(absolute),
      size: info.size,
      type: TYPES[extname(absolute).toLowerCase()] ?? 'application/octet-stream',
    };
  } catch {
    return null;
  }
}
