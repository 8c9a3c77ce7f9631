import { scriptSizeProblem, scriptText } from '../../core/alignment/script';
import type { FieldProblem } from '../../core/contract/errors';

/**
 * Reads a text or subtitle file into the script box; a file that is not text, or too large for
 * a script, is not put in the box but said under it.
 */
export function OpenScriptFile({
  onOpen,
  onProblem,
}: {
  onOpen: (text: string) => void;
  onProblem: (problem: FieldProblem) => void;
}) {
  const open = async (file: File) => {
    const large = scriptSizeProblem(file.size);
    if (large !== null) return onProblem(large);
    const read = scriptText(new Uint8Array(await file.arrayBuffer()));
    if ('problem' in read) onProblem(read.problem);
    else onOpen(read.text);
  };
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
          if (file) void open(file);
        }}
        data-testid="options.script-file"
      />
    </label>
  );
}
