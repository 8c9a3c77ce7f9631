import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { downloadModelFile, type ModelDownloadPorts } from '../../engine/models/model-download';
import type { ModelFiles } from '../../engine/ports';
import { nodeDownloadPorts } from './transformers-setup';

/**
 * Model files for Node: a folder laid out as `<folder>/<model id>/<file>` (what
 * `tools/models/stage.mjs` builds), or a model host URL in the hub's layout
 * (`{host}/{model id}/resolve/main/{file}`), downloaded so that a broken connection resumes.
 */
export function nodeModelFiles(
  source: string,
  download: ModelDownloadPorts = nodeDownloadPorts(),
): ModelFiles {
  if (/^https?:\/\//.test(source)) {
    const host = source.endsWith('/') ? source : `${source}/`;
    return {
      host,
      async get(modelId, path, options) {
        const url = `${host}${modelId}/resolve/main/${path}`;
        const response = await downloadModelFile(
          url,
          download,
          options.signal ? { signal: options.signal } : {},
        );
        if (!response.ok)
          throw new Error(`Model file ${url} could not be fetched (${response.status}).`);
        return new Uint8Array(await response.arrayBuffer());
      },
    };
  }
  const folder = resolve(source);
  return {
    host: folder,
    async get(modelId, path, options) {
      options.signal?.throwIfAborted();
      const file = join(folder, modelId, path);
      try {
        return new Uint8Array(await readFile(file));
      } catch {
        throw new Error(
          `Model file ${file} was not found (run "node tools/models/stage.mjs" to stage test models).`,
        );
      }
    },
  };
}
