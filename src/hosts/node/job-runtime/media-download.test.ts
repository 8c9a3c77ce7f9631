import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../core/contract/errors';
import { PrivateAddressError } from '../address-guard';
import { networkReason, redirectTarget } from './media-download';

const publicUrl = new URL('https://media.example.com/talks/a.mp3');

/** The error `redirectTarget` throws for a redirect from the public URL to `location`. */
function refusal(location: string, allowPrivate = false): ServiceError {
  try {
    redirectTarget(location, publicUrl, 'audio_url', allowPrivate);
  } catch (thrown) {
    if (thrown instanceof ServiceError) return thrown;
    throw thrown;
  }
  throw new Error(`The redirect to ${location} was followed.`);
}

describe('a redirect of a media URL', () => {
  it('to a private address is refused with 422 naming the address it led to', () => {
    const error = refusal('http://10.0.0.5:8080/admin');
    const message =
      'audio_url redirects to "http://10.0.0.5:8080/admin", which is not a public address (loopback, private or reserved addresses are not fetched).';
    expect(error.status).toBe(422);
    expect(error.message).toBe(message);
    expect(error.problems).toEqual([{ field: 'audio_url', message }]);
    expect(refusal('http://[::1]/x').message).toMatch(
      /^audio_url redirects to "http:\/\/\[::1\]\/x"/,
    );
  });

  it('names at most the start of a very long address', () => {
    const long = `http://127.0.0.1/${'a'.repeat(10_000)}`;
    const message = refusal(long).message;
    expect(message).toBe(
      `audio_url redirects to "http://127.0.0.1/${'a'.repeat(47)}…" (10017 characters), which is not a public address (loopback, private or reserved addresses are not fetched).`,
    );
  });

  it('to a public address, a relative one, or a private one when allowed, is followed', () => {
    expect(redirectTarget('/b.mp3', publicUrl, 'audio_url', false).href).toBe(
      'https://media.example.com/b.mp3',
    );
    expect(redirectTarget('http://93.184.216.34/a.mp3', publicUrl, 'audio_url', false).href).toBe(
      'http://93.184.216.34/a.mp3',
    );
    expect(redirectTarget('http://10.0.0.5/a.mp3', publicUrl, 'audio_url', true).href).toBe(
      'http://10.0.0.5/a.mp3',
    );
  });

  it('to what is not http(s) is a failure to fetch (502)', () => {
    const error = refusal('file:///etc/passwd');
    expect(error.status).toBe(502);
    expect(error.message).toBe(
      'The media at audio_url could not be fetched: it redirects to an address that is not http(s).',
    );
  });

  it('to a name that resolves to a private address says so, naming the redirect', () => {
    const privateName = new PrivateAddressError() as NodeJS.ErrnoException;
    expect(networkReason(privateName, null)).toBe(
      'its host resolves to an address that is not public',
    );
    expect(networkReason(privateName, new URL('http://intranet.example/a.mp3'))).toBe(
      'it redirects to "http://intranet.example/a.mp3", whose host resolves to an address that is not public',
    );
  });
});
