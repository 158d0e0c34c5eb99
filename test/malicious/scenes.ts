import { type AccountKeys, generateAccountKeys, isCryptoError, openConversationKey, rotateIdentity } from "@sealwork/crypto";
import type { Page } from "playwright-core";
import { http } from "../support/api";
import { shareGroup } from "../support/conversations";
import { type Member, chainOf, invitedMember, rootAdmin } from "../support/identities";
import { TEST_CODE, newKeyBody } from "../support/keys";
import type { Sent } from "../support/malicious-proxy";
import { conversationIdOf } from "../e2e/conversation-helpers";
import { signIn } from "../e2e/helpers";

/** The people and steps the attacks share: certified members, their browser, what went over the wire. */

/** The password registerInvitee (test/support/identities.ts) gives invited members. */
const MEMBER_PASSWORD = "invitee-password-1";

/** Alice and Bob: members with certified identities (invited by the instance's root), in a group together. */
export async function aliceAndBob(): Promise<{ alice: Member; bob: Member }> {
  const root = await rootAdmin();
  const [alice, bob] = [await invitedMember(root), await invitedMember(root)];
  await shareGroup(alice.session, bob.session);
  return { alice, bob };
}

/** Signs `member` in on the page (their key recovered from the server's backup with the code it was made with). */
export async function signInAs(page: Page, member: Member): Promise<void> {
  await signIn(page, member.email, MEMBER_PASSWORD, TEST_CODE);
}

/** The New Conversation screen: one person by email and a title, then Start. */
export async function startConversationWith(page: Page, email: string, title: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "New Conversation" }).click();
  await page.getByLabel("Email or phone").fill(email);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await page.getByLabel("Title (optional)").fill(title);
  await page.getByRole("button", { name: "Start conversation" }).click();
}

/** startConversationWith, waiting for the new conversation's page; answers its id. */
export async function conversationWith(page: Page, email: string, title: string): Promise<number> {
  await startConversationWith(page, email, title);
  await page.waitForURL(/\/conversation\/\d+$/, { timeout: 30_000 });
  return conversationIdOf(page);
}

/** Rotates a member's identity to fresh keys (seq + 1, certified by the current key), as the server accepts it; answers the new keys. */
export async function rotate(member: Member): Promise<AccountKeys> {
  const current = (await chainOf(member.session.api_token, member.session.id)).chain!.records.at(-1)!;
  const keys = await generateAccountKeys();
  const identity = await rotateIdentity(current, member.keys, { created: Date.now() }, keys);
  const { body } = await newKeyBody(member.session.id, member.keyId, { keys });
  const reply = await http("POST", "/api/keypairs", { token: member.session.api_token, body: { ...body, identity } });
  if (reply.status !== 200) throw new Error(`rotation failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return keys;
}

/** A conversation key copy the browser sent: at creation (POST /api/conversations) or adding someone (…/participate). */
export interface SentCopy {
  conversationId: number;
  userId: number;
  sealed: string;
}

export function sentCopies(sent: Sent[]): SentCopy[] {
  return sent.flatMap((request): SentCopy[] => {
    const body = request.body as { id?: number; sealed_keys?: { user_id: number; sealed: string }[]; participant?: number; sealed?: string } | undefined;
    if (request.method === "POST" && request.path === "/api/conversations" && body?.id && body.sealed_keys) {
      return body.sealed_keys.map((copy) => ({ conversationId: body.id!, userId: copy.user_id, sealed: copy.sealed }));
    }
    const added = /^\/api\/conversations\/(\d+)\/participate$/.exec(request.path);
    if (request.method === "POST" && added && body?.participant && body.sealed) return [{ conversationId: Number(added[1]), userId: body.participant, sealed: body.sealed }];
    return [];
  });
}

/** The copies among `copies` that open with `keys` (as their holder would open them): what that key holder can read. */
export async function openedBy(copies: SentCopy[], keys: AccountKeys): Promise<SentCopy[]> {
  const opens = await Promise.all(
    copies.map((copy) =>
      openConversationKey(copy.sealed, keys.encrypt, { conversationId: copy.conversationId }).then(
        () => true,
        (error: unknown) => {
          if (isCryptoError(error, "decrypt_failed")) return false;
          throw error;
        },
      ),
    ),
  );
  return copies.filter((_, i) => opens[i]);
}
