import { toServiceError } from '../../core/contract/errors';
import { formatBytes } from '../lib/history-entry';
import { managedModels, type ManagedRole } from '../lib/managed-models';
import { cachedModelBytes, deleteCachedModel } from '../lib/model-cache';
import { downloadedFiles, hostedModelBytes } from '../lib/model-size';
import { allowAddresses, unreachable } from '../lib/page-policy';
import { useAppStore } from './app-store';
import { refreshEstimate } from './history-actions';
import { getClient } from './transcribe-actions';

function model(role: ManagedRole) {
  return managedModels(useAppStore.getState().settings).find((m) => m.role === role)!;
}

function state(role: ManagedRole) {
  return useAppStore.getState().models[role];
}

/** Looks up which models are kept in this browser and how much the site stores. */
export async function refreshModels(): Promise<void> {
  const { settings, setModelState } = useAppStore.getState();
  // The device a transcription would run on decides the precision, and so the files.
  const gpu = settings.useGpu && 'gpu' in navigator;
  await Promise.all(
    managedModels(settings).map(async (m) => {
      const files = m.approxMb === null ? downloadedFiles(m.role, gpu) : null;
      setModelState(m.role, {
        cachedBytes: await cachedModelBytes(settings.modelHost, m.id).catch(() => null),
        hostedBytes: files ? await hostedModelBytes(settings.modelHost, m.id, files) : null,
      });
    }),
  );
  await refreshEstimate();
  const persisted = await navigator.storage?.persisted?.().catch(() => null);
  useAppStore.setState({ persisted: persisted ?? null });
}

/**
 * Asks the browser to keep the site's storage (models, history) instead of clearing it when
 * the disk runs low. Browsers may grant it silently, ask the user, or refuse.
 */
export async function requestPersistence(): Promise<void> {
  const persisted = await navigator.storage?.persist?.().catch(() => false);
  useAppStore.setState({ persisted: persisted ?? false });
}

/** Room left for a download, in bytes, where the browser says. */
function roomLeft(): number | null {
  const estimate = useAppStore.getState().storageEstimate;
  return estimate ? estimate.quota - estimate.usage : null;
}

/** Downloads a model ahead of use, with progress; a full storage is explained, not attempted. */
export async function downloadModel(role: ManagedRole): Promise<void> {
  const { settings, setModelState } = useAppStore.getState();
  const m = model(role);
  // A host set under Models since the page opened is not in its policy: reopen allowing it.
  const blocked = unreachable([settings.modelHost]);
  if (blocked.length > 0) {
    allowAddresses(blocked);
    location.reload();
    return;
  }
  await refreshEstimate();
  const room = roomLeft();
  const needed = m.approxMb === null ? state(role).hostedBytes : m.approxMb * 1_000_000;
  if (room !== null && needed !== null && needed > room) {
    setModelState(role, {
      error: `Not enough room: ${m.label.toLowerCase()} model needs about ${formatBytes(needed)} and this browser allows this site ${formatBytes(room)} more. Delete other models or history entries, or free disk space.`,
    });
    return;
  }
  void requestPersistence();
  setModelState(role, { downloading: { fraction: null, detail: 'Starting' }, error: null });
  const client = getClient();
  client.configure(settings);
  try {
    await client.download(role, {
      onProgress: (p) =>
        setModelState(role, { downloading: { fraction: p.fraction, detail: p.detail } }),
    });
    setModelState(role, { downloading: null });
  } catch (thrown) {
    setModelState(role, { downloading: null, error: toServiceError(thrown).message });
  }
  await refreshModels();
}

/** Deletes a model from this browser; it downloads again when next needed. */
export async function deleteModel(role: ManagedRole): Promise<void> {
  const { settings } = useAppStore.getState();
  await deleteCachedModel(settings.modelHost, model(role).id);
  // A loaded copy would otherwise stay in the worker's memory and never be cached again.
  getClient().release();
  useAppStore.getState().setModelState(role, { error: null });
  await refreshModels();
}
