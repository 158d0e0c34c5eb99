import type { IdentityBundle } from "@sealwork/contracts";
import {
  type IdentityChain,
  type IdentityPin,
  type SignedLegacyKey,
  type SignedLegacyRule,
  type VerifiedIdentity,
  type VerifiedKey,
  checkPin,
  isCryptoError,
  keyId,
  rootAnchor,
  verifyIdentity,
  verifyLegacyKey,
  verifyLegacyRule,
  type SignedIdentity,
} from "@sealwork/crypto";
import { call } from "./api";
import { i18next } from "./i18n";
import { verifyKeypair } from "./keypairs";
import { type Pin, type PinBook, pinBook, updatePins } from "./pins";
import { TEST_CHECKS, checkOff } from "./build-settings";
import { type UnlockedKeys, getUnlockedKeys } from "./unlocked-keys";

/**
 * Whose key is whose, without taking the server's word for it (docs/protocol.md §14, issue 11
 * item 1). Every key this client seals for goes through here: the user's identity chain must
 * verify to the instance anchors this client pinned (verifyIdentity) and agree with the pin it
 * keeps for them (checkPin); a protocol v1 account's key (no identity yet) counts as certified
 * with an administrator's certificate, and is otherwise pinned on first use and shown as not
 * certified, or refused once the instance's root said that v1 keys need a certificate. A key that changed without a valid chain (untrusted_key) or is
 * older than the pinned one (stale_key) is refused with a clear warning.
 */

export type TrustProblem = "untrusted_key" | "stale_key" | "no_key" | "lookup";

/** A contact whose key may not be used, with the text to show (common:trust.*; `text` for a more precise one than the reason's). */
export class TrustError extends Error {
  readonly reason: TrustProblem;
  readonly userId: number;
  constructor(reason: TrustProblem, userId: number, options: { cause?: unknown; text?: "uncertified_key" } = {}) {
    super(i18next.t(`common:trust.${options.text ?? reason}`), { cause: options.cause });
    this.name = "TrustError";
    this.reason = reason;
    this.userId = userId;
  }
}

export function isTrustError(error: unknown, ...reasons: TrustProblem[]): error is TrustError {
  return error instanceof TrustError && (reasons.length === 0 || reasons.includes(error.reason));
}

/** A contact's key as this client trusts it. */
export interface Contact {
  userId: number;
  keyId: string;
  seq: number;
  encryptPublic: string;
  signPublic: string;
  /** Their identity (or their v1 key's certificate) chains to the instance's root (false: a v1 account pinned on first use). */
  certified: boolean;
  /** The user compared safety numbers with them and marked them verified. */
  verified: boolean;
  /**
   * An administrator's key reset certified their key (they lost theirs) after the key this client
   * had pinned or, for someone met for the first time, their current key; and they have not been
   * marked verified since.
   */
  reset: boolean;
  /** Every key of their chain, birth first (the last is this one): what their signatures may be made with. */
  keys: VerifiedKey[];
}

/** How long a bundle handed over in a batch waits for its look-up before it is asked for again. */
const HANDED_MS = 60_000;
const handed = new Map<number, { bundle: IdentityBundle; at: number }>();

/**
 * Bundles the server answered in one batch (a group's members, GET /api/keypairs/target
 * ?type=group): the next look-up of each user takes theirs instead of a request of its own. They
 * are untrusted as any answer is: verified like one when used.
 */
export function handOverBundles(bundles: Iterable<readonly [number, IdentityBundle]>): void {
  const at = Date.now();
  for (const [uid, bundle] of bundles) handed.set(uid, { bundle, at });
}

/**
 * GET /api/identities/{id}, or the bundle a batch handed over for this user a moment ago; `fresh`
 * always asks (a screen that shows the certificates an identity has now, which a handed bundle of
 * up to HANDED_MS ago may lack).
 */
export function fetchBundle(uid: number, fresh = false): Promise<IdentityBundle> {
  const batch = handed.get(uid);
  handed.delete(uid);
  if (batch && !fresh && Date.now() - batch.at < HANDED_MS) return Promise.resolve(batch.bundle);
  return call("GET /api/identities/{id}", { params: { id: uid } });
}

/**
 * The instance's anchors this client pinned; at first use, the root the user's own identity rests
 * on, of those the server shows (ownAnchor), pinned from then on (or `firstSeen`, what an invitee
 * checked their invitation against at takeover). None while the instance has no root (an instance
 * from protocol v1 whose first administrator has not signed in since).
 */
export async function instanceAnchors(holder: UnlockedKeys, firstSeen?: string[]): Promise<string[]> {
  const book = await pinBook(holder);
  if (book.anchors.length > 0) return book.anchors;
  // What an invitee checked their invitation against before they had keys to keep pins with.
  const anchors = firstSeen?.length ? firstSeen : await ownAnchor(holder, await fetchAnchors());
  if (anchors.length === 0) return [];
  return (await updatePins(holder, (latest) => (latest.anchors.length > 0 ? null : { ...latest, anchors }))).anchors;
}

/** The key ids of the roots the server shows, each checked to be a self-signed root (before anything is pinned). */
export async function fetchAnchors(): Promise<string[]> {
  const { roots } = await call("GET /api/identities/anchors");
  return Promise.all(roots.map((root) => rootAnchor(root as unknown as SignedIdentity)));
}

/**
 * Of the roots the server shows, the one the user's own identity rests on (docs/protocol.md
 * §14.10, "First use in a new browser"). The records of the user's chain up to the key they hold
 * are signed by that key or by keys it signed, and each names the key that certified it, down to
 * the root: a server cannot make them rest on a root of its own, so a browser that never saw the
 * user's pins starts from the instance's root, not the server's word. A user without an identity
 * (a protocol version 1 account) takes the roots shown, as before; a chain that does not hold the
 * user's key, or rests on none of the roots shown, is refused (untrusted_key, for the user).
 */
async function ownAnchor(holder: UnlockedKeys, roots: string[]): Promise<string[]> {
  // Test build only (test/malicious): every root the server shows is pinned at first use.
  if (roots.length === 0 || (TEST_CHECKS && checkOff("anchors-own-chain"))) return roots;
  const bundle = await fetchBundle(holder.uid);
  if (!bundle.chain) return roots;
  const chain = bundle.chain as unknown as IdentityChain;
  try {
    const mine = await keyId(holder.publicKeys);
    const ids = await Promise.all(chain.records.map((signed) => keyId(signed.record)));
    const held = ids.indexOf(mine);
    if (chain.userId !== holder.uid || held < 0) throw new TrustError("untrusted_key", holder.uid);
    const { anchor } = await verifyIdentity({ ...chain, records: chain.records.slice(0, held + 1) }, { anchors: roots });
    return [anchor];
  } catch (error) {
    throw trustFailure(error, holder.uid);
  }
}

/**
 * The instance's legacy rule (docs/protocol.md §14.14), pinned once the server shows one signed
 * by a pinned root: from then on this client refuses version 1 keys without a certificate. A rule
 * that does not verify is not pinned (a server can always withhold it; it cannot take it back).
 */
export async function pinLegacyRule(holder: UnlockedKeys, answer: { roots: unknown[]; legacy_rule: unknown }): Promise<void> {
  if (!answer.legacy_rule || (await pinBook(holder)).legacyRule) return;
  try {
    const anchors = await instanceAnchors(holder);
    await verifyLegacyRule(answer.legacy_rule as SignedLegacyRule, answer.roots as SignedIdentity[], { anchors });
  } catch (error) {
    if (!isCryptoError(error)) throw error;
    console.warn("The instance's legacy rule does not verify", error);
    return;
  }
  await updatePins(holder, (book) => (book.legacyRule ? null : { ...book, legacyRule: true }));
}

/** The signed-in user's own identity as the server serves it, verified to their pinned anchors; null when they have none (yet). */
export async function ownIdentity(holder: UnlockedKeys): Promise<VerifiedIdentity | null> {
  const bundle = await fetchBundle(holder.uid);
  if (!bundle.chain) return null;
  try {
    return await verifyIdentity(bundle.chain as unknown as IdentityChain, { anchors: await instanceAnchors(holder) });
  } catch (error) {
    if (!isCryptoError(error)) throw error;
    console.warn("Your own identity does not verify", error);
    return null;
  }
}

/**
 * The signed-in user's own identity when it verifies as an administrator's at the key they hold
 * now (so what they sign with it, an invitation or a key reset, verifies for others); null otherwise.
 */
export async function ownAdminIdentity(holder: UnlockedKeys): Promise<VerifiedIdentity | null> {
  const identity = await ownIdentity(holder);
  return identity?.admin && identity.keyId === (await keyId(holder.publicKeys)) ? identity : null;
}

/**
 * A contact's key for `holder`, checked: their chain and the pin (pinned now when it is the
 * first time). Rejects with a TrustError.
 */
export async function contactKey(holder: UnlockedKeys, uid: number): Promise<Contact> {
  let bundle: IdentityBundle;
  try {
    bundle = await fetchBundle(uid);
  } catch (cause) {
    throw new TrustError("lookup", uid, { cause });
  }
  if (bundle.chain) return certifiedContact(holder, uid, bundle.chain as unknown as IdentityChain);
  if (bundle.legacy) return legacyContact(holder, uid, bundle.legacy);
  throw new TrustError("no_key", uid);
}

/** contactKey for the signed-in user's keys (sealing for someone). */
export function trustedKey(uid: number): Promise<Contact> {
  const holder = getUnlockedKeys();
  if (!holder) return Promise.reject(new Error("the account keys are locked"));
  return contactKey(holder, uid);
}

async function certifiedContact(holder: UnlockedKeys, uid: number, chain: IdentityChain): Promise<Contact> {
  let identity: VerifiedIdentity;
  try {
    if (chain.userId !== uid) throw new TrustError("untrusted_key", uid);
    const anchors = await instanceAnchors(holder);
    // Test build only (test/malicious): any root the server's chain brings counts as an anchor.
    if (TEST_CHECKS && checkOff("identity-anchors")) anchors.push(...(await chainRoots(chain)));
    identity = await verifyIdentity(chain, { anchors });
  } catch (error) {
    throw trustFailure(error, uid);
  }
  // Against the newest pins (another window may have moved them), and saved when they change.
  const pinFor = (book: PinBook): Pin => {
    const pin = book.pins[uid];
    // A v1 contact whose pinned v1 key certified their first identity record (docs/protocol.md
    // §14.14): a chain from the pinned key, as a rotation, the mark of a comparison carried.
    if (pin?.legacy && identity.keys[0]?.legacy === pin.keyId) return pinAfterCheck({ userId: uid, keyId: pin.keyId, seq: 0, verified: pin.verified }, identity);
    // A v1 contact pinned on first use who now has a certified identity: certified beats a first
    // sight, but the mark of a comparison of the old key does not carry over.
    if (pin?.legacy) return markReset({ userId: uid, keyId: identity.keyId, seq: identity.seq, verified: false }, identity.keys.at(-1)?.reset === true);
    // Test build only (test/malicious): an older record than the pinned one is pinned again.
    if (TEST_CHECKS && checkOff("pin-seq") && pin && identity.seq < pin.seq) return { userId: uid, keyId: identity.keyId, seq: identity.seq, verified: false };
    return pinAfterCheck(pin, identity);
  };
  let pin: Pin;
  try {
    pin = pinFor(await pinBook(holder));
    const saved = await updatePins(holder, (book) => (samePin(book.pins[uid], pinFor(book)) ? null : { ...book, pins: { ...book.pins, [uid]: pinFor(book) } }));
    pin = saved.pins[uid] ?? pin;
  } catch (error) {
    throw trustFailure(error, uid);
  }
  const { keyId: id, seq, encryptPublic, signPublic } = identity;
  return { userId: uid, keyId: id, seq, encryptPublic, signPublic, certified: true, verified: pin.verified, reset: isReset(pin), keys: identity.keys };
}

/**
 * checkPin, keeping what it does not know of: the mark that an administrator's key reset moved
 * the pin (docs/protocol.md §14.5, "reset": the pin moves and is no longer verified). It stays
 * across later rotations until the user marks the person verified; someone met for the first
 * time whose current key a reset certified gets it too.
 */
function pinAfterCheck(pin: Pin | undefined, identity: VerifiedIdentity): Pin {
  const check = checkPin(pin && withoutReset(pin), identity);
  if (check.status === "reset") return markReset(check.pin, true);
  if (check.status === "new") return markReset(check.pin, identity.keys.at(-1)?.reset === true);
  return markReset(check.pin, pin?.reset === true && !check.pin.verified);
}

function withoutReset(pin: Pin): Pin {
  const rest = { ...pin };
  delete rest.reset;
  return rest;
}

function markReset(pin: IdentityPin, reset: boolean): Pin {
  return reset ? { ...pin, reset: true } : pin;
}

function isReset(pin: Pin): boolean {
  return pin.reset === true && !pin.verified;
}

async function legacyContact(holder: UnlockedKeys, uid: number, legacy: NonNullable<IdentityBundle["legacy"]>): Promise<Contact> {
  const keys = { encryptPublic: legacy.encrypt_public, signPublic: legacy.sign_public };
  let id: string;
  let certified = false;
  try {
    await verifyKeypair({ uid, encrypt_public: legacy.encrypt_public, sign_public: legacy.sign_public, timestamp: legacy.timestamp, signature: legacy.signature });
    id = await keyId(keys);
    // An administrator's certificate chains the key to the anchors; one that does not verify is refused, not ignored.
    if (legacy.certificate) {
      if (!legacy.issuer) throw new Error("a certificate without its issuer's chain");
      await verifyLegacyKey(legacy.certificate as unknown as SignedLegacyKey, { userId: uid, ...keys }, legacy.issuer as unknown as IdentityChain, { anchors: await instanceAnchors(holder) });
      certified = true;
    }
  } catch (cause) {
    throw new TrustError("untrusted_key", uid, { cause });
  }
  // Once the instance's rule is pinned, a version 1 key without a certificate is refused (test build only: "legacy-uncertified" off pins it on first use).
  const ruled = (book: PinBook) => !certified && book.legacyRule === true && !(TEST_CHECKS && checkOff("legacy-uncertified"));
  // A contact pinned with a certified identity (or a certified v1 key) is never taken back to an uncertified key, nor a first sight to another key.
  const pinFor = (book: PinBook): Pin => {
    const pin = book.pins[uid];
    if (ruled(book)) throw new TrustError("untrusted_key", uid, { text: "uncertified_key" });
    if (pin && (!pin.legacy || pin.keyId !== id || (pin.certified && !certified))) throw new TrustError("untrusted_key", uid);
    const next = pin ?? { userId: uid, keyId: id, seq: 0, verified: false, legacy: true as const };
    return certified ? { ...next, certified: true } : next;
  };
  const pin = pinFor(await pinBook(holder));
  await updatePins(holder, (book) => {
    const next = pinFor(book);
    return samePin(book.pins[uid], next) ? null : { ...book, pins: { ...book.pins, [uid]: next } };
  });
  const key = { userId: uid, keyId: id, seq: 0, ...keys, created: legacy.timestamp * 1000 };
  return { ...key, certified, verified: pin.verified, reset: false, keys: [key] };
}

/**
 * The signed-in user's own keys as records name them: the key they hold now (its key id computed
 * from the unlocked keys, so it is theirs whatever the server says) and the earlier keys of their
 * verified identity chain, if any.
 */
export async function ownKeys(holder: UnlockedKeys): Promise<VerifiedKey[]> {
  const current = { userId: holder.uid, keyId: await keyId(holder.publicKeys), seq: 0, ...holder.publicKeys, created: 0 };
  const identity = await ownIdentity(holder).catch(() => null);
  const chain = identity?.keys.filter((key) => key.keyId !== current.keyId) ?? [];
  const mine = identity?.keys.find((key) => key.keyId === current.keyId);
  return [...chain, mine ?? current];
}

/** Marks a contact's pinned key as compared (or not). Only the key that is pinned now: a changed one is refused before. */
export async function setVerified(holder: UnlockedKeys, uid: number, keyIdShown: string, verified: boolean): Promise<void> {
  await updatePins(holder, (book) => {
    const pin = book.pins[uid];
    if (!pin || pin.keyId !== keyIdShown) throw new TrustError("untrusted_key", uid);
    if (pin.verified === verified) return null;
    // Compared after a key reset: the reset is behind them (a mark taken back does not bring it back).
    return { ...book, pins: { ...book.pins, [uid]: { ...withoutReset(pin), verified } } };
  });
}

/** The key ids of the roots a chain brings along (its own birth, its issuers'), each a valid self-signed root. */
async function chainRoots(chain: IdentityChain): Promise<string[]> {
  const records = [chain, ...(chain.issuers ?? [])].flatMap((c) => c.records);
  const roots = records.filter((r) => r.record?.certifiedBy?.kind === "root");
  return Promise.all(roots.map((root) => rootAnchor(root)));
}

function samePin(a: Pin | undefined, b: Pin): boolean {
  return (
    a !== undefined &&
    a.keyId === b.keyId &&
    a.seq === b.seq &&
    a.verified === b.verified &&
    Boolean(a.legacy) === Boolean(b.legacy) &&
    Boolean(a.reset) === Boolean(b.reset) &&
    Boolean(a.certified) === Boolean(b.certified)
  );
}

function trustFailure(error: unknown, uid: number): Error {
  if (error instanceof TrustError) return error;
  if (isCryptoError(error)) return new TrustError(error.code === "stale_key" ? "stale_key" : "untrusted_key", uid, { cause: error });
  return error instanceof Error ? error : new Error(String(error));
}
