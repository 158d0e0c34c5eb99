import * as z from "zod";
import { MEMBERS } from "./access";
import { attachmentQuery, attachmentState, attachmentUpload, attachmentUrl, completeAttachment, newAttachment } from "./attachments";
import { aeadText, attribution } from "./conversations";
import { DOCKEY_MAX, recordId } from "./drive";
import * as f from "./fields";
import { PAGE_TYPES } from "./groups";
import { pageKeyGeneration } from "./page-keys";
import { route, type RouteContract } from "./route";

/**
 * Records (motes): the cards of a group's pages (spec 001 §3 Mote, §5, §7; docs/api.md, Records
 * (motes)). Each is a record of the group (docs/protocol.md, "Records and dockeys", "Motes"): its
 * payload (the editor payload: title, text, attachments, tags, event, custom fields) is an `aead`
 * envelope under a key of its own, wrapped under the group key's epoch (the dockey). The server
 * sees ids, the page, the schema id, the author, times, sizes, relationships between ids and the
 * epoch; never a payload. Comments are records of their own, under the mote they belong to.
 */

/** A card's sealed payload (DynamoDB items hold 400 kB; a card's text, HTML and custom fields fit). */
export const MOTE_RECORD_MAX = 256 * 1024;
/** A comment's sealed payload. */
export const COMMENT_RECORD_MAX = 32 * 1024;
/** Relationships one mote holds. */
export const RELATIONSHIPS_MAX = 100;
/** Motes one multipatch changes (one transaction: each change and the group's epoch check). */
export const MULTIPATCH_MAX = 50;
/** Motes one relationMotes call fetches (one batch read). */
export const RELATION_MOTES_MAX = 100;
/** A page of a page's motes. */
export const MOTES_PAGE_MAX = 100;
/** Comments one mote holds. */
export const COMMENTS_MAX = 1000;

const epoch = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** A relationship (spec 001 §3): this mote's `field` points at mote `id` of the same group. */
export const relationship = z.strictObject({
  field: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "A relationship's field is 1 to 64 letters, digits, - or _."),
  id: f.id,
});
export type Relationship = z.infer<typeof relationship>;

/**
 * A payload sealed for the epoch it names (the current one; 409 epoch_stale otherwise), with its
 * key: under the group key of that epoch, or on a restricted page under the page key of
 * `page_key` (its current generation; docs/protocol.md, "Restricted pages").
 */
const sealed = {
  payload: aeadText(MOTE_RECORD_MAX),
  dockey: aeadText(DOCKEY_MAX),
  epoch,
  page_key: pageKeyGeneration.optional(),
};

export const moteParams = z.object({ id: f.idParam });

/** Files one card lists (its attachments and its media): with the card and the epoch check, one transaction (at most 100 items). */
export const MOTE_FILES_MAX = 90;
/**
 * The files a card's payload references, by id (POST /api/motes/files): the server links them to
 * the card, so that only those who may read the card fetch them. It cannot check them against the
 * sealed payload; a file the payload names but the card does not list is refused to every reader.
 */
const moteFiles = z.array(f.id).max(MOTE_FILES_MAX);

/** POST /api/motes/files: an encrypted file's upload for a card of this page (the page's use level). */
export const moteFileStart = newAttachment.extend({ page_id: f.id });
export const moteFileParams = z.object({ fid: f.idParam });

export const newMote = z.strictObject({
  group_id: f.id,
  /** The page (domain) it belongs to: one of the six page types of this group. */
  page_id: f.id,
  record_id: recordId,
  /** The blueprint (schema) it follows; 0 for none. */
  type_id: z.union([f.id, z.literal(0)]).default(0),
  relationships: z.array(relationship).max(RELATIONSHIPS_MAX).default([]),
  files: moteFiles.default([]),
  ...sealed,
});

/** An edit: a new payload under a new key for the current epoch; relationships replaced when given. */
export const moteEdit = z.strictObject({
  ...sealed,
  relationships: z.array(relationship).max(RELATIONSHIPS_MAX).optional(),
  /** The files it references now (replacing the list; those left out are deleted); unchanged when left out. */
  files: moteFiles.optional(),
});

/**
 * PATCH /api/motes/multipatch, as a whole: a group id and a non-empty motes array (else 422
 * mote_patch_invalid, 'Invalid parameters!'). Each mote is checked by `multipatchMote`.
 */
export const multipatch = z.object({
  group_id: f.id,
  quick: z.union([z.literal(0), z.literal(1), z.boolean()]).optional(),
  quiet: z.union([z.literal(0), z.literal(1), z.boolean()]).optional(),
  motes: z.array(z.unknown()).min(1).max(MULTIPATCH_MAX),
});

/** One mote of a multipatch: a positive id, its page (domain_id), a payload with its key (else 422 mote_invalid, 'Invalid mote parameters!'). */
export const multipatchMote = z.strictObject({
  id: f.id,
  domain_id: f.id,
  type_id: z.union([f.id, z.literal(0)]).optional(),
  ...sealed,
});

export const motesQuery = z.object({
  page: f.idParam,
  /** Motes older than this id (the previous answer's `next`). */
  before: f.idParam.optional(),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/)
    .transform(Number)
    .pipe(z.number().max(MOTES_PAGE_MAX))
    .optional(),
});

/** Ids as the spec sends them: comma separated (or `!` as the dockey chunks join them). */
export const relationMotesQuery = z.object({
  gid: f.idParam,
  ids: z
    .string()
    .max(RELATION_MOTES_MAX * 17)
    .transform((text) => text.split(/[,!]/))
    .pipe(z.array(f.idParam).min(1).max(RELATION_MOTES_MAX)),
  prefetch: z.enum(["0", "1"]).optional(),
  full: z.enum(["0", "1"]).optional(),
});

export const bestPagesQuery = z.object({ type: z.enum(PAGE_TYPES), mote_id: f.idParam });
export const canIQuery = z.object({ permission: z.enum(["read", "write"]).default("read") });

export const recordMoteView = z.object({
  id: z.number(),
  record_id: z.string(),
  group_id: z.number(),
  /** The page (domain) it belongs to. */
  domain_id: z.number(),
  type_id: z.number(),
  source_id: z.number(),
  /** Seconds. */
  timestamp: z.number(),
  modified: z.number(),
  relationships: z.array(relationship),
  /** `aead` envelope text under the mote's own key. */
  payload: z.string(),
  /** Its key under the group key of `epoch`, or under the page key of `page_key` when that is not null. */
  dockey: z.string(),
  epoch: z.number(),
  page_key: z.number().nullable(),
  /** The sealed payload's length. */
  size: z.number(),
  comments: z.number(),
  /** The files it lists (GET /api/motes/files/{fid}): its media and attachments. */
  files: z.array(z.number()),
  /** Whether the caller may change and delete it (spec 001 §6). */
  editable: z.boolean(),
});
export type RecordMoteView = z.infer<typeof recordMoteView>;

export const commentView = z.object({
  id: z.number(),
  record_id: z.string(),
  mote_id: z.number(),
  source_id: z.number(),
  timestamp: z.number(),
  payload: z.string(),
  dockey: z.string(),
  epoch: z.number(),
  /** The page key generation its key is under (a restricted page's comment); null: the group key's epoch. */
  page_key: z.number().nullable(),
  /** Whether the caller may delete it: its author, a group administrator. */
  deletable: z.boolean(),
});
export type CommentView = z.infer<typeof commentView>;

export const moteAnswer = z.object({ mote: recordMoteView });
export const motesPage = z.object({
  motes: z.array(recordMoteView),
  attrib: attribution,
  /** The `before` of the next page; null at the end. */
  next: z.number().nullable(),
  /** The group key's current epoch, and whether a removal waits for the next one (no writes until then). */
  epoch: z.number(),
  needs_rekey: z.boolean(),
  /** Whether the caller may add motes here (the page's use level: 'Not allowed to edit or create items from this page!' otherwise). */
  can_create: z.boolean(),
});
export const moteWithComments = z.object({ mote: recordMoteView, comments: z.array(commentView), attrib: attribution });

export const newComment = z.strictObject({ record_id: recordId, payload: aeadText(COMMENT_RECORD_MAX), dockey: aeadText(DOCKEY_MAX), epoch, page_key: pageKeyGeneration.optional() });
/** Comments one re-sealing changes (one transaction with the epoch and page checks). */
export const COMMENT_RESEAL_MAX = 40;

/**
 * POST /api/motes/{id}/comment/reseal (group administrators): the card's comments sealed anew
 * under the key its page's records go under now (docs/protocol.md, "Restricted pages"): each
 * comment by id with its new payload and key; the text is the same, only the key changes.
 */
export const commentReseal = z.strictObject({
  comments: z
    .array(z.strictObject({ id: f.id, payload: aeadText(COMMENT_RECORD_MAX), dockey: aeadText(DOCKEY_MAX), epoch, page_key: pageKeyGeneration.optional() }))
    .min(1)
    .max(COMMENT_RESEAL_MAX),
});

/** The spec names a comment by index and timestamp; here by its id (the index of a list that can change under the caller names nothing for sure). */
export const commentDelete = z.strictObject({ comment_id: f.id });

export const moteRoutes = {
  "POST /api/motes": route({ access: MEMBERS, body: newMote, response: moteAnswer }),
  "GET /api/motes": route({ access: MEMBERS, query: motesQuery, response: motesPage }),
  "PATCH /api/motes/multipatch": route({ access: MEMBERS, methodOverride: true, body: multipatch, response: z.object({ success: z.array(z.number()) }) }),
  "GET /api/motes/relationMotes": route({ access: MEMBERS, query: relationMotesQuery, response: z.object({ motes: z.array(recordMoteView) }) }),
  "GET /api/pages/best": route({ access: MEMBERS, query: bestPagesQuery, response: z.object({ pages: z.array(z.number()) }) }),
  // A card's files: the conversations' upload protocol (docs/api.md, Attachments) in the group's cards' space.
  "POST /api/motes/files": route({ access: MEMBERS, body: moteFileStart, response: attachmentUpload }),
  "POST /api/motes/files/{fid}/complete": route({ access: MEMBERS, params: moteFileParams, body: completeAttachment, response: attachmentState }),
  "GET /api/motes/files/{fid}": route({ access: MEMBERS, params: moteFileParams, query: attachmentQuery, response: attachmentUrl }),
  "GET /api/motes/{id}": route({ access: MEMBERS, params: moteParams, response: moteWithComments }),
  "PATCH /api/motes/{id}": route({ access: MEMBERS, methodOverride: true, params: moteParams, body: moteEdit, response: moteAnswer }),
  "DELETE /api/motes/{id}": route({ access: MEMBERS, methodOverride: true, params: moteParams, response: z.object({ deleted: z.number() }) }),
  "GET /api/motes/{id}/canI": route({ access: MEMBERS, params: moteParams, query: canIQuery, response: z.object({ grant: z.boolean() }) }),
  "POST /api/motes/{id}/comment": route({ access: MEMBERS, params: moteParams, body: newComment, response: z.object({ comments: z.array(commentView) }) }),
  "POST /api/motes/{id}/comment/delete": route({ access: MEMBERS, params: moteParams, body: commentDelete, response: z.object({ success: z.literal(true) }) }),
  "POST /api/motes/{id}/comment/reseal": route({ access: MEMBERS, params: moteParams, body: commentReseal, response: z.object({ comments: z.array(commentView) }) }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core/src/mote/errors.ts). */
export const moteErrorCodes = [
  "mote_not_found",
  "mote_page_invalid",
  "mote_read_only",
  "mote_edit_forbidden",
  "mote_patch_invalid",
  "mote_invalid",
  "mote_relation_invalid",
  "mote_comments_full",
  "comment_not_found",
  "comment_delete_forbidden",
] as const;
