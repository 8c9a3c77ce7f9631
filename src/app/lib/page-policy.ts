import {
  connectSources,
  connectSourcesOf,
  networkPolicy,
  originOf,
  sourcesAllow,
} from '../../core/network-policy';
import { settingsInUse } from '../store/settings-slice';

/** Origins of media links and webhooks the person has used on this device. */
const ADDRESSES_KEY = 'murmur.allowed-addresses';

function allowedAddresses(): string[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(ADDRESSES_KEY) ?? '[]');
    return Array.isArray(saved) ? saved.filter((a): a is string => typeof a === 'string') : [];
  } catch {
    return [];
  }
}

const META = 'meta[http-equiv="Content-Security-Policy"]';

/**
 * Gives the page its network policy, before any of the app's code runs: this app, the model
 * host in use and the addresses allowed before. A policy cannot be widened once the page has
 * it, so an address needed later is allowed for the next opening (`allowAndReload`).
 */
export function writePagePolicy(): void {
  if (document.head.querySelector(META)) return;
  const sources = connectSources(location.origin, settingsInUse().modelHost, allowedAddresses());
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = networkPolicy(sources, { inline: import.meta.env.DEV });
  document.head.prepend(meta);
}

/** The sources the page may contact, as its policy names them. */
export function pageSources(): string[] {
  const meta = document.head.querySelector<HTMLMetaElement>(META);
  return meta ? connectSourcesOf(meta.content) : ["'self'"];
}

/** The addresses among these that this page's policy does not let it reach. */
export function unreachable(addresses: readonly string[]): string[] {
  const sources = pageSources();
  const origins = addresses
    .map((a) => originOf(a, location.href))
    .filter((o): o is string => o !== null);
  return [...new Set(origins)].filter((o) => !sourcesAllow(sources, location.origin, o));
}

/** Keeps these origins allowed from the next opening of the page on. */
export function allowAddresses(origins: readonly string[]): void {
  const kept = allowedAddresses();
  for (const origin of origins) if (!kept.includes(origin)) kept.push(origin);
  try {
    localStorage.setItem(ADDRESSES_KEY, JSON.stringify(kept));
  } catch {
    // Storage refused: the address stays out of reach, and the request says so when it fails.
  }
}
