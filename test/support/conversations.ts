import type { Session } from "@sealwork/contracts";
import { Group } from "@sealwork/core";
import {
  type Key,
  type KeyPair,
  encrypt,
  exportSymmetricKey,
  generateSymmetricKey,
  importEncryptionPublicKey,
  sealFor,
  serializeEnvelope,
  utf8Encode,
} from "@sealwork/crypto";
import { http } from "./api";

/** The web client's conventions (docs/protocol.md, Conversations). */
export const CONVERSATION_KEY_CONTEXT = "conversation-key:0";
export const TITLE_AAD = "conversation-title";
export const messageAad = (conversationId: number, sourceId: number, localid: string) => `message:${conversationId}:${sourceId}:${localid}`;

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
  return serializeEnvelope(await sealFor(publicKey, await exportSymmetricKey(key), { context: CONVERSATION_KEY_CONTEXT }));
}

/** The conversation key sealed for a user's real registered X25519 key (they made it in a browser). */
export async function sealedKeyFor(key: Key, user: Who): Promise<string> {
  const brief = await http<{ id: number | null }>("GET", `/api/keypairs?fetch_only=1&uid=${user.id}`, { token: user.api_token });
  if (brief.status !== 200 || !brief.body.id) throw new Error(`user ${user.id} has no key yet: ${JSON.stringify(brief.body)}`);
  const record = await http<{ encrypt_public: string }>("GET", `/api/keypairs/${brief.body.id}`, { token: user.api_token });
  const publicKey = await importEncryptionPublicKey(record.body.encrypt_public);
  return serializeEnvelope(await sealFor(publicKey, await exportSymmetricKey(key), { context: CONVERSATION_KEY_CONTEXT }));
}

/** A title as the web client encrypts it. */
export async function encryptedTitle(key: Key, title: string): Promise<string> {
  return serializeEnvelope(await encrypt(key, utf8Encode(title), { aad: TITLE_AAD }));
}

/** A message payload (`{ text }`) as the web client encrypts it. */
export async function encryptedMessage(key: Key, conversationId: number, sourceId: number, localid: string, text: string): Promise<string> {
  return serializeEnvelope(await encrypt(key, utf8Encode(JSON.stringify({ text })), { aad: messageAad(conversationId, sourceId, localid) }));
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

/** POST /api/conversations/reserve: a conversation id for `who` to create. */
export async function reserveConversation(who: Pick<Session, "api_token">): Promise<number> {
  const reply = await http<{ id: number }>("POST", "/api/conversations/reserve", { token: who.api_token });
  if (reply.status !== 200) throw new Error(`reserving a conversation id failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id;
}

/** Starts a conversation over the API; `realKeys` seals for the users' registered keys instead of a stand-in. */
export async function startConversation(author: Who, recipients: Who[], options: { title?: string; key?: Key; realKeys?: boolean } = {}) {
  const key = options.key ?? (await conversationKey());
  const seal = (u: Who) => (options.realKeys ? sealedKeyFor(key, u) : sealedKey(key));
  const sealed_keys = await Promise.all([author, ...recipients].map(async (u) => ({ user_id: u.id, sealed: await seal(u) })));
  const body = {
    id: await reserveConversation(author),
    recipient: recipients.length === 1 ? recipients[0]!.id : recipients.map((r) => r.id),
    ...(options.title ? { title: await encryptedTitle(key, options.title) } : {}),
    sealed_keys,
  };
  const reply = await http<{ id: number }>("POST", "/api/conversations", { token: author.api_token, body });
  if (reply.status !== 200) throw new Error(`starting a conversation failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: reply.body.id, key, body: reply.body };
}
