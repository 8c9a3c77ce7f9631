import { del, get, set } from 'idb-keyval';
import type { FormValues } from '../lib/form-fields';
import { allowAddresses, unreachable } from '../lib/page-policy';
import { useAppStore } from './app-store';

/** The request waiting for the page to reopen with its addresses allowed. */
const PENDING_KEY = 'murmur.pending-request';

/**
 * Where a request needs an address the page's policy does not name (a media link or a webhook
 * typed now, a model host changed under Models), the page reopens with it allowed, since a
 * policy can only be narrowed once the page has it. The form (its file too) is kept in
 * IndexedDB meanwhile and sent again as the page opens. Returns false when nothing needed it.
 */
export async function reopenAllowing(values: FormValues): Promise<boolean> {
  const needed = [useAppStore.getState().settings.modelHost, values.url, values.webhook_url]
    .map((address) => address.trim())
    .filter((address) => address !== '');
  const blocked = unreachable(needed);
  if (blocked.length === 0) return false;
  allowAddresses(blocked);
  try {
    await set(PENDING_KEY, values);
  } catch {
    // Storage refused: the page still reopens allowed; the request is made again by hand.
  }
  location.reload();
  return true;
}

/** The request that reopened the page, taken from storage (once). */
export async function takePendingRequest(): Promise<FormValues | null> {
  const pending = await get<FormValues>(PENDING_KEY).catch(() => undefined);
  if (pending === undefined) return null;
  await del(PENDING_KEY).catch(() => undefined);
  return pending;
}
