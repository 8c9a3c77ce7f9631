import { useRegisterSW } from 'virtual:pwa-register/react';

/**
 * Says when a new version of the app has been installed in the background, and reloads into it
 * only when the user asks: a reload in the middle of a transcription would lose it.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();
  if (!needRefresh) return null;
  return (
    <div
      role="status"
      data-testid="app.update"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-md flex-wrap items-center gap-3 rounded-xl bg-slate-900 p-4 text-sm text-white shadow-lg"
    >
      <p className="min-w-0 flex-1">A new version of Murmur is ready.</p>
      <button
        type="button"
        data-testid="app.update-reload"
        className="rounded-lg bg-indigo-500 px-3 py-1.5 font-medium hover:bg-indigo-400"
        onClick={() => {
          // The registration module reloads only when the page was controlled when it loaded;
          // on a first visit (taken over by the worker later) the switch is followed here.
          navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), {
            once: true,
          });
          void updateServiceWorker(true);
        }}
      >
        Reload
      </button>
      <button
        type="button"
        className="rounded-lg px-3 py-1.5 text-slate-300 hover:text-white"
        onClick={() => setNeedRefresh(false)}
      >
        Later
      </button>
    </div>
  );
}
