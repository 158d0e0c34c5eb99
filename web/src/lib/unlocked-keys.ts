import type { AccountKeys, AccountPublicKeys } from "@sealwork/crypto";
import { useSyncExternalStore } from "react";
import { getSession, subscribeSession } from "./session";

/**
 * The account keys unlocked for this session, held in memory only: never in localStorage,
 * IndexedDB or anything else that outlives the page. A reload asks for the secure code again.
 */
export interface UnlockedKeys {
  uid: number;
  keyId: number;
  keys: AccountKeys;
  publicKeys: AccountPublicKeys;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let current: UnlockedKeys | null = null;

function emit(): void {
  for (const listener of listeners) listener();
}

export function getUnlockedKeys(): UnlockedKeys | null {
  return current;
}

export function setUnlockedKeys(keys: UnlockedKeys): void {
  current = keys;
  emit();
}

export function clearUnlockedKeys(): void {
  if (!current) return;
  current = null;
  emit();
}

export function subscribeUnlockedKeys(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Keys belong to one signed-in user: a logout or another user's session drops them.
subscribeSession(() => {
  if (current && getSession()?.id !== current.uid) clearUnlockedKeys();
});

export function useUnlockedKeys(): UnlockedKeys | null {
  return useSyncExternalStore(subscribeUnlockedKeys, getUnlockedKeys);
}
