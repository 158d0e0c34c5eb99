import * as z from "zod";
import { importEncryptionPublicKey } from "../account-keys";
import { keyIdOf } from "../digests";
import { CryptoError } from "../errors";
import { signRecordV2, verifyRecordV2 } from "../signatures";
import type { SignedIdentity } from "./identity";
import { type IdentityChain, type InstanceTrust, rootAnchor, verifyAdminKey } from "./identity-chain";
import { type IdentityKeys, signingKey } from "./identity-keys";
import { type SignedLegacyKey, legacyKeyRecordSchema, signedLegacyKeySchema } from "./legacy-key-record";
import { idField, keyIdField, parseRecord, signatureField, timeField } from "./v2-fields";

export { type LegacyKeyRecord, type SignedLegacyKey, legacyKeyRecordSchema, signedLegacyKeySchema } from "./legacy-key-record";

/**
 * Version 1 (legacy) account keys in protocol v2 (docs/protocol.md §14.14): such a key has no
 * identity chain, so a client could only pin it on first use. An administrator certifies it with
 * a signed `legacy-key` record (the user, the key's two public keys, the instance's anchor, the
 * administrator's key), which chains it to the anchors as an invitation does a birth record. The
 * instance's root then says, in a signed `legacy-rule`, that from now on a version 1 key counts
 * only with such a certificate; a client that pinned the rule refuses an uncertified one.
 */

/** The instance's rule, signed by its root: version 1 keys are trusted only with a certificate. */
export interface LegacyRuleRecord {
  type: "legacy-rule";
  v: 2;
  rule: "certified-only";
  /** The root key id that signs it (an anchor). */
  anchor: string;
  /** The root's user. */
  userId: number;
  /** ms, the root's clock. */
  made: number;
}

export interface SignedLegacyRule {
  record: LegacyRuleRecord;
  signature: string;
}

/** A certified version 1 key, as `verifyLegacyKey` established it. Plain JSON. */
export interface VerifiedLegacyKey {
  userId: number;
  keyId: string;
  encryptPublic: string;
  signPublic: string;
  anchor: string;
  issuer: { userId: number; keyId: string };
}

export const legacyRuleRecordSchema = z.strictObject({
  type: z.literal("legacy-rule"),
  v: z.literal(2),
  rule: z.literal("certified-only"),
  anchor: keyIdField,
  userId: idField,
  made: timeField,
});

export const signedLegacyRuleSchema = z.strictObject({ record: legacyRuleRecordSchema, signature: signatureField });

/** An administrator's certificate for `userId`'s version 1 key, in the instance of `anchor` (the root key id their identity rests on). */
export async function certifyLegacyKey(
  input: { userId: number; keys: { encryptPublic: string; signPublic: string }; anchor: string; certified: number },
  issuer: IdentityKeys,
): Promise<SignedLegacyKey> {
  const record = parseRecord(
    legacyKeyRecordSchema,
    {
      type: "legacy-key",
      v: 2,
      userId: input?.userId,
      encryptPublic: input?.keys?.encryptPublic,
      signPublic: input?.keys?.signPublic,
      anchor: input?.anchor,
      issuerUserId: issuer?.userId,
      issuerKeyId: issuer?.keyId,
      certified: input?.certified,
    },
    "legacy key certificate",
    "invalid_input",
  );
  if (record.userId === record.issuerUserId) throw new CryptoError("invalid_input", "an administrator does not certify their own key");
  return { record, signature: await signRecordV2(issuer.keys.sign.privateKey, record) };
}

/**
 * Checks a certificate for the version 1 key `key` presents: the certifying administrator's
 * chain (`issuerChain`) verifies to the pinned anchors and they were an administrator at the
 * signing key (untrusted_key otherwise; a key not in their chain: bad_chain), the signature
 * verifies (bad_signature), and the record is for this user and these keys in the instance the
 * administrator's identity rests on (bad_chain). Answers the certified key.
 */
export async function verifyLegacyKey(
  certificate: SignedLegacyKey,
  key: { userId: number; encryptPublic: string; signPublic: string },
  issuerChain: IdentityChain,
  trust: InstanceTrust,
): Promise<VerifiedLegacyKey> {
  const signed = parseRecord(signedLegacyKeySchema, certificate, "legacy key certificate");
  const { record } = signed;
  const issuer = await verifyAdminKey(issuerChain, trust, record.issuerUserId, record.issuerKeyId);
  await verifyRecordV2(await signingKey(issuer.key.signPublic), record, signed.signature);
  if (record.userId !== key?.userId) throw new CryptoError("bad_chain", `the certificate is for user ${record.userId}, not ${key?.userId}`);
  if (record.encryptPublic !== key.encryptPublic || record.signPublic !== key.signPublic) throw new CryptoError("bad_chain", "the certificate is for another key");
  if (record.userId === record.issuerUserId) throw new CryptoError("bad_chain", "an administrator certified their own key");
  if (record.anchor !== issuer.identity.anchor) throw new CryptoError("bad_chain", "the certificate is for another instance");
  await signingKey(record.signPublic);
  await importEncryptionPublicKey(record.encryptPublic);
  return {
    userId: record.userId,
    keyId: await keyIdOf(record),
    encryptPublic: record.encryptPublic,
    signPublic: record.signPublic,
    anchor: record.anchor,
    issuer: { userId: record.issuerUserId, keyId: record.issuerKeyId },
  };
}

/** The instance's rule that version 1 keys need a certificate, signed by its root (`root`: the root user's identity keys, their key id the anchor). */
export async function createLegacyRule(input: { made: number }, root: IdentityKeys): Promise<SignedLegacyRule> {
  const record = parseRecord(
    legacyRuleRecordSchema,
    { type: "legacy-rule", v: 2, rule: "certified-only", anchor: root?.keyId, userId: root?.userId, made: input?.made },
    "legacy rule",
    "invalid_input",
  );
  return { record, signature: await signRecordV2(root.keys.sign.privateKey, record) };
}

/**
 * Checks the instance's legacy rule against the root identities the server shows: signed by the
 * root whose key id it names, which must be a pinned anchor (untrusted_key), of the user it names
 * (bad_chain), the signature valid (bad_signature). Answers the anchor.
 */
export async function verifyLegacyRule(rule: SignedLegacyRule, roots: readonly SignedIdentity[], trust: InstanceTrust): Promise<string> {
  const signed = parseRecord(signedLegacyRuleSchema, rule, "legacy rule");
  const { record } = signed;
  if (!trust?.anchors?.includes(record.anchor)) throw new CryptoError("untrusted_key", "the rule's root is not a pinned anchor");
  let root: SignedIdentity | undefined;
  for (const candidate of roots ?? []) if ((await rootAnchor(candidate)) === record.anchor) root = candidate;
  if (!root) throw new CryptoError("untrusted_key", "no root identity for the rule's anchor");
  if (root.record.userId !== record.userId) throw new CryptoError("bad_chain", "the rule names another user than its root's");
  await verifyRecordV2(await signingKey(root.record.signPublic), record, signed.signature);
  return record.anchor;
}

/** A legacy key certificate, checked for its exact shape only (malformed_record). */
export function parseSignedLegacyKey(value: unknown): SignedLegacyKey {
  return parseRecord(signedLegacyKeySchema, value, "legacy key certificate");
}

/** A legacy rule, checked for its exact shape only (malformed_record). */
export function parseSignedLegacyRule(value: unknown): SignedLegacyRule {
  return parseRecord(signedLegacyRuleSchema, value, "legacy rule");
}
