import { ServiceError } from '../../core/contract/errors';
import { modelFailureMessage, type ModelKind } from '../../core/model-failure';
import type { TransformersModule } from './transformers-port';

/**
 * A model that transformers.js could not load, as the service's error: which model, from which
 * host (or local folder) transformers.js was set to read, and what was missing.
 */
export function transformersLoadFailure(
  transformers: TransformersModule,
  kind: ModelKind,
  id: string,
  thrown: unknown,
): ServiceError {
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  const from = transformers.env.allowRemoteModels
    ? transformers.env.remoteHost
    : transformers.env.localModelPath;
  return new ServiceError('engine_unavailable', modelFailureMessage(kind, id, from, reason));
}
