import * as z from "zod";
import { idField, keyIdField, publicKeyField, signatureField, timeField } from "./v2-fields";

/**
 * The shape of an administrator's certificate for a version 1 key (docs/protocol.md §14.14), on
 * its own so that identity records (a v1 user's birth record carries it) and legacy-key.ts (which
 * makes and checks it) both use it without an import cycle.
 */

/** Certifies `userId`'s version 1 key (both public keys) in the instance of root `anchor`. */
export interface LegacyKeyRecord {
  type: "legacy-key";
  v: 2;
  userId: number;
  encryptPublic: string;
  signPublic: string;
  /** The instance: the root key id (an anchor) the certifying administrator's identity rests on. */
  anchor: string;
  issuerUserId: number;
  issuerKeyId: string;
  /** ms, the administrator's clock. */
  certified: number;
}

export interface SignedLegacyKey {
  record: LegacyKeyRecord;
  signature: string;
}

export const legacyKeyRecordSchema = z.strictObject({
  type: z.literal("legacy-key"),
  v: z.literal(2),
  userId: idField,
  encryptPublic: publicKeyField,
  signPublic: publicKeyField,
  anchor: keyIdField,
  issuerUserId: idField,
  issuerKeyId: keyIdField,
  certified: timeField,
});

export const signedLegacyKeySchema = z.strictObject({ record: legacyKeyRecordSchema, signature: signatureField });
