import { describe, expect, it } from 'vitest';
import { isPrivateLiteral, isPublicAddress, publicLookup } from './address-guard';

describe('the address guard', () => {
  it('calls only plain unicast addresses public', () => {
    for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']) {
      expect(isPublicAddress(address)).toBe(true);
    }
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '[::ffff:10.0.0.1]',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('tells IP literals that are not public in URLs, and leaves names to the lookup', () => {
    expect(isPrivateLiteral(new URL('http://127.0.0.1:8080/a.wav'))).toBe(true);
    expect(isPrivateLiteral(new URL('http://[::1]/a.wav'))).toBe(true);
    expect(isPrivateLiteral(new URL('http://2130706433/a.wav'))).toBe(true);
    expect(isPrivateLiteral(new URL('http://93.184.215.14/a.wav'))).toBe(false);
    expect(isPrivateLiteral(new URL('http://localhost/a.wav'))).toBe(false);
  });

  it('refuses a name that resolves to loopback when the socket looks it up', async () => {
    const error = await new Promise<unknown>((resolve) =>
      publicLookup('localhost', {}, (e) => resolve(e)),
    );
    expect((error as { code?: string }).code).toBe('MURMUR_PRIVATE_ADDRESS');
  });
});
