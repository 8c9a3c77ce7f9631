import { SHORTCUTS } from '../lib/shortcuts';
import { useAppStore } from '../store/app-store';

/** The keyboard shortcuts, listed where the transcript is. */
export function ShortcutList() {
  const singleKeys = useAppStore((s) => s.singleKeyShortcuts);
  const setSingleKeys = useAppStore((s) => s.setSingleKeyShortcuts);
  return (
    <details className="w-full text-sm sm:w-auto" data-testid="editor.shortcuts">
      <summary className="cursor-pointer rounded-lg px-2 py-1.5 font-medium text-indigo-800 focus-visible:outline-2 focus-visible:outline-indigo-600">
        Keyboard shortcuts
      </summary>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-slate-800">
        {SHORTCUTS.map(({ keys, action }) => (
          <div key={action} className="contents">
            <dt className="whitespace-nowrap">
              {keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && ' + '}
                  <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 font-mono text-xs">
                    {k}
                  </kbd>
                </span>
              ))}
            </dt>
            <dd>{action}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-600">They work while no text field has the focus.</p>
      <label className="mt-2 flex items-center gap-2 text-xs font-medium text-slate-800">
        <input
          type="checkbox"
          checked={singleKeys}
          onChange={(e) => setSingleKeys(e.target.checked)}
          className="h-4 w-4 accent-indigo-700"
          data-testid="editor.single-key-shortcuts"
        />
        Single-key shortcuts (K, J, L, [, ])
      </label>
    </details>
  );
}
