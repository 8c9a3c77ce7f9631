/**
 * The words of `lines` laid out again on at most `maxLines` lines of at most `maxLineChars`
 * characters: the fewest lines that hold them, of lengths as even as can be. Null when they do
 * not fit (a word longer than a line, or too many words).
 */
export function wrapLines(
  lines: readonly string[],
  maxLineChars: number,
  maxLines: number,
): string[] | null {
  const words = lines
    .join(' ')
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length === 0) return [];
  const n = words.length;
  const lengthOf = (a: number, b: number) => words.slice(a, b).join(' ').length;
  for (let count = 1; count <= maxLines; count++) {
    // best[l][k]: the layout of the first k words on l lines with the smallest sum of squared
    // line lengths (the most even), and where its last line starts.
    const best: { cost: number; start: number }[][] = [[{ cost: 0, start: 0 }]];
    for (let l = 1; l <= count; l++) {
      const row: { cost: number; start: number }[] = [];
      for (let k = 1; k <= n; k++) {
        let choice = { cost: Infinity, start: -1 };
        for (let a = k - 1; a >= 0; a--) {
          const length = lengthOf(a, k);
          if (length > maxLineChars) break;
          const before = best[l - 1]?.[a];
          if (before === undefined || !Number.isFinite(before.cost)) continue;
          if (before.cost + length * length < choice.cost) {
            choice = { cost: before.cost + length * length, start: a };
          }
        }
        row[k] = choice;
      }
      best.push(row);
    }
    if (!Number.isFinite(best[count]?.[n]?.cost ?? Infinity)) continue;
    const out: string[] = [];
    let k = n;
    for (let l = count; l >= 1; l--) {
      const start = (best[l]?.[k] as { start: number }).start;
      out.unshift(words.slice(start, k).join(' '));
      k = start;
    }
    return out;
  }
  return null;
}
