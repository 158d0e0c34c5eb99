import * as z from "zod";
import { utf8Decode, utf8Encode } from "../bytes";
import { CryptoError } from "../errors";
import type { Key } from "../primitives";
import { fileRefSchema } from "./file-ref";
import { type PageRecordPlace, unwrapRecordKeyForPage, wrapRecordKeyForPage } from "./page-key";
import { type DockeyPlace, type RecordPlace, generateRecordKey, openRecordPayload, sealRecordPayload, unwrapRecordKey, wrapRecordKey } from "./record-key";

/**
 * A mote (card) of a page (docs/protocol.md, "Motes"): a record (record-key.ts) whose payload is
 * the editor payload of spec 001 §3 — `title`, `content`, `_html`, `media`, `attached`, `tags`,
 * `event_start`, `event_end` — plus a blueprint's custom fields `cf_<field>` (any JSON value: the
 * blueprints define them; the payload only keeps them well-formed). Each payload is sealed under a
 * fresh key that its dockey holds under the group key's epoch. A comment on a mote is a record of
 * its own (its own record id and key) with the payload `{ text }`. Neither schema lets the other's
 * payload through (the mote's is strict on its known keys, the comment's on `text`), so a server
 * cannot pass a comment off as a card or the reverse.
 */

export const MOTE_TITLE_MAX = 1024;
/** The text fields (`content`, `_html`): the sealed record is at most 256 KiB of envelope text on the server. */
export const MOTE_TEXT_MAX = 150_000;
export const MOTE_ATTACHED_MAX = 100;
export const MOTE_TAGS_MAX = 50;
export const MOTE_TAG_MAX = 64;
export const MOTE_CUSTOM_FIELDS_MAX = 200;
export const COMMENT_TEXT_MAX = 10_000;

/** `cf_` and a blueprint field's name (letters, digits, underscore, hyphen; at most 64). */
const CUSTOM_FIELD = /^cf_[A-Za-z0-9_-]{1,64}$/;
/** A datetime-local value (`YYYY-MM-DDTHH:MM`, optional seconds): the editor's event fields. */
const DATETIME_LOCAL = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

const knownFields = {
  title: z.string().max(MOTE_TITLE_MAX).optional(),
  content: z.string().max(MOTE_TEXT_MAX).optional(),
  _html: z.string().max(MOTE_TEXT_MAX).optional(),
  /** The media header (an image or video): an attachment reference like the drive's files. */
  media: fileRefSchema.nullable().optional(),
  attached: z.array(fileRefSchema).max(MOTE_ATTACHED_MAX).optional(),
  tags: z.array(z.string().trim().min(1).max(MOTE_TAG_MAX)).max(MOTE_TAGS_MAX).optional(),
  event_start: z.string().regex(DATETIME_LOCAL).nullable().optional(),
  event_end: z.string().regex(DATETIME_LOCAL).nullable().optional(),
};

/** A blueprint field's value, as JSON carries it. */
export type CustomFieldValue = z.infer<ReturnType<typeof z.json>>;

/**
 * The editor payload: the known keys as above (nothing else without the `cf_` prefix), custom
 * fields `cf_<name>` with JSON values; tags compared case-insensitively once (spec 001 §5); an
 * event does not end before it starts.
 */
export const motePayloadSchema = z
  .object(knownFields)
  .catchall(z.json())
  .superRefine((payload, ctx) => {
    const extra = Object.keys(payload).filter((k) => !(k in knownFields));
    for (const key of extra) if (!CUSTOM_FIELD.test(key)) ctx.addIssue({ code: "custom", path: [key], message: "Only cf_<field> custom fields besides the editor's." });
    if (extra.length > MOTE_CUSTOM_FIELDS_MAX) ctx.addIssue({ code: "custom", path: [], message: "Too many custom fields." });
    const tags = payload.tags?.map((t) => t.toLowerCase()) ?? [];
    if (new Set(tags).size !== tags.length) ctx.addIssue({ code: "custom", path: ["tags"], message: "A tag appears once (case-insensitively)." });
    if (payload.event_start && payload.event_end && padSeconds(payload.event_start) > padSeconds(payload.event_end)) {
      ctx.addIssue({ code: "custom", path: ["event_end"], message: "An event ends after it starts." });
    }
  });

/** The known keys typed, custom fields as `cf_<name>`. */
export type MotePayload = z.infer<z.ZodObject<typeof knownFields>> & { [field: `cf_${string}`]: CustomFieldValue };

export const commentPayloadSchema = z.strictObject({
  text: z
    .string()
    .max(COMMENT_TEXT_MAX)
    .refine((t) => t.trim().length > 0, "An empty comment is not posted."),
});
export type CommentPayload = z.infer<typeof commentPayloadSchema>;

/** What a stored mote or comment holds of its sealing: the payload under its key, the key under the epoch's. */
export interface SealedRecord {
  payload: string;
  dockey: string;
  epoch: number;
}

function padSeconds(value: string): string {
  return value.length === 16 ? `${value}:00` : value;
}

/** Where a record's DEK goes: under the group key of an epoch, or (a restricted page's record) under its page key. */
type KeyHolder = { epochKey: Key; place: DockeyPlace } | { pageKey: Key; place: PageRecordPlace };

const recordOf = (place: RecordPlace): RecordPlace => ({ groupId: place?.groupId, recordId: place?.recordId });

async function sealChecked(holder: KeyHolder, data: unknown): Promise<{ payload: string; dockey: string }> {
  const dek = await generateRecordKey();
  const wrapped = "pageKey" in holder ? wrapRecordKeyForPage(holder.pageKey, dek, holder.place) : wrapRecordKey(holder.epochKey, dek, holder.place);
  const [payload, dockey] = await Promise.all([sealRecordPayload(dek, recordOf(holder.place), utf8Encode(JSON.stringify(data))), wrapped]);
  return { payload, dockey };
}

async function openJson(holder: KeyHolder, sealed: { payload: string; dockey: string }, what: string): Promise<unknown> {
  const dek = "pageKey" in holder ? await unwrapRecordKeyForPage(holder.pageKey, sealed?.dockey, holder.place) : await unwrapRecordKey(holder.epochKey, sealed?.dockey, holder.place);
  const bytes = await openRecordPayload(dek, sealed?.payload, recordOf(holder.place));
  try {
    return JSON.parse(utf8Decode(bytes));
  } catch {
    throw new CryptoError("invalid_payload", `${what}'s payload is JSON`);
  }
}

function checkedMote(payload: MotePayload): MotePayload {
  const checked = motePayloadSchema.safeParse(payload);
  if (!checked.success) throw new CryptoError("invalid_input", "not a mote's payload");
  return checked.data as MotePayload;
}

function openedMote(data: unknown): MotePayload {
  const checked = motePayloadSchema.safeParse(data);
  if (!checked.success) throw new CryptoError("invalid_payload", "not a mote's payload");
  return checked.data as MotePayload;
}

function checkedComment(payload: CommentPayload): CommentPayload {
  const checked = commentPayloadSchema.safeParse(payload);
  if (!checked.success) throw new CryptoError("invalid_input", "not a comment's payload");
  return checked.data;
}

function openedComment(data: unknown): CommentPayload {
  const checked = commentPayloadSchema.safeParse(data);
  if (!checked.success) throw new CryptoError("invalid_payload", "not a comment's payload");
  return checked.data;
}

/**
 * Seals a mote's payload under a fresh key and wraps that key under the group key of
 * `place.epoch` (every edit a new key, so a member removed in between cannot read it). A payload
 * that breaks the schema: invalid_input.
 */
export async function sealMote(epochKey: Key, place: DockeyPlace, payload: MotePayload): Promise<SealedRecord> {
  return { ...(await sealChecked({ epochKey, place }, checkedMote(payload))), epoch: place.epoch };
}

/**
 * Opens a mote with the group key of its epoch: both must open for this group and record id
 * (decrypt_failed), and hold a mote's payload (invalid_payload).
 */
export async function openMote(epochKey: Key, sealed: { payload: string; dockey: string }, place: DockeyPlace): Promise<MotePayload> {
  return openedMote(await openJson({ epochKey, place }, sealed, "a mote"));
}

/** Seals a comment (`{ text }`, not blank, at most 10,000 characters) as a record of its own: invalid_input otherwise. */
export async function sealComment(epochKey: Key, place: DockeyPlace, payload: CommentPayload): Promise<SealedRecord> {
  return { ...(await sealChecked({ epochKey, place }, checkedComment(payload))), epoch: place.epoch };
}

/** Opens a comment (decrypt_failed as openMote; not a comment's payload: invalid_payload). */
export async function openComment(epochKey: Key, sealed: { payload: string; dockey: string }, place: DockeyPlace): Promise<CommentPayload> {
  return openedComment(await openJson({ epochKey, place }, sealed, "a comment"));
}

/** A record of a restricted page as sealed: its dockey is under the page key of `generation`, not under any epoch key. */
export interface PageSealedRecord {
  payload: string;
  dockey: string;
  generation: number;
}

/**
 * Seals a mote of a restricted page (docs/protocol.md, "Restricted pages"): a fresh DEK, wrapped
 * under the page key of `place.generation` with `pagedockey:<groupId>:<recordId>:<pageId>:<generation>`;
 * the group key opens nothing of it. A payload that breaks the schema: invalid_input.
 */
export async function sealMoteForPage(pageKey: Key, place: PageRecordPlace, payload: MotePayload): Promise<PageSealedRecord> {
  return { ...(await sealChecked({ pageKey, place }, checkedMote(payload))), generation: place.generation };
}

/** Opens a restricted page's mote with the page key of its generation: moved to another group, record, page or generation, another key: decrypt_failed. */
export async function openMoteForPage(pageKey: Key, sealed: { payload: string; dockey: string }, place: PageRecordPlace): Promise<MotePayload> {
  return openedMote(await openJson({ pageKey, place }, sealed, "a mote"));
}

/** Seals a comment on a restricted page's mote under the page key, as sealMoteForPage does. */
export async function sealCommentForPage(pageKey: Key, place: PageRecordPlace, payload: CommentPayload): Promise<PageSealedRecord> {
  return { ...(await sealChecked({ pageKey, place }, checkedComment(payload))), generation: place.generation };
}

/** Opens a comment of a restricted page (as openMoteForPage). */
export async function openCommentForPage(pageKey: Key, sealed: { payload: string; dockey: string }, place: PageRecordPlace): Promise<CommentPayload> {
  return openedComment(await openJson({ pageKey, place }, sealed, "a comment"));
}
