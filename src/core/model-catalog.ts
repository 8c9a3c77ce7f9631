/** The models users can choose, and where they come from by default. */

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
