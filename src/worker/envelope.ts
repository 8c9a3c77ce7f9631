import {
  isErrorCode,
  ServiceError,
  thrownMessage,
  type FieldProblem,
} from '../core/contract/errors';

/**
 * Every message between the page and a worker, or between two workers: the id of the call it
 * belongs to, what it is, and its data. Each protocol is a union of these, typed by `type`.
 */
export interface Envelope<T extends string = string, D = unknown> {
  id: number;
  type: T;
  data: D;
}

/**
 * An error as it crosses a worker boundary (Error subclasses do not survive `postMessage`):
 * the service's error code when it is one, the error's name (an `AbortError` stays one), its
 * message and the fields it names.
 */
export interface WireError {
  code: string | null;
  name: string;
  message: string;
  problems: FieldProblem[];
}

/** The reply that ends a call in failure, in every protocol. */
export type ErrorReply = Envelope<'error', WireError>;

export function toWireError(thrown: unknown): WireError {
  if (thrown instanceof ServiceError) {
    return {
      code: thrown.code,
      name: thrown.name,
      message: thrown.message,
      problems: [...thrown.problems],
    };
  }
  const error = thrown instanceof Error ? thrown : new Error(thrownMessage(thrown));
  return { code: null, name: error.name, message: error.message, problems: [] };
}

/** The error rebuilt on the receiving side: a `ServiceError` with its code, or a named Error. */
export function fromWireError(wire: WireError): Error {
  if (wire.code !== null && isErrorCode(wire.code)) {
    return new ServiceError(wire.code, wire.message, wire.problems);
  }
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}
