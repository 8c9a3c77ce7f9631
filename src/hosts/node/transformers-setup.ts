import { resolve } from 'node:path';
import * as transformers from '@huggingface/transformers';
import { HUB } from '../../core/model-catalog';

/**
 * Points transformers.js at the model source: the hub by default, a model host URL (a mirror
 * in the hub's layout), or a folder laid out as `<folder>/<model id>/<file>`.
 */
export function configureModelSource(source: string | null): typeof transformers {
  const { env } = transformers;
  if (source === null || /^https?:\/\//.test(source)) {
    env.allowRemoteModels = true;
    env.allowLocalModels = false;
    env.remoteHost = source === null ? HUB : source.endsWith('/') ? source : `${source}/`;
  } else {
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = `${resolve(source)}/`;
  }
  return transformers;
}
