/** The most characters of a caller's value that a message repeats. */
export const QUOTED_CHARS = 64;

/**
 * A value the caller sent, in double quotes, as a message repeats it: whole when short; past
 * `max` characters, its first `max`, then "…" and its length. An answer then never grows with
 * what it is sent (an error body repeats its message three times), and the caller still sees
 * which value is meant.
 */
export function quoted(value: string, max: number = QUOTED_CHARS): string {
  const characters = [...value];
  if (characters.length <= max) return `"${value}"`;
  return `"${characters.slice(0, max).join('')}…" (${characters.length} characters)`;
}

/**
 * The longest file name kept from what a caller sends (an upload's file name, a URL's last
 * segment): no common file system holds a longer one, and every message about a file names it.
 */
export const MAX_NAME_CHARS = 255;

/** A request's path or a name, as an answer repeats it: at most `max` characters, then "…". */
export function shortened(text: string, max: number = 2 * QUOTED_CHARS): string {
  const characters = [...text];
  return characters.length <= max ? text : `${characters.slice(0, max).join('')}…`;
}
