import type { Session } from "@sealwork/contracts";
import { Group } from "@sealwork/core";
import { type Key, type KeyPair, encrypt, exportSymmetricKey, generateSymmetricKey, sealFor, serializeEnvelope, utf8Encode } from "@sealwork/crypto";
import { http } from "./api";

type Who = Pick<Session, "id" | "api_token">;

/** A conversation key and its envelopes, made as the web client makes them. */
export async function conversationKey(): Promise<Key> {
  return generateSymmetricKey();
}

let recipientKey: Promise<KeyPair> | undefined;

/** The conversation key sealed for a participant (one throwaway X25519 key stands in for theirs). */
export async function sealedKey(key: Key): Promise<string> {
  recipientKey ??= crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"]) as Promise<KeyPair>;
  const { publicKey } = await recipientKey;
  return serializeEnvelope(await sealFor(publicKey, await exportSymmetricKey(key), { context: "conversation-key:test" }));
}

/** An `aead` envelope of `text` under the conversation key. */
export async function encrypted(key: Key, text: string): Promise<string> {
  return serializeEnvelope(await encrypt(key, utf8Encode(text)));
}

/** Puts the users in one new group (the placeholder membership), so they may start conversations. */
export async function shareGroup(...users: Who[]): Promise<number> {
  const groupId = await Group.allocateId();
  for (const user of users) await Group.addMember(groupId, user.id);
  return groupId;
}

export async function startConversation(author: Who, recipients: Who[], options: { title?: string; key?: Key } = {}) {
  const key = options.key ?? (await conversationKey());
  const sealed_keys = await Promise.all([author, ...recipients].map(async (u) => ({ user_id: u.id, sealed: await sealedKey(key) })));
  const body = {
    recipient: recipients.length === 1 ? recipients[0]!.id : recipients.map((r) => r.id),
    ...(options.title ? { title: await encrypted(key, options.title) } : {}),
    sealed_keys,
  };
  const reply = await http<{ id: number }>("POST", "/api/conversations", { token: author.api_token, body });
  if (reply.status !== 200) throw new Error(`starting a conversation failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: reply.body.id, key, body: reply.body };
}
