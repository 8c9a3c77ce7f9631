/** Messages between the translation harness page and its worker. */
export interface TranslationRun {
  /** Model host (absolute URL of the hub layout) and the translation model's id. */
  modelHost: string;
  translationModel: string;
  /** Texts, each translated alone (as one segment), from `from` into `to` (model codes). */
  texts: string[];
  from: string;
  to: string;
}

export type TranslationReply =
  | {
      type: 'done';
      translations: string[];
      loadSeconds: number;
      /** Seconds per call, in order. */
      seconds: number[];
      crossOriginIsolated: boolean;
    }
  | { type: 'error'; message: string };
