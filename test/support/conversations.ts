import type { Session } from "@sealwork/contracts";
import {
  type Key,
  type KeyPair,
  LEGACY_CONVERSATION_KEY_CONTEXT,
  LEGACY_CONVERSATION_TITLE_AAD,
  encrypt,
  exportSymmetricKey,
  generateSymmetricKey,
  importEncryptionPublicKey,
  sealConversationKey,
  sealConversationTitle,
  sealFor,
  sealMessage,
  serializeEnvelope,
  utf8Encode,
} from "@sealwork/crypto";
import { adminSession, http } from "./api";

/** Conversation records as the web client makes them, with the crypto package's record functions (docs/protocol.md, Conversations). */

type Who = Pick<Session, "id" | "api_token">;

/** A conversation key. */
export async function conversationKey(): Promise<Key> {
  return generateSymmetricKey();
}

let standIn: Promise<KeyPair> | undefined;

/** One throwaway X25519 public key that stands in for participants' keys. */
export async function standInKey(): Promise<Key> {
  standIn ??= crypto.subtle.generateKey({ name: "X25519" }, false, ["deriveBits"]) as Promise<KeyPair>;
  return (await standIn).publicKey;
}

/** The conversation key sealed for a participant of `conversationId` (the stand-in key). */
export async function sealedKey(key: Key, conversationId: number): Promise<string> {
  return sealConversationKey(key, await standInKey(), { conversationId });
}

/** The registered X25519 key of a user (they made it in a browser). */
async function registeredKey(user: Who): Promise<string> {
  const brief = await http<{ id: number | null }>("GET", `/api/keypairs?fetch_only=1&uid=${user.id}`, { token: user.api_token });
  if (brief.status !== 200 || !brief.body.id) throw new Error(`user ${user.id} has no key yet: ${JSON.stringify(brief.body)}`);
  const record = await http<{ encrypt_public: string }>("GET", `/api/keypairs/${brief.body.id}`, { token: user.api_token });
  return record.body.encrypt_public;
}

/** The conversation key sealed for a user's real registered X25519 key. */
export async function sealedKeyFor(key: Key, user: Who, conversationId: number): Promise<string> {
  return sealConversationKey(key, await registeredKey(user), { conversationId });
}

/** A title as the web client encrypts it. */
export function encryptedTitle(key: Key, conversationId: number, title: string): Promise<string> {
  return sealConversationTitle(key, title, { conversationId });
}

/** A message payload (`{ text }`) as the web client encrypts it. */
export function encryptedMessage(key: Key, conversationId: number, sourceId: number, localid: string, text: string): Promise<string> {
  return sealMessage(key, { conversationId, senderId: sourceId, localid }, { text });
}

/**
 * An `aead` envelope of `text` under the conversation key, bound to nothing: what the server
 * cannot tell from a message or a title, for tests of the server alone. A client cannot read it
 * as either; records a client reads are made with encryptedMessage and encryptedTitle.
 */
export async function encrypted(key: Key, text: string): Promise<string> {
  return serializeEnvelope(await encrypt(key, utf8Encode(text)));
}

/**
 * A key copy and a title as protocol v1 made them, before the conversation id was bound (the crypto
 * package's legacy constants): for tests that such conversations keep opening.
 */
async function sealedKeyV1(key: Key, recipient: Key | string): Promise<string> {
  const publicKey = typeof recipient === "string" ? await importEncryptionPublicKey(recipient) : recipient;
  return serializeEnvelope(await sealFor(publicKey, await exportSymmetricKey(key), { context: LEGACY_CONVERSATION_KEY_CONTEXT }));
}

async function encryptedTitleV1(key: Key, title: string): Promise<string> {
  return serializeEnvelope(await encrypt(key, utf8Encode(title), { aad: LEGACY_CONVERSATION_TITLE_AAD }));
}

/** Puts the users in one new group (made by the first administrator, a super administrator, over the API), so they may start conversations. */
export async function shareGroup(...users: Who[]): Promise<number> {
  const admin = await adminSession();
  const reply = await http<{ id: number }>("POST", "/api/groups", { token: admin.api_token, body: { name: "Shared group", members: users.map((u) => u.id) } });
  if (reply.status !== 200) throw new Error(`creating a group failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id;
}

/** POST /api/conversations/reserve: a conversation id for `who` to create. */
export async function reserveConversation(who: Pick<Session, "api_token">): Promise<number> {
  const reply = await http<{ id: number }>("POST", "/api/conversations/reserve", { token: who.api_token });
  if (reply.status !== 200) throw new Error(`reserving a conversation id failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id;
}

/**
 * Starts a conversation over the API, sealing for the reserved id; `realKeys` seals for the users'
 * registered keys instead of a stand-in; `v1` makes the key copies and title as protocol v1 did.
 */
export async function startConversation(author: Who, recipients: Who[], options: { title?: string; key?: Key; realKeys?: boolean; v1?: boolean } = {}) {
  const key = options.key ?? (await conversationKey());
  const id = await reserveConversation(author);
  const publicKey = (u: Who): Promise<Key | string> => (options.realKeys ? registeredKey(u) : standInKey());
  const seal = async (u: Who) => (options.v1 ? sealedKeyV1(key, await publicKey(u)) : sealConversationKey(key, await publicKey(u), { conversationId: id }));
  const sealed_keys = await Promise.all([author, ...recipients].map(async (u) => ({ user_id: u.id, sealed: await seal(u) })));
  const title = options.title ? await (options.v1 ? encryptedTitleV1(key, options.title) : encryptedTitle(key, id, options.title)) : undefined;
  const body = {
    id,
    recipient: recipients.length === 1 ? recipients[0]!.id : recipients.map((r) => r.id),
    ...(title ? { title } : {}),
    sealed_keys,
  };
  const reply = await http<{ id: number }>("POST", "/api/conversations", { token: author.api_token, body });
  if (reply.status !== 200) throw new Error(`starting a conversation failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: reply.body.id, key, body: reply.body };
}
