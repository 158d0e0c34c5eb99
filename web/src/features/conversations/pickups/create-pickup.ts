import type { Body } from "@sealwork/contracts";
import {
  generatePickupCode,
  generatePickupLinkSecret,
  generatePickupSecurityCode,
  pickupLink,
  pickupLookup,
  sealPickup,
} from "@sealwork/crypto";
import { call } from "../../../lib/api";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { appendMessage, newLocalid } from "../append-message";
import { newConversationKey } from "../conversation-crypto";
import { sealMessage } from "../message-crypto";
import { type KeptSecrets, keepSecrets } from "./kept-secrets";

export interface NewPickupInput {
  title: string;
  email: string;
  message: string;
  expiredays: number;
  /** Keep code and security code beyond this session (localStorage). */
  remember: boolean;
  /**
   * No link secret, so the guest can type the code on the login screen; then the security code
   * is all that protects the pickup from someone holding the database (docs/protocol.md).
   */
  codeOnly?: boolean;
  /**
   * The creator passes the link on (copy, or their own mail program): the link, and with it the
   * code and the link secret, never reach the server, which mails a notice without it.
   */
  sendMyself?: boolean;
}

export interface CreatedPickup extends KeptSecrets {
  conversationId: number;
  link: string;
  /** Whether the creator sends the link (else the server mailed it). */
  sendMyself: boolean;
}

/**
 * The creator's side of docs/protocol.md, Pickups, step 1: the reserved conversation id; a
 * conversation key; code, security code and link secret; `sealPickup` seals the key for the
 * creator like any conversation's, wraps it for the guest (`pickup-wrap`, Argon2id with the
 * default parameters: the slow part) and encrypts the title, both bound to the id; the lookup;
 * and the link the server mails (left out of the body when the creator sends it themselves).
 * Nothing here has left the browser yet.
 */
export async function preparePickup(unlocked: UnlockedKeys, instanceName: string, input: NewPickupInput, appUrl = window.location.origin) {
  const secrets: KeptSecrets = { code: generatePickupCode(), securityCode: generatePickupSecurityCode(), linkSecret: input.codeOnly ? null : generatePickupLinkSecret() };
  const { id } = await call("POST /api/conversations/reserve");
  const key = await newConversationKey(id);
  const sealed = await sealPickup({ conversationId: id, conversationKey: key, creatorPublic: unlocked.publicKeys.encryptPublic, secrets, title: input.title.trim() });
  const link = pickupLink(appUrl, secrets.code, secrets.linkSecret);
  const body: Body<"POST /api/pickup"> = {
    conversation_id: id,
    email: input.email.trim(),
    expiredays: input.expiredays,
    ...(sealed.title ? { title: sealed.title } : {}),
    lookup: await pickupLookup(secrets.code, instanceName),
    verifier: sealed.verifier,
    wrapped: sealed.wrapped,
    sealed: sealed.sealed,
    ...(input.sendMyself ? {} : { link }),
  };
  return { body, key, secrets, link };
}

export type PreparedPickup = Awaited<ReturnType<typeof preparePickup>>;

/**
 * POST /api/pickup, then the message as the conversation's first ordinary message. The secrets
 * are kept before the message goes, so a failed message still leaves the pickup readable here.
 */
export async function sendPickup(unlocked: UnlockedKeys, prepared: PreparedPickup, input: NewPickupInput): Promise<CreatedPickup> {
  const created = await call("POST /api/pickup", { body: prepared.body });
  const conversationId = created.conversation_id;
  // Everything was sealed for the reserved id; a message for another one would not open.
  if (conversationId !== prepared.body.conversation_id) throw new Error(`the server created conversation ${conversationId}, not the reserved ${prepared.body.conversation_id}`);
  keepSecrets(conversationId, prepared.secrets, input.remember);
  const text = input.message.trim();
  if (text) {
    const localid = newLocalid();
    const payload = await sealMessage(prepared.key, conversationId, unlocked.uid, localid, { text });
    await appendMessage(conversationId, localid, payload);
  }
  return { ...prepared.secrets, conversationId, link: prepared.link, sendMyself: Boolean(input.sendMyself) };
}

/**
 * A mailto: address that opens the creator's own mail program with the link (never the security
 * code), for a pickup whose link they send themselves.
 */
export function pickupMailto(to: string, subject: string, body: string): string {
  const address = encodeURIComponent(to.trim()).replace(/%40/g, "@");
  return `mailto:${address}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
