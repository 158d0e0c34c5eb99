import { INVITATION_CODE_ALPHABET, tempKeypairRecord, type NewInvite } from "@sealwork/contracts";
import { type AccountKeys, accountPublicKeys, generateAccountKeys, signRecord, wrapAccountKeys } from "@sealwork/crypto";
import { http, uniqueEmail } from "./api";
import { FAST_ARGON2ID } from "./keys";

/** A random invitation code, as the administrator's browser makes it. */
export function invitationCode(): string {
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => INVITATION_CODE_ALPHABET[b & 31]).join("");
}

/**
 * Temporary keys as an administrator's browser makes them for an invitation or a key reset: the
 * keys, the code, the transit envelope (the keys wrapped under the code) and the public halves
 * signed over `tempKeypairRecord`.
 */
export async function tempKeyBody(code = invitationCode()) {
  const keys = await generateAccountKeys();
  const pub = await accountPublicKeys(keys);
  const timestamp = Math.floor(Date.now() / 1000);
  const transit = await wrapAccountKeys(keys, code, FAST_ARGON2ID);
  const signature = await signRecord(keys.sign.privateKey, tempKeypairRecord({ ...pub, timestamp }));
  const public_key = { encrypt_public: pub.encryptPublic, sign_public: pub.signPublic, signature: { ...signature }, timestamp };
  return { keys, code, public_key, transit: { ...transit } };
}

/** An invite body made the way the web client makes it (temporary keys, transit, signature). */
export async function newInviteBody(
  changes: Partial<NewInvite> = {},
  options: { code?: string } = {},
): Promise<{ body: NewInvite; keys: AccountKeys; code: string }> {
  const { keys, code, public_key, transit } = await tempKeyBody(options.code);
  return {
    body: { email: uniqueEmail("invitee"), groups: [], roles: {}, sendEmail: true, message: "Welcome aboard", public_key, transit, ...changes },
    keys,
    code,
  };
}

export interface CreatedInvite {
  account: { id: number; email: string };
  keypair: { id: number; type: string };
  transit: { id: number; expires_at: number };
}

/** Invites through the API as the given administrator; throws unless it succeeds. */
export async function invite(token: string, changes: Partial<NewInvite> = {}) {
  const made = await newInviteBody(changes);
  const reply = await http<CreatedInvite>("POST", "/api/instance/invite", { token, body: made.body });
  if (reply.status !== 200) throw new Error(`invite failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { ...made, created: reply.body };
}
