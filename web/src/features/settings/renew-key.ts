import {
  type AccountKeys,
  type IdentityChain,
  type SignedIdentity,
  type SignedLegacyKey,
  accountPublicKeys,
  createLegacyIdentity,
  generateAccountKeys,
  isCryptoError,
  keyId,
  lockAccountKeys,
  rotateIdentity,
  verifyIdentity,
  verifyLegacyKey,
  wrapAccountKeys,
} from "@sealwork/crypto";
import { call } from "../../lib/api";
import { registerKeypair } from "../../lib/keypairs";
import { renewConversationKeys } from "../conversations";
import { readSoleGroups, renewGroupKeys } from "../groups";
import { pinBook, resealPins } from "../../lib/pins";
import { fetchBundle, instanceAnchors } from "../../lib/trust";
import { type UnlockedKeys, setUnlockedKeys, whileRenewing } from "../../lib/unlocked-keys";
import { saveLocalKey } from "../../lib/vault";

/**
 * Settings → Advanced, "Renew my key": a rotation of the user's protocol v2 identity
 * (docs/protocol.md §14.3): fresh keys, the next record of their chain certified by the key they
 * hold now, registered in its place; the pins sealed again for the new key (§14.13). A version 1
 * account (no identity yet) whose key an administrator certified moves the same way to its first
 * identity record, certified by the v1 key and carrying the certificate (§14.14).
 */

/** Why a user cannot renew their key here (`uncertified`: a version 1 key no administrator certified yet). */
export type RenewBlock = "noIdentity" | "uncertified" | "notVerified" | "notCurrent";

/** What the new key's record continues: the current identity record, or a certified version 1 key (a birth record). */
export type RenewFrom = { kind: "identity"; current: SignedIdentity; anchor: string } | { kind: "legacy"; certificate: SignedLegacyKey; email: string };

export type RenewAvailability = { ok: true; from: RenewFrom } | { ok: false; reason: RenewBlock };

/**
 * Whether `holder` can renew: their chain as the server serves it verifies against their pinned
 * anchors, and its current record is the key they hold (else a rotation would not verify, or
 * would certify a key they do not have). Without a chain, their version 1 key: it must be the key
 * they hold, with an administrator's certificate that verifies against the same anchors.
 */
export async function renewAvailability(holder: UnlockedKeys): Promise<RenewAvailability> {
  const bundle = await fetchBundle(holder.uid, true);
  if (!bundle.chain) return legacyAvailability(holder, bundle.legacy);
  const chain = bundle.chain as unknown as IdentityChain;
  let anchor: string;
  try {
    const identity = await verifyIdentity(chain, { anchors: await instanceAnchors(holder) });
    if (identity.keyId !== (await keyId(holder.publicKeys))) return { ok: false, reason: "notCurrent" };
    anchor = identity.anchor;
  } catch (error) {
    if (!isCryptoError(error)) throw error;
    console.warn("Your own identity does not verify", error);
    return { ok: false, reason: "notVerified" };
  }
  const current = chain.records.at(-1);
  return current ? { ok: true, from: { kind: "identity", current, anchor } } : { ok: false, reason: "noIdentity" };
}

async function legacyAvailability(holder: UnlockedKeys, legacy: Awaited<ReturnType<typeof fetchBundle>>["legacy"]): Promise<RenewAvailability> {
  if (!legacy) return { ok: false, reason: "noIdentity" };
  const held = holder.publicKeys;
  if (legacy.id !== holder.keyId || legacy.encrypt_public !== held.encryptPublic || legacy.sign_public !== held.signPublic) return { ok: false, reason: "notCurrent" };
  if (!legacy.certificate || !legacy.issuer) return { ok: false, reason: "uncertified" };
  const certificate = legacy.certificate as unknown as SignedLegacyKey;
  try {
    await verifyLegacyKey(certificate, { userId: holder.uid, ...held }, legacy.issuer as unknown as IdentityChain, { anchors: await instanceAnchors(holder) });
  } catch (error) {
    if (!isCryptoError(error)) throw error;
    console.warn("The certificate of your key does not verify", error);
    return { ok: false, reason: "notVerified" };
  }
  const user = await call("GET /api/users/{id}", { params: { id: holder.uid } });
  const email = user.email ?? user.phone;
  return email ? { ok: true, from: { kind: "legacy", certificate, email } } : { ok: false, reason: "noIdentity" };
}

/** The new key's record: the next of the chain (certified by the held key), or a v1 account's birth record (certified by the held v1 key). */
async function nextRecord(holder: UnlockedKeys, from: RenewFrom, keys: AccountKeys): Promise<SignedIdentity> {
  const input = { created: Date.now() };
  if (from.kind === "identity") return rotateIdentity(from.current, holder.keys, input, keys);
  return createLegacyIdentity({ userId: holder.uid, email: from.email, certificate: from.certificate, ...input }, keys, holder.keys);
}

/** How far the renewal of the conversations' and groups' keys is (renewKey). */
export type RenewStep = { what: "conversations" | "groups"; done: number; total: number };

/**
 * The rotation: fresh keys, their record certified by the held key (`rotateIdentity` refuses a
 * `current` that is not the held key's, `createLegacyIdentity` a certificate of another key),
 * wrapped under `code`, registered in place of the held key, kept on this device; the next key of
 * every conversation this user administers and every group they are the only administrator of,
 * with their own copy for the new key, while the held key still opens the current one (and, in a
 * group they alone administer, their restricted pages' and drive items' keys, read before the new
 * key is registered, sealed for it); the pins
 * sealed again for them; then the page switches to them. The pins and those groups are read before anything
 * changes, so a failure to read them stops it all.
 */
export function renewKey(holder: UnlockedKeys, from: RenewFrom, code: string, progress?: (step: RenewStep) => void): Promise<UnlockedKeys> {
  // The server's newer key is this page's own doing: the key watch must not drop the held one meanwhile.
  return whileRenewing(() => renewHeldKey(holder, from, code, progress));
}

async function renewHeldKey(holder: UnlockedKeys, from: RenewFrom, code: string, progress?: (step: RenewStep) => void): Promise<UnlockedKeys> {
  await pinBook(holder);
  // What only this user can carry over to the new key, read with the held one before it moves (a failure stops it all, as the pins').
  const sole = await readSoleGroups(holder);
  const keys = await generateAccountKeys();
  const identity = await nextRecord(holder, from, keys);
  // The new key's backup is bound to the anchor its identity rests on (the current chain's, or the certificate's for a v1 key's move).
  const anchor = from.kind === "identity" ? from.anchor : from.certificate.record.anchor;
  const envelope = await wrapAccountKeys(keys, code, undefined, { anchor });
  const view = await registerKeypair(holder.uid, keys, envelope, holder.keyId, identity);
  await saveLocalKey(holder.uid, view.id, envelope);
  const next: UnlockedKeys = { uid: holder.uid, keyId: view.id, keys: await lockAccountKeys(keys), publicKeys: await accountPublicKeys(keys) };
  // The pins first: what the renewals below remember (log heads, contacts) goes into the carried
  // book, whichever key they name, instead of a new key's empty book that the carried one would
  // then overwrite, or be refused for (lib/pins.ts, the count of saves).
  const pinsLeft = await resealPins(holder, next).then(
    () => null,
    (error: unknown) => new PinsLeftBehind({ cause: error }),
  );
  // (Each one that fails is left to another admin; nothing here stops the renewal, which is done.)
  await renewConversationKeys(holder, next, (done, total) => progress?.({ what: "conversations", done, total })).catch((error: unknown) => console.warn("conversations keep their keys", error));
  await renewGroupKeys(sole, holder, next, (done, total) => progress?.({ what: "groups", done, total })).catch((error: unknown) => console.warn("groups keep their keys", error));
  // The new key is the server's now: the page holds it, even when the pins stayed behind.
  setUnlockedKeys(next);
  if (pinsLeft) throw pinsLeft;
  return next;
}

/** The key was renewed, but the pins could not be sealed again for it (the new key starts a book of its own). */
export class PinsLeftBehind extends Error {
  constructor(options: { cause?: unknown } = {}) {
    super("the key was renewed; the pins were not carried over", options);
    this.name = "PinsLeftBehind";
  }
}
