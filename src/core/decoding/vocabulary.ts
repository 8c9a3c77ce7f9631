/** Token ids Whisper's decoding rules refer to, read from a model's generation config. */
export interface WhisperVocabulary {
  startOfTranscript: number;
  endOfText: number;
  startOfPrevious: number;
  noSpeech: number;
  noTimestamps: number;
  /** `<|0.00|>`; timestamp `i` is `timestampBegin + i`, 0.02 s apart. */
  timestampBegin: number;
  /** Id of the last vocabulary entry + 1 (the logits width). */
  size: number;
  transcribe: number;
  translate: number;
  /** Language code (`en`) -> token id of `<|en|>`. */
  languages: ReadonlyMap<string, number>;
  /** Suppressed at every step (the config's `suppress_tokens`). */
  suppress: readonly number[];
  /** Suppressed at the first sampled step (blank and end of text). */
  beginSuppress: readonly number[];
}

export const SECONDS_PER_TIMESTAMP = 0.02;

export interface GenerationConfigLike {
  decoder_start_token_id: number;
  eos_token_id: number | number[];
  no_timestamps_token_id: number;
  lang_to_id: Record<string, number>;
  task_to_id: Record<string, number>;
  suppress_tokens?: number[];
  begin_suppress_tokens?: number[];
  prev_sot_token_id?: number;
}

/**
 * Builds the vocabulary from generation_config.json. The ids of `<|startofprev|>` and
 * `<|nospeech|>` are not all in the config, so the tokenizer's lookup supplies them.
 */
export function vocabularyFrom(
  config: GenerationConfigLike,
  size: number,
  tokenId: (token: string) => number | undefined,
): WhisperVocabulary {
  const eot = Array.isArray(config.eos_token_id) ? config.eos_token_id[0] : config.eos_token_id;
  const noSpeech = tokenId('<|nospeech|>') ?? tokenId('<|nocaptions|>');
  const prev = config.prev_sot_token_id ?? tokenId('<|startofprev|>');
  if (eot === undefined || noSpeech === undefined || prev === undefined) {
    throw new Error('The model tokenizer lacks Whisper special tokens (nospeech, startofprev).');
  }
  const languages = new Map<string, number>();
  for (const [token, id] of Object.entries(config.lang_to_id)) {
    languages.set(token.replace(/^<\|/, '').replace(/\|>$/, ''), id);
  }
  const task = (name: string) => {
    const id = config.task_to_id[name];
    if (id === undefined) throw new Error(`The model has no ${name} task token.`);
    return id;
  };
  return {
    startOfTranscript: config.decoder_start_token_id,
    endOfText: eot,
    startOfPrevious: prev,
    noSpeech,
    noTimestamps: config.no_timestamps_token_id,
    timestampBegin: config.no_timestamps_token_id + 1,
    size,
    transcribe: task('transcribe'),
    translate: task('translate'),
    languages,
    suppress: config.suppress_tokens ?? [],
    beginSuppress: config.begin_suppress_tokens ?? [],
  };
}
