import type { Envelope, ErrorReply } from '../../src/worker/envelope';

/** What the translation harness page asks its worker to run. */
export interface TranslationRun {
  /** Model host (absolute URL of the hub layout) and the translation model's id. */
  modelHost: string;
  translationModel: string;
  /** Texts, each translated alone (as one segment), from `from` into `to` (model codes). */
  texts: string[];
  from: string;
  to: string;
}

export interface TranslationResult {
  translations: string[];
  loadSeconds: number;
  /** Seconds per call, in order. */
  seconds: number[];
  crossOriginIsolated: boolean;
}

/** Messages between the page and its worker, in the app's worker envelope. */
export type TranslationRequest = Envelope<'translate', TranslationRun>;
export type TranslationReply = Envelope<'result', TranslationResult> | ErrorReply;
