import {
  type AccountKeys,
  type IdentityChain,
  type SecureCodeWrapEnvelope,
  type SignedIdentity,
  type SignedKeyReset,
  createInvitedIdentity,
  createResetIdentity,
  createRootIdentity,
  isCryptoError,
  parseSignedInvitation,
  parseSignedKeyReset,
  verifyInvitation,
  verifyKeyReset,
} from "@sealwork/crypto";
import { call } from "../../lib/api";
import { TEST_CHECKS, checkOff } from "../../lib/build-settings";
import { browserAnchors } from "../../lib/pins";
import { getSession } from "../../lib/session";
import { fetchAnchors, fetchBundle, instanceAnchors, pinLegacyRule } from "../../lib/trust";
import type { UnlockedKeys } from "../../lib/unlocked-keys";
import { offerCertification } from "./certify-offer";
import { KeyFlowError, type KeyErrorCode, step } from "./key-errors";
import { WRONG_CODE, open } from "./open-envelope";

/**
 * The key popup's protocol v2 steps (docs/protocol.md §14): the setup administrator's root
 * identity, the invitee's birth record at takeover, and, once keys are unlocked, the anchors
 * pinned at first use, the migration of the setup administrator's v1 key to a root (with the offer
 * to certify the version 1 keys), and the instance's legacy rule pinned once its root published it.
 */

/** The root identity to register with the setup administrator's first key, while the instance has none. */
export async function rootForFirstKey(uid: number, keys: AccountKeys): Promise<SignedIdentity | undefined> {
  const { roots, setup_user_id } = await call("GET /api/identities/anchors");
  const email = getSession()?.email;
  if (uid !== setup_user_id || roots.length > 0 || !email) return undefined;
  return createRootIdentity({ userId: uid, email, created: Date.now() }, keys);
}

/**
 * After the keys are unlocked: the setup administrator whose key is from protocol v1 publishes a
 * root identity for it (the migration, docs/protocol.md §14.13), and the instance anchors are
 * pinned at first use (or the ones a takeover checked its invitation against).
 */
export async function afterUnlock(holder: UnlockedKeys, firstSeen?: string[]): Promise<void> {
  const answer = await call("GET /api/identities/anchors");
  const { roots, setup_user_id } = answer;
  const email = getSession()?.email;
  const publishRoot = holder.uid === setup_user_id && roots.length === 0 && email;
  if (publishRoot) {
    const identity = await createRootIdentity({ userId: holder.uid, email, created: Date.now() }, holder.keys);
    await call("POST /api/identities", { body: { identity: { ...identity } } });
  }
  await instanceAnchors(holder, firstSeen);
  await pinLegacyRule(holder, answer);
  // Now that the root can certify: the keys from version 1 waiting for it (an offer only, never a reason to stop).
  if (publishRoot) await offerCertification(holder.uid).catch((error: unknown) => console.warn("Listing the keys from version 1 failed", error));
}

/** The roots a backup is opened with: `shown` by the server, and `tried`, those and the ones this browser remembers. */
export interface BackupAnchors {
  shown: readonly string[];
  tried: readonly string[];
}

/**
 * The roots the server shows, each checked to be a self-signed root: the backup of a key with an
 * identity is bound to one of them (docs/protocol.md §14.10, "The anchor in the backup"), which
 * opening it finds. Tried with them, the anchors this browser pinned before, so that a root the
 * server withholds is told from a wrong code (anchorOf). SYNA when they cannot be asked for.
 */
export async function backupAnchors(): Promise<BackupAnchors> {
  const shown = await step("SYNA", () => fetchAnchors());
  // Test build only, "backup-anchor-shown" off: the roots shown alone.
  const remembered = TEST_CHECKS && checkOff("backup-anchor-shown") ? [] : browserAnchors();
  return { shown, tried: [...new Set([...shown, ...remembered])] };
}

/**
 * The anchor an opened backup was bound to, for afterUnlock to pin at first use instead of what
 * the server shows (undefined: bound to none). The code was right, so a backup bound to a root
 * this browser remembers but the server did not show is the server withholding the instance's
 * root: refused (ANWH), not taken as a wrong code. Test build only, "backup-anchor" off: never.
 */
function anchorOf(opened: { anchor: string | null }, anchors: BackupAnchors): string[] | undefined {
  if (opened.anchor && !anchors.shown.includes(opened.anchor)) throw new KeyFlowError("ANWH");
  if (!opened.anchor || (TEST_CHECKS && checkOff("backup-anchor"))) return undefined;
  return [opened.anchor];
}

/**
 * Opens a key's backup (the device's envelope, the server's backup or a key file) with the code:
 * WRONG_CODE, or the keys and the anchor afterUnlock pins (anchorOf; ANWH for a root withheld).
 */
export async function openBackup(
  envelope: SecureCodeWrapEnvelope,
  code: string,
  codes: { damaged: KeyErrorCode; malformed: KeyErrorCode },
): Promise<{ keys: AccountKeys; pinned: string[] | undefined } | typeof WRONG_CODE> {
  const anchors = await backupAnchors();
  const opened = await open(envelope, code, codes, anchors.tried);
  return opened === WRONG_CODE ? opened : { keys: opened.keys, pinned: anchorOf(opened, anchors) };
}

export interface TakeoverIdentity {
  /** The invitee's birth record (absent for a legacy invitation, which nobody signed). */
  identity?: SignedIdentity;
  /** The anchors the invitation was checked against: pinned once the invitee has keys to keep pins with. */
  anchors?: string[];
  /** Of those, the one the new record rests on (its issuer's): the new key's backup is bound to it. */
  anchor?: string;
}

/**
 * The identity record for the fresh keys that take a temporary key over: after an administrator's
 * key reset, the next record of the user's chain (resetIdentity); otherwise the invitee's birth
 * record (issue 11 item 1): their signed invitation is checked first (signed by an administrator
 * at that key, chaining to the instance's root, not expired: TTIV otherwise), then the record is
 * certified by the temporary key the code opened.
 */
export async function takeoverIdentity(uid: number, fresh: AccountKeys, temp: AccountKeys): Promise<TakeoverIdentity> {
  const { invitation, reset } = await call("GET /api/identities/invitation");
  if (reset) return resetIdentity(uid, reset, fresh, temp);
  if (!invitation) return {};
  try {
    const signed = parseSignedInvitation(invitation);
    const anchors = await fetchAnchors();
    const issuer = await fetchBundle(signed.record.issuerUserId);
    if (!issuer.chain) throw new KeyFlowError("TTIV");
    const { anchor } = await verifyInvitation(signed, issuer.chain as unknown as IdentityChain, { anchors }, Date.now());
    const identity = await createInvitedIdentity({ userId: uid, created: Date.now(), invitation: signed }, fresh, temp);
    return { identity, anchors, anchor };
  } catch (error) {
    if (isCryptoError(error)) throw new KeyFlowError("TTIV", { cause: error });
    throw error;
  }
}

/**
 * The record that continues the user's chain after an administrator reset their key
 * (docs/protocol.md §14.3, "Key resets"): the reset is checked first against the issuer's chain
 * and the instance's anchors, fetched anew as at first use (the user's pins were sealed under the
 * key they lost), then the record replacing their chain's last one is certified by the temporary
 * key the reset code opened. TTRX when the reset has expired, TTRV when it does not verify.
 */
async function resetIdentity(uid: number, answer: unknown, fresh: AccountKeys, temp: AccountKeys): Promise<TakeoverIdentity> {
  let signed: SignedKeyReset | undefined;
  try {
    signed = parseSignedKeyReset(answer);
    const anchors = await fetchAnchors();
    const [issuer, own] = await Promise.all([fetchBundle(signed.record.issuerUserId, true), fetchBundle(uid, true)]);
    if (!issuer.chain) throw new KeyFlowError("TTRV");
    const { anchor } = await verifyKeyReset(signed, uid, issuer.chain as unknown as IdentityChain, { anchors }, Date.now());
    const current = (own.chain as unknown as IdentityChain | null)?.records.at(-1) ?? null;
    const identity = await createResetIdentity({ current, created: Date.now(), reset: signed }, fresh, temp);
    return { identity, anchors, anchor };
  } catch (error) {
    if (!isCryptoError(error)) throw error;
    throw new KeyFlowError(signed && resetExpired(signed) ? "TTRX" : "TTRV", { cause: error });
  }
}

/**
 * The key reset an administrator made for this user, while their current key is its temporary
 * key (null: an invitation's). Only its shape is checked here, to word the popup; it is verified
 * at takeover. TTRX when it has expired.
 */
export async function pendingReset(): Promise<SignedKeyReset | null> {
  const { reset } = await call("GET /api/identities/invitation");
  if (!reset) return null;
  const signed = await step("TTRV", async () => parseSignedKeyReset(reset));
  if (resetExpired(signed)) throw new KeyFlowError("TTRX");
  return signed;
}

/** A key reset past its end: it can no longer be taken over (the user asks for a new one). */
export function resetExpired(reset: SignedKeyReset, now = Date.now()): boolean {
  return now > reset.record.expires;
}
