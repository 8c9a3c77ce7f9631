/**
 * The media stage. In: the request's media (a file, or a URL fetched here) and its endpoint.
 * Out: what the file is (ffprobe's reading, for `provided_file_metadata`) and its audio as it
 * is decoded, 16 kHz float per channel, piece by piece (ffmpeg decodes the next piece while
 * the speech stage reads this one), and the seconds spent waiting for ffmpeg.
 */
import { checkMediaLimits, type MediaLimits } from '../../../core/audio/media-limits';
import type { MediaProbe } from '../../../core/audio/probe';
import type { Endpoint } from '../../../core/contract/endpoints';
import type { MediaFile, MediaInput } from '../../../core/contract/request';
import type { SpillFile } from '../../ports';
import type { StageContext } from '../../stage-context';
import type { MediaSettings } from '../../stage-settings';
import type { DecodedAudioHeld, DecodedMedia, DecodedPiece } from '../../streams/decoded-media';
import { decodeChannels, probeMedia } from './decode';
import { mediaSource } from './media-input';

export interface MediaStageInput<F extends MediaFile> {
  media: MediaInput<F>;
  endpoint: Endpoint;
  /** Seconds per decoding window (see `DecodeOptions.windowSeconds`); tests make it small. */
  windowSeconds?: number;
  /** What the host lets one request cost; checked from the probe, before decoding. */
  limits?: MediaLimits;
  /** The stage's settings (tests make `compactFromSeconds` 0 to keep short audio 16-bit). */
  settings: MediaSettings;
  /**
   * False: long audio stays in memory even where the host has a scratch file to give (the
   * caller keeps the samples after the run).
   */
  spill?: boolean;
  /** Told what decoded audio is held in memory as it changes (see `DecodedAudioHeld`). */
  onHeldBytes?: (held: DecodedAudioHeld) => void;
}

export async function run<F extends MediaFile>(
  input: MediaStageInput<F>,
  context: StageContext,
): Promise<DecodedMedia> {
  const { ports, signal, clock } = context;
  const passOn = { ...(signal ? { signal } : {}), onProgress: context.progress };
  const source = await mediaSource(input.media, input.endpoint, ports, {
    ...passOn,
    timeoutSeconds: input.settings.fetchTimeoutSeconds,
  });
  // A URL's download is not conversion: the time starts once the bytes are here.
  const started = clock();
  const fileName = source.kind === 'file' ? source.file.name : source.name;
  const path = await ports.ffmpeg.mount(source);
  let probe: MediaProbe;
  try {
    probe = await probeMedia(ports.ffmpeg, path, fileName, signal, input.limits);
    checkMediaLimits(probe, input.limits ?? {}, fileName);
  } catch (thrown) {
    await ports.ffmpeg.unmount(path);
    throw thrown;
  }
  // Every scratch file of this audio, closed together once nothing reads it.
  const files: SpillFile[] = [];
  let released = false;
  const scratch = async () => {
    if (released) return null;
    const file = (await ports.spill?.()) ?? null;
    if (file) files.push(file);
    return file;
  };
  // Long audio goes to a scratch file where the host has one (from the probe, or once decoding
  // finds it long): memory then stays flat.
  const spill = input.spill !== false && ports.spill ? scratch : null;
  let heldPeak = 0;
  /** Whether any held bytes were told: a run that decoded nothing tells nothing on release. */
  let told = false;
  let busy = clock() - started;
  async function* pieces(): AsyncGenerator<DecodedPiece> {
    let resumed = clock();
    try {
      for await (const piece of decodeChannels(ports.ffmpeg, path, probe, fileName, {
        ...passOn,
        ...(input.windowSeconds ? { windowSeconds: input.windowSeconds } : {}),
        ...(input.limits?.maxSeconds === undefined ? {} : { maxSeconds: input.limits.maxSeconds }),
        settings: input.settings,
        ...(spill ? { spill } : {}),
        onHeldBytes: (bytes) => {
          heldPeak = Math.max(heldPeak, bytes);
          told = true;
          input.onHeldBytes?.({ bytes, peakBytes: heldPeak });
        },
      })) {
        busy += clock() - resumed;
        yield piece;
        resumed = clock();
      }
    } finally {
      await ports.ffmpeg.unmount(path);
    }
  }
  const release = () => {
    released = true;
    for (const file of files.splice(0)) file.close();
    if (told) input.onHeldBytes?.({ bytes: 0, peakBytes: heldPeak });
    told = false;
  };
  return {
    probe,
    pieces: pieces(),
    seconds: () => busy,
    scratch,
    release,
    heldBytesPeak: () => heldPeak,
  };
}
