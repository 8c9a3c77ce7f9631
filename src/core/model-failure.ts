/** Which of the models failed, in the words the page uses for it. */
export type ModelKind =
  'recognition' | 'voice activity' | 'translation' | 'speaker segmentation' | 'speaker embedding';

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
  if (
    /failed to fetch|networkerror|network error|load failed|ERR_INTERNET|ENOTFOUND|ECONNREFUSED/i.test(
      reason,
    )
  ) {
    return 'the host could not be reached (no network, a wrong address, or a host that does not let this site read its files)';
  }
  if (/quota/i.test(reason)) {
    return 'the browser has no room left to keep the model (storage is full)';
  }
  return reason;
}

/**
 * The message of a model that failed to load: which model, from which host, what was missing,
 * and where to change it.
 */
export function modelFailureMessage(kind: ModelKind, id: string, host: string, reason: string) {
  return (
    `The ${kind} model "${id}" could not be loaded from ${host}: ${missingPart(reason)}. ` +
    'Check the model and the model host under Models.'
  );
}
