/**
 * The page's Content-Security-Policy: what the page and its workers may load and whom they may
 * contact. Everything but `connect-src` is fixed; `connect-src` names this app, the model host
 * in use (with the hosts it is known to redirect downloads to) and the addresses the person
 * typed, so it is built when the page opens.
 */

/**
 * Directives that hold whatever the settings. The development server inlines a script (React's
 * refresh) and style elements (each stylesheet as it changes): `inline` admits them there; the
 * built app needs neither (React sets style attributes through the DOM, which CSP leaves alone).
 */
const fixed = (inline: boolean) => [
  "default-src 'self'",
  // WebAssembly (ffmpeg, onnxruntime) is compiled from bytes, which CSP counts as eval;
  // transformers.js imports onnxruntime's WASM loader from a blob: copy it patches first.
  `script-src 'self' 'wasm-unsafe-eval' blob:${inline ? " 'unsafe-inline'" : ''}`,
  // The app's workers start from blob: wrappers, so that they hold the page's policy.
  "worker-src 'self' blob:",
  `style-src 'self'${inline ? " 'unsafe-inline'" : ''}`,
  "img-src 'self' data: blob:",
  // The player plays the chosen file through a blob: address, and shows subtitles made as one.
  "media-src 'self' blob:",
  "font-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
];

/**
 * The Hugging Face hub answers a model file's address with a redirect to a download host:
 * `cdn-lfs.huggingface.co`, `cdn-lfs-us-1.hf.co`, `cdn-lfs-eu-1.hf.co` for LFS files,
 * `cas-bridge.xethub.hf.co` for files kept in Xet storage. The browser checks every redirect
 * against `connect-src`, so these are named with the hub.
 */
export const HUB_DOWNLOAD_HOSTS = [
  'https://huggingface.co',
  'https://*.huggingface.co',
  'https://*.hf.co',
] as const;

/** The origin of an http(s) address, or null for anything else (or nothing readable). */
export function originOf(address: string, base?: string): string | null {
  try {
    const url = new URL(address, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The sources `connect-src` names: this app, the model host with its download hosts, and the
 * other addresses allowed (origins of media links and webhooks typed on this device).
 */
export function connectSources(
  self: string,
  modelHost: string,
  addresses: readonly string[],
): string[] {
  const sources = ["'self'"];
  const add = (source: string | null) => {
    if (source !== null && source !== self && !sources.includes(source)) sources.push(source);
  };
  const host = originOf(modelHost, self);
  add(host);
  if (host !== null && (host === 'https://huggingface.co' || host.endsWith('.huggingface.co')))
    HUB_DOWNLOAD_HOSTS.forEach(add);
  for (const address of addresses) add(originOf(address));
  return sources;
}

/** The whole policy, for a `<meta http-equiv="Content-Security-Policy">` or a header. */
export function networkPolicy(
  connect: readonly string[],
  options: { inline?: boolean } = {},
): string {
  return [...fixed(options.inline ?? false), `connect-src ${connect.join(' ')}`].join('; ');
}

/**
 * What a server sends with the app's pages: the fixed directives, and `connect-src` left to
 * the policy the page adds when it opens (a second policy can only narrow the first).
 * `frame-ancestors` works only in a header.
 */
export function pageHeaderPolicy(options: { inline?: boolean } = {}): string {
  return `${networkPolicy(["'self'", 'http:', 'https:'], options)}; frame-ancestors 'none'`;
}

/**
 * What a server sends with every script: a worker started straight from a script's address
 * (onnxruntime's threads, the service worker) holds the policy of that script's response, not
 * the page's. Neither needs anything but this app's files.
 */
export const SCRIPT_HEADER_POLICY =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval' blob:; worker-src 'self' blob:; connect-src 'self'";

/** Whether one of `connect-src`'s sources (as `connectSources` writes them) admits an address. */
export function sourcesAllow(sources: readonly string[], self: string, address: string): boolean {
  const origin = originOf(address, self);
  if (origin === null) return false;
  return sources.some((source) => {
    if (source === "'self'") return origin === self;
    if (source === origin) return true;
    const wildcard = /^(https?):\/\/\*\.(.+)$/.exec(source);
    if (!wildcard) return false;
    const url = new URL(origin);
    return url.protocol === `${wildcard[1]}:` && url.hostname.endsWith(`.${wildcard[2]}`);
  });
}

/** The `connect-src` sources of a policy's text. */
export function connectSourcesOf(policy: string): string[] {
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name === 'connect-src') return sources;
  }
  return [];
}
