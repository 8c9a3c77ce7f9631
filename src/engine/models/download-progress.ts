import { TransferMeter, transferDetail } from '../../core/download/transfer-meter';
import type { Clock, ProgressListener } from '../ports';

/** The loading events of transformers.js that matter for one overall progress figure. */
export interface LoadingEvent {
  status: string;
  file?: string;
  loaded?: number;
  total?: number;
  /** On `progress_total`: every file the model will fetch, those not started included. */
  files?: Record<string, { loaded: number; total: number }>;
}

/**
 * Turns the per-file loading events of a model's several `from_pretrained` calls into one
 * progress figure that never goes backwards. Files are announced one by one (the tokenizer's
 * small files finish before the weights are even requested), so a plain sum of what is known
 * would read 100%, then drop when the weights appear. The fraction is therefore given only once
 * the model's own `progress_total` event has listed the weights, and is held at its highest.
 * The detail says the bytes, the speed and the time left ("Downloading org/model: 12.3 of
 * 40.1 MB · 2.1 MB/s · about 13 s left"), the total once the weights are listed.
 */
export function downloadProgress(
  id: string,
  onProgress: ProgressListener | undefined,
  clock: Clock = () => performance.now() / 1000,
): (event: LoadingEvent) => void {
  const files = new Map<string, { loaded: number; total: number }>();
  const meter = new TransferMeter();
  let weightsListed = false;
  let highest = 0;
  return (event) => {
    if (event.status === 'progress_total' && event.files) {
      weightsListed = true;
      for (const [file, state] of Object.entries(event.files)) {
        const known = files.get(file);
        if (!known || known.loaded < state.loaded) files.set(file, { ...state });
      }
    } else if (event.status === 'progress' && event.file) {
      files.set(event.file, { loaded: event.loaded ?? 0, total: event.total ?? 0 });
    } else {
      return;
    }
    let loaded = 0;
    let total = 0;
    for (const f of files.values()) {
      loaded += f.loaded;
      total += f.total;
    }
    let fraction: number | null = null;
    if (weightsListed && total > 0) {
      highest = Math.max(highest, Math.min(1, loaded / total));
      fraction = highest;
    }
    meter.record(clock(), loaded);
    const known = weightsListed && total > 0 ? total : null;
    const detail = transferDetail(loaded, known, meter.bytesPerSecond(), meter.secondsLeft(known));
    onProgress?.(fraction, `Downloading ${id}: ${detail}`);
  };
}
