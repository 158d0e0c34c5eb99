import * as z from "zod";
import { utf8Decode, utf8Encode } from "../bytes";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { fileRefSchema } from "./file-ref";
import type { SignedSealedKey } from "./distribution";
import type { IdentityKeys, KeysOf, VerifiedKey } from "./identity-keys";
import type { VerifiedLog } from "./membership-log";
import {
  type DockeyPlace,
  type RecordPlace,
  generateRecordKey,
  grantRecordKey,
  openRecordGrant,
  openRecordPayload,
  sealRecordPayload,
  unwrapRecordKey,
  wrapRecordKey,
} from "./record-key";

/**
 * An item of a group's drive (docs/protocol.md, "Drive items"): a record (record-key.ts) whose
 * payload is the JSON `{ type, name, tags }` (spec 001 §3, Drive mote), under a key of its own
 * that the dockey holds under the group key's epoch. The type is inside as well as beside it on
 * the server, so a server that turns a folder into a drive (or the reverse) is caught by the
 * opener, which is told the kind the server claims.
 */

export const DRIVE_ITEM_TYPES = ["drive", "folder", "file"] as const;
export type DriveItemType = (typeof DRIVE_ITEM_TYPES)[number];
export const DRIVE_NAME_MAX = 255;
export const DRIVE_TAGS_MAX = 50;
export const DRIVE_TAG_MAX = 64;

const named = {
  name: z.string().min(1).max(DRIVE_NAME_MAX),
  tags: z.array(z.string().min(1).max(DRIVE_TAG_MAX)).max(DRIVE_TAGS_MAX),
};

/** A drive or folder: `{ type, name, tags }`; a file adds its reference (id, name, type, size, key, header, thumb: file-ref.ts). */
export const driveItemPayloadSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("drive"), ...named }),
  z.strictObject({ type: z.literal("folder"), ...named }),
  z.strictObject({ type: z.literal("file"), ...named, file: fileRefSchema }),
]);
export type DriveItemPayload = z.infer<typeof driveItemPayloadSchema>;

/** What a stored drive item holds of its sealing: the payload under its key, the key under the epoch's. */
export interface SealedDriveItem {
  payload: string;
  dockey: string;
  epoch: number;
}

/**
 * Seals a drive item's payload under a fresh key and wraps that key under the group key of
 * `place.epoch` (each new payload a new key: a rename after someone's removal is out of their
 * reach). A payload that is not a drive item's (type, a name of 1–255 characters, at most 50 tags
 * of 1–64): invalid_input.
 */
export async function sealDriveItem(epochKey: Key, place: DockeyPlace, payload: DriveItemPayload): Promise<SealedDriveItem> {
  const checked = driveItemPayloadSchema.safeParse(payload);
  if (!checked.success) throw new CryptoError("invalid_input", "not a drive item's payload");
  const dek = await generateRecordKey();
  const record: RecordPlace = { groupId: place?.groupId, recordId: place?.recordId };
  const [sealed, dockey] = await Promise.all([sealRecordPayload(dek, record, utf8Encode(JSON.stringify(checked.data))), wrapRecordKey(epochKey, dek, place)]);
  return { payload: sealed, dockey, epoch: place.epoch };
}

/**
 * Opens a drive item with the group key of its epoch: the dockey and the payload must open for
 * this group and record id (decrypt_failed), and hold a drive item's payload of the kind the
 * server lists it as (invalid_payload).
 */
export async function openDriveItem(epochKey: Key, sealed: { payload: string; dockey: string }, place: DockeyPlace, kind: DriveItemType): Promise<DriveItemPayload> {
  const dek = await unwrapRecordKey(epochKey, sealed.dockey, place);
  return openPayloadWith(dek, sealed.payload, place, kind);
}

/** One reader's grant of a restricted item's key. */
export interface DriveItemGrant {
  userId: number;
  grant: SignedSealedKey;
}

/**
 * Seals a drive item's payload under a fresh key and grants that key to each reader's verified
 * key, signed by the granter (docs/protocol.md, "Restricted drive items"): no dockey, so the group
 * key opens nothing of it. The granter must be a member per the group's verified log
 * (not_permitted); a payload that is not a drive item's: invalid_input.
 */
export async function sealDriveItemForReaders(
  place: RecordPlace,
  payload: DriveItemPayload,
  log: VerifiedLog,
  readers: readonly VerifiedKey[],
  granter: IdentityKeys,
): Promise<{ payload: string; grants: DriveItemGrant[] }> {
  const checked = driveItemPayloadSchema.safeParse(payload);
  if (!checked.success) throw new CryptoError("invalid_input", "not a drive item's payload");
  const record: RecordPlace = { groupId: place?.groupId, recordId: place?.recordId };
  const dek = await generateRecordKey();
  const sealed = await sealRecordPayload(dek, record, utf8Encode(JSON.stringify(checked.data)));
  const grants = await Promise.all(readers.map(async (reader) => ({ userId: reader.userId, grant: await grantRecordKey(dek, record, log, reader, granter) })));
  return { payload: sealed, grants };
}

/**
 * Opens a restricted drive item with one's own grant of its key: the grant checked as
 * openRecordGrant checks it (signed by someone who was a member, for this record and this key),
 * the payload as openDriveItem checks it.
 */
export async function openDriveItemGrant(
  grant: SignedSealedKey,
  payload: string,
  place: RecordPlace,
  kind: DriveItemType,
  log: VerifiedLog,
  me: IdentityKeys,
  keysOf: KeysOf,
): Promise<DriveItemPayload> {
  const record: RecordPlace = { groupId: place?.groupId, recordId: place?.recordId };
  const dek = await openRecordGrant(grant, record, log, me, keysOf);
  return openPayloadWith(dek, payload, record, kind);
}

async function openPayloadWith(dek: Key, payload: string, place: RecordPlace, kind: DriveItemType): Promise<DriveItemPayload> {
  const bytes = await openRecordPayload(dek, payload, { groupId: place.groupId, recordId: place.recordId });
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Decode(bytes));
  } catch {
    throw new CryptoError("invalid_payload", "a drive item's payload is JSON");
  }
  const checked = driveItemPayloadSchema.safeParse(parsed);
  if (!checked.success || checked.data.type !== kind) throw new CryptoError("invalid_payload", "not a drive item's payload of this kind");
  return checked.data;
}
