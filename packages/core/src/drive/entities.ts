import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { SERVICE, keyed, now, primary, sealedAt, ttl } from "../db/schema";

const num = { type: "number", required: true } as const;
const str = { type: "string", required: true } as const;
const grantList = { type: "list", required: true, default: () => [], items: { type: "map", properties: { role: { type: "boolean", required: true }, id: num } } } as const;

/**
 * An item of a group's drive (a drive or a folder; spec 001 §3, Drive mote): a record of the
 * group (docs/protocol.md, "Records and dockeys"). The server keeps its place in the tree, its
 * author and times; its name and tags are in `payload`, sealed under a key of its own that
 * `dockey` holds under the group key of `epoch`.
 */
export const DriveItemEntity = new Entity({
  model: { entity: "driveitem", version: "1", service: SERVICE },
  attributes: {
    groupId: num,
    id: { ...num, padding: { length: 16, char: "0" } },
    /** The creating browser's id for the record (every sealed string names it). */
    recordId: str,
    kind: { type: ["drive", "folder", "file"] as const, required: true },
    /** The drive or folder it sits in; 0 for a drive. */
    parentId: num,
    sourceId: num,
    created: num,
    modified: num,
    payload: str,
    /** Its key under the group key of `epoch`; absent while its read list names someone (its key is granted instead: DriveGrantEntity). */
    dockey: { type: "string" },
    epoch: num,
    /** A file's upload (DriveFileEntity) and its encrypted size. */
    fileId: { type: "number" },
    size: { type: "number", required: true, default: 0 },
    /** Its permission lists (spec 001 §6; access/can.ts): empty, none. */
    read: grantList,
    write: grantList,
    use: grantList,
    /** Who holds a DriveGrantEntity of its key (the permit that replaces them deletes these). */
    grantees: { type: "list", required: true, default: () => [], items: { type: "number" } },
  },
  indexes: {
    byGroup: keyed(primary, ["groupId"], ["id"]),
  },
});

/**
 * A file's encrypted bytes in the drive's space of the bucket (storage.ts, driveFiles): created
 * pending with a TTL when the upload starts, `uploaded` once the bucket has every byte, `attached`
 * (TTL removed) when a drive item takes it; only attached files are downloaded.
 */
export const DriveFileEntity = new Entity({
  model: { entity: "drivefile", version: "1", service: SERVICE },
  attributes: {
    groupId: num,
    id: { ...num, padding: { length: 16, char: "0" } },
    sourceId: num,
    size: num,
    thumbSize: { type: "number", required: true, default: 0 },
    state: { type: ["pending", "uploaded", "attached"] as const, required: true },
    uploadId: { type: "string" },
    itemId: { type: "number" },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    expiresAt: ttl,
  },
  indexes: {
    byGroup: keyed(primary, ["groupId"], ["id"]),
  },
});

/**
 * Which group a drive item is in, by its numeric id: the item routes of spec 001 §7
 * (/api/motes/{id}/…) name the item alone. Written with the item, deleted with it.
 */
export const DriveMoteEntity = new Entity({
  model: { entity: "drivemote", version: "1", service: SERVICE },
  attributes: { id: num, groupId: num },
  indexes: {
    byId: keyed(primary, ["id"], []),
  },
});

/**
 * One reader's grant of a restricted item's key (the crypto package's SignedSealedKey, JSON text):
 * sealed for their verified key and signed by whoever set the item's read list. Keyed by the
 * reader, so the listing reads the caller's own grants with one query.
 */
export const DriveGrantEntity = new Entity({
  model: { entity: "drivegrant", version: "1", service: SERVICE },
  attributes: { groupId: num, userId: num, itemId: { ...num, padding: { length: 16, char: "0" } }, grant: str, at: sealedAt },
  indexes: {
    byReader: keyed(primary, ["groupId", "userId"], ["itemId"]),
  },
});

/** Which item a record id became: create-only, so one record id is one item per group and a retried creation stores one. */
export const DriveRecordIdEntity = new Entity({
  model: { entity: "driverecordid", version: "1", service: SERVICE },
  attributes: { groupId: num, recordId: str, itemId: num, sourceId: num },
  indexes: {
    byRecordId: keyed(primary, ["groupId", "recordId"], []),
  },
});

/** A group's drive as a whole: how many items it holds (a creation is conditional on the limit, a deletion gives back). */
export const DriveStateEntity = new Entity({
  model: { entity: "drivestate", version: "1", service: SERVICE },
  attributes: { groupId: num, items: { type: "number", required: true, default: 0 } },
  indexes: {
    byGroup: keyed(primary, ["groupId"], []),
  },
});

export type DriveItem = EntityItem<typeof DriveItemEntity>;
export type DriveFile = EntityItem<typeof DriveFileEntity>;
export type DriveGrant = EntityItem<typeof DriveGrantEntity>;

/** The drive domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const driveEntities = registerEntities({
  driveitem: DriveItemEntity,
  driverecordid: DriveRecordIdEntity,
  drivestate: DriveStateEntity,
  drivefile: DriveFileEntity,
  drivemote: DriveMoteEntity,
  drivegrant: DriveGrantEntity,
});
