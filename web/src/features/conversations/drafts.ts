import { useSyncExternalStore } from "react";
import { dropKeysIfMoved } from "../../lib/keypairs";
import { getSession, subscribeSession } from "../../lib/session";
import { getUnlockedKeys } from "../../lib/unlocked-keys";
import type { FileRef } from "./attachments/file-ref";
import type { KeyHolder } from "./conversation-crypto";
import type { MessagePayload } from "./message-crypto";

/**
 * What the user wrote in a message bar and has not sent (text and chosen files), per bar, in this
 * page's memory only. It outlives the bar: when the account's key moves (renewed in another
 * browser, reset by an administrator) the key popup takes the screen's place until the new key is
 * loaded (features/keys, key-gate.tsx), and the bar comes back with what it held. A message whose
 * send failed for that reason goes back into it too, to be sent with the new key: a message is
 * never silently gone.
 */
export interface Draft {
  text: string;
  files: FileRef[];
}

const EMPTY: Draft = { text: "", files: [] };
const drafts = new Map<string, Draft>();
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Which bar a draft belongs to: a conversation's, or a group's own conversation's. */
export const draftKeys = {
  conversation: (id: number) => `conversation:${id}`,
  group: (id: number) => `group:${id}`,
};

export function useDraft(key: string): Draft {
  return useSyncExternalStore(subscribe, () => drafts.get(key) ?? EMPTY);
}

/** Changes a bar's draft from what it holds now (an upload may end while the user types). */
export function updateDraft(key: string, change: (draft: Draft) => Draft): void {
  const draft = change(drafts.get(key) ?? EMPTY);
  if (draft.text === "" && draft.files.length === 0) drafts.delete(key);
  else drafts.set(key, draft);
  emit();
}

/**
 * After a failed send: whether the key it was signed with is gone because the account's key moved
 * on. The server may have said so (`sender_key_stale`: lib/api.ts dropped the keys), or the send
 * met something else: the conversation's next epoch, which the renewal in the other browser
 * started, sealed for a key of one's own this page does not hold (`epoch_stale`, then `key_moved`).
 * So any failure looks up the account's current key once (a guest holds no account key).
 */
export async function sentByMovedKey(holder: KeyHolder): Promise<boolean> {
  if (!("keyId" in holder)) return false;
  if (getUnlockedKeys()?.keyId === holder.keyId) {
    await dropKeysIfMoved(holder.keyId).catch((error: unknown) => console.warn("Could not check whether the key is current", error));
  }
  return getUnlockedKeys()?.keyId !== holder.keyId;
}

/** A message whose send failed because the key moved (`sentByMovedKey`) goes back into its bar, before what was typed since. */
export function returnToDraft(key: string, payload: MessagePayload | null): void {
  if (!payload) return;
  const files = payload.files ?? [];
  updateDraft(key, (typed) => ({
    text: [payload.text ?? "", typed.text].filter((text) => text.trim() !== "").join("\n\n"),
    files: [...files, ...typed.files.filter((file) => !files.some((f) => f.id === file.id))],
  }));
}

// Drafts belong to one signed-in user: a logout or another user's session drops them.
let owner = getSession()?.id ?? null;
subscribeSession(() => {
  const id = getSession()?.id ?? null;
  if (id === owner) return;
  owner = id;
  drafts.clear();
  emit();
});
