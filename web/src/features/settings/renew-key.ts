import {
  type IdentityChain,
  type SignedIdentity,
  accountPublicKeys,
  generateAccountKeys,
  isCryptoError,
  keyId,
  lockAccountKeys,
  rotateIdentity,
  verifyIdentity,
  wrapAccountKeys,
} from "@sealwork/crypto";
import { registerKeypair } from "../../lib/keypairs";
import { renewConversationKeys } from "../conversations";
import { renewGroupKeys } from "../groups";
import { pinBook, resealPins } from "../../lib/pins";
import { fetchBundle, instanceAnchors } from "../../lib/trust";
import { type UnlockedKeys, setUnlockedKeys } from "../../lib/unlocked-keys";
import { saveLocalKey } from "../../lib/vault";

/**
 * Settings → Advanced, "Renew my key": a rotation of the user's protocol v2 identity
 * (docs/protocol.md §14.3): fresh keys, the next record of their chain certified by the key they
 * hold now, registered in its place; the pins sealed again for the new key (§14.13).
 */

/** Why a user cannot renew their key here. */
export type RenewBlock = "noIdentity" | "notVerified" | "notCurrent";

export type RenewAvailability = { ok: true; current: SignedIdentity } | { ok: false; reason: RenewBlock };

/**
 * Whether `holder` can renew: their chain as the server serves it verifies against their pinned
 * anchors, and its current record is the key they hold (else a rotation would not verify, or
 * would certify a key they do not have).
 */
export async function renewAvailability(holder: UnlockedKeys): Promise<RenewAvailability> {
  const bundle = await fetchBundle(holder.uid, true);
  if (!bundle.chain) return { ok: false, reason: "noIdentity" };
  const chain = bundle.chain as unknown as IdentityChain;
  try {
    const identity = await verifyIdentity(chain, { anchors: await instanceAnchors(holder) });
    if (identity.keyId !== (await keyId(holder.publicKeys))) return { ok: false, reason: "notCurrent" };
  } catch (error) {
    if (!isCryptoError(error)) throw error;
    console.warn("Your own identity does not verify", error);
    return { ok: false, reason: "notVerified" };
  }
  const current = chain.records.at(-1);
  return current ? { ok: true, current } : { ok: false, reason: "noIdentity" };
}

/** How far the renewal of the conversations' and groups' keys is (renewKey). */
export type RenewStep = { what: "conversations" | "groups"; done: number; total: number };

/**
 * The rotation: fresh keys, their record certified by the held key (`rotateIdentity` refuses a
 * `current` that is not the held key's), wrapped under `code`, registered in place of the held
 * key, kept on this device; the next key of every conversation and group this user administers,
 * with their own copy for the new key, while the held key still opens the current one; the pins
 * sealed again for them; then the page switches to them. The pins are read before anything
 * changes, so a failure to read them stops it all.
 */
export async function renewKey(holder: UnlockedKeys, current: SignedIdentity, code: string, progress?: (step: RenewStep) => void): Promise<UnlockedKeys> {
  await pinBook(holder);
  const keys = await generateAccountKeys();
  const identity = await rotateIdentity(current, holder.keys, { created: Date.now() }, keys);
  const envelope = await wrapAccountKeys(keys, code);
  const view = await registerKeypair(holder.uid, keys, envelope, holder.keyId, identity);
  await saveLocalKey(holder.uid, view.id, envelope);
  const next: UnlockedKeys = { uid: holder.uid, keyId: view.id, keys: await lockAccountKeys(keys), publicKeys: await accountPublicKeys(keys) };
  // (Each one that fails is left to another admin; nothing here stops the renewal, which is done.)
  await renewConversationKeys(holder, next, (done, total) => progress?.({ what: "conversations", done, total })).catch((error: unknown) => console.warn("conversations keep their keys", error));
  await renewGroupKeys(holder, next, (done, total) => progress?.({ what: "groups", done, total })).catch((error: unknown) => console.warn("groups keep their keys", error));
  try {
    await resealPins(holder, next);
  } catch (error) {
    // The new key is the server's now: the page holds it even though the pins stayed behind.
    setUnlockedKeys(next);
    throw new PinsLeftBehind({ cause: error });
  }
  setUnlockedKeys(next);
  return next;
}

/** The key was renewed, but the pins could not be sealed again for it (the new key starts a book of its own). */
export class PinsLeftBehind extends Error {
  constructor(options: { cause?: unknown } = {}) {
    super("the key was renewed; the pins were not carried over", options);
    this.name = "PinsLeftBehind";
  }
}
