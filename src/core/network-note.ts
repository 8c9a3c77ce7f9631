import { originOf } from './network-policy';

/**
 * The Network note shown beside a result: what the page and its workers fetched for it, and
 * from where, counted from the browser's own record of every request (resource timing).
 */

/** One request as the browser recorded it: the address asked for (before any redirect). */
export interface NetworkRecord {
  url: string;
}

/** Whom the requests are counted against: this app, the model host, the addresses typed. */
export interface NetworkScope {
  /** The app's own origin. */
  self: string;
  /** The model host in use (the hub or a mirror in its layout), as set. */
  modelHost: string;
  /** The media link typed for this transcription, if any. */
  media: string | null;
  /** The webhook typed for this transcription, if any: the one address a body is sent to. */
  webhook: string | null;
}

export interface NetworkTally {
  /** Requests for this app's own files (code, runtimes), from the network or its offline copy. */
  app: number;
  /** The model host's host name (and port). */
  modelHost: string;
  /** Distinct model files asked of the model host, and the requests made for them. */
  modelFiles: number;
  modelRequests: number;
  /** Requests for the media link, and its host, when one was typed. */
  media: { host: string; requests: number } | null;
  /** Requests to the webhook's origin before the result (none, unless it serves the media). */
  webhook: { host: string; requests: number } | null;
  /** Every other origin, with its requests: never hidden. */
  elsewhere: { origin: string; requests: number }[];
}

const hostOf = (origin: string) => new URL(origin).host;

/**
 * Sorts the requests by whom they went to. Addresses that are not http(s) (`blob:`, `data:`)
 * never leave the browser and are not counted. A model host on the app's own origin (a mirror
 * served beside it) is told apart by its path.
 */
export function tallyNetwork(records: readonly NetworkRecord[], scope: NetworkScope): NetworkTally {
  const hostBase = new URL(scope.modelHost, scope.self).href.replace(/\/?$/, '/');
  const hostOrigin = new URL(hostBase).origin;
  const mediaOrigin = scope.media === null ? null : originOf(scope.media);
  const webhookOrigin = scope.webhook === null ? null : originOf(scope.webhook);
  const files = new Set<string>();
  const tally: NetworkTally = {
    app: 0,
    modelHost: hostOf(hostOrigin),
    modelFiles: 0,
    modelRequests: 0,
    media: mediaOrigin === null ? null : { host: hostOf(mediaOrigin), requests: 0 },
    webhook:
      webhookOrigin === null || webhookOrigin === mediaOrigin
        ? null
        : { host: hostOf(webhookOrigin), requests: 0 },
    elsewhere: [],
  };
  for (const { url } of records) {
    const origin = originOf(url);
    if (origin === null) continue;
    if (url.startsWith(hostBase) || (origin === hostOrigin && origin !== scope.self)) {
      files.add(url.split('#')[0]!);
      tally.modelRequests++;
    } else if (origin === scope.self) tally.app++;
    else if (origin === mediaOrigin) tally.media!.requests++;
    else if (origin === webhookOrigin) tally.webhook!.requests++;
    else {
      const known = tally.elsewhere.find((e) => e.origin === origin);
      if (known) known.requests++;
      else tally.elsewhere.push({ origin, requests: 1 });
    }
  }
  tally.modelFiles = files.size;
  return tally;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The note as the page shows it, e.g. "3 model files from 127.0.0.1:8000, 12 files from this
 * app, 0 requests elsewhere; nothing was sent". A body leaves the page in one place only, the
 * webhook's delivery, so "nothing was sent" holds whenever no webhook was typed.
 */
export function networkNote(tally: NetworkTally, webhook: string | null): string {
  const parts: string[] = [];
  parts.push(
    tally.modelFiles === 0
      ? `0 model files from ${tally.modelHost} (the models were already in this browser)`
      : `${count(tally.modelFiles, 'model file')} from ${tally.modelHost}` +
          (tally.modelRequests > tally.modelFiles
            ? ` (${count(tally.modelRequests, 'request')})`
            : ''),
  );
  parts.push(`${count(tally.app, 'file')} from this app`);
  if (tally.media !== null && tally.media.requests > 0)
    parts.push(`${count(tally.media.requests, 'request')} to ${tally.media.host} for the media`);
  if (tally.webhook !== null && tally.webhook.requests > 0)
    parts.push(`${count(tally.webhook.requests, 'request')} to ${tally.webhook.host}`);
  const others = tally.elsewhere.reduce((n, e) => n + e.requests, 0);
  parts.push(
    others === 0
      ? '0 requests elsewhere'
      : `${count(others, 'request')} elsewhere (${tally.elsewhere.map((e) => e.origin).join(', ')})`,
  );
  const webhookOrigin = webhook === null ? null : originOf(webhook);
  const sent =
    webhookOrigin === null
      ? 'nothing was sent'
      : `only the result is sent, to ${hostOf(webhookOrigin)} (your webhook)`;
  return `${parts.join(', ')}; ${sent}`;
}
