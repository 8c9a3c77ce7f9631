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
    sessionOptions: { extra: { session: { intra_op: { allow_spinning: '0' } } } },
    // Four: 1.27-1.30x as fast as one at a time on a 10-minute recording (whisper-tiny size).
    batchWindows: 4,
  },
  // onnxruntime-node: full precision is the fastest and most exact on a CPU.
  // Four: 1.54-1.60x as fast as one at a time on a 10-minute recording (whisper-tiny size), the same
  // peak memory.
  cpu: { encoderDtype: 'fp32', decoderDtype: 'fp32', batchWindows: 4 },
};
