import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as transformers from '@huggingface/transformers';
import { HUB } from '../../core/model-catalog';
import {
  abortableSleep,
  resilientModelFetch,
  type ModelDownloadPorts,
} from '../../engine/models/model-download';
import { nodePartStore } from './model-parts';

/**
 * Seconds a model host has to answer each request (its status and headers): a host that takes
 * the connection and then says nothing ends the load with a sentence, not an endless wait.
 * `MURMUR_MODEL_ANSWER_SECONDS` sets another.
 */
export function modelAnswerSeconds(): number {
  const named = Number(process.env.MURMUR_MODEL_ANSWER_SECONDS);
  return Number.isFinite(named) && named > 0 ? named : 30;
}

/** `fetch`, failing with a sentence when the host has not answered within `seconds`. */
function answerWithin(seconds: number): typeof fetch {
  const fetchNow = globalThis.fetch.bind(globalThis);
  return async (input, init) => {
    const late = new AbortController();
    const timer = setTimeout(() => late.abort(), seconds * 1000);
    const own = init?.signal ?? null;
    const signal = own ? AbortSignal.any([own, late.signal]) : late.signal;
    try {
      return await fetchNow(input, { ...init, signal });
    } catch (thrown) {
      if (late.signal.aborted && !own?.aborted)
        throw new Error(`the host did not answer within ${seconds} s`);
      throw thrown;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Node's own fetch, for everything transformers.js fetches that is not a model file. */
const plainFetch: typeof fetch = (input, init) => answerWithin(modelAnswerSeconds())(input, init);

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

/**
 * Whether a model failed to load on files that arrived (or were kept) damaged: a host that
 * answered with fewer bytes than the file has, and said that many, leaves a file no check can
 * tell from a whole one until the runtime reads it. A file that changed on the host while it
 * downloaded is fetched again too (its first bytes had already gone to the runtime).
 */
function damagedFiles(thrown: unknown): boolean {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return (
    /protobuf parsing failed|failed to load model|invalid model|unexpected end of|is not valid JSON|Unexpected token/i.test(
      message,
    ) ||
    message.includes('it arrived damaged (shorter than the model needs)') ||
    message.includes('changed on the host while it downloaded')
  );
}

/** Removes what is kept of models `ids` downloaded from a model host; whether any was kept. */
function dropKeptModels(ids: readonly string[]): boolean {
  const { env } = transformers;
  if (!env.allowRemoteModels || !env.cacheDir) return false;
  let dropped = false;
  for (const id of ids) {
    const folder = join(resolve(env.cacheDir), id);
    if (!existsSync(folder)) continue;
    rmSync(folder, { recursive: true, force: true });
    dropped = true;
  }
  return dropped;
}

/**
 * Loads models from a model host so that damaged files are never kept: a load that fails on
 * them drops the files kept of those models and downloads them again, once; should that fail
 * too, the files are dropped again, so that a later run (another host, a mended one) starts
 * from nothing rather than from the damage. Models read from a folder are the user's: never
 * removed.
 */
export async function loadDroppingDamage<T>(
  ids: readonly string[],
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (thrown) {
    if (!damagedFiles(thrown) || !dropKeptModels(ids)) throw thrown;
  }
  try {
    return await load();
  } catch (thrown) {
    if (damagedFiles(thrown)) dropKeptModels(ids);
    throw thrown;
  }
}
