import { loadWhisper, type LoadedWhisper } from '../../engine/asr/whisper-model';
import type { ProgressListener } from '../../engine/ports';
import { configureModelSource } from './transformers-setup';

const loaded = new Map<string, Promise<LoadedWhisper>>();

/** The recogniser for Node (onnxruntime-node on the CPU), loaded once per source and model. */
export function nodeWhisper(
  source: string | null,
  id: string,
  onProgress?: ProgressListener,
): Promise<LoadedWhisper> {
  const key = `${source ?? 'hub'}|${id}`;
  let model = loaded.get(key);
  if (!model) {
    model = loadWhisper(configureModelSource(source), id, 'cpu', onProgress);
    model.catch(() => loaded.delete(key));
    loaded.set(key, model);
  }
  return model;
}
