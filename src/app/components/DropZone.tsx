import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useAppStore } from '../store/app-store';
import { prepareEngine } from '../store/transcribe-actions';

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

function MediaIcon({ video }: { video: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="h-8 w-8 shrink-0 text-indigo-600"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {video ? (
        <>
          <rect x="3" y="5" width="14" height="14" rx="2" />
          <path d="m17 10 4-2v8l-4-2" />
        </>
      ) : (
        <path d="M4 12v-1M8 16V8M12 19V5M16 15V9M20 13v-2" />
      )}
    </svg>
  );
}

/** Drop a file or press to pick one; the picked file is shown with a way to remove it. */
export function DropZone() {
  const file = useAppStore((s) => s.values.file);
  const setFile = useAppStore((s) => s.setFile);
  const addBatchFiles = useAppStore((s) => s.addBatchFiles);
  const queued = useAppStore((s) => s.batch.filter((i) => i.status === 'queued').length);
  const invalid = useAppStore((s) => Boolean(s.problems.file));
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const chosen = useRef<HTMLDivElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  /** Where the focus goes once the file shown changes: the button that made it go has gone. */
  const focusNext = useRef<'chosen' | 'choose' | null>(null);
  useEffect(() => {
    if (file) prepareEngine();
    const target = focusNext.current === 'chosen' ? chosen.current : chooseButton.current;
    if (focusNext.current !== null) target?.focus();
    focusNext.current = null;
  }, [file]);

  // One file is the form's file; several go into the queue, transcribed with the same options.
  const choose = (files: FileList | null) => {
    const list = [...(files ?? [])];
    if (list.length > 1) {
      setFile(null);
      addBatchFiles(list);
      prepareEngine();
    } else {
      if (list[0]) focusNext.current = 'chosen';
      setFile(list[0] ?? null);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    choose(event.dataTransfer.files);
  };

  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="media.dropzone"
      className={`rounded-xl border-2 border-dashed p-6 text-center transition ${
        over
          ? 'border-indigo-500 bg-indigo-50'
          : invalid
            ? 'border-rose-300 bg-rose-50/40'
            : 'border-slate-300 bg-slate-50'
      }`}
    >
      <input
        ref={input}
        id="field-file"
        type="file"
        accept="audio/*,video/*,.mkv,.opus"
        className="sr-only"
        tabIndex={-1}
        aria-label="Audio or video file"
        data-testid="media.file"
        aria-invalid={invalid}
        aria-describedby={invalid ? 'field-file-error' : undefined}
        multiple
        onChange={(e) => {
          choose(e.target.files);
          e.target.value = '';
        }}
      />
      {file ? (
        <div
          ref={chosen}
          tabIndex={-1}
          data-testid="media.chosen"
          className="flex flex-wrap items-center justify-center gap-3 rounded-lg focus:outline-2 focus:outline-offset-4 focus:outline-indigo-600"
        >
          <MediaIcon video={file.type.startsWith('video/')} />
          <div className="text-left">
            <p
              className="max-w-[16rem] truncate font-medium text-slate-900"
              data-testid="media.file-name"
            >
              {file.name}
            </p>
            <p className="text-xs text-slate-600">{formatBytes(file.size)}</p>
          </div>
          <button
            type="button"
            className="rounded-lg px-2 py-1 text-sm text-slate-600 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
            onClick={() => {
              focusNext.current = 'choose';
              setFile(null);
              if (input.current) input.current.value = '';
            }}
          >
            Remove
          </button>
        </div>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            <span className="font-medium">Drop audio or video files here</span> or
          </p>
          <button
            ref={chooseButton}
            type="button"
            onClick={() => input.current?.click()}
            data-testid="media.choose"
            className="mt-2 inline-block rounded-lg bg-white px-4 py-2 text-sm font-medium text-indigo-700 shadow-sm ring-1 ring-slate-300 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
          >
            Choose files
          </button>
          {queued > 0 && (
            <p className="mt-2 text-sm font-medium text-indigo-800" data-testid="media.queued">
              {queued} {queued === 1 ? 'file' : 'files'} in the queue
            </p>
          )}
          <p className="mt-2 text-xs text-slate-600">
            It stays on this device: decoding and transcription run in your browser.
          </p>
        </>
      )}
    </div>
  );
}
