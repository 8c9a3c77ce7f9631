/**
 * Per-device settings for Whisper, in one table instead of scattered conditions: which ONNX
 * file precision each part loads and how many WASM threads run it.
 */
export type Device = 'webgpu' | 'wasm' | 'cpu';
export type Dtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'q4';

export interface DeviceSettings {
  encoderDtype: Dtype;
  decoderDtype: Dtype;
  /** onnxruntime session options for both parts (transformers.js' `session_options`). */
  sessionOptions?: Record<string, unknown>;
  /**
   * Windows of speech decoded together where the request's settings leave it to the device
   * (`RecognitionSettings.batchWindows`), as measured on each (docs/benchmarks.md, "Windows
   * decoded together").
   */
  batchWindows: number;
}

/** The runtime's threads wait without spinning once their work is done. */
const NO_SPINNING = { extra: { session: { intra_op: { allow_spinning: '0' } } } };

export const DEVICE_SETTINGS: Record<Device, DeviceSettings> = {
  // Full precision: every export has it, and 8-bit integer kernels are not all on WebGPU.
  // Windows one at a time: batches on a GPU are not measured yet.
  webgpu: { encoderDtype: 'fp32', decoderDtype: 'fp32', batchWindows: 1 },
  // In the browser without a GPU, 8-bit weights are 4x smaller to download and faster on CPU.
  // The runtime's threads wait without spinning: voice activity detection runs beside them in
  // a worker of its own, and spinning threads took its core (Chromium, 121-s recording: 8.4-
  // 9.2 s with spinning, 8.5-8.7 s without).
  wasm: {
    encoderDtype: 'q8',
    decoderDtype: 'q8',
    sessionOptions: NO_SPINNING,
    // Four: 1.27-1.30x as fast as one at a time on a 10-minute recording (whisper-tiny size).
    batchWindows: 4,
  },
  // onnxruntime-node: full precision is the fastest and most exact on a CPU.
  // Four: 1.54-1.60x as fast as one at a time on a 10-minute recording (whisper-tiny size), the same
  // peak memory.
  // Without spinning: between decoder steps the decoding loop reads the logits on the main
  // thread while the runtime's threads would spin on the same cores (10-minute recording, two
  // cores: 10.40-10.71 s against 11.09-11.45 s, 1.07x in each of 3 alternating pairs).
  cpu: { encoderDtype: 'fp32', decoderDtype: 'fp32', sessionOptions: NO_SPINNING, batchWindows: 4 },
};

/**
 * The session options a model loads with: the device's, with a caller's (threads, say) on top,
 * so that asking for a thread count does not drop the device's own options.
 */
export function sessionOptionsFor(
  device: Device,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> | undefined {
  const merged = { ...DEVICE_SETTINGS[device].sessionOptions, ...overrides };
  return Object.keys(merged).length > 0 ? merged : undefined;
}
