import workletUrl from './capture-worklet.ts?worker&url';
import { Resampler } from './resampler';
import type { RecordingSource } from './recording-source';

/** Why a capture could not start, or stopped: named so that the page says it in its words. */
export class CaptureError extends Error {
  constructor(
    readonly reason: 'no-tab-audio',
    message: string,
  ) {
    super(message);
    this.name = 'CaptureError';
  }
}

export interface Capture {
  /** 16 kHz, whatever rate the browser's audio runs at. */
  readonly sampleRate: 16000;
  /** Stops every track and closes the audio graph. */
  stop(): Promise<void>;
}

export interface CaptureEvents {
  /** A tenth of a second of each channel, at 16 kHz. */
  onBlock: (channels: Float32Array[]) => void;
  /** A source stopped on its own: a microphone unplugged, a tab no longer shared. */
  onEnded: (source: 'microphone' | 'tab') => void;
}

/**
 * The sound as it reaches the page: no echo cancelling, noise suppression or gain control, so
 * that the recording is what was said (the transcription has its own noise reduction).
 */
const FAITHFUL = { echoCancellation: false, noiseSuppression: false, autoGainControl: false };

async function openMicrophone(deviceId: string | null): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({
    audio: { ...FAITHFUL, ...(deviceId ? { deviceId: { exact: deviceId } } : {}) },
  });
}

/** A tab or screen: only its sound is kept; the picture the browser insists on is dropped. */
async function openTab(): Promise<MediaStream> {
  const stream = await navigator.mediaDevices.getDisplayMedia({ audio: FAITHFUL, video: true });
  for (const track of stream.getVideoTracks()) {
    track.stop();
    stream.removeTrack(track);
  }
  if (stream.getAudioTracks().length === 0) {
    throw new CaptureError(
      'no-tab-audio',
      'The tab or screen you chose shares no sound. Press Record again, choose a tab, and tick “Share tab audio” (for a whole screen: “Share system audio”) before pressing Share.',
    );
  }
  return stream;
}

/**
 * A 16 kHz context where the browser allows one (Chromium does, and resamples the microphone
 * itself); otherwise the device's rate, resampled here.
 */
function audioContext(): AudioContext {
  try {
    return new AudioContext({ sampleRate: 16000 });
  } catch {
    return new AudioContext();
  }
}

/** Opens the sources (asking the user), and starts sending their sound block by block. */
export async function startCapture(
  source: RecordingSource,
  deviceId: string | null,
  events: CaptureEvents,
): Promise<Capture> {
  const streams: MediaStream[] = [];
  const stopTracks = () => streams.forEach((s) => s.getTracks().forEach((t) => t.stop()));
  try {
    if (source !== 'tab') streams.push(await openMicrophone(deviceId));
    if (source !== 'microphone') streams.push(await openTab());
  } catch (error) {
    stopTracks();
    throw error;
  }
  const kinds: ('microphone' | 'tab')[] =
    source === 'both' ? ['microphone', 'tab'] : [source === 'tab' ? 'tab' : 'microphone'];
  const channels = kinds.length;
  const context = audioContext();
  try {
    await context.audioWorklet.addModule(workletUrl);
    const capture = new AudioWorkletNode(context, 'murmur-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      channelCount: channels,
      channelCountMode: 'explicit',
      // One source is mixed down to mono; two stay apart, one a channel.
      channelInterpretation: channels === 1 ? 'speakers' : 'discrete',
      processorOptions: { channels },
    });
    const inputs = streams.map((s) => context.createMediaStreamSource(s));
    if (channels === 1) inputs[0]!.connect(capture);
    else {
      const merger = context.createChannelMerger(channels);
      inputs.forEach((input, i) => input.connect(merger, 0, i));
      merger.connect(capture);
    }
    // A node that reaches no destination may never be run: connect it, silenced.
    const mute = context.createGain();
    mute.gain.value = 0;
    capture.connect(mute).connect(context.destination);

    const resamplers =
      context.sampleRate === 16000
        ? null
        : Array.from({ length: channels }, () => new Resampler(context.sampleRate));
    capture.port.onmessage = (event: MessageEvent<Float32Array[]>) => {
      const block = resamplers ? event.data.map((c, i) => resamplers[i]!.push(c)) : event.data;
      events.onBlock(block);
    };
    streams.forEach((stream, i) =>
      stream
        .getAudioTracks()
        .forEach((track) =>
          track.addEventListener('ended', () => events.onEnded(kinds[i]!), { once: true }),
        ),
    );
    if (context.state === 'suspended') await context.resume();
    return {
      sampleRate: 16000,
      stop: async () => {
        capture.port.onmessage = null;
        stopTracks();
        await context.close().catch(() => undefined);
      },
    };
  } catch (error) {
    stopTracks();
    await context.close().catch(() => undefined);
    throw error;
  }
}

/** The microphones the browser knows; their names only once the user has allowed one. */
export async function listMicrophones(): Promise<{ id: string; label: string }[]> {
  const devices = (await navigator.mediaDevices?.enumerateDevices?.()) ?? [];
  return devices
    .filter((d) => d.kind === 'audioinput' && d.deviceId !== '')
    .map((d, i) => ({ id: d.deviceId, label: d.label || `Microphone ${i + 1}` }));
}
