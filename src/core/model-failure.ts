/** Which of the models failed, in the words the page uses for it. */
export type ModelKind =
  | 'recognition'
  | 'voice activity'
  | 'translation'
  | 'speaker segmentation'
  | 'speaker embedding'
  | 'emotion';

/**
 * Why a model did not load, from the runtime's own message. A host without the model answers
 * 404s, which the model runtime turns into unrelated errors (reading `tokenizer_class` of a
 * config it never got); an unreachable host fails the fetch itself.
 */
export function missingPart(reason: string): string {
  if (
    /tokenizer_class|could not locate file|\b404\b|not found|unauthorized|\b401\b/i.test(reason)
  ) {
    return 'the host does not have this model (its files, such as config.json, were not found)';
  }
  // A browser says only that a fetch failed, for a host it could not reach and for one that
  // did not let the page read its files alike; Node (the CLI, the service) has no such rule and
  // names the network's own error.
  if (/failed to fetch|networkerror|network error|load failed|ERR_INTERNET/i.test(reason)) {
    return 'the host could not be reached (no network, a wrong address, or a host that does not let this site read its files)';
  }
  if (/fetch failed|ENOTFOUND|ECONNREFUSED|ECONNRESET|EAI_AGAIN|ETIMEDOUT/i.test(reason)) {
    return 'the host could not be reached (no network, a wrong address, or nothing answering there)';
  }
  // The runtime's own words for a file it could not read: one cut short by a host that said
  // the short size, which no check of size or checksum can tell before it is read.
  const unreadable = /Load model from (.*?) failed:\s*Protobuf parsing failed/i.exec(reason);
  if (unreadable || /protobuf parsing failed/i.test(reason)) {
    const file = /\/((?:onnx\/)?[^/\\]+\.onnx)$/.exec(unreadable?.[1] ?? '')?.[1];
    return `its file ${file ?? 'of weights'} could not be read: it arrived damaged (shorter than the model needs)`;
  }
  if (/quota/i.test(reason)) {
    return 'the browser has no room left to keep the model (storage is full)';
  }
  return reason;
}

/** The sentence that ends every model failure; each host says after it where to change them. */
export const CHECK_MODEL = 'Check the model and the model host.';

/**
 * The message of a model that failed to load: which model, from which host, what was missing.
 * Where the model and the host are changed is the host's to say (a panel of the page, the CLI's
 * flags), so the message ends with `CHECK_MODEL` and `modelFailureKind` reads it back.
 */
export function modelFailureMessage(kind: ModelKind, id: string, host: string, reason: string) {
  // A reason that ends a sentence of its own ("… could not be fetched (500).") ends this one.
  const why = missingPart(reason).replace(/[.\s]+$/, '');
  return `The ${kind} model "${id}" could not be loaded from ${host}: ${why}. ${CHECK_MODEL}`;
}

const KINDS: readonly ModelKind[] = [
  'recognition',
  'voice activity',
  'translation',
  'speaker segmentation',
  'speaker embedding',
  'emotion',
];

/** Which model a message of `modelFailureMessage` is about; null for any other message. */
export function modelFailureKind(message: string): ModelKind | null {
  if (!message.endsWith(CHECK_MODEL)) return null;
  return KINDS.find((kind) => message.startsWith(`The ${kind} model "`)) ?? null;
}
