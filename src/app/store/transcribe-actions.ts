import { parseRequest } from '../../core/contract/parse-request';
import { ServiceError, toServiceError } from '../../core/contract/errors';
import { TranscriptionClient } from '../../worker/client';
import { startWorker } from '../../worker/page-policy-worker';
// The worker's address only, as `new Worker(new URL(…))` named it before: none of its code.
// eslint-disable-next-line no-restricted-imports
import transcriptionWorker from '../../hosts/browser/transcription.worker.ts?worker&url';
import type { CrashOrder } from '../../worker/protocol';
import type { NetworkRecord } from '../../core/network-note';
import { toFormData } from '../lib/form-fields';
import { scriptProblems } from '../../core/alignment/script';
import { endNetworkCount, startNetworkCount } from '../lib/page-network';
import { advanceProgress } from '../lib/progress';
import { focusResultIfLost } from '../lib/result-focus';
import { useAppStore } from './app-store';
import { addToHistory } from './history-actions';
import { reopenAllowing, takePendingRequest } from './reopen-actions';
import { deliverResult, forgetDelivery } from './webhook-actions';
import { recogniseResult } from './voice-actions';
import { setTestVoiceThresholds } from '../lib/voice-thresholds';
import type { VoiceThresholds } from '../../core/voices/recognise';
import type { SpeakerVoice } from '../../core/voices/voice';

let client: TranscriptionClient | null = null;
let controller: AbortController | null = null;

export function getClient(): TranscriptionClient {
  client ??= new TranscriptionClient((name) => startWorker(transcriptionWorker, { name }));
  client.onRuntime = (progress) => useAppStore.getState().setRuntimeProgress(progress);
  return client;
}

/** A file was chosen: the worker starts loading the media stage before the request comes. */
export function prepareEngine(): void {
  getClient().prepare(useAppStore.getState().settings);
}

export function baseName(values: { file: File | null; url: string }): string {
  const source = values.file?.name ?? values.url.split(/[?#]/)[0]?.split('/').pop() ?? '';
  return source.replace(/\.[^.]+$/, '') || 'transcript';
}

/**
 * Submits the form. The request is checked here with the same parser the worker uses, so field
 * problems show at once; the worker checks it again as every host does.
 */
export async function submitTranscription(options: { reopen?: boolean } = {}): Promise<void> {
  const store = useAppStore.getState();
  const { values } = store;
  const form = toFormData(values);
  const parsed = parseRequest(form, values.endpoint);
  const scriptIssues = values.align_script ? scriptProblems(values.script) : [];
  if (!parsed.ok || scriptIssues.length > 0) {
    store.setProblems([...(parsed.ok ? [] : parsed.problems), ...scriptIssues]);
    return;
  }
  store.setProblems([]);
  // Once reopened, an address still out of reach fails as any unreachable host does.
  if (options.reopen !== false && (await reopenAllowing(values))) return;
  getClient().configure(store.settings);
  controller?.abort();
  controller = new AbortController();
  forgetDelivery();
  const name = baseName(values);
  // On a phone the result area sits below the form: bring it into view.
  document.getElementById('result')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  // The transcript on screen, to show again should this request be refused before any of its
  // own speech is heard (a link that cannot be read): a refusal loses nothing.
  const before = shownResult();
  useAppStore.setState({
    status: 'running',
    progress: null,
    liveSegments: [],
    provisionalSegments: [],
    notices: parsed.request.notices,
    device: null,
    error: null,
    result: null,
  });
  startNetworkCount();
  let workerRequests: NetworkRecord[] = [];
  let speakers: SpeakerVoice[] = [];
  try {
    const result = await getClient().transcribe(
      values.endpoint,
      form,
      {
        signal: controller.signal,
        onProgress: (progress) =>
          useAppStore.setState((s) => ({
            progress: advanceProgress(s.progress, progress, s.settings),
          })),
        onNotice: (notice) => useAppStore.setState((s) => ({ notices: [...s.notices, notice] })),
        onDevice: (device) => useAppStore.setState({ device }),
        onNetwork: (records) => (workerRequests = records),
        onSpeakers: (found) => (speakers = found),
        onSegment: (segment) =>
          useAppStore.setState((s) => ({ liveSegments: [...s.liveSegments, segment] })),
        onProvisional: (segments) => useAppStore.setState({ provisionalSegments: segments }),
      },
      values.align_script ? values.script : undefined,
    );
    const webhook = parsed.request.webhook_url;
    const { media } = parsed.request;
    const network = endNetworkCount(workerRequests, {
      modelHost: store.settings.modelHost,
      media: media.kind === 'url' ? media.url : null,
      webhook,
    });
    useAppStore.getState().showResult(result, name, values.file);
    useAppStore.setState({ network });
    focusResultIfLost();
    // Stored voices name the speakers before the result is kept, so that it is kept named.
    const voices = speakers.length > 0 ? await recogniseResult(speakers) : undefined;
    const { device } = useAppStore.getState();
    void addToHistory(result, name, values, network, { device, ...(voices ? { voices } : {}) });
    // The result is the user's whatever happens to the webhook; its fate is shown beside it.
    if (webhook !== null) void deliverResult(webhook, result);
  } catch (thrown) {
    const error = toServiceError(thrown);
    if (error.code === 'cancelled') {
      useAppStore.setState({
        status: 'cancelled',
        progress: null,
        provisionalSegments: [],
        error: null,
      });
      return;
    }
    if (error instanceof ServiceError && error.problems.length > 0) {
      useAppStore.getState().setProblems(error.problems);
    }
    const heard = useAppStore.getState().liveSegments.length > 0;
    useAppStore.setState({
      ...(before !== null && !heard ? before : {}),
      status: 'failed',
      progress: null,
      provisionalSegments: [],
      error: {
        code: error.code,
        message: error.message,
        problems: error instanceof ServiceError ? [...error.problems] : [],
      },
    });
  }
}

declare global {
  interface Window {
    /** Test builds only: what the browser tests reach into. */
    murmurTestHooks?: {
      crashWorker: (order: CrashOrder) => void;
      /** How many transcription workers the page has found dead. */
      workerDeaths: () => number;
      /** Distances at which a stored voice names or is offered (null: the model's own). */
      setVoiceThresholds: (thresholds: VoiceThresholds | null) => void;
    };
  }
}

if (import.meta.env.MURMUR_TEST_HOOKS) {
  window.murmurTestHooks = {
    crashWorker: (order) => getClient().crashForTest(order),
    workerDeaths: () => getClient().deaths,
    setVoiceThresholds: setTestVoiceThresholds,
  };
}

/** What shows a result, as it is now (null: none is shown). */
function shownResult() {
  const s = useAppStore.getState();
  if (s.result === null) return null;
  const { result, resultName, resultMedia, resultEntryId, resultVoices, network } = s;
  const { history, historyIndex, device } = s;
  return {
    result,
    resultName,
    resultMedia,
    resultEntryId,
    resultVoices,
    network,
    history,
    historyIndex,
    device,
  };
}

export function cancelTranscription(): void {
  controller?.abort();
  controller = null;
}

/** The request that made the page reopen with its addresses allowed is sent again. */
export async function resumePendingRequest(): Promise<void> {
  const pending = await takePendingRequest();
  if (pending === null) return;
  useAppStore.setState({ values: pending });
  await submitTranscription({ reopen: false });
}
