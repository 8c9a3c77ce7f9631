import { sizeQuery } from './page-network';
import type { ManagedRole } from './managed-models';

/**
 * The files the browser downloads for a recognition model (transformers.js' layout): its
 * configurations, its tokenizer, and the encoder and decoder at the precision of the device:
 * full precision on a GPU, 8-bit weights on the CPU (`engine/models/model-settings.ts`).
 */
function recognitionFiles(gpu: boolean): string[] {
  const weights = gpu ? '' : '_quantized';
  return [
    'config.json',
    'generation_config.json',
    'preprocessor_config.json',
    'tokenizer.json',
    'tokenizer_config.json',
    `onnx/encoder_model${weights}.onnx`,
    `onnx/decoder_model_merged${weights}.onnx`,
  ];
}

/** The files a model of a role downloads, where their names are known (null otherwise). */
export function downloadedFiles(role: ManagedRole, gpu: boolean): string[] | null {
  return role === 'recognition' ? recognitionFiles(gpu) : null;
}

/**
 * What a model's files weigh on its host, in bytes, from the sizes the host gives for them
 * (HEAD requests, nothing downloaded): for a model the catalogue has no size for. Null when
 * the host does not say for every file (unreachable, a missing file, no length given).
 */
export async function hostedModelBytes(
  host: string,
  id: string,
  files: readonly string[],
): Promise<number | null> {
  const base = new URL(host.endsWith('/') ? host : `${host}/`, location.href).href;
  const sizes = await Promise.all(
    files.map(async (file) => {
      const url = sizeQuery(`${base}${id}/resolve/main/${file}`);
      const response = await fetch(url, { method: 'HEAD' }).catch(() => null);
      const length = Number(response?.ok ? response.headers.get('content-length') : NaN);
      return Number.isFinite(length) && length > 0 ? length : null;
    }),
  );
  return sizes.every((size) => size !== null) ? sizes.reduce((a, b) => a + b, 0) : null;
}
