import { toServiceError } from '../../core/contract/errors';
import { fieldsFromRecord, parseRequestOrThrow } from '../../core/contract/parse-request';
import { runPipeline } from '../../engine/pipeline';
import type { EngineSettings, FromWorker, ToWorker } from '../../worker/protocol';

/** The worker global, typed by its messages (the DOM and WebWorker libs cannot share a program). */
interface WorkerScope {
  postMessage(message: FromWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
}

const scope = self as unknown as WorkerScope;

function post(message: FromWorker): void {
  scope.postMessage(message);
}

async function transcribe(message: Extract<ToWorker, { type: 'transcribe' }>): Promise<void> {
  const { id, data } = message;
  try {
    post({
      id,
      type: 'progress',
      data: { stage: 'validate', fraction: null, detail: 'Checking the request' },
    });
    const request = parseRequestOrThrow(fieldsFromRecord(data.strings, data.files), data.endpoint);
    for (const notice of request.notices) post({ id, type: 'notice', data: notice });
    const response = await runPipeline(request, { modelHost: settings.modelHost });
    post({ id, type: 'result', data: response });
  } catch (thrown) {
    const error = toServiceError(thrown);
    post({
      id,
      type: 'error',
      data: { code: error.code, message: error.message, problems: [...error.problems] },
    });
  }
}

let settings: EngineSettings = { modelHost: 'https://huggingface.co/' };

scope.addEventListener('message', (event) => {
  const message = event.data;
  switch (message.type) {
    case 'configure':
      settings = message.data;
      break;
    case 'transcribe':
      void transcribe(message);
      break;
    default:
      throw new Error(`Unknown message to the worker: ${JSON.stringify(message satisfies never)}`);
  }
});
