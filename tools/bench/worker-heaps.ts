/**
 * What V8 itself holds in a page and in each of its workers, nested ones included (the engine's
 * worker starts ffmpeg's and the speech detector's): each context's JavaScript heap and the
 * array buffers it owns, from the DevTools protocol's `Runtime.getHeapUsage`. What the
 * renderer's resident size holds beyond their sum lies outside V8's heaps (the renderer
 * itself, and WebAssembly's memories and compiled code where V8 does not count them).
 * Workers are reached through the page's session with the protocol's nested target messages,
 * which Playwright's sessions carry for a page but not, flattened, for its workers.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright';

/** One context's figures, in bytes. */
export interface ContextHeap {
  /** `page`, or the worker script's file name. */
  name: string;
  heapUsed: number;
  heapTotal: number;
  /** Array buffers' backing stores owned by the context. */
  buffers: number;
}

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  backingStorageSize?: number;
}

interface ProtocolMessage {
  id?: number;
  method?: string;
  params?: {
    sessionId?: string;
    message?: string;
    targetInfo?: { type: string; url: string };
  };
  result?: unknown;
}

/** Nothing heard from a worker this long: it has ended, and is left out. */
const ANSWER_MS = 2000;

/** Attaches to the page's workers as they start; `measure()` asks each for its heap. */
export async function watchWorkerHeaps(
  context: BrowserContext,
  page: Page,
): Promise<{ measure(): Promise<ContextHeap[]> }> {
  const root: CDPSession = await context.newCDPSession(page);
  /** Worker name by route: the session ids from the page's session down to the worker. */
  const workers = new Map<string, { route: string[]; name: string }>();
  const answers = new Map<number, (result: unknown) => void>();
  let nextId = 1;

  /** Wraps `message` for the worker at the end of `route`, each hop inside the one before. */
  const send = (route: readonly string[], method: string, params: object = {}) => {
    const id = nextId++;
    let message = JSON.stringify({ id, method, params });
    for (let hop = route.length - 1; hop > 0; hop--) {
      message = JSON.stringify({
        id: nextId++,
        method: 'Target.sendMessageToTarget',
        params: { sessionId: route[hop], message },
      });
    }
    const answered = new Promise<unknown>((resolve) => answers.set(id, resolve));
    void root.send('Target.sendMessageToTarget', { sessionId: route[0]!, message });
    return answered;
  };

  /** A message from the worker at `route`: an answer, a nested worker, or a wrapped message. */
  const receive = (route: readonly string[], message: ProtocolMessage) => {
    if (message.id !== undefined && answers.has(message.id)) {
      answers.get(message.id)!(message.result);
      answers.delete(message.id);
    } else if (message.method === 'Target.attachedToTarget') {
      attached([...route, message.params!.sessionId!], message.params!.targetInfo!.url);
    } else if (message.method === 'Target.receivedMessageFromTarget') {
      receive([...route, message.params!.sessionId!], JSON.parse(message.params!.message!));
    }
  };

  const attached = (route: string[], url: string) => {
    workers.set(route.join('>'), { route, name: url.split('/').pop() || url });
    // Its own workers are attached to as they start.
    void send(route, 'Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
  };

  root.on('Target.attachedToTarget', (event) => {
    attached([event.sessionId], event.targetInfo.url);
  });
  root.on('Target.receivedMessageFromTarget', (event) => {
    receive([event.sessionId], JSON.parse(event.message) as ProtocolMessage);
  });
  root.on('Target.detachedFromTarget', (event) => {
    workers.delete(event.sessionId ?? '');
  });
  await root.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  });

  const figures = (name: string, usage: HeapUsage): ContextHeap => ({
    name,
    heapUsed: usage.usedSize,
    heapTotal: usage.totalSize,
    buffers: usage.backingStorageSize ?? 0,
  });

  return {
    async measure() {
      const out = [figures('page', (await root.send('Runtime.getHeapUsage')) as HeapUsage)];
      for (const { route, name } of [...workers.values()]) {
        const usage = (await Promise.race([
          send(route, 'Runtime.getHeapUsage'),
          new Promise((resolve) => setTimeout(() => resolve(null), ANSWER_MS)),
        ])) as HeapUsage | null;
        if (usage?.usedSize !== undefined) out.push(figures(name, usage));
      }
      return out;
    },
  };
}
