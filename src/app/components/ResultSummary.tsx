import type { TranscriptionResponse } from '../../core/contract/response';
import { languageLabel } from '../lib/language-label';
import { length } from '../lib/time';
import { useAppStore } from '../store/app-store';

const DEVICE_LABELS: Record<string, string> = { webgpu: 'GPU (WebGPU)', wasm: 'CPU (WASM)' };

export function ResultSummary({ result }: { result: TranscriptionResponse }) {
  const device = useAppStore((s) => s.device);
  const { metadata, transcription } = result.prediction_raw;
  const file = metadata.provided_file_metadata;
  // A translated segment's `language` is the translation's: what was spoken is its source's.
  const spoken = [...new Set(transcription.map((s) => s.source_language ?? s.language))];
  const targets = [
    ...new Set(transcription.flatMap((s) => (s.source_language ? [s.language] : []))),
  ];
  const words = transcription.reduce((n, s) => n + s.words.length, 0);
  const billed = metadata.billing?.reduce((n, b) => n + b.billable_seconds, 0);
  const items: [string, string][] = [
    ['Duration', length(file.duration)],
    ['Speech', length(metadata.total_speech_duration)],
    ['Segments', String(transcription.length)],
    ['Words', String(words)],
    ['Languages', spoken.map(languageLabel).join(', ') || '—'],
    ...(targets.length > 0
      ? ([['Translated into', targets.map(languageLabel).join(', ')]] as [string, string][])
      : []),
    ['Channels', `${file.nb_channels} · ${file.sample_rate / 1000} kHz · ${file.sample_width}-bit`],
    ['Processing', `${metadata.total_transcription_time.toFixed(1)} s`],
    ...(billed !== undefined ? ([['Billable', length(billed)]] as [string, string][]) : []),
    ...(device ? ([['Ran on', DEVICE_LABELS[device] ?? device]] as [string, string][]) : []),
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4" data-testid="result.summary">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-[11px] uppercase tracking-wide text-slate-600">{label}</dt>
          <dd className="text-sm font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
