/**
 * The name a slip of the keyboard most likely meant: for commands, options and request fields,
 * so that "--modle", "toggle_diarisation" and "trancribe" each point to the one that exists.
 */

/**
 * Edit distance with transpositions (optimal string alignment): "trancribe" and "wroker" are
 * one slip from their command.
 */
export function slips(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** Case, and dashes for underscores (command-line options are dashed), are no slips. */
const folded = (name: string) => name.toLowerCase().replace(/-/g, '_');

/**
 * The name of `names` that `typed` was most likely meant to be, or null when none is close: at
 * most two slips, and fewer than a third of the name's letters (so "translate" suggests nothing
 * for "transcribe"). A name that `typed` begins or that begins `typed` ("--subtitle" for
 * "--subtitles", "--speaker" for "--speaker-names") counts as one slip.
 */
export function nearestName<T extends string>(typed: string, names: Iterable<T>): T | null {
  const want = folded(typed);
  // Names are short: a long one is no slip of any, and comparing it would cost its length.
  if (want === '' || want.length > 64) return null;
  let nearest: T | null = null;
  let least = Infinity;
  for (const name of names) {
    const have = folded(name);
    let distance = slips(want, have);
    if (distance > 1 && want.length >= 4 && (have.startsWith(want) || want.startsWith(have)))
      distance = 1;
    if (distance < least) {
      least = distance;
      nearest = name;
    }
  }
  return least <= 2 && least * 3 <= Math.max(want.length, 3) ? nearest : null;
}
