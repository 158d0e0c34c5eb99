import { KEY_RESET_DAYS, type Session } from "@sealwork/contracts";
import {
  type AccountKeys,
  type SignedIdentity,
  type SignedKeyReset,
  accountPublicKeys,
  createKeyReset,
  createResetIdentity,
  generateAccountKeys,
  parseEnvelope,
  unwrapAccountKeys,
} from "@sealwork/crypto";
import { http } from "./api";
import { type Member, chainOf } from "./identities";
import { tempKeyBody } from "./invites";
import { newKeyBody } from "./keys";

/**
 * Key resets through the API, made the way the web client makes them (docs/protocol.md §14.3, "Key
 * resets"): the administrator's browser makes temporary keys and signs the reset, the user takes
 * it over with fresh keys.
 */

type Json = Record<string, unknown>;
const DAY_MS = 86_400_000;

export interface NewKeyReset {
  body: { public_key: Awaited<ReturnType<typeof tempKeyBody>>["public_key"]; transit: Json; reset: Json };
  temp: AccountKeys;
  code: string;
  reset: SignedKeyReset;
}

/**
 * A reset of `userId`'s key signed by `issuer`: temporary keys wrapped under a new code, the reset
 * naming the user's current identity record (null for an account without one, `email` then its
 * address) and ending `expires` (ms; KEY_RESET_DAYS from now unless given).
 */
export async function newKeyReset(issuer: Member, target: { userId: number; current: SignedIdentity | null; email?: string }, options: { expires?: number } = {}): Promise<NewKeyReset> {
  const temp = await tempKeyBody();
  const reset = await createKeyReset(
    { ...target, temp: await accountPublicKeys(temp.keys), expires: options.expires ?? Date.now() + KEY_RESET_DAYS * DAY_MS },
    issuer.me,
  );
  return { body: { public_key: temp.public_key, transit: temp.transit, reset: { ...reset } }, temp: temp.keys, code: temp.code, reset };
}

/** The user's current identity record as the server serves it (null without a chain). */
export async function currentIdentity(token: string, uid: number): Promise<SignedIdentity | null> {
  const { chain } = await chainOf(token, uid);
  return chain?.records.at(-1) ?? null;
}

/**
 * What the user's key popup does: the pending reset (GET /api/identities/invitation), the transit
 * envelope opened with the code, fresh keys and the record the reset certifies. Answers the
 * registration body (not sent) and the keys.
 */
export async function resetTakeover(session: Pick<Session, "id" | "api_token">, tempId: number, code: string, current: SignedIdentity | null) {
  const pending = await http<{ reset: SignedKeyReset | null }>("GET", "/api/identities/invitation", { token: session.api_token });
  if (!pending.body.reset) throw new Error(`no pending reset: ${pending.status} ${JSON.stringify(pending.body)}`);
  const transit = await http<{ recover: Json }>("POST", `/api/keypairs/${tempId}/recover`, { token: session.api_token });
  if (transit.status !== 200) throw new Error(`recover: ${transit.status} ${JSON.stringify(transit.body)}`);
  const temp = await unwrapAccountKeys(parseEnvelope(transit.body.recover, "secure-code-wrap"), code);
  const keys = await generateAccountKeys();
  const identity = await createResetIdentity({ current, created: Date.now(), reset: pending.body.reset }, keys, temp);
  const { body } = await newKeyBody(session.id, tempId, { keys });
  return { body: { ...body, identity }, keys, temp, reset: pending.body.reset };
}
