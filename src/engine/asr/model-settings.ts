/**
 * Per-device settings for Whisper, in one table instead of scattered conditions: which ONNX
 * file precision each part loads and how many WASM threads run it.
 */
export type Device = 'webgpu' | 'wasm' | 'cpu';
export type Dtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'q4';

export interface DeviceSettings {
  encoderDtype: Dtype;
  decoderDtype: Dtype;
}

export const DEVICE_SETTINGS: Record<Device, DeviceSettings> = {
  // GPUs run half precision well; the decoder's many small steps stay quantised for memory.
  webgpu: { encoderDtype: 'fp32', decoderDtype: 'q8' },
  // In the browser without a GPU, 8-bit weights are 4x smaller to download and faster on CPU.
  wasm: { encoderDtype: 'q8', decoderDtype: 'q8' },
  // onnxruntime-node: full precision is the fastest and most exact on a CPU.
  cpu: { encoderDtype: 'fp32', decoderDtype: 'fp32' },
};

/** A model the user can pick, with what it costs to download. */
export interface WhisperChoice {
  id: string;
  label: string;
  approxDownloadMb: number;
  webgpuOnly?: boolean;
}

export const WHISPER_CHOICES: readonly WhisperChoice[] = [
  { id: 'onnx-community/whisper-tiny_timestamped', label: 'Tiny (fastest)', approxDownloadMb: 45 },
  { id: 'onnx-community/whisper-base_timestamped', label: 'Base', approxDownloadMb: 85 },
  {
    id: 'onnx-community/whisper-small_timestamped',
    label: 'Small (most accurate on CPU)',
    approxDownloadMb: 260,
  },
  {
    id: 'onnx-community/whisper-large-v3-turbo_timestamped',
    label: 'Large v3 Turbo (GPU)',
    approxDownloadMb: 1000,
    webgpuOnly: true,
  },
];

export const DEFAULT_WHISPER = 'onnx-community/whisper-base_timestamped';
export const SILERO_VAD = { id: 'onnx-community/silero-vad', file: 'onnx/model.onnx' } as const;
export const HUB = 'https://huggingface.co/';
