/** Opens a user's own SRT or VTT file to check it. */
export function OpenSubtitleFile({ onOpen }: { onOpen: (name: string, text: string) => void }) {
  return (
    <label className="inline-block cursor-pointer text-xs font-medium text-indigo-800 underline">
      Check a subtitle file of your own (SRT or VTT)
      <input
        type="file"
        accept=".srt,.vtt,text/vtt,application/x-subrip"
        className="sr-only"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void file.text().then((text) => onOpen(file.name, text));
        }}
        data-testid="check.open"
      />
    </label>
  );
}
