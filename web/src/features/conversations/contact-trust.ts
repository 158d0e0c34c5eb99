import { safetyNumber } from "@sealwork/crypto";
import { queryOptions, useQueries, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { subscribePins } from "../../lib/pins";
import { queryKeys } from "../../lib/query-keys";
import { type Contact, type TrustError, contactKey, isTrustError, setVerified } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";

/**
 * The people of a conversation as this client trusts their keys (lib/trust.ts): each identity
 * verified to the pinned anchors and checked against its pin, their safety numbers, and the
 * verified mark kept in the pins.
 */

export function contactQuery(me: UnlockedKeys, uid: number) {
  return queryOptions({
    queryKey: queryKeys.identities.contact(me.uid, uid),
    queryFn: (): Promise<Contact> => contactKey(me, uid),
    // A refusal is the answer (the warning), not a hiccup to retry.
    retry: (count, error) => !isTrustError(error) && count < 2,
    staleTime: 60_000,
  });
}

export function safetyNumberQuery(me: UnlockedKeys, contact: Contact) {
  return queryOptions({
    queryKey: queryKeys.identities.safetyNumber(me.uid, contact.userId, contact.keyId),
    queryFn: () => safetyNumber({ userId: me.uid, ...me.publicKeys }, contact),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * The other members' keys (not the guest of a pickup, who has no account key) and the first
 * refusal among them that blocks the conversation: a key changed without a valid chain, or older
 * than pinned.
 */
export function useContactsTrust(me: UnlockedKeys | null, uids: number[]) {
  const client = useQueryClient();
  useEffect(() => subscribePins(() => void client.invalidateQueries({ queryKey: queryKeys.identities.all() })), [client]);
  const others = me ? [...new Set(uids)].filter((uid) => uid !== me.uid && uid > 0) : [];
  const results = useQueries({ queries: me ? others.map((uid) => contactQuery(me, uid)) : [] });
  const contacts = new Map<number, { contact?: Contact; error?: unknown }>();
  others.forEach((uid, index) => contacts.set(uid, { contact: results[index]?.data, error: results[index]?.error ?? undefined }));
  const blocking = [...contacts.values()].map((entry) => entry.error).find((error): error is TrustError => isTrustError(error, "untrusted_key", "stale_key")) ?? null;
  return { contacts, blocking };
}

export async function markVerified(me: UnlockedKeys, contact: Contact, verified: boolean): Promise<void> {
  await setVerified(me, contact.userId, contact.keyId, verified);
}
