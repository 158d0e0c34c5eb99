import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { SERVICE, keyed, primary, ttl } from "../db/schema";

/**
 * A file upload to look at again once its day is up (Uploads.watch, written before the file's
 * own item): the upload sweep (UploadSweep.run) asks the file's domain whether a message, a drive
 * item or a card took it, and deletes its item and bytes if none did. Ordered by `dueAt` in one
 * partition, as the pickups' expiry index is; the TTL is a backstop long after.
 */
export const FileWatchEntity = new Entity({
  model: { entity: "filewatch", version: "1", service: SERVICE },
  attributes: {
    /** Seconds: when the sweep takes it. */
    dueAt: { type: "number", required: true, padding: { length: 12, char: "0" } },
    owner: { type: ["conversation", "drive", "cards"] as const, required: true },
    /** The conversation's or the group's id. */
    ownerId: { type: "number", required: true },
    fileId: { type: "number", required: true, padding: { length: 16, char: "0" } },
    expiresAt: ttl,
  },
  indexes: {
    byDue: keyed(primary, [], ["dueAt", "owner", "fileId"]),
  },
});

export type FileWatch = EntityItem<typeof FileWatchEntity>;

/** The sweep domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const sweepEntities = registerEntities({
  filewatch: FileWatchEntity,
});
