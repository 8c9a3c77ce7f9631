export function Header() {
  return (
    <header className="border-b border-slate-200 bg-white/80 backdrop-blur">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3">
        <span
          aria-hidden="true"
          className="grid h-9 w-9 place-items-center rounded-xl bg-gradient-to-br from-indigo-500 to-violet-600 text-lg font-bold text-white"
        >
          m
        </span>
        <div>
          <h1 className="text-lg font-semibold leading-tight text-slate-900">Murmur</h1>
          <p className="text-xs text-slate-600">Private transcription that runs in your browser</p>
        </div>
      </div>
    </header>
  );
}
