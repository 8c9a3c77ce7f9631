import { describe, expect, it } from 'vitest';
import { missingToolsMessage, type Requirement } from './missing-tools';

const espeak: Requirement = {
  name: 'espeak-ng',
  neededFor: "the recognition and speaker benchmarks' generated speech",
  found: true,
  apt: ['espeak-ng'],
};
const chromium: Requirement = {
  name: 'Chromium at /usr/bin/chromium',
  neededFor: 'the Chromium runs (CHROMIUM_PATH names another)',
  found: true,
  apt: ['chromium'],
};
const shared: Requirement = {
  name: 'the shared folder ../shared',
  neededFor: 'the recordings and models the benchmarks read',
  found: true,
  fix: "put the project's shared material there, or name its folder with MURMUR_SHARED",
};
const python = (found: boolean): Requirement => ({
  name: 'torch, onnx for /usr/bin/python3',
  neededFor: 'making the benchmark models in .models/murmur-bench/',
  found,
  apt: ['python3-torch', 'python3-onnx'],
});
const lacking = (r: Requirement): Requirement => ({ ...r, found: false });

describe('the preflight names what is missing and how to install it', () => {
  it('says nothing when everything was found', () => {
    expect(missingToolsMessage([espeak, chromium, shared, python(true)], false)).toBeNull();
  });

  it('lists each missing tool and one apt-get command for all, with sudo for a user', () => {
    expect(missingToolsMessage([lacking(espeak), lacking(chromium), shared], false)).toBe(
      [
        'npm run bench cannot start: these are missing.',
        "- espeak-ng, needed for the recognition and speaker benchmarks' generated speech",
        '- Chromium at /usr/bin/chromium, needed for the Chromium runs (CHROMIUM_PATH names another)',
        'Install them with:',
        '  sudo apt-get install -y espeak-ng chromium',
        'Then run npm run bench again.',
      ].join('\n'),
    );
  });

  it('names the Python packages that make the benchmark models, without sudo for root', () => {
    expect(missingToolsMessage([espeak, python(false)], true)).toBe(
      [
        'npm run bench cannot start: this is missing.',
        '- torch, onnx for /usr/bin/python3, needed for making the benchmark models in .models/murmur-bench/',
        'Install them with:',
        '  apt-get install -y python3-torch python3-onnx',
        'Then run npm run bench again.',
      ].join('\n'),
    );
  });

  it('gives what to do for what no package provides, and each package once', () => {
    const alsoChromium: Requirement = { ...lacking(chromium), name: 'Chromium at /opt/c' };
    expect(missingToolsMessage([lacking(shared), lacking(chromium), alsoChromium], false)).toBe(
      [
        'npm run bench cannot start: these are missing.',
        "- the shared folder ../shared, needed for the recordings and models the benchmarks read: put the project's shared material there, or name its folder with MURMUR_SHARED",
        '- Chromium at /usr/bin/chromium, needed for the Chromium runs (CHROMIUM_PATH names another)',
        '- Chromium at /opt/c, needed for the Chromium runs (CHROMIUM_PATH names another)',
        'Install it with:',
        '  sudo apt-get install -y chromium',
        'Then run npm run bench again.',
      ].join('\n'),
    );
    expect(missingToolsMessage([lacking(shared)], false)).toBe(
      [
        'npm run bench cannot start: this is missing.',
        "- the shared folder ../shared, needed for the recordings and models the benchmarks read: put the project's shared material there, or name its folder with MURMUR_SHARED",
        'Then run npm run bench again.',
      ].join('\n'),
    );
  });
});
