import { useState } from 'react';
import { useAppStore } from '../store/app-store';
import {
  deleteAllVoices,
  exportVoices,
  importVoices,
  undoVoiceDeletion,
} from '../store/voice-actions';
import { VoiceItem } from './VoiceItem';

const buttonClass =
  'rounded-lg px-3 py-1.5 text-sm font-medium ring-1 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/**
 * The voices remembered in this browser: each one's name and what it rests on, renamed or
 * deleted here, and moved between browsers (or to the command line) as a voices file.
 */
export function VoicesPanel() {
  const voices = useAppStore((s) => s.voices);
  const deleted = useAppStore((s) => s.deletedVoice);
  const [said, setSaid] = useState<{ text: string; failed: boolean } | null>(null);
  return (
    <section
      id="voices"
      tabIndex={-1}
      aria-labelledby="voices-title"
      data-testid="voices"
      className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="voices-title" className="text-lg font-semibold text-slate-900">
          Voices
        </h2>
        <p className="text-xs text-slate-600" data-testid="voices.count">
          {voices.length} stored
        </p>
      </div>
      <p
        className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
        data-testid="voices.warning"
      >
        A voice is personal data: it tells who a person is by how they sound (biometric data).
        Voices stay in this browser and are sent nowhere, unless you export them. Remember a
        person’s voice only with their consent.
      </p>
      {voices.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="voices.empty">
          No voices stored. Choose “Remember this voice” under a result’s speakers, and later
          recordings with “Tell speakers apart” on are named for you.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Stored voices">
          {voices.map((voice, i) => (
            <VoiceItem key={`${voice.model}\n${voice.name}`} voice={voice} index={i} />
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {voices.length > 0 && (
          <button
            type="button"
            className={`${buttonClass} text-slate-700 ring-slate-300 hover:bg-slate-50`}
            onClick={exportVoices}
            data-testid="voices.export"
          >
            Export voices
          </button>
        )}
        <label
          className={`${buttonClass} cursor-pointer text-slate-700 ring-slate-300 hover:bg-slate-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600`}
        >
          Import voices
          <input
            type="file"
            accept="application/json,.json"
            className="sr-only"
            data-testid="voices.import"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (!file) return;
              try {
                const count = await importVoices(file);
                setSaid({
                  text: `Imported ${count} ${count === 1 ? 'voice' : 'voices'} from ${file.name}.`,
                  failed: false,
                });
              } catch (thrown) {
                setSaid({ text: (thrown as Error).message, failed: true });
              }
            }}
          />
        </label>
        {voices.length > 0 && (
          <button
            type="button"
            className={`${buttonClass} text-rose-700 ring-rose-200 hover:bg-rose-50`}
            onClick={() => {
              if (confirm('Delete every stored voice?')) void deleteAllVoices();
            }}
            data-testid="voices.clear"
          >
            Delete all voices
          </button>
        )}
      </div>
      {deleted && (
        <p role="status" className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <span data-testid="voices.deleted">{`Deleted “${deleted.voice.name}” from this browser.`}</span>
          <button
            type="button"
            className={`${buttonClass} text-indigo-700 ring-indigo-200 hover:bg-indigo-50`}
            onClick={() => void undoVoiceDeletion()}
            data-testid="voices.undo"
          >
            Undo
          </button>
        </p>
      )}
      {said && (
        <p
          role={said.failed ? 'alert' : 'status'}
          className={`text-sm ${said.failed ? 'font-medium text-rose-700' : 'text-slate-700'}`}
          data-testid="voices.import-said"
        >
          {said.text}
        </p>
      )}
    </section>
  );
}
