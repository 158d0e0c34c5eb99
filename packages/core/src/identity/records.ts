import { KEY_RESET_DAYS, normaliseContact } from "@sealwork/contracts";
import {
  type CryptoErrorCode,
  type IdentityChain,
  type InstanceTrust,
  type IdentityRecords as ChainRecords,
  type SignedAdmin,
  type SignedIdentity,
  canonicalJson,
  isCryptoError,
  keyId,
  parseSignedAdmin,
  parseSignedIdentity,
  parseSignedInvitation,
  parseSignedKeyReset,
  parseSignedLegacyKey,
  parseSignedLegacyRule,
  rootAnchor,
  verifyIdentity,
  verifyInvitation,
  verifyKeyReset,
  verifyLegacyKey,
  verifyLegacyRule,
} from "@sealwork/crypto";
import { getEvery } from "../db/batch";
import { db, type TransactionEntities } from "../db/service";
import { errorTexts, type ErrorCode, fail } from "../errors";
import type { AdminCertificateItem, IdentityItem, LegacyCertificateItem } from "./entities";
import "./entities";
import "./errors";
import "../keys/errors";

/**
 * The instance's setup administrator: the first account, whose id the user counter hands out only
 * to Instance.createFirstAdmin (nextId with onlyFirst). Their root identity is the instance's anchor.
 */
export const SETUP_USER_ID = 1;

/** How far a record's `created` (the signer's clock, ms) may be from the server's. */
const CLOCK_TOLERANCE_MS = 24 * 3600 * 1000;
/** A signed invitation expires at most this long after it is made (30 days), with some slack for clocks. */
const INVITATION_MAX_MS = 30 * 24 * 3600 * 1000 + 3600 * 1000;
/** A key reset ends at most KEY_RESET_DAYS after it is made, with the same slack. */
const KEY_RESET_MAX_MS = KEY_RESET_DAYS * 24 * 3600 * 1000 + 3600 * 1000;
/** The most users one bundle carries (the crypto package refuses more). */
const MAX_BUNDLE_USERS = 64;

/** What each refusal of the crypto package means for the caller (422 with a stable code). */
const CRYPTO_FAILURES: Partial<Record<CryptoErrorCode, ErrorCode>> = {
  bad_signature: "identity_signature_invalid",
  bad_chain: "identity_chain_invalid",
  stale_key: "identity_chain_invalid",
  untrusted_key: "identity_untrusted",
};

/** Runs a crypto check; a refusal becomes the identity code it stands for (malformed for anything about shape or keys), with the check's reason. */
async function checked<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isCryptoError(error)) throw error;
    const code = CRYPTO_FAILURES[error.code] ?? "identity_malformed";
    fail(code, { message: `${errorTexts(code).text} (${error.message})` });
  }
}

/**
 * The identity records the server keeps (protocol v2, docs/protocol.md §14): reading a user's
 * chain with everything a client needs to verify it, and checking what is about to be stored
 * exactly as a client will (the crypto package's verifyIdentity and verifyInvitation), so the
 * server refuses what no client would accept. Used by the keys and invite domains inside their
 * own transactions; the routes' verbs are in identity.ts.
 */
export namespace IdentityRecords {
  /** A user's records, birth first. */
  export async function items(userId: number): Promise<IdentityItem[]> {
    const { data } = await db().entities.identity.query.byUser({ userId }).go({ pages: "all" });
    return data.sort((a, b) => a.seq - b.seq);
  }

  export async function certificate(userId: number): Promise<AdminCertificateItem | undefined> {
    const { data } = await db().entities.admincert.get({ userId }).go();
    return data ?? undefined;
  }

  /** The instance's root identities: the setup administrator's birth record, once they published it as a root. */
  export async function roots(): Promise<SignedIdentity[]> {
    return (await rootItems()).map((item) => JSON.parse(item.record) as SignedIdentity);
  }

  /** The key ids of the roots: what a client pins as the instance's anchors (the server's own checks use them too). */
  export async function anchorIds(): Promise<string[]> {
    return (await rootItems()).map((item) => item.keyId);
  }

  async function rootItems(): Promise<IdentityItem[]> {
    const { data } = await db().entities.identity.get({ userId: SETUP_USER_ID, seq: 0 }).go();
    return data?.certifiedBy === "root" ? [data] : [];
  }

  /**
   * One user's chain as `verifyIdentity` takes it: their records, the chains of the
   * administrators their birth invitation and admin certificates depend on (recursively), and
   * those certificates. Null when the user has no identity. `subject` replaces what is stored for
   * the user (a record or certificate about to be stored is checked in its future bundle).
   */
  export async function bundle(userId: number, subject: { records?: SignedIdentity[]; admin?: SignedAdmin } = {}): Promise<IdentityChain | null> {
    const chains = new Map<number, SignedIdentity[]>();
    const admins = new Map<number, SignedAdmin>();
    const queue = [userId];
    while (queue.length > 0 && chains.size < MAX_BUNDLE_USERS) {
      const user = queue.shift()!;
      if (chains.has(user)) continue;
      const own = user === userId;
      const [stored, cert] = await Promise.all([own && subject.records ? undefined : items(user), own && subject.admin ? undefined : certificate(user)]);
      const records = own && subject.records ? subject.records : stored!.map((item) => JSON.parse(item.record) as SignedIdentity);
      // An issuer without records makes the chain fail to verify (bad_chain), as it should.
      if (records.length === 0) {
        if (own) return null;
        continue;
      }
      chains.set(user, records);
      // The administrators whose invitation or key resets certify records of this chain.
      for (const { record } of records) {
        const by = record.certifiedBy;
        if (by.kind === "invitation") queue.push(by.invitation.record.issuerUserId);
        if (by.kind === "reset") queue.push(by.reset.record.issuerUserId);
        if (by.kind === "legacy") queue.push(by.certificate.record.issuerUserId);
      }
      const admin = own && subject.admin ? subject.admin : cert ? (JSON.parse(cert.record) as SignedAdmin) : undefined;
      if (admin) {
        admins.set(user, admin);
        queue.push(admin.record.issuerUserId);
      }
    }
    const issuers: ChainRecords[] = [...chains].filter(([id]) => id !== userId).map(([id, records]) => ({ userId: id, records }));
    return { userId, records: chains.get(userId)!, issuers, admins: [...admins.values()] };
  }

  export interface Facts {
    /** The public keys the record must be for: the key registered with it, or the caller's current key. */
    keys: { encryptPublic: string; signPublic: string };
    /** The account's contacts (a birth record names one of them). */
    contacts: (string | undefined)[];
    /** The signed invitation stored for the account while it has not taken it over (canonical JSON), else null. */
    invitation: string | null;
    /** The key reset pending for the account, when the record takes its temporary key over (canonical JSON), else null. */
    reset: string | null;
    /** The administrator's certificate stored for the version 1 key the record replaces (canonical JSON), else null or absent. */
    legacy?: string | null;
  }

  /**
   * Checks a user's next identity record before it is stored: its shape, that it is theirs and
   * for `facts.keys`, that it is the next seq (a lower one: identity_conflict, someone was first),
   * that a root is the setup administrator's birth record, a birth by invitation the one their
   * invitation signed, a takeover of a key reset certified by exactly that reset, a version 1 user's birth by exactly the certificate stored for the key it replaces, and then the whole future chain with verifyIdentity against the instance's
   * anchors. Answers the item to store (create-only: `publication`).
   */
  export async function checkNew(userId: number, raw: unknown, facts: Facts, nowMs = Date.now()): Promise<IdentityItem> {
    const signed = await checked(() => parseSignedIdentity(raw));
    const { record } = signed;
    if (record.userId !== userId) fail("forbidden", { message: "An identity record is published by the user it names." });
    if (record.encryptPublic !== facts.keys.encryptPublic || record.signPublic !== facts.keys.signPublic) fail("identity_keys_mismatch");
    if (Math.abs(record.created - nowMs) > CLOCK_TOLERANCE_MS) fail("clock_skew");
    const existing = await items(userId);
    if (record.seq < existing.length) fail("identity_conflict");
    if (record.seq > existing.length) fail("identity_chain_invalid", { message: `The next identity record of this account has seq ${existing.length}.` });
    const kind = record.certifiedBy.kind;
    let anchors: string[];
    if (kind === "root") {
      if (userId !== SETUP_USER_ID || record.seq !== 0) fail("identity_root_forbidden");
      anchors = [await checked(() => rootAnchor(signed))];
    } else {
      anchors = await anchorIds();
    }
    if (record.seq === 0) {
      const contacts = facts.contacts.filter((c): c is string => Boolean(c)).map(normaliseContact);
      if (!contacts.includes(record.email)) fail("identity_chain_invalid", { message: "A birth record names the account's own email address or phone number." });
    }
    if (kind === "invitation") {
      if (facts.invitation === null) fail("invitation_invalid", { message: "This account has no signed invitation to take over." });
      if (canonicalJson(record.certifiedBy.invitation) !== facts.invitation) fail("invitation_invalid");
    }
    if (kind === "reset" ? canonicalJson(record.certifiedBy.reset) !== facts.reset : facts.reset !== null) {
      fail("key_reset_invalid", { message: facts.reset === null ? "This account has no key reset to take over." : "The new key must be certified by the key reset." });
    }
    // A version 1 user's own move (docs/protocol.md §14.14): certified by the key they hold, which an administrator certified.
    if (kind === "legacy") {
      if (!facts.legacy) fail("legacy_key_uncertified");
      if (canonicalJson(record.certifiedBy.certificate) !== facts.legacy) fail("legacy_certificate_mismatch");
    }
    const previous = existing.map((item) => JSON.parse(item.record) as SignedIdentity);
    const chain = await bundle(userId, { records: [...previous, signed] });
    await checked(() => verifyIdentity(chain!, { anchors }));
    return { userId, seq: record.seq, keyId: await checked(() => keyId(record)), certifiedBy: kind, record: canonicalJson(signed) };
  }

  /** The transaction item that stores a checked record; it fails when that seq exists (another window was first). */
  export function publication(tx: TransactionEntities, item: IdentityItem) {
    return tx.identity.create(item).commit();
  }

  /** The identity of the administrator who signed a record, and the anchors to verify it against: identity_untrusted without one. */
  async function issuer(issuerId: number, does: string): Promise<{ chain: IdentityChain; trust: InstanceTrust }> {
    const chain = await bundle(issuerId);
    if (!chain) fail("identity_untrusted", { message: `Only an administrator with a certified identity ${does}.` });
    return { chain, trust: { anchors: await anchorIds() } };
  }

  export interface Invitation {
    inviteId: number;
    /** The invitee's address, as the account holds it. */
    email: string;
    temp: { encryptPublic: string; signPublic: string };
  }

  /**
   * Checks an invitation the administrator `issuerId` signed (docs/protocol.md §14.3): its shape,
   * that it names this invite, address and temporary keys, expires within 30 days, and that the
   * issuer's identity verifies and held administrator rights at the signing key
   * (verifyInvitation). Answers its canonical JSON (to store) and its expiry (ms).
   */
  export async function checkInvitation(issuerId: number, raw: unknown, expected: Invitation, nowMs = Date.now()): Promise<{ text: string; expires: number }> {
    const signed = await checked(() => parseSignedInvitation(raw));
    const { record } = signed;
    if (record.issuerUserId !== issuerId) fail("forbidden", { message: "An invitation is signed by the administrator who sends it." });
    const fits =
      record.inviteId === expected.inviteId &&
      record.email === normaliseContact(expected.email) &&
      record.tempEncryptPublic === expected.temp.encryptPublic &&
      record.tempSignPublic === expected.temp.signPublic;
    if (!fits) fail("invitation_invalid");
    if (record.expires <= nowMs || record.expires > nowMs + INVITATION_MAX_MS) fail("invitation_invalid", { message: "A signed invitation expires within 30 days." });
    const { chain, trust } = await issuer(issuerId, "signs invitations");
    await checked(() => verifyInvitation(signed, chain, trust, nowMs));
    return { text: canonicalJson(signed), expires: record.expires };
  }

  export interface KeyReset {
    userId: number;
    /** The addresses the reset may name: the chain's, or without a chain the account's contacts. */
    emails: string[];
    /** The key id of the user's current identity record, null without one. */
    replaces: string | null;
    temp: { encryptPublic: string; signPublic: string };
  }

  /**
   * Checks a key reset the administrator `issuerId` signed (docs/protocol.md §14.3, "Key resets"):
   * its shape, that it names this user, address, replaced key and temporary keys, ends within
   * KEY_RESET_DAYS, and that the issuer's identity verifies and held administrator rights at the
   * signing key (verifyKeyReset). Answers its canonical JSON (to store) and its end (ms).
   */
  export async function checkKeyReset(issuerId: number, raw: unknown, expected: KeyReset, nowMs = Date.now()): Promise<{ text: string; expires: number }> {
    const signed = await checked(() => parseSignedKeyReset(raw));
    const { record } = signed;
    if (record.issuerUserId !== issuerId) fail("key_reset_invalid", { message: "A key reset is signed by the administrator who makes it." });
    const fits =
      record.userId === expected.userId &&
      expected.emails.includes(record.email) &&
      record.replaces === expected.replaces &&
      record.tempEncryptPublic === expected.temp.encryptPublic &&
      record.tempSignPublic === expected.temp.signPublic;
    if (!fits) fail("key_reset_invalid");
    if (record.expires <= nowMs || record.expires > nowMs + KEY_RESET_MAX_MS) fail("key_reset_invalid", { message: `A key reset ends within ${KEY_RESET_DAYS} days.` });
    const { chain, trust } = await issuer(issuerId, "resets keys");
    await checked(() => verifyKeyReset(signed, expected.userId, chain, trust, nowMs));
    return { text: canonicalJson(signed), expires: record.expires };
  }

  /**
   * Checks an admin certificate `issuerId` signed for `userId`: its shape, the issuer, and that
   * with it the user's identity verifies as an administrator's (the certificate's signature, its
   * key in the user's chain, the issuer an administrator at the signing key).
   */
  export async function checkCertificate(issuerId: number, userId: number, raw: unknown): Promise<AdminCertificateItem> {
    const signed = await checked(() => parseSignedAdmin(raw));
    const { record } = signed;
    if (record.issuerUserId !== issuerId) fail("forbidden", { message: "A certificate is signed by the administrator who sends it." });
    if (record.userId !== userId) fail("forbidden", { message: "This certificate is for another account." });
    const chain = await bundle(userId, { admin: signed });
    if (!chain) fail("identity_chain_invalid", { message: "This account has no identity to certify yet." });
    const identity = await checked(async () => verifyIdentity(chain, { anchors: await anchorIds() }));
    if (!identity.admin) fail("identity_untrusted");
    return { userId, record: canonicalJson(signed) };
  }

  /** The certificate stored for a user's version 1 key `keypairId`, if any. */
  export async function legacyCertificate(userId: number, keypairId: number): Promise<LegacyCertificateItem | undefined> {
    const { data } = await db().entities.legacycert.get({ userId, keypairId }).go();
    return data ?? undefined;
  }

  /** Which of these users have an identity (a birth record): one batch read per hundred users. */
  export async function withIdentity(userIds: readonly number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const births = await getEvery((keys) => db().entities.identity.get(keys).go(), userIds.map((userId) => ({ userId, seq: 0 })));
    return new Set(births.map((item) => item.userId));
  }

  /** Which of these users' version 1 keys (user, keypair id) have a certificate: one batch read per hundred. */
  export async function certifiedLegacy(keys: readonly { userId: number; keypairId: number }[]): Promise<Set<number>> {
    if (keys.length === 0) return new Set();
    const certificates = await getEvery((batch) => db().entities.legacycert.get(batch).go(), keys.map(({ userId, keypairId }) => ({ userId, keypairId })));
    return new Set(certificates.map((item) => item.userId));
  }

  /** The instance's legacy rule as its canonical JSON, once the root published it. */
  export async function legacyRule(): Promise<string | undefined> {
    const { data } = await db().entities.legacyrule.get({ rule: "certified-only" }).go();
    return data?.record;
  }

  /**
   * Checks a certificate the administrator `issuerId` signed for `userId`'s version 1 key `key`
   * (docs/protocol.md §14.14) as a client will (verifyLegacyKey): its shape, the issuer, the
   * user and both public keys of that key, a time near the server's, and the issuer's identity
   * verifying to the anchors as an administrator's at the signing key. Answers the item to store.
   */
  export async function checkLegacyCertificate(
    issuerId: number,
    userId: number,
    key: { id: number; encryptPublic: string; signPublic: string },
    raw: unknown,
    nowMs = Date.now(),
  ): Promise<LegacyCertificateItem> {
    const signed = await checked(() => parseSignedLegacyKey(raw));
    const { record } = signed;
    if (record.issuerUserId !== issuerId) fail("forbidden", { message: "A certificate is signed by the administrator who sends it." });
    if (record.userId !== userId) fail("forbidden", { message: "This certificate is for another account." });
    if (record.encryptPublic !== key.encryptPublic || record.signPublic !== key.signPublic) fail("identity_keys_mismatch");
    if (Math.abs(record.certified - nowMs) > CLOCK_TOLERANCE_MS) fail("clock_skew");
    const { chain, trust } = await issuer(issuerId, "certifies keys");
    await checked(() => verifyLegacyKey(signed, { userId, encryptPublic: key.encryptPublic, signPublic: key.signPublic }, chain, trust));
    return { userId, keypairId: key.id, record: canonicalJson(signed) };
  }

  /** Checks the instance's legacy rule: signed by the root it names, which is the instance's anchor (verifyLegacyRule). Answers its canonical JSON. */
  export async function checkLegacyRule(raw: unknown): Promise<{ text: string; anchor: string }> {
    const signed = await checked(() => parseSignedLegacyRule(raw));
    const anchor = await checked(async () => verifyLegacyRule(signed, await roots(), { anchors: await anchorIds() }));
    return { text: canonicalJson(signed), anchor };
  }
}
