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

export const getUnlockedKeys = store.get;
export const setUnlockedKeys = store.set;
export const clearUnlockedKeys = store.clear;
export const subscribeUnlockedKeys = store.subscribe;
export const useUnlockedKeys = store.use;

// Keys belong to one signed-in user: a logout or another user's session drops them.
subscribeSession(() => {
  const current = store.get();
  if (current && getSession()?.id !== current.uid) store.clear();
});
