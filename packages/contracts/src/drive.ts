import * as z from "zod";
import { MEMBERS } from "./access";
import { attachmentQuery, attachmentState, attachmentUpload, attachmentUrl, completeAttachment, newAttachment } from "./attachments";
import { aeadText, attribution } from "./conversations";
import * as f from "./fields";
import { signedRecordUpTo } from "./identities";
import { permitBody, permissionsView } from "./pages";
import { route, type RouteContract } from "./route";

/**
 * A group's drive (spec 001 §2 Drive page, §3 Drive mote, §4, §6; docs/api.md, Drive): a tree of
 * drives, folders and (next) files, each a record of the group (docs/protocol.md, "Records and
 * dockeys"): its payload (name, tags) is an `aead` envelope under a key of its own, and that key
 * is wrapped under the group key's epoch (the dockey). The server sees the ids, the kind, the
 * parent, the author, the times, the sizes and the epoch; never a name.
 */

/** Records of one group's drive (a limit per drive and its answer: one GET lists the tree). */
export const DRIVE_ITEMS_MAX = 10_000;
/** An item's sealed payload: a name, tags and (for files) the file's reference. */
export const DRIVE_PAYLOAD_MAX = 16 * 1024;
/** A sealed record key (32 bytes in an `aead` envelope). */
export const DOCKEY_MAX = 256;

/** Drives are the roots; folders and files sit in a drive or a folder. */
export const DRIVE_KINDS = ["drive", "folder", "file"] as const;
export type DriveKind = (typeof DRIVE_KINDS)[number];

/**
 * The record id the creating browser chose (docs/protocol.md): 16 random bytes as canonical
 * base64url, 22 characters, whose last one carries 2 bits of data (A, Q, g or w).
 */
export const recordId = z.string().regex(/^[A-Za-z0-9_-]{21}[AQgw]$/, "A record id is 16 bytes in base64url.");

export const driveParams = z.object({ id: f.idParam });
export const driveItemParams = z.object({ id: f.idParam, rid: f.idParam });
export const driveFileParams = z.object({ id: f.idParam, fid: f.idParam });

const epoch = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const driveItemView = z.object({
  id: z.number(),
  record_id: z.string(),
  kind: z.enum(DRIVE_KINDS),
  /** The drive or folder it sits in; 0 for a drive. */
  parent: z.number(),
  source_id: z.number(),
  /** Seconds. */
  created: z.number(),
  modified: z.number(),
  /** `aead` envelope text under the item's own key. */
  payload: z.string(),
  /** The item's key under the group key of `epoch`. */
  dockey: z.string(),
  epoch: z.number(),
  /** A file's upload (GET …/files/{fid}) and its encrypted size; null and 0 for drives and folders. */
  file_id: z.number().nullable(),
  size: z.number(),
  /** Whether the caller may rename it, move it and delete it (spec 001 §6). */
  editable: z.boolean(),
  /** Whether any of its read, write and use lists names someone (the padlock). */
  has_grants: z.boolean(),
  /**
   * Whether its read list names someone: then `dockey` is "" and its key reaches its readers as
   * signed grants, `grant` the caller's own (null: none for the caller).
   */
  restricted: z.boolean(),
  grant: z.record(z.string(), z.unknown()).nullable(),
  /**
   * For a restricted item whose lists the caller may set: its readers without a grant (`missing`,
   * e.g. new holders of a named role) and holders of a grant who read it no more (`former`); else null.
   */
  regrant: z.object({ missing: z.array(z.number()), former: z.array(z.number()) }).nullable(),
});
export type DriveItemView = z.infer<typeof driveItemView>;

export const driveView = z.object({
  items: z.array(driveItemView),
  /** The authors' names (members who left included). */
  attrib: attribution,
  /** The group key's current epoch, and whether a removal waits for the next one (no new items until then). */
  epoch: z.number(),
  needs_rekey: z.boolean(),
  /** Whether the caller may add items (the drive page's use level). */
  can_create: z.boolean(),
  am_group_admin: z.boolean(),
});
export type DriveView = z.infer<typeof driveView>;

/** A sealed payload with its key, for the epoch it is sealed for (the current one; 409 epoch_stale otherwise). */
const sealed = {
  payload: aeadText(DRIVE_PAYLOAD_MAX),
  dockey: aeadText(DOCKEY_MAX),
  epoch,
};

export const newDriveItem = z
  .object({
    record_id: recordId,
    kind: z.enum(DRIVE_KINDS),
    /** The drive or folder to put it in; 0 (or absent) for a drive. */
    parent: z.union([f.id, z.literal(0)]).default(0),
    /** A file's completed upload (POST …/files, then …/complete), by whoever creates the item. */
    file: f.id.optional(),
    ...sealed,
  })
  .refine((b) => (b.kind === "file") === (b.file !== undefined), { message: "A file item names its upload; a drive or folder none.", path: ["file"] });

/** A grant of an item's key (the crypto package's `SignedSealedKey`, JSON) is a few hundred characters. */
export const DRIVE_GRANT_MAX_CHARS = 4 * 1024;
/**
 * Readers a restricted item's key is granted to: every grant of it is replaced in the permit's
 * one transaction (at most 100 writes), with the item.
 */
export const DRIVE_READERS_MAX = 90;

/** One reader's grant of an item's key: sealed for their verified key and signed by the caller. */
export const driveGrant = z.object({ user_id: f.id, grant: signedRecordUpTo(DRIVE_GRANT_MAX_CHARS) });
const driveGrants = z.array(driveGrant).min(1).max(DRIVE_READERS_MAX);

/**
 * A new sealing of an item's payload under a fresh key, for the epoch current now: with `dockey`
 * (that key under the group key: the item is readable by the group) or with `grants` (that key for
 * each reader: the item has a read list), never both.
 */
export const driveSeal = z
  .object({ payload: sealed.payload, dockey: sealed.dockey.optional(), grants: driveGrants.optional(), epoch })
  .refine((b) => (b.dockey === undefined) !== (b.grants === undefined), { message: "A new sealing has a dockey or grants, not both.", path: ["dockey"] });

/**
 * POST /api/drive/items/{rid}/permit: the item's read, write and use lists (use: drives and folders), and
 * when its read list changes (or to grant its key to new holders of a role) a new sealing.
 */
export const drivePermitBody = permitBody.extend({ seal: driveSeal.optional() });

/** A drive item by its number alone (the spec names these routes api/motes/{id}/…; cards are motes here, with numbers of their own). */
export const driveItemIdParams = z.object({ rid: f.idParam });
export const driveCanIQuery = z.object({ permission: z.enum(["read", "write", "use"]) });

/** A rename or a tag edit (a new payload under a new key), a move (a new parent), or both. */
export const driveItemUpdate = z
  .object({
    payload: sealed.payload.optional(),
    dockey: sealed.dockey.optional(),
    /** Instead of a dockey, for an item with a read list: its new key granted to each reader. */
    grants: driveGrants.optional(),
    epoch: epoch.optional(),
    parent: f.id.optional(),
  })
  .refine(
    (b) =>
      [b.payload, b.epoch].every((v) => v === undefined) === (b.dockey === undefined && b.grants === undefined) &&
      [b.payload, b.epoch].every((v) => v === undefined) !== [b.payload, b.epoch].every((v) => v !== undefined) &&
      (b.dockey === undefined || b.grants === undefined),
    {
      message: "A new payload comes with its key and epoch.",
      path: ["payload"],
    },
  )
  .refine((b) => b.payload !== undefined || b.parent !== undefined, { message: "Nothing to change.", path: ["payload"] });

export const driveItemAnswer = z.object({ item: driveItemView });

export const driveRoutes = {
  "GET /api/drive/{id}": route({ access: MEMBERS, params: driveParams, response: driveView }),
  "POST /api/drive/{id}": route({ access: MEMBERS, params: driveParams, body: newDriveItem, response: driveItemAnswer }),
  "PATCH /api/drive/{id}/update/{rid}": route({ access: MEMBERS, methodOverride: true, params: driveItemParams, body: driveItemUpdate, response: driveItemAnswer }),
  "DELETE /api/drive/{id}/destroy/{rid}": route({
    access: MEMBERS,
    methodOverride: true,
    params: driveItemParams,
    /** The ids of the item and of everything that was in it. */
    response: z.object({ deleted: z.array(z.number()) }),
  }),
  // A file's encrypted bytes: the conversations' upload protocol (docs/api.md, Attachments) in the drive's space.
  "POST /api/drive/{id}/files": route({ access: MEMBERS, params: driveParams, body: newAttachment, response: attachmentUpload }),
  "POST /api/drive/{id}/files/{fid}/complete": route({ access: MEMBERS, params: driveFileParams, body: completeAttachment, response: attachmentState }),
  "GET /api/drive/{id}/files/{fid}": route({ access: MEMBERS, params: driveFileParams, query: attachmentQuery, response: attachmentUrl }),
  // An item's permissions (spec 001 §6, §7), by its numeric id as the item routes above.
  "GET /api/drive/items/{rid}/permissions": route({ access: MEMBERS, params: driveItemIdParams, response: permissionsView }),
  "POST /api/drive/items/{rid}/permit": route({ access: MEMBERS, params: driveItemIdParams, body: drivePermitBody, response: permissionsView }),
  "GET /api/drive/items/{rid}/canI": route({ access: MEMBERS, params: driveItemIdParams, query: driveCanIQuery, response: z.object({ grant: z.boolean() }) }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core/src/drive/errors.ts). */
export const driveErrorCodes = [
  "drive_item_not_found",
  "drive_parent_invalid",
  "drive_move_forbidden",
  "drive_edit_forbidden",
  "drive_delete_forbidden",
  "drive_full",
  "record_id_taken",
  "drive_use_forbidden",
  "drive_use_on_file",
  "drive_seal_invalid",
  "drive_item_changed",
] as const;
