import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PartStore } from '../ports';
import { downloadModelFile, type ModelDownloadPorts, type Sha256Hasher } from './model-download';

const URL_ = 'http://models.test/org/model/resolve/main/onnx/model.onnx';

/** A file of `size` bytes that differ from one another, served in chunks of `chunk` bytes. */
function file(size: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) % 251);
}

function served(bytes: Uint8Array, headers: Record<string, string>, chunk = 4096): Response {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + chunk));
      at += chunk;
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-length': String(bytes.length), ...headers },
  });
}

/** A sha256 that records what it was fed. */
function recordingHasher(fed: number[]): () => Sha256Hasher {
  return () => {
    const state = createHash('sha256');
    return {
      update: (bytes) => {
        fed.push(bytes.length);
        state.update(bytes);
      },
      hex: () => state.digest('hex'),
    };
  };
}

function ports(
  bytes: Uint8Array,
  headers: Record<string, string>,
  extra: Partial<ModelDownloadPorts>,
) {
  return {
    fetch: async () => served(bytes, headers),
    sleep: async () => undefined,
    sha256: recordingHasher([]),
    ...extra,
  } satisfies ModelDownloadPorts;
}

describe('a model file downloaded', () => {
  it('is hashed as it comes, every byte once, where the host announces a sha256', async () => {
    const bytes = file(100_000);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const fed: number[] = [];
    const response = await downloadModelFile(
      URL_,
      ports(bytes, { etag: `"${sha}"` }, { sha256: recordingHasher(fed) }),
    );
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(fed.length).toBeGreaterThan(1);
    expect(fed.reduce((a, b) => a + b, 0)).toBe(bytes.length);
  });

  it('is refused when the bytes hash to another sha256 than announced', async () => {
    const bytes = file(20_000);
    const other = createHash('sha256').update('another file').digest('hex');
    const response = await downloadModelFile(URL_, ports(bytes, { etag: `"${other}"` }, {}));
    await expect(response.arrayBuffer()).rejects.toThrow(
      `its file onnx/model.onnx arrived with a sha256 checksum (${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}…) other than the one the host announced (${other.slice(0, 12)}…), so it was damaged on the way and was not kept`,
    );
  });

  it('is not hashed where the host announces no sha256', async () => {
    const bytes = file(20_000);
    const fed: number[] = [];
    const response = await downloadModelFile(
      URL_,
      ports(bytes, { etag: '"1234abcd"' }, { sha256: recordingHasher(fed) }),
    );
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(fed).toEqual([]);
  });

  it('goes on whole when the store of parts refuses them, keeping nothing more for it', async () => {
    const bytes = file(3_000_000);
    const appends: number[] = [];
    const full: PartStore = {
      read: async () => null,
      append: async (_url, _identity, offset) => {
        appends.push(offset);
        throw new Error('QuotaExceededError');
      },
      drop: async () => undefined,
    };
    const response = await downloadModelFile(URL_, ports(bytes, { etag: '"v1"' }, { parts: full }));
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    // Refused once, it is not asked again for the rest of the file.
    expect(appends).toEqual([0]);
  });
});
