import { toServiceError } from '../../core/contract/errors';
import { hasGpuAdapter, RUNTIME_BYTES, runtimesFor, type RuntimeName } from '../../worker/runtimes';
import { loadDocxWriter } from '../lib/document-download';
import { managedModels, type ManagedModel } from '../lib/managed-models';
import type { OfflineState } from './models-slice';
import { useAppStore } from './app-store';
import { downloadModel } from './model-actions';
import { getClient } from './transcribe-actions';

/** The models Make available offline keeps: recognition and voice activity, and those chosen. */
export function offlineModels(
  models: readonly ManagedModel[],
  choice: Pick<OfflineState, 'translation' | 'speakers'>,
): ManagedModel[] {
  return models.filter(
    (m) =>
      m.role === 'recognition' ||
      m.role === 'vad' ||
      (m.role === 'translation' && choice.translation) ||
      ((m.role === 'segmentation' || m.role === 'embedding') && choice.speakers),
  );
}

/** The runtimes this device uses, with their sizes: the GPU build only with a real adapter. */
export async function offlineRuntimes(): Promise<{ name: RuntimeName; bytes: number }[]> {
  const gpu = useAppStore.getState().settings.useGpu && (await hasGpuAdapter());
  return runtimesFor(gpu).map((name) => ({ name, bytes: RUNTIME_BYTES[name] }));
}

/**
 * Fetches every runtime this device uses and the chosen models ahead, so that the app then
 * transcribes with the network off. Each part says its progress where it is shown (the
 * runtimes' sentence, each model's row).
 */
export async function makeAvailableOffline(): Promise<void> {
  const { settings, offline, setOffline } = useAppStore.getState();
  if (offline.running) return;
  setOffline({ running: true, done: false, error: null });
  try {
    const client = getClient();
    client.configure(settings);
    await client.prepareRuntimes();
    // The Word writer too, so that DOCX downloads work with the network off.
    await loadDocxWriter();
    for (const model of offlineModels(managedModels(settings), offline)) {
      await downloadModel(model.role);
      // The model's row says why; the offline section says it too, and stops.
      const error = useAppStore.getState().models[model.role].error;
      if (error) {
        setOffline({ running: false, error });
        return;
      }
    }
    setOffline({ running: false, done: true });
  } catch (thrown) {
    setOffline({ running: false, error: toServiceError(thrown).message });
  }
}
