import * as z from "zod";
import { type AccountKeys, type AccountPublicKeys, accountPublicKeys } from "../account-keys";
import { keyIdOf } from "../digests";
import { CryptoError } from "../errors";
import { type RecordV2, signRecordV2 } from "../signatures";
import type { IdentityKeys } from "./identity-keys";
import { type SignedLegacyKey, signedLegacyKeySchema } from "./legacy-key-record";
import {
  countField,
  emailField,
  idField,
  keyIdField,
  normalizeEmail,
  parseRecord,
  publicKeyField,
  signatureField,
  timeField,
} from "./v2-fields";

/**
 * Protocol v2's identity records (docs/protocol.md, "Identities"): a user's chain of identity
 * keys, each record signed by its own key (proof of possession) and certified by what came before
 * it: nothing for an instance root, the invitation's temporary key for a birth by invitation (the
 * invitation itself signed by an administrator), the previous identity key for a rotation. Admin
 * certificates make a user an administrator. `identity-chain.ts` verifies the whole.
 */

export interface InvitationRecord {
  type: "invitation";
  v: 2;
  inviteId: number;
  /** The invited address, normalised (normalizeEmail). */
  email: string;
  /** The temporary keys the administrator's browser made for the invitee (wrapped under the invitation code). */
  tempSignPublic: string;
  tempEncryptPublic: string;
  issuerUserId: number;
  issuerKeyId: string;
  /** ms: an identity created after this is not certified by it. */
  expires: number;
}

/** An invitation signed by the inviting administrator's identity key. */
export interface SignedInvitation {
  record: InvitationRecord;
  signature: string;
}

/**
 * An administrator's word that a user lost their key (docs/protocol.md, "Key resets"): the
 * temporary keys their browser made, wrapped under a code the administrator hands over, certify
 * the user's next identity record, which replaces the key `replaces` (the chain's current key when
 * the administrator signed; null for an account of protocol version 1 that had no identity yet, so
 * that the record is a birth).
 */
export interface KeyResetRecord {
  type: "key-reset";
  v: 2;
  userId: number;
  /** The user's address as their chain holds it, normalised (normalizeEmail). */
  email: string;
  replaces: string | null;
  tempSignPublic: string;
  tempEncryptPublic: string;
  issuerUserId: number;
  issuerKeyId: string;
  /** ms: an identity created after this is not certified by it. */
  expires: number;
}

/** A key reset signed by the administrator who made it. */
export interface SignedKeyReset {
  record: KeyResetRecord;
  signature: string;
}

export type Certification =
  | { kind: "root" }
  | { kind: "invitation"; invitation: SignedInvitation }
  | { kind: "previous"; keyId: string }
  | { kind: "reset"; reset: SignedKeyReset }
  /** A version 1 user's first identity: certified by their v1 key, which an administrator's certificate (carried here) chains to the anchors. */
  | { kind: "legacy"; certificate: SignedLegacyKey };

export interface IdentityRecord {
  type: "identity";
  v: 2;
  userId: number;
  email: string;
  /** 0 for the birth record, then 1, 2, … for each rotation. */
  seq: number;
  encryptPublic: string;
  signPublic: string;
  /** ms */
  created: number;
  certifiedBy: Certification;
}

/** An identity record with its signatures: `self` by its own key; `certifier` by the invitation's or reset's temporary key, the previous key, or the certified v1 key (absent for a root). */
export interface SignedIdentity {
  record: IdentityRecord;
  self: string;
  certifier?: string;
}

/** Makes `userId` (at `keyId` and every later key of their chain) an administrator. */
export interface AdminRecord {
  type: "admin";
  v: 2;
  userId: number;
  keyId: string;
  issuerUserId: number;
  issuerKeyId: string;
  /** ms */
  granted: number;
}

export interface SignedAdmin {
  record: AdminRecord;
  signature: string;
}

export const invitationRecordSchema = z.strictObject({
  type: z.literal("invitation"),
  v: z.literal(2),
  inviteId: idField,
  email: emailField,
  tempSignPublic: publicKeyField,
  tempEncryptPublic: publicKeyField,
  issuerUserId: idField,
  issuerKeyId: keyIdField,
  expires: timeField,
});

export const signedInvitationSchema = z.strictObject({ record: invitationRecordSchema, signature: signatureField });

export const keyResetRecordSchema = z.strictObject({
  type: z.literal("key-reset"),
  v: z.literal(2),
  userId: idField,
  email: emailField,
  replaces: keyIdField.nullable(),
  tempSignPublic: publicKeyField,
  tempEncryptPublic: publicKeyField,
  issuerUserId: idField,
  issuerKeyId: keyIdField,
  expires: timeField,
});

export const signedKeyResetSchema = z.strictObject({ record: keyResetRecordSchema, signature: signatureField });

const certificationSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("root") }),
  z.strictObject({ kind: z.literal("invitation"), invitation: signedInvitationSchema }),
  z.strictObject({ kind: z.literal("previous"), keyId: keyIdField }),
  z.strictObject({ kind: z.literal("reset"), reset: signedKeyResetSchema }),
  z.strictObject({ kind: z.literal("legacy"), certificate: signedLegacyKeySchema }),
]);

export const identityRecordSchema = z.strictObject({
  type: z.literal("identity"),
  v: z.literal(2),
  userId: idField,
  email: emailField,
  seq: countField,
  encryptPublic: publicKeyField,
  signPublic: publicKeyField,
  created: timeField,
  certifiedBy: certificationSchema,
});

export const signedIdentitySchema = z
  .strictObject({ record: identityRecordSchema, self: signatureField, certifier: signatureField.optional() })
  .refine((signed) => (signed.record.certifiedBy.kind === "root") === (signed.certifier === undefined), "a root has no certifier, every other record has one");

export const adminRecordSchema = z.strictObject({
  type: z.literal("admin"),
  v: z.literal(2),
  userId: idField,
  keyId: keyIdField,
  issuerUserId: idField,
  issuerKeyId: keyIdField,
  granted: timeField,
});

export const signedAdminSchema = z.strictObject({ record: adminRecordSchema, signature: signatureField });

/** The instance's first administrator: a birth record certified by nobody, trusted only where a client pinned its key id. */
export async function createRootIdentity(input: { userId: number; email: string; created: number }, keys: AccountKeys): Promise<SignedIdentity> {
  const record = await identityRecord(input, 0, keys, { kind: "root" });
  return { record, self: await signRecordV2(keys.sign.privateKey, record) };
}

/** An invitation, signed by the inviting administrator, for the temporary keys their browser made. */
export async function createInvitation(
  input: { inviteId: number; email: string; temp: AccountPublicKeys; expires: number },
  issuer: IdentityKeys,
): Promise<SignedInvitation> {
  return issue(invitationRecordSchema, { type: "invitation", v: 2, inviteId: input?.inviteId, email: normalizeEmail(input?.email) }, input, issuer, "invitation");
}

/** A record an administrator issues for the temporary keys their browser made (an invitation, a key reset): those keys, the issuer and the end, signed by the issuer. */
async function issue<T extends RecordV2>(
  schema: z.ZodType<T>,
  fields: Record<string, unknown>,
  input: { temp: AccountPublicKeys; expires: number },
  issuer: IdentityKeys,
  what: string,
): Promise<{ record: T; signature: string }> {
  const record = parseRecord(
    schema,
    {
      ...fields,
      tempSignPublic: input?.temp?.signPublic,
      tempEncryptPublic: input?.temp?.encryptPublic,
      issuerUserId: issuer?.userId,
      issuerKeyId: issuer?.keyId,
      expires: input?.expires,
    },
    what,
    "invalid_input",
  );
  return { record, signature: await signRecordV2(issuer.keys.sign.privateKey, record) };
}

/**
 * The invitee's birth record, made at takeover with fresh keys: self-signed, and certified by the
 * invitation's temporary signing key (unwrapped with the invitation code). The address is the
 * invitation's.
 */
export async function createInvitedIdentity(
  input: { userId: number; created: number; invitation: SignedInvitation },
  keys: AccountKeys,
  tempKeys: AccountKeys,
): Promise<SignedIdentity> {
  const invitation = parseRecord(signedInvitationSchema, input?.invitation, "invitation", "invalid_input");
  const temp = await accountPublicKeys(tempKeys);
  if (temp.signPublic !== invitation.record.tempSignPublic || temp.encryptPublic !== invitation.record.tempEncryptPublic) {
    throw new CryptoError("invalid_input", "these are not the invitation's temporary keys");
  }
  const record = await identityRecord({ ...input, email: invitation.record.email }, 0, keys, { kind: "invitation", invitation });
  if (record.signPublic === temp.signPublic || record.encryptPublic === temp.encryptPublic) {
    throw new CryptoError("invalid_input", "the invitee makes fresh keys at takeover");
  }
  return { record, self: await signRecordV2(keys.sign.privateKey, record), certifier: await signRecordV2(tempKeys.sign.privateKey, record) };
}

/**
 * A key reset, signed by an administrator, for `userId` whose current identity is `current` (null:
 * a version 1 account without one, `email` then its address) and for the temporary keys the
 * administrator's browser made. Not for one's own key (rotate it instead).
 */
export async function createKeyReset(
  input: { userId: number; current: SignedIdentity | null; email?: string; temp: AccountPublicKeys; expires: number },
  issuer: IdentityKeys,
): Promise<SignedKeyReset> {
  const current = input?.current ? parseRecord(signedIdentitySchema, input.current, "identity record", "invalid_input").record : null;
  if (current && current.userId !== input.userId) throw new CryptoError("invalid_input", "the current identity is another user's");
  if (input?.userId === issuer?.userId) throw new CryptoError("invalid_input", "an administrator does not reset their own key (rotate it)");
  const fields = {
    type: "key-reset",
    v: 2,
    userId: input?.userId,
    email: normalizeEmail(current ? current.email : (input?.email ?? "")),
    replaces: current ? await keyIdOf(current) : null,
  };
  return issue(keyResetRecordSchema, fields, input, issuer, "key reset");
}

/**
 * The user's identity record after a key reset, made with fresh keys once they opened the
 * temporary keys with the administrator's code: seq one past `current` (0 without one), certified
 * by the temporary signing key, the reset's address.
 */
export async function createResetIdentity(
  input: { current: SignedIdentity | null; created: number; reset: SignedKeyReset },
  keys: AccountKeys,
  tempKeys: AccountKeys,
): Promise<SignedIdentity> {
  const reset = parseRecord(signedKeyResetSchema, input?.reset, "key reset", "invalid_input");
  const current = input?.current ? parseRecord(signedIdentitySchema, input.current, "identity record", "invalid_input").record : null;
  if ((current ? await keyIdOf(current) : null) !== reset.record.replaces) throw new CryptoError("invalid_input", "the reset replaces another key than the current one");
  if (current && current.userId !== reset.record.userId) throw new CryptoError("invalid_input", "the current identity is another user's");
  const temp = await accountPublicKeys(tempKeys);
  if (temp.signPublic !== reset.record.tempSignPublic || temp.encryptPublic !== reset.record.tempEncryptPublic) {
    throw new CryptoError("invalid_input", "these are not the reset's temporary keys");
  }
  const record = await identityRecord(
    { userId: reset.record.userId, email: reset.record.email, created: input?.created },
    current ? current.seq + 1 : 0,
    keys,
    { kind: "reset", reset },
  );
  if (record.signPublic === temp.signPublic || record.encryptPublic === temp.encryptPublic) {
    throw new CryptoError("invalid_input", "a reset makes fresh keys");
  }
  return { record, self: await signRecordV2(keys.sign.privateKey, record), certifier: await signRecordV2(tempKeys.sign.privateKey, record) };
}

/**
 * A version 1 user's move to a certified identity (docs/protocol.md §14.14): the birth record of
 * fresh keys, certified by the v1 key they hold (`v1Keys`) as an invitation's birth is by its
 * temporary key, and carrying the administrator's certificate of that v1 key. Refuses
 * (invalid_input) a certificate of another user or another key, and keys that are not fresh; that
 * the certificate verifies to the anchors is verifyIdentity's (the caller checks it first).
 */
export async function createLegacyIdentity(
  input: { userId: number; email: string; created: number; certificate: SignedLegacyKey },
  keys: AccountKeys,
  v1Keys: AccountKeys,
): Promise<SignedIdentity> {
  const certificate = parseRecord(signedLegacyKeySchema, input?.certificate, "legacy key certificate", "invalid_input");
  if (certificate.record.userId !== input.userId) throw new CryptoError("invalid_input", "the certificate is for another user");
  const held = await accountPublicKeys(v1Keys);
  if (held.signPublic !== certificate.record.signPublic || held.encryptPublic !== certificate.record.encryptPublic) {
    throw new CryptoError("invalid_input", "the certificate is for another key than the one held");
  }
  const record = await identityRecord(input, 0, keys, { kind: "legacy", certificate });
  if (record.signPublic === held.signPublic || record.encryptPublic === held.encryptPublic) {
    throw new CryptoError("invalid_input", "the certified identity has fresh keys");
  }
  return { record, self: await signRecordV2(keys.sign.privateKey, record), certifier: await signRecordV2(v1Keys.sign.privateKey, record) };
}

/** The next identity key of the same user (seq + 1), certified by the current one. */
export async function rotateIdentity(current: SignedIdentity, currentKeys: AccountKeys, input: { created: number }, keys: AccountKeys): Promise<SignedIdentity> {
  const previous = parseRecord(signedIdentitySchema, current, "identity record", "invalid_input").record;
  const held = await accountPublicKeys(currentKeys);
  if (held.signPublic !== previous.signPublic || held.encryptPublic !== previous.encryptPublic) {
    throw new CryptoError("invalid_input", "these are not the current identity's keys");
  }
  const certifiedBy = { kind: "previous", keyId: await keyIdOf(previous) } as const;
  const record = await identityRecord({ userId: previous.userId, email: previous.email, created: input?.created }, previous.seq + 1, keys, certifiedBy);
  if (record.signPublic === previous.signPublic || record.encryptPublic === previous.encryptPublic) {
    throw new CryptoError("invalid_input", "a rotation makes new keys");
  }
  return { record, self: await signRecordV2(keys.sign.privateKey, record), certifier: await signRecordV2(currentKeys.sign.privateKey, record) };
}

/** An admin certificate for `userId`'s key `keyId`, signed by an administrator. */
export async function grantAdmin(input: { userId: number; keyId: string; granted: number }, issuer: IdentityKeys): Promise<SignedAdmin> {
  const record = parseRecord(
    adminRecordSchema,
    { type: "admin", v: 2, userId: input?.userId, keyId: input?.keyId, issuerUserId: issuer?.userId, issuerKeyId: issuer?.keyId, granted: input?.granted },
    "admin certificate",
    "invalid_input",
  );
  return { record, signature: await signRecordV2(issuer.keys.sign.privateKey, record) };
}

async function identityRecord(
  input: { userId: number; email: string; created: number },
  seq: number,
  keys: AccountKeys,
  certifiedBy: Certification,
): Promise<IdentityRecord> {
  const pub = await accountPublicKeys(keys);
  return parseRecord(
    identityRecordSchema,
    {
      type: "identity",
      v: 2,
      userId: input?.userId,
      email: normalizeEmail(input?.email),
      seq,
      encryptPublic: pub.encryptPublic,
      signPublic: pub.signPublic,
      created: input?.created,
      certifiedBy,
    },
    "identity record",
    "invalid_input",
  );
}

/** A signed identity record as the server or a client received it, checked for its exact shape only (malformed_record); signatures are verifyIdentity's. */
export function parseSignedIdentity(value: unknown): SignedIdentity {
  return parseRecord(signedIdentitySchema, value, "identity record");
}

/** A signed invitation, checked for its exact shape only (malformed_record). */
export function parseSignedInvitation(value: unknown): SignedInvitation {
  return parseRecord(signedInvitationSchema, value, "invitation");
}

/** A signed key reset, checked for its exact shape only (malformed_record). */
export function parseSignedKeyReset(value: unknown): SignedKeyReset {
  return parseRecord(signedKeyResetSchema, value, "key reset");
}

/** A signed admin certificate, checked for its exact shape only (malformed_record). */
export function parseSignedAdmin(value: unknown): SignedAdmin {
  return parseRecord(signedAdminSchema, value, "admin certificate");
}
