/**
 * What the first bytes of a file say it is, before any decoder sees it: enough to refuse text,
 * web pages, images, documents, archives and programs with a message that names what was given.
 */
export type NonMediaKind = 'html' | 'text' | 'image' | 'pdf' | 'archive' | 'program';

export interface SniffResult {
  /** Null when the bytes may be audio or video (the decoder decides). */
  kind: NonMediaKind | null;
  /** A short name of the format, for messages: "PNG image", "web page (HTML)". */
  label: string | null;
}

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) =>
  bytes.every((b, i) => head[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES: readonly {
  kind: NonMediaKind;
  label: string;
  test: (h: Uint8Array) => boolean;
}[] = [
  { kind: 'image', label: 'PNG image', test: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47]) },
  { kind: 'image', label: 'JPEG image', test: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { kind: 'image', label: 'GIF image', test: (h) => startsWith(h, ascii('GIF8')) },
  {
    kind: 'image',
    label: 'BMP image',
    test: (h) => startsWith(h, ascii('BM')) && h.length > 14 && h[6] === 0 && h[7] === 0,
  },
  {
    kind: 'image',
    label: 'WebP image',
    test: (h) => startsWith(h, ascii('RIFF')) && startsWith(h, ascii('WEBP'), 8),
  },
  {
    kind: 'image',
    label: 'TIFF image',
    test: (h) => startsWith(h, [0x49, 0x49, 0x2a, 0]) || startsWith(h, [0x4d, 0x4d, 0, 0x2a]),
  },
  {
    kind: 'image',
    label: 'AVIF/HEIF image',
    test: (h) =>
      startsWith(h, ascii('ftyp'), 4) &&
      ['avif', 'avis', 'heic', 'heix', 'mif1'].some((brand) => startsWith(h, ascii(brand), 8)),
  },
  {
    kind: 'image',
    label: 'icon image',
    test: (h) => startsWith(h, [0, 0, 1, 0]) && h.length > 6 && h[4]! > 0 && h[5] === 0,
  },
  { kind: 'pdf', label: 'PDF document', test: (h) => startsWith(h, ascii('%PDF')) },
  {
    kind: 'archive',
    label: 'ZIP archive or office document',
    test: (h) => startsWith(h, ascii('PK'), 0) && (h[2] === 3 || h[2] === 5),
  },
  { kind: 'archive', label: 'gzip archive', test: (h) => startsWith(h, [0x1f, 0x8b]) },
  {
    kind: 'archive',
    label: '7-Zip archive',
    test: (h) => startsWith(h, ascii('7z'), 0) && h[2] === 0xbc,
  },
  { kind: 'archive', label: 'RAR archive', test: (h) => startsWith(h, ascii('Rar!')) },
  // A Windows program starts with "MZ" and names its PE header's place at byte 60.
  {
    kind: 'program',
    label: 'Windows program',
    test: (h) => startsWith(h, ascii('MZ')) && h.length >= 64,
  },
  { kind: 'program', label: 'Linux program', test: (h) => startsWith(h, [0x7f, 0x45, 0x4c, 0x46]) },
  {
    kind: 'program',
    label: 'macOS program',
    test: (h) =>
      [
        [0xcf, 0xfa, 0xed, 0xfe],
        [0xce, 0xfa, 0xed, 0xfe],
      ].some((magic) => startsWith(h, magic)),
  },
];

function decodesAsText(head: Uint8Array): string | null {
  if (head.length === 0) return null;
  let controls = 0;
  for (const b of head) {
    if (b === 0) return null;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) controls++;
  }
  if (controls > head.length / 100) return null;
  try {
    // The head may end inside a multi-byte character: allow a few bytes of slack at the end.
    const cut = Math.max(1, head.length - 4);
    const text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, cut));
    return text;
  } catch {
    // Not UTF-8; Latin-1 text has no control bytes either, which was checked above.
    return head.every((b) => b >= 0x09) ? String.fromCharCode(...head.subarray(0, 256)) : null;
  }
}

/** Classifies a file by its first bytes (a few KiB are enough). */
export function sniffMedia(head: Uint8Array): SniffResult {
  for (const s of SIGNATURES) if (s.test(head)) return { kind: s.kind, label: s.label };
  const text = decodesAsText(head);
  if (text === null) return { kind: null, label: null };
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 256)
    .toLowerCase();
  if (/^<(!doctype html|html|head|body|!--)/.test(start) || start.includes('<html')) {
    return { kind: 'html', label: 'web page (HTML)' };
  }
  if (start.startsWith('#extm3u')) return { kind: 'text', label: 'playlist (M3U/HLS)' };
  if (start.startsWith('webvtt')) return { kind: 'text', label: 'subtitle file (WebVTT)' };
  if (start.startsWith('<?xml') || start.startsWith('<svg')) {
    return start.includes('<svg')
      ? { kind: 'image', label: 'SVG image' }
      : { kind: 'text', label: 'XML document' };
  }
  if (start.startsWith('{') || start.startsWith('['))
    return { kind: 'text', label: 'JSON document' };
  return { kind: 'text', label: 'text file' };
}

/** Media types a URL response may carry; anything else is not media. */
export function isMediaContentType(contentType: string | null): boolean {
  if (contentType === null || contentType.trim() === '') return true;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('audio/') || type.startsWith('video/')) return true;
  return [
    'application/octet-stream',
    'binary/octet-stream',
    'application/ogg',
    'application/mp4',
    'application/x-matroska',
    'application/force-download',
    'application/x-download',
  ].includes(type);
}
