import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import * as transformers from '@huggingface/transformers';
import { HUB } from '../../core/model-catalog';
import {
  abortableSleep,
  resilientModelFetch,
  type ModelDownloadPorts,
} from '../../engine/models/model-download';
import { nodePartStore } from './model-parts';

/** Node's own fetch, for everything transformers.js fetches that is not a model file. */
const plainFetch = globalThis.fetch.bind(globalThis);

/**
 * How model files are downloaded in Node: resumed after a break, parts kept on disk apart from
 * the models, redirects read (the hub's carry each large file's size and sha256).
 */
export function nodeDownloadPorts(partsFolder?: string): ModelDownloadPorts {
  return {
    fetch: (url, init) => plainFetch(url, init),
    parts: nodePartStore(partsFolder),
    sha256: () => {
      const state = createHash('sha256');
      return { update: (bytes) => void state.update(bytes), hex: () => state.digest('hex') };
    },
    sleep: abortableSleep,
    manualRedirects: true,
  };
}

/**
 * Points transformers.js at the model source: the hub by default, a model host URL (a mirror
 * in the hub's layout), or a folder laid out as `<folder>/<model id>/<file>`.
 */
export function configureModelSource(source: string | null): typeof transformers {
  const { env } = transformers;
  // Downloaded models are kept in transformers.js' folder inside node_modules unless the
  // environment names another (a volume that outlives reinstalls, or a test's own folder); the
  // engine thread reads the same environment, so it keeps them there too.
  const cache = process.env.MURMUR_MODEL_CACHE;
  if (cache) env.cacheDir = `${resolve(cache)}/`;
  if (source === null || /^https?:\/\//.test(source)) {
    env.allowRemoteModels = true;
    env.allowLocalModels = false;
    env.remoteHost = source === null ? HUB : source.endsWith('/') ? source : `${source}/`;
    env.fetch = resilientModelFetch(env.remoteHost, nodeDownloadPorts(), plainFetch);
  } else {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = `${resolve(source)}/`;
  }
  return transformers;
}
