import type { AccountKeys, AccountPublicKeys } from "@sealwork/crypto";
import { memoryStore } from "./memory-store";
import { getSession, subscribeSession } from "./session";

/**
 * The account keys unlocked for this session, held in memory only: never in localStorage,
 * IndexedDB or anything else that outlives the page. A reload asks for the secure code again.
 * The private keys are locked (`lockAccountKeys`: not extractable), so nothing in the page can
 * copy them out (docs/protocol.md, "Which keys can be exported").
 */
export interface UnlockedKeys {
  uid: number;
  keyId: number;
  keys: AccountKeys;
  publicKeys: AccountPublicKeys;
}

const store = memoryStore<UnlockedKeys>();
/** Set when the held keys were dropped because the account's key moved on (another browser, a reset). */
const moved = memoryStore<true>();

export const getUnlockedKeys = store.get;
export function setUnlockedKeys(keys: UnlockedKeys): void {
  moved.clear();
  store.set(keys);
}
export const clearUnlockedKeys = store.clear;
export const useKeyMoved = moved.use;

/**
 * The account's current key is no longer the one held here: the user renewed it in another
 * browser or tab, or an administrator reset it. The old keys go (nothing signs or seals with them
 * any more) and the key popup asks for the code again, saying why (docs/protocol.md §12).
 */
export function dropMovedKeys(): void {
  if (!store.get() || renewing) return;
  moved.set(true);
  store.clear();
}

let renewing = false;

/**
 * Runs this page's own renewal of its key (Settings, "Renew my key"): from the new key's
 * registration until the page switches to it, the server names a key this page does not hold yet,
 * and that is no reason to drop the held one (which still opens and signs the containers' next
 * keys meanwhile).
 */
export async function whileRenewing<T>(work: () => Promise<T>): Promise<T> {
  renewing = true;
  try {
    return await work();
  } finally {
    renewing = false;
  }
}
export const subscribeUnlockedKeys = store.subscribe;
export const useUnlockedKeys = store.use;

// Keys belong to one signed-in user: a logout or another user's session drops them.
subscribeSession(() => {
  const current = store.get();
  if (current && getSession()?.id !== current.uid) {
    moved.clear();
    store.clear();
  }
});
