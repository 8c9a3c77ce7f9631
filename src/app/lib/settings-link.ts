import type { EngineSettings } from '../../worker/protocol';

/**
 * The link's parameters that set the models:
 * `?models=<host>&model=<id>&translation=<id>&segmentation=<id>&embedding=<id>`.
 */
const PARAMS = {
  models: 'modelHost',
  model: 'whisperModel',
  translation: 'translationModel',
  segmentation: 'segmentationModel',
  embedding: 'embeddingModel',
} as const satisfies Record<string, keyof EngineSettings>;

/**
 * Settings given by a shared link, so that a team can point everyone at its own mirror and model
 * with one URL. Only well-formed values are taken: a host must be an http(s) URL (or a path on
 * this site), a model id `owner/name`.
 */
export function settingsFromLink(search: string): Partial<EngineSettings> {
  const params = new URLSearchParams(search);
  const settings: Partial<EngineSettings> = {};
  const host = params.get('models')?.trim();
  if (host && (/^https?:\/\/[^\s]+$/i.test(host) || /^\/[^\s]*$/.test(host))) {
    settings[PARAMS.models] = host;
  }
  for (const key of ['model', 'translation', 'segmentation', 'embedding'] as const) {
    const id = params.get(key)?.trim();
    if (id && /^[\w.-]+\/[\w.-]+$/.test(id)) settings[PARAMS[key]] = id;
  }
  return settings;
}

/**
 * The page's address without the link's settings, once they are applied and saved: what stays
 * in the address bar (and in a bookmark, a reload, an installed app's start) is the app itself,
 * and any other parameters and the fragment are kept.
 */
export function addressWithoutSettings(href: string): string {
  const url = new URL(href);
  for (const key of Object.keys(PARAMS)) url.searchParams.delete(key);
  return `${url.pathname}${url.search}${url.hash}`;
}
