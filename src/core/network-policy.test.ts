import { describe, expect, it } from 'vitest';
import {
  connectSources,
  connectSourcesOf,
  networkPolicy,
  originOf,
  sourcesAllow,
} from './network-policy';

const app = 'http://127.0.0.1:4173';

describe('the page network policy', () => {
  it('names the app, a mirror and typed addresses by origin, each once', () => {
    expect(
      connectSources(app, 'http://127.0.0.1:8000/models/', [
        'https://hooks.example.com/murmur?x=1',
        'https://hooks.example.com/other',
        'ftp://files.example.com/a.wav',
      ]),
    ).toEqual(["'self'", 'http://127.0.0.1:8000', 'https://hooks.example.com']);
  });

  it('names the hub with the hosts it redirects downloads to', () => {
    expect(connectSources(app, 'https://huggingface.co/', [])).toEqual([
      "'self'",
      'https://huggingface.co',
      'https://*.huggingface.co',
      'https://*.hf.co',
    ]);
  });

  it('adds nothing for a host on the app itself', () => {
    expect(connectSources(app, '/hub/', [])).toEqual(["'self'"]);
  });

  it('admits exactly what it names', () => {
    const sources = connectSources(app, 'https://huggingface.co/', []);
    expect(sourcesAllow(sources, app, `${app}/hub/x`)).toBe(true);
    expect(sourcesAllow(sources, app, 'https://cas-bridge.xethub.hf.co/a')).toBe(true);
    expect(sourcesAllow(sources, app, 'https://cdn-lfs.huggingface.co/a')).toBe(true);
    expect(sourcesAllow(sources, app, 'http://cdn-lfs.huggingface.co/a')).toBe(false);
    expect(sourcesAllow(sources, app, 'https://hf.co.example.com/a')).toBe(false);
    expect(sourcesAllow(sources, app, 'http://127.0.0.1:4174/')).toBe(false);
    expect(sourcesAllow(sources, app, 'mailto:someone@example.com')).toBe(false);
  });

  it('reads connect-src back from the policy it writes', () => {
    const sources = ["'self'", 'http://127.0.0.1:8000'];
    const policy = networkPolicy(sources);
    expect(connectSourcesOf(policy)).toEqual(sources);
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval' blob:;");
    expect(policy).not.toContain('unsafe-inline');
    expect(networkPolicy(sources, { inline: true })).toContain("style-src 'self' 'unsafe-inline'");
    expect(connectSourcesOf("default-src 'self'")).toEqual([]);
  });

  it('takes origins of http(s) addresses only', () => {
    expect(originOf('https://a.example:8443/x')).toBe('https://a.example:8443');
    expect(originOf('/hub/', app)).toBe(app);
    expect(originOf('data:text/plain,x')).toBeNull();
    expect(originOf('::')).toBeNull();
  });
});
