/**
 * Delivery of a finished result to a webhook: one POST of JSON, a time limit per try, and a few
 * tries with growing pauses when the receiver cannot be reached, does not answer in time, or
 * answers 5xx or 429. Any other answer is final: 2xx delivered, 4xx refused. The host gives its
 * `fetch` (and says what a network failure means there: a browser's is often a CORS refusal).
 */

/** The part of a `fetch` Response that delivery reads. */
export interface DeliveryAnswer {
  status: number;
  statusText: string;
}

export type DeliveryFetch = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<DeliveryAnswer>;

export interface DeliveryPolicy {
  /** Tries in all, the first included. */
  tries: number;
  /** Time limit of one try. */
  timeoutMs: number;
  /** Pause before the second try; each later pause is `backoffFactor` times the one before. */
  firstPauseMs: number;
  backoffFactor: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  tries: 3,
  timeoutMs: 10_000,
  firstPauseMs: 1_000,
  backoffFactor: 3,
};

export type DeliveryEvent =
  | { kind: 'sending'; attempt: number; tries: number }
  | { kind: 'retrying'; attempt: number; tries: number; reason: string; pauseMs: number }
  | { kind: 'delivered'; attempt: number; status: number }
  | { kind: 'failed'; attempt: number; reason: string };

export interface DeliveryOutcome {
  url: string;
  delivered: boolean;
  /** Tries made. */
  attempts: number;
  /** The receiver's last HTTP status; null when it never answered. */
  status: number | null;
  /** Why it was not delivered; null when it was. */
  reason: string | null;
}

/**
 * Headers that sign one try's body (the host holds the key and the crypto). Called once per try,
 * so that each try carries its own timestamp; one signer serves every try of one delivery.
 */
export type DeliverySigner = (body: string) => Record<string, string>;

export interface DeliveryOptions {
  fetch: DeliveryFetch;
  sign?: DeliverySigner;
  policy?: DeliveryPolicy;
  signal?: AbortSignal;
  onEvent?: (event: DeliveryEvent) => void;
  /** The sentence for a try that got no answer at all (the host knows its causes). */
  explainNetworkFailure?: (url: string, error: unknown) => string;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The pause before try `attempt + 1`. */
export function pauseBefore(policy: DeliveryPolicy, attempt: number): number {
  return policy.firstPauseMs * policy.backoffFactor ** (attempt - 1);
}

/** Whether an HTTP status is worth another try: the receiver's own failure or "slow down". */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message;
    return detail ? `${error.message} (${detail})` : error.message;
  }
  return String(error);
}

/** POSTs `body` (any JSON value) to `url` under the policy; never throws but for cancellation. */
export async function deliverWebhook(
  url: string,
  body: unknown,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  const policy = options.policy ?? DEFAULT_DELIVERY_POLICY;
  const sleep = options.sleep ?? defaultSleep;
  const explain =
    options.explainNetworkFailure ??
    ((target: string, error: unknown) =>
      `${new URL(target).host} could not be reached: ${errorText(error)}.`);
  const text = JSON.stringify(body);
  let status: number | null = null;
  let reason = '';
  for (let attempt = 1; attempt <= policy.tries; attempt++) {
    options.signal?.throwIfAborted();
    options.onEvent?.({ kind: 'sending', attempt, tries: policy.tries });
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let retryable: boolean;
    try {
      const answer = await options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...options.sign?.(text) },
        body: text,
        signal,
      });
      status = answer.status;
      if (answer.status >= 200 && answer.status < 300) {
        options.onEvent?.({ kind: 'delivered', attempt, status: answer.status });
        return { url, delivered: true, attempts: attempt, status: answer.status, reason: null };
      }
      retryable = isRetryableStatus(answer.status);
      reason = `The receiver answered ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}${retryable ? '' : ' (a refusal: not tried again)'}.`;
    } catch (error) {
      options.signal?.throwIfAborted();
      // A failure the host marks `final` (an address it never sends to) no later try mends.
      retryable = !(error instanceof Error && (error as { final?: boolean }).final === true);
      reason = timeout.aborted
        ? `No answer within ${policy.timeoutMs / 1000} s.`
        : explain(url, error);
    }
    if (!retryable || attempt === policy.tries) {
      options.onEvent?.({ kind: 'failed', attempt, reason });
      return { url, delivered: false, attempts: attempt, status, reason };
    }
    const pauseMs = pauseBefore(policy, attempt);
    options.onEvent?.({ kind: 'retrying', attempt, tries: policy.tries, reason, pauseMs });
    await sleep(pauseMs, options.signal);
  }
  // Unreachable with tries >= 1; kept for a policy of zero tries.
  return { url, delivered: false, attempts: 0, status, reason: 'No try was allowed.' };
}
