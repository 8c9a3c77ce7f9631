import type { NetworkRecord } from '../../core/network-note';
import { watchNetwork } from '../../worker/network-watch';
// Its address only: its types hold the WebWorker lib, which cannot share a program with the DOM's.
import ffmpegOwnWorker from '@ffmpeg/ffmpeg/worker?worker&url';

/**
 * ffmpeg.wasm's own worker, with its requests recorded for the Network note. ffmpeg's class
 * owns the worker and its messages, so the records go out on a channel of their own, named in
 * the load message (`FfmpegNetworkChannel`), rather than through ffmpeg's.
 */
export interface FfmpegNetworkChannel {
  networkChannel: string;
}

let channel: BroadcastChannel | null = null;
const waiting: NetworkRecord[] = [];
const send = (records: NetworkRecord[]) => channel?.postMessage(records);

watchNetwork((records) => (channel ? send(records) : waiting.push(...records)));

self.addEventListener(
  'message',
  (event: MessageEvent<{ data?: Partial<FfmpegNetworkChannel> }>) => {
    const name = event.data.data?.networkChannel;
    if (channel !== null || typeof name !== 'string') return;
    channel = new BroadcastChannel(name);
    send(waiting.splice(0));
  },
);

// ffmpeg's worker sets its listener once loaded: messages that come meanwhile wait for it.
const held: MessageEvent[] = [];
const hold = (event: MessageEvent) => {
  held.push(event);
  event.stopImmediatePropagation();
};
self.addEventListener('message', hold);
try {
  await import(/* @vite-ignore */ new URL(ffmpegOwnWorker, self.location.href).href);
} finally {
  self.removeEventListener('message', hold);
  for (const event of held) self.dispatchEvent(new MessageEvent('message', { data: event.data }));
}
