import { Entity, type EntityItem } from "electrodb";
import { registerEntities } from "../db/registry";
import { SERVICE, gsi1, keyed, now, primary, ttl } from "../db/schema";

const num = { type: "number", required: true } as const;
const str = { type: "string", required: true } as const;

/**
 * A mote (card) of a group's page (spec 001 §3, Mote): a record of the group (docs/protocol.md,
 * "Records and dockeys", "Motes"). The server keeps its page, schema id, author, times,
 * relationships and sizes; everything a person wrote is in `payload`, sealed under a key of its
 * own that `dockey` holds under the group key of `epoch`. gsi1 lists a page's motes by id.
 */
export const PageMoteEntity = new Entity({
  model: { entity: "pagemote", version: "1", service: SERVICE },
  attributes: {
    id: { ...num, padding: { length: 16, char: "0" } },
    groupId: num,
    pageId: num,
    /** The creating browser's id for the record (every sealed string names it). */
    recordId: str,
    typeId: { type: "number", required: true, default: 0 },
    sourceId: num,
    created: num,
    modified: num,
    relationships: {
      type: "list",
      required: true,
      default: () => [],
      items: { type: "map", properties: { field: str, id: num } },
    },
    payload: str,
    dockey: str,
    epoch: num,
    /** On a restricted page: the page key generation `dockey` is under (not the group key); absent or 0 otherwise. */
    pageKey: { type: "number" },
    /** How many comments it holds (a comment's creation is conditional on the limit). */
    comments: { type: "number", required: true, default: 0 },
    /** The files its payload references (MoteFileEntity ids): only these are served to its readers. */
    files: { type: "list", required: true, default: () => [], items: { type: "number" } },
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
    byPage: keyed(gsi1, ["pageId"], ["id"]),
  },
});

/** A comment on a mote: a record of its own (its own record id and key). */
export const MoteCommentEntity = new Entity({
  model: { entity: "motecomment", version: "1", service: SERVICE },
  attributes: {
    moteId: num,
    id: { ...num, padding: { length: 16, char: "0" } },
    groupId: num,
    recordId: str,
    sourceId: num,
    created: num,
    payload: str,
    dockey: str,
    epoch: num,
    /** As the mote's: the page key generation its dockey is under, on a restricted page. */
    pageKey: { type: "number" },
  },
  indexes: {
    byMote: keyed(primary, ["moteId"], ["id"]),
  },
});

/**
 * Which mote or comment a record id became: create-only, so one record id is one record per
 * group and a retried creation stores one.
 */
export const MoteRecordIdEntity = new Entity({
  model: { entity: "moterecordid", version: "1", service: SERVICE },
  attributes: { groupId: num, recordId: str, kind: { type: ["mote", "comment"] as const, required: true }, itemId: num, moteId: num, sourceId: num },
  indexes: {
    byRecordId: keyed(primary, ["groupId", "recordId"], []),
  },
});

/**
 * A card's file (its media or an attachment): encrypted bytes in the group's cards' space of the
 * bucket (storage.ts, cardFiles), `pending` with a TTL while it uploads, `uploaded` once the
 * bucket has every byte, `attached` (TTL removed) when a card lists it; only attached files are
 * served, to those who may read that card.
 */
export const MoteFileEntity = new Entity({
  model: { entity: "motefile", version: "1", service: SERVICE },
  attributes: {
    id: { ...num, padding: { length: 16, char: "0" } },
    groupId: num,
    sourceId: num,
    size: num,
    thumbSize: { type: "number", required: true, default: 0 },
    state: { type: ["pending", "uploaded", "attached"] as const, required: true },
    uploadId: { type: "string" },
    moteId: { type: "number" },
    createdAt: { type: "number", required: true, default: now, readOnly: true },
    expiresAt: ttl,
  },
  indexes: {
    byId: keyed(primary, ["id"], []),
  },
});

export type PageMote = EntityItem<typeof PageMoteEntity>;
export type MoteFile = EntityItem<typeof MoteFileEntity>;
export type MoteComment = EntityItem<typeof MoteCommentEntity>;

/** The mote domain's item kinds, registered with the db module by importing this file (db/registry.ts). */
export const moteEntities = registerEntities({
  pagemote: PageMoteEntity,
  motecomment: MoteCommentEntity,
  moterecordid: MoteRecordIdEntity,
  motefile: MoteFileEntity,
});
