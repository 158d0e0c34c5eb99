import * as z from "zod";
import { importEncryptionPublicKey } from "../account-keys";
import { keyIdOf } from "../digests";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { verifyRecordV2 } from "../signatures";
import {
  type IdentityRecord,
  type SignedAdmin,
  type SignedIdentity,
  type SignedInvitation,
  type SignedKeyReset,
  signedAdminSchema,
  signedIdentitySchema,
  signedInvitationSchema,
  signedKeyResetSchema,
} from "./identity";
import { type VerifiedIdentity, type VerifiedKey, signingKey } from "./identity-keys";
import type { SignedLegacyKey } from "./legacy-key-record";
import { idField, keyIdField, parseRecord } from "./v2-fields";

/**
 * Verifying an identity chain against the instance anchors a client pinned (docs/protocol.md,
 * "Verifying an identity"). What a server serves for one user: their identity records from birth
 * to the current one, the chains of the administrators whose invitations and admin certificates
 * those depend on, and those certificates.
 */

/** One user's identity records, birth (seq 0) first, current last. */
export interface IdentityRecords {
  userId: number;
  records: SignedIdentity[];
}

export interface IdentityChain extends IdentityRecords {
  /** The chains of the administrators the certificates depend on (each user once). */
  issuers?: IdentityRecords[];
  /** Admin certificates: at most one per user (the one the server holds for them). */
  admins?: SignedAdmin[];
}

/** The root key ids this client pinned for the instance (trusted on first use, kept with its account data). */
export interface InstanceTrust {
  anchors: readonly string[];
}

/** How many hops (a chain, an administrator's rights) one verification may follow before it gives up: bad_chain. */
export const MAX_CHAIN_DEPTH = 32;
const MAX_RECORDS = 1000;
const MAX_USERS = 64;

const recordsSchema = z.strictObject({ userId: idField, records: z.array(z.unknown()).min(1).max(MAX_RECORDS) });
const chainSchema = recordsSchema.extend({
  issuers: z.array(recordsSchema).max(MAX_USERS).optional(),
  admins: z.array(z.unknown()).max(MAX_USERS).optional(),
});
const trustSchema = z.strictObject({ anchors: z.array(keyIdField).max(MAX_USERS) });

/**
 * Verifies a user's identity chain and answers their current key. Rejects (never answers a
 * partial result): malformed_record for a record without its exact shape; bad_signature for any
 * signature that does not verify (self, certifier, invitation, admin certificate); bad_chain for
 * a chain that does not link (a gap, a record of another user, a loop, another address than the
 * invitation's, an expired invitation, a later record not certified by its predecessor, a
 * missing issuer chain, reused keys, too deep); untrusted_key when the chain rests on no pinned
 * anchor or an invitation's issuer was not an administrator when they signed it.
 */
export async function verifyIdentity(chain: IdentityChain, trust: InstanceTrust): Promise<VerifiedIdentity> {
  return new ChainVerifier(chain, trust).identity();
}

/**
 * What an invitee checks before taking an invitation over: signed by its issuer's key, the issuer
 * an administrator at that key (their chain and certificates in `issuerChain`), and not expired
 * at `now` (ms). Answers the issuer's verified identity.
 */
export async function verifyInvitation(invitation: SignedInvitation, issuerChain: IdentityChain, trust: InstanceTrust, now: number): Promise<VerifiedIdentity> {
  const signed = parseRecord(signedInvitationSchema, invitation, "invitation");
  if (typeof now !== "number" || !Number.isSafeInteger(now)) throw new CryptoError("invalid_input", "now is a time in ms");
  const verifier = new ChainVerifier(issuerChain, trust);
  if (signed.record.issuerUserId !== verifier.subject) throw new CryptoError("bad_chain", "the chain is not the invitation issuer's");
  await verifier.issued(signed, [], "the invitation's issuer");
  if (now > signed.record.expires) throw new CryptoError("bad_chain", "the invitation has expired");
  return verifier.identity();
}

/**
 * What a user checks before taking a key reset over, as an invitee checks an invitation: it is
 * for them, signed by its issuer's key, the issuer an administrator at that key (their chain and
 * certificates in `issuerChain`), and not expired at `now` (ms). Answers the issuer's verified
 * identity. That it replaces their current key is checked when the new record is made
 * (`createResetIdentity`) and by everyone who verifies the chain.
 */
export async function verifyKeyReset(reset: SignedKeyReset, userId: number, issuerChain: IdentityChain, trust: InstanceTrust, now: number): Promise<VerifiedIdentity> {
  const signed = parseRecord(signedKeyResetSchema, reset, "key reset");
  if (typeof now !== "number" || !Number.isSafeInteger(now)) throw new CryptoError("invalid_input", "now is a time in ms");
  if (signed.record.userId !== userId) throw new CryptoError("bad_chain", "the key reset is for another user");
  const verifier = new ChainVerifier(issuerChain, trust);
  if (signed.record.issuerUserId !== verifier.subject) throw new CryptoError("bad_chain", "the chain is not the key reset's issuer's");
  await verifier.issued(signed, [], "the key reset's issuer");
  if (now > signed.record.expires) throw new CryptoError("bad_chain", "the key reset has expired");
  return verifier.identity();
}

/**
 * An administrator's signing key as a record they signed names it (`userId`, `keyId`): their
 * chain (`issuerChain`, with the issuers and certificates it depends on) verifies to the pinned
 * anchors, the key is in it, and they held administrator rights at that key (untrusted_key
 * otherwise). Answers their verified identity and that key. What the signers of instance-level
 * records (a legacy key's certificate) are checked with.
 */
export async function verifyAdminKey(issuerChain: IdentityChain, trust: InstanceTrust, userId: number, keyId: string): Promise<{ identity: VerifiedIdentity; key: VerifiedKey }> {
  const verifier = new ChainVerifier(issuerChain, trust);
  if (verifier.subject !== userId) throw new CryptoError("bad_chain", "the chain is not the signer's");
  const { issuer, index } = await verifier.keyOf(userId, keyId, [], "the record's signer");
  if ((await verifier.adminFrom(userId, [])) > index) throw new CryptoError("untrusted_key", "the signer was not an administrator at that key");
  return { identity: await verifier.identity(), key: issuer.keys[index]! };
}

/**
 * A root identity as a client first meets it: a birth record certified by nobody, with a valid
 * self-signature. Answers its key id, which the client pins as an instance anchor (trust on first
 * use; compare it out of band to be sure).
 */
export async function rootAnchor(root: SignedIdentity): Promise<string> {
  const signed = parseRecord(signedIdentitySchema, root, "identity record");
  if (signed.record.seq !== 0 || signed.record.certifiedBy.kind !== "root") throw new CryptoError("bad_chain", "not a root identity");
  await verifyRecordV2(await signingKey(signed.record.signPublic), signed.record, signed.self);
  await importEncryptionPublicKey(signed.record.encryptPublic);
  return keyIdOf(signed.record);
}

interface UserChain {
  userId: number;
  email: string;
  keys: VerifiedKey[];
  anchor: string;
  root: boolean;
}

class ChainVerifier {
  readonly subject: number;
  private readonly records = new Map<number, unknown[]>();
  private readonly admins = new Map<number, SignedAdmin>();
  private readonly anchors: Set<string>;
  private readonly chains = new Map<number, Promise<UserChain>>();
  private readonly adminFroms = new Map<number, Promise<number>>();

  constructor(input: IdentityChain, trust: InstanceTrust) {
    const bundle = parseRecord(chainSchema, input, "identity chain");
    this.anchors = new Set(parseRecord(trustSchema, trust, "instance trust", "invalid_input").anchors);
    this.subject = bundle.userId;
    for (const { userId, records } of [bundle, ...(bundle.issuers ?? [])]) {
      if (this.records.has(userId)) throw new CryptoError("malformed_record", `user ${userId} has two chains`);
      this.records.set(userId, records);
    }
    for (const input of bundle.admins ?? []) {
      const admin = parseRecord(signedAdminSchema, input, "admin certificate");
      if (this.admins.has(admin.record.userId)) throw new CryptoError("malformed_record", `user ${admin.record.userId} has two admin certificates`);
      this.admins.set(admin.record.userId, admin);
    }
  }

  /** The subject's verified identity: their chain, and whether their current key is an administrator's. */
  async identity(): Promise<VerifiedIdentity> {
    const user = await this.chain(this.subject, []);
    const adminFrom = await this.adminFrom(this.subject, []);
    const current = user.keys.at(-1)!;
    return { ...current, email: user.email, keys: user.keys, anchor: user.anchor, admin: adminFrom < user.keys.length };
  }

  /** The verified chain of one user; `path` is what is being verified above this, to find loops. */
  chain(userId: number, path: readonly string[]): Promise<UserChain> {
    return this.once(this.chains, userId, `chain:${userId}`, path, (inner) => this.verifyChain(userId, inner));
  }

  /** The first key index from which the user is an administrator (0 for a root; Infinity when never). */
  adminFrom(userId: number, path: readonly string[]): Promise<number> {
    return this.once(this.adminFroms, userId, `admin:${userId}`, path, (inner) => this.verifyAdmin(userId, inner));
  }

  /** Checks the signature of an invitation, a key reset or a v1 key's certificate and its issuer's rights; answers the issuer's chain. */
  async issued(signed: SignedInvitation | SignedKeyReset | SignedLegacyKey, path: readonly string[], what: string): Promise<UserChain> {
    const { record } = signed;
    const { issuer, index } = await this.keyOf(record.issuerUserId, record.issuerKeyId, path, what);
    await verifyRecordV2(await signingKey(issuer.keys[index]!.signPublic), record, signed.signature);
    if ((await this.adminFrom(record.issuerUserId, path)) > index) {
      throw new CryptoError("untrusted_key", `${what} was not an administrator at that key`);
    }
    return issuer;
  }

  /**
   * A record certified by a key reset: the reset is for this user, their address and the key the
   * record replaces (`previous`, null at birth); the record was made before the reset expired,
   * with keys other than the temporary ones, and its certifier is the temporary key; the reset is
   * signed by an administrator at that key (never the user: their own chain would loop). Answers
   * the issuer's chain.
   */
  private async resetOf(record: IdentityRecord, certifier: string, reset: SignedKeyReset, previous: string | null, path: readonly string[]): Promise<UserChain> {
    const r = reset.record;
    if (r.userId !== record.userId) throw new CryptoError("bad_chain", "the key reset is for another user");
    if (r.email !== record.email) throw new CryptoError("bad_chain", "the identity's address is not the key reset's");
    if (r.replaces !== previous) throw new CryptoError("bad_chain", "the key reset replaces another key than the one before the record");
    if (record.created > r.expires) throw new CryptoError("bad_chain", "the key reset had expired when the identity was made");
    if (r.tempSignPublic === record.signPublic || r.tempEncryptPublic === record.encryptPublic) {
      throw new CryptoError("bad_chain", "the identity kept the key reset's temporary keys");
    }
    await verifyRecordV2(await signingKey(r.tempSignPublic), record, certifier);
    return this.issued(reset, path, "the key reset's issuer");
  }

  /**
   * A version 1 user's birth record certified by their v1 key (docs/protocol.md §14.14): the
   * certificate verifies as verifyLegacyKey checks it (signed by an administrator at that key, in
   * the instance their identity rests on, not their own key), it is for this user, the certifier
   * is exactly the certified v1 key, and the record's keys are fresh. Answers the anchor and the
   * v1 key's id.
   */
  private async legacyOf(record: IdentityRecord, certifier: string, certificate: SignedLegacyKey, path: readonly string[]): Promise<{ anchor: string; legacy: string }> {
    const c = certificate.record;
    const issuer = await this.issued(certificate, path, "the certificate's issuer");
    if (c.userId !== record.userId) throw new CryptoError("bad_chain", "the v1 key's certificate is for another user");
    if (c.issuerUserId === c.userId) throw new CryptoError("bad_chain", "an administrator certified their own key");
    if (c.anchor !== issuer.anchor) throw new CryptoError("bad_chain", "the certificate is for another instance");
    if (c.signPublic === record.signPublic || c.encryptPublic === record.encryptPublic) throw new CryptoError("bad_chain", "the identity kept the version 1 keys");
    await importEncryptionPublicKey(c.encryptPublic);
    await verifyRecordV2(await signingKey(c.signPublic), record, certifier);
    return { anchor: c.anchor, legacy: await keyIdOf(c) };
  }

  private once<T>(memo: Map<number, Promise<T>>, userId: number, step: string, path: readonly string[], run: (inner: readonly string[]) => Promise<T>): Promise<T> {
    if (path.includes(step)) return Promise.reject(new CryptoError("bad_chain", `the chain loops (${[...path, step].join(" → ")})`));
    if (path.length >= MAX_CHAIN_DEPTH) return Promise.reject(new CryptoError("bad_chain", "the chain is too deep"));
    let result = memo.get(userId);
    if (!result) {
      result = run([...path, step]);
      memo.set(userId, result);
    }
    return result;
  }

  async keyOf(userId: number, keyId: string, path: readonly string[], what: string): Promise<{ issuer: UserChain; index: number }> {
    const issuer = await this.chain(userId, path);
    const index = issuer.keys.findIndex((key) => key.keyId === keyId);
    if (index < 0) throw new CryptoError("bad_chain", `${what} signed with a key that is not in their chain`);
    return { issuer, index };
  }

  private async verifyChain(userId: number, path: readonly string[]): Promise<UserChain> {
    const records = this.records.get(userId);
    if (!records) throw new CryptoError("bad_chain", `no identity records for user ${userId}`);
    const keys: VerifiedKey[] = [];
    let anchor = "";
    let previousSign: Key | undefined;
    let email = "";
    /** The version 1 key that certified the birth, if it did: never a key of the chain. */
    let legacy: { keyId: string; signPublic: string; encryptPublic: string } | undefined;
    for (const [index, input] of records.entries()) {
      const signed = parseRecord(signedIdentitySchema, input, "identity record");
      const { record } = signed;
      const own = await signingKey(record.signPublic);
      await importEncryptionPublicKey(record.encryptPublic);
      await verifyRecordV2(own, record, signed.self);
      if (record.userId !== userId) throw new CryptoError("bad_chain", `a record of user ${record.userId} in the chain of user ${userId}`);
      if (record.seq !== index) throw new CryptoError("bad_chain", `record ${index} has seq ${record.seq}: a gap, a repeat or another order`);
      const keyId = await keyIdOf(record);
      if ([...keys, ...(legacy ? [legacy] : [])].some((key) => key.keyId === keyId || key.signPublic === record.signPublic || key.encryptPublic === record.encryptPublic)) {
        throw new CryptoError("bad_chain", "a key appears twice in the chain");
      }
      const certification = record.certifiedBy;
      if (index === 0) {
        email = record.email;
        if (certification.kind === "root") {
          if (!this.anchors.has(keyId)) throw new CryptoError("untrusted_key", `user ${userId}'s root key is not a pinned anchor`);
          anchor = keyId;
        } else if (certification.kind === "invitation") {
          const invitation = certification.invitation.record;
          if (invitation.email !== record.email) throw new CryptoError("bad_chain", "the identity's address is not the invitation's");
          if (record.created > invitation.expires) throw new CryptoError("bad_chain", "the invitation had expired when the identity was made");
          if (invitation.tempSignPublic === record.signPublic || invitation.tempEncryptPublic === record.encryptPublic) {
            throw new CryptoError("bad_chain", "the identity kept the invitation's temporary keys");
          }
          await verifyRecordV2(await signingKey(invitation.tempSignPublic), record, signed.certifier!);
          anchor = (await this.issued(certification.invitation, path, "the invitation's issuer")).anchor;
        } else if (certification.kind === "reset") {
          anchor = (await this.resetOf(record, signed.certifier!, certification.reset, null, path)).anchor;
        } else if (certification.kind === "legacy") {
          const certified = await this.legacyOf(record, signed.certifier!, certification.certificate, path);
          anchor = certified.anchor;
          legacy = { keyId: certified.legacy, ...certification.certificate.record };
        } else {
          throw new CryptoError("bad_chain", "a birth record is certified by a root, an invitation, a key reset or a certified version 1 key");
        }
      } else {
        if (record.email !== email) throw new CryptoError("bad_chain", "the address changed within the chain");
        const before = keys[index - 1]!.keyId;
        if (certification.kind === "reset") {
          // An administrator's reset: the chain goes on, the anchor stays the birth's.
          await this.resetOf(record, signed.certifier!, certification.reset, before, path);
        } else if (certification.kind !== "previous" || certification.keyId !== before) {
          throw new CryptoError("bad_chain", `record ${index} is not certified by the key before it or a key reset`);
        } else {
          await verifyRecordV2(previousSign!, record, signed.certifier!);
        }
      }
      previousSign = own;
      keys.push({
        userId,
        keyId,
        seq: record.seq,
        encryptPublic: record.encryptPublic,
        signPublic: record.signPublic,
        created: record.created,
        ...(certification.kind === "reset" ? { reset: true as const } : {}),
        ...(legacy && index === 0 ? { legacy: legacy.keyId } : {}),
      });
    }
    return { userId, email, keys, anchor, root: (records[0] as SignedIdentity).record.certifiedBy.kind === "root" };
  }

  private async verifyAdmin(userId: number, path: readonly string[]): Promise<number> {
    const user = await this.chain(userId, path);
    if (user.root) return 0;
    const signed = this.admins.get(userId);
    if (!signed) return Number.POSITIVE_INFINITY;
    const { record } = signed;
    const { issuer, index: issuerIndex } = await this.keyOf(record.issuerUserId, record.issuerKeyId, path, "the admin certificate's issuer");
    await verifyRecordV2(await signingKey(issuer.keys[issuerIndex]!.signPublic), record, signed.signature);
    const index = user.keys.findIndex((key) => key.keyId === record.keyId);
    if (index < 0) throw new CryptoError("bad_chain", "the admin certificate names a key that is not in the user's chain");
    if ((await this.adminFrom(record.issuerUserId, path)) > issuerIndex) {
      throw new CryptoError("untrusted_key", "the admin certificate's issuer was not an administrator at that key");
    }
    return index;
  }
}
