/** Reads a text or subtitle file into the script box. */
export function OpenScriptFile({ onOpen }: { onOpen: (text: string) => void }) {
  return (
    <label className="mt-1 inline-block cursor-pointer text-xs font-medium text-indigo-800 underline">
      Open a text or subtitle file (TXT, SRT or VTT)
      <input
        type="file"
        accept=".txt,.md,.srt,.vtt,text/plain,text/vtt,application/x-subrip"
        className="sr-only"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void file.text().then(onOpen);
        }}
        data-testid="options.script-file"
      />
    </label>
  );
}
