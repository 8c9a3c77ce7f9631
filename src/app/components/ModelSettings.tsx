import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  EMBEDDING_CHOICES,
  SEGMENTATION_CHOICES,
  TRANSLATION_CHOICES,
  WHISPER_CHOICES,
  translationChoiceOf,
} from '../../core/model-catalog';
import { useAppStore } from '../store/app-store';
import { inputClass } from './Field';
import { ModelChoice } from './ModelChoice';
import { ModelManager } from './ModelManager';
import { OfflineSection } from './OfflineSection';

/**
 * Which recogniser to download, and from where (the hub, or a self-hosted mirror in its
 * layout). Models are kept by the browser, so later runs and offline use need no download.
 */
export function ModelSettings() {
  const settings = useAppStore((s) => s.settings);
  const setSetting = useAppStore((s) => s.setSetting);
  const known = WHISPER_CHOICES.some((c) => c.id === settings.whisperModel);
  const translationModel = settings.translationModel ?? DEFAULT_TRANSLATION_MODEL;
  const translation = translationChoiceOf(translationModel);
  return (
    <details className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <summary className="cursor-pointer text-sm font-semibold uppercase tracking-wide text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500">
        Models
      </summary>
      <div className="mt-4 space-y-4">
        <div>
          <label htmlFor="setting-model" className="mb-1 block text-sm font-medium text-slate-700">
            Recognition model
          </label>
          <select
            id="setting-model"
            className={inputClass}
            value={known ? settings.whisperModel : 'custom'}
            data-testid="settings.model"
            onChange={(e) => {
              if (e.target.value !== 'custom') setSetting('whisperModel', e.target.value);
            }}
          >
            {WHISPER_CHOICES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label} · about {c.approxDownloadMb} MB
              </option>
            ))}
            {!known && <option value="custom">Custom: {settings.whisperModel}</option>}
          </select>
        </div>
        <div>
          <label
            htmlFor="setting-model-id"
            className="mb-1 block text-sm font-medium text-slate-700"
          >
            Model id
          </label>
          <input
            id="setting-model-id"
            className={inputClass}
            value={settings.whisperModel}
            data-testid="settings.model-id"
            onChange={(e) => setSetting('whisperModel', e.target.value.trim())}
          />
        </div>
        <div>
          <label
            htmlFor="setting-translation-model"
            className="mb-1 block text-sm font-medium text-slate-700"
          >
            Translation model
          </label>
          <select
            id="setting-translation-model"
            className={inputClass}
            value={translationModel}
            aria-describedby="setting-translation-licence"
            data-testid="settings.translation-model"
            onChange={(e) => setSetting('translationModel', e.target.value)}
          >
            {TRANSLATION_CHOICES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label} · {c.licence} · about {c.approxDownloadMb} MB
              </option>
            ))}
            {!TRANSLATION_CHOICES.some((c) => c.id === translationModel) && (
              <option value={translationModel}>Custom: {translationModel}</option>
            )}
          </select>
          <p
            id="setting-translation-licence"
            className="mt-1 text-xs text-slate-600"
            data-testid="settings.translation-licence"
          >
            Downloaded only when you ask for a translation. Licence: {translation.licence}
            {translation.commercialUse
              ? ' (commercial use allowed).'
              : ': its translations may not be used commercially.'}
          </p>
        </div>
        <ModelChoice
          id="setting-segmentation-model"
          label="Speaker segmentation model"
          choices={SEGMENTATION_CHOICES}
          value={settings.segmentationModel ?? DEFAULT_SEGMENTATION_MODEL}
          note="Finds where each voice speaks, a few seconds at a time."
          testId="settings.segmentation-model"
          onChange={(id) => setSetting('segmentationModel', id)}
        />
        <ModelChoice
          id="setting-embedding-model"
          label="Speaker embedding model"
          choices={EMBEDDING_CHOICES}
          value={settings.embeddingModel ?? DEFAULT_EMBEDDING_MODEL}
          note="Tells voices apart across the whole recording. Both speaker models are downloaded only when you ask to tell speakers apart."
          testId="settings.embedding-model"
          onChange={(id) => setSetting('embeddingModel', id)}
        />
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={settings.useGpu}
            data-testid="settings.use-gpu"
            className="h-4 w-4 accent-indigo-600"
            onChange={(e) => setSetting('useGpu', e.target.checked)}
          />
          Use the GPU (WebGPU) when this device has one
        </label>
        <div>
          <label htmlFor="setting-host" className="mb-1 block text-sm font-medium text-slate-700">
            Model host
          </label>
          <input
            id="setting-host"
            type="url"
            className={inputClass}
            value={settings.modelHost}
            data-testid="settings.model-host"
            onChange={(e) => setSetting('modelHost', e.target.value.trim())}
          />
          <p className="mt-1 text-xs text-slate-600">
            The Hugging Face hub, or your own mirror with the same layout. Downloaded models are
            kept in this browser.
          </p>
        </div>
        <ModelManager />
        <OfflineSection />
      </div>
    </details>
  );
}
