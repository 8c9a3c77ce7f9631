/**
 * How repetitive a text is: its UTF-8 size over an estimate of its deflate-compressed size.
 * Whisper rejects decodes whose gzip ratio exceeds 2.4 (repetition loops); gzip is not
 * available synchronously everywhere, so the compressed size is estimated with LZ77 parsing
 * (a back-reference of 3+ bytes costs about 3 bytes, a literal about 1), which tracks gzip
 * closely on short texts.
 */
export function compressionRatio(text: string): number {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length === 0) return 0;
  const window = 32_768;
  const heads = new Map<number, number[]>();
  let cost = 18; // deflate stream and gzip header/trailer overhead
  let i = 0;
  const key = (p: number) => (bytes[p]! << 16) | (bytes[p + 1]! << 8) | bytes[p + 2]!;
  const remember = (p: number) => {
    if (p + 2 >= bytes.length) return;
    const k = key(p);
    const list = heads.get(k);
    if (list) list.push(p);
    else heads.set(k, [p]);
  };
  while (i < bytes.length) {
    let bestLength = 0;
    if (i + 2 < bytes.length) {
      const candidates = heads.get(key(i)) ?? [];
      for (let c = candidates.length - 1; c >= 0 && c >= candidates.length - 64; c--) {
        const start = candidates[c]!;
        if (i - start > window) break;
        let length = 0;
        while (
          i + length < bytes.length &&
          length < 258 &&
          bytes[start + length] === bytes[i + length]
        ) {
          length++;
        }
        if (length > bestLength) bestLength = length;
      }
    }
    if (bestLength >= 3) {
      cost += 3;
      for (let k = 0; k < bestLength; k++) remember(i + k);
      i += bestLength;
    } else {
      cost += 1;
      remember(i);
      i += 1;
    }
  }
  return bytes.length / cost;
}
