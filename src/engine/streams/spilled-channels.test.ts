import { describe, expect, it } from 'vitest';
import { pcmFloats, pcmSlice } from '../../core/audio/pcm';
import type { SpillFile } from '../ports';
import { ChannelBuffers } from '../stages/media/channel-buffers';
import { BLOCK_SAMPLES, SpilledChannels } from './spilled-channels';

/** A scratch file in memory that counts what is read back. */
function memoryFile() {
  let bytes = new Uint8Array(0);
  const file = {
    reads: 0,
    bytesRead: 0,
    write(data: Uint8Array, at: number) {
      if (at + data.length > bytes.length) {
        const grown = new Uint8Array(at + data.length);
        grown.set(bytes);
        bytes = grown;
      }
      bytes.set(data, at);
    },
    read(into: Uint8Array, at: number) {
      file.reads++;
      file.bytesRead += into.length;
      if (at + into.length > bytes.length) throw new Error('read past the end');
      into.set(bytes.subarray(at, at + into.length));
    },
    close() {},
  } satisfies SpillFile & { reads: number; bytesRead: number };
  return file;
}

/** Interleaved windows of a seeded signal, of uneven lengths, for `count` channels. */
function windows(count: number, lengths: readonly number[]): Float32Array[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  return lengths.map((frames) =>
    Float32Array.from({ length: frames * count }, () => next() * 2.2 - 1.1),
  );
}

describe('decoded channels kept in a scratch file', () => {
  const count = 3;
  const lengths = [100_000, BLOCK_SAMPLES - 100_000, 1, 333_333, 2 * BLOCK_SAMPLES + 17, 5000];
  const fill = () => {
    const file = memoryFile();
    const spilled = new SpilledChannels(file, count);
    const buffers = new ChannelBuffers(count, 1000, true);
    for (const [k, w] of windows(count, lengths).entries()) {
      // Later windows start after a lead-in, as the decoder's do.
      spilled.append(w, k === 0 ? 0 : 3);
      buffers.append(w, k === 0 ? 0 : 3);
    }
    return { file, spilled, buffers };
  };

  it('holds the same 16-bit samples as memory, read across blocks and the block being filled', () => {
    const { spilled, buffers: growing } = fill();
    expect(spilled.length).toBe(growing.length);
    const buffers = { channels: growing.finish() };
    expect(spilled.length).toBeGreaterThan(3 * BLOCK_SAMPLES);
    const stretches = [
      [0, 10],
      [BLOCK_SAMPLES - 5, BLOCK_SAMPLES + 5],
      [BLOCK_SAMPLES * 2 - 1, BLOCK_SAMPLES * 3 + 1],
      [spilled.length - 4000, spilled.length + 50],
      [0, spilled.length],
    ];
    for (let c = 0; c < count; c++) {
      for (const [from, to] of stretches) {
        expect(pcmSlice(spilled.channels[c]!, from, to)).toEqual(
          pcmSlice(buffers.channels[c]!, from, to),
        );
      }
      expect(pcmFloats(spilled.channels[c]!, 12345, 12400)).toEqual(
        pcmFloats(buffers.channels[c]!, 12345, 12400),
      );
    }
  });

  it('reads a block back once while readers go forward, and again once it has been let go', () => {
    const file = memoryFile();
    const spilled = new SpilledChannels(file, 1);
    const blocks = 12;
    for (let b = 0; b < blocks; b++)
      spilled.append(new Float32Array(BLOCK_SAMPLES).fill(b / 100), 0);
    const channel = spilled.channels[0]!;
    for (let at = 0; at < BLOCK_SAMPLES; at += 4096) channel.read(at, at + 4096);
    expect(file.reads).toBe(1);
    // Every block in turn (each read back once), then the first again: it was let go meanwhile.
    for (let b = 1; b < blocks; b++) {
      const start = channel.read(b * BLOCK_SAMPLES, b * BLOCK_SAMPLES + 4096).subarray(0, 2);
      expect(start).toEqual(
        Int16Array.from([Math.round((b / 100) * 32768), Math.round((b / 100) * 32768)]),
      );
    }
    expect(file.reads).toBe(blocks);
    channel.read(0, 4096);
    expect(file.reads).toBe(blocks + 1);
  });

  it('reads only the bytes of a few samples from a block not in memory', () => {
    const { file, spilled, buffers } = fill();
    const channels = buffers.finish();
    const before = { reads: file.reads, bytes: file.bytesRead };
    // Frames spread over the blocks, as a comparison of two channels' spectra picks them.
    for (const at of [5, BLOCK_SAMPLES + 1000, 2 * BLOCK_SAMPLES - 600, 3 * BLOCK_SAMPLES - 2]) {
      expect(pcmSlice(spilled.channels[1]!, at, at + 512)).toEqual(
        pcmSlice(channels[1]!, at, at + 512),
      );
    }
    // The last frame spans two blocks: one read in each.
    expect(file.reads - before.reads).toBe(5);
    expect(file.bytesRead - before.bytes).toBe(4 * 512 * 2);
    // A block already in memory is read from there.
    spilled.channels[1]!.read(BLOCK_SAMPLES, 2 * BLOCK_SAMPLES);
    const cached = file.reads;
    expect(pcmSlice(spilled.channels[1]!, BLOCK_SAMPLES + 7, BLOCK_SAMPLES + 519)).toEqual(
      pcmSlice(channels[1]!, BLOCK_SAMPLES + 7, BLOCK_SAMPLES + 519),
    );
    expect(file.reads).toBe(cached);
  });
});
