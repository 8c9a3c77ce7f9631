import { describe, expect, it } from 'vitest';
import { networkNote, tallyNetwork, type NetworkScope } from './network-note';

const scope: NetworkScope = {
  self: 'http://127.0.0.1:4173',
  modelHost: 'http://127.0.0.1:8000/',
  media: null,
  webhook: null,
};
const model = (file: string) => ({
  url: `http://127.0.0.1:8000/murmur-test/w/resolve/main/${file}`,
});
const app = (file: string) => ({ url: `http://127.0.0.1:4173/assets/${file}` });

describe('the Network note', () => {
  it('counts model files from the model host, the app’s files and nothing elsewhere', () => {
    const records = [model('config.json'), model('encoder.onnx'), app('a.js'), model('vad.onnx')];
    const tally = tallyNetwork(records, scope);
    expect(tally).toMatchObject({ app: 1, modelFiles: 3, modelRequests: 3, elsewhere: [] });
    expect(networkNote(tally, null)).toBe(
      '3 model files from 127.0.0.1:8000, 1 file from this app, 0 requests elsewhere; nothing was sent',
    );
  });

  it('counts a file asked for twice (a resumed download) once, and says how many requests', () => {
    const records = [model('encoder.onnx'), model('encoder.onnx'), app('a.js'), app('b.js')];
    expect(networkNote(tallyNetwork(records, scope), null)).toBe(
      '1 model file from 127.0.0.1:8000 (2 requests), 2 files from this app, 0 requests elsewhere; nothing was sent',
    );
  });

  it('says the models were already in this browser when none was fetched', () => {
    expect(networkNote(tallyNetwork([], scope), null)).toBe(
      '0 model files from 127.0.0.1:8000 (the models were already in this browser), 0 files from this app, 0 requests elsewhere; nothing was sent',
    );
  });

  it('names every other origin, never hiding one, and leaves blob: and data: addresses out', () => {
    const records = [
      { url: 'https://tracker.example/collect' },
      { url: 'https://tracker.example/again' },
      { url: 'http://cdn.example:8080/lib.js' },
      { url: 'blob:http://127.0.0.1:4173/0b1c' },
      { url: 'data:text/plain,hi' },
    ];
    expect(networkNote(tallyNetwork(records, scope), null)).toBe(
      '0 model files from 127.0.0.1:8000 (the models were already in this browser), 0 files from this app, 3 requests elsewhere (https://tracker.example, http://cdn.example:8080); nothing was sent',
    );
  });

  it('counts the media link’s requests apart and says the result goes to the webhook typed', () => {
    const typed = {
      ...scope,
      media: 'https://media.example/talk.mp3',
      webhook: 'https://hooks.example/in?key=1',
    };
    const records = [
      model('config.json'),
      { url: 'https://media.example/talk.mp3' },
      { url: 'https://media.example/talk.mp3' },
    ];
    expect(networkNote(tallyNetwork(records, typed), typed.webhook)).toBe(
      '1 model file from 127.0.0.1:8000, 0 files from this app, 2 requests to media.example for the media, 0 requests elsewhere; only the result is sent, to hooks.example (your webhook)',
    );
  });

  it('tells a model host on the app’s own origin from the app’s files by its path', () => {
    const mirror = { ...scope, modelHost: '/hub/' };
    const records = [
      { url: 'http://127.0.0.1:4173/hub/murmur-test/w/resolve/main/config.json' },
      app('a.js'),
    ];
    const tally = tallyNetwork(records, mirror);
    expect(tally).toMatchObject({ modelHost: '127.0.0.1:4173', modelFiles: 1, app: 1 });
  });

  it('counts the hub by its own host (redirects to its download hosts are one request)', () => {
    const hub = { ...scope, modelHost: 'https://huggingface.co' };
    const records = [{ url: 'https://huggingface.co/onnx-community/w/resolve/main/a.onnx' }];
    expect(networkNote(tallyNetwork(records, hub), null)).toBe(
      '1 model file from huggingface.co, 0 files from this app, 0 requests elsewhere; nothing was sent',
    );
  });
});
