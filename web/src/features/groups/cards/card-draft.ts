import { ATTACHMENT_MAX_BYTES, MOTE_FILES_MAX } from "@sealwork/contracts";
import type { FileRef, MotePayload } from "@sealwork/crypto";
import { type EditorFields, fieldsOfPayload, payloadOfFields } from "../records/record-payload";

/**
 * The card editor's form as pure data (spec 001 §2 "Card editor popup", §4, §5, §9): the editor's
 * fields, the files attached with their upload states, and what stops a save. The payload itself
 * is the records module's (record-payload.ts). Page types say which fields they need; blueprints
 * (schema-defined fields) add theirs under `custom` with their own checks, without changing the rest.
 */

/** Rich text: font sizes in points and the five fonts (spec 001 §2). */
export const FONT_SIZES_PT = [8, 10, 12, 14, 18, 24, 36] as const;
export const FONTS = ["Arial", "Georgia", "Tahoma", "Times New Roman", "Verdana"] as const;
/** One file at a time, at most 1024 MB (spec 001 §5, §9; the limit the upload endpoints hold too). */
export const ATTACHMENT_MAX_MB = ATTACHMENT_MAX_BYTES / 1024 / 1024;
/** Attachments one card holds: the files its record lists, less the media's place. */
export const ATTACHMENTS_MAX = MOTE_FILES_MAX - 1;

/** The states of one upload (spec 001 §4): added while it is encrypted, uploading with its progress, then one of the ends. */
export type UploadState = "encrypting" | "uploading" | "success" | "error" | "timeout" | "rejected" | "removed";
/** Why a file was rejected: before any upload (too large, not an image or video for the media slot), or by the server. */
export type Rejection = "tooLarge" | "notMedia";

export interface Upload {
  /** This editor's own key for the slot (a file may be attached twice). */
  key: string;
  name: string;
  size: number;
  type: string;
  state: UploadState;
  /** Bytes done and total while uploading. */
  done: number;
  total: number;
  rejection?: Rejection;
  /** What the record carries once uploaded (or as it was saved, for a card being edited). */
  file?: FileRef;
}

/** The fields a page type can require (spec 002 §5: pinboard and blog title and content, calendar a title, gallery media). */
export type CoreField = "title" | "content" | "media";

/**
 * The form: the editor's fields as the records module takes them (records/record-payload.ts),
 * with the media and attachments as uploads that carry their state until they are done.
 */
export interface CardDraft extends Omit<EditorFields, "media" | "attached"> {
  media: Upload | null;
  attachments: Upload[];
}

export type DraftProblem =
  | { code: "waitForAttachment" }
  | { code: "requiredFieldMissing"; field: CoreField }
  | { code: "dateInvalid"; field: "event" }
  | { code: "invalid" };

const saved = (file: FileRef, n: number): Upload => ({ key: `saved-${n}`, name: file.name, size: file.size, type: file.type, state: "success", done: file.size, total: file.size, file });

/** The form for a new card (no payload) or for editing one. */
export function draftOf(payload?: MotePayload): CardDraft {
  const { media, attached, ...fields } = fieldsOfPayload(payload ?? {});
  return { ...fields, media: media ? saved(media, 0) : null, attachments: attached.map((file, i) => saved(file, i + 1)) };
}

/** An upload still running: saving waits for it (spec 001 §5, moteEditor.waitForAttachment). */
export const isBusy = (upload: Upload | null) => upload !== null && (upload.state === "encrypting" || upload.state === "uploading");

const done = (upload: Upload | null): FileRef | null => (upload?.state === "success" && upload.file ? upload.file : null);

/** The editor's fields of the form: only finished uploads. */
export function fieldsOf(draft: CardDraft): EditorFields {
  const { media, attachments, ...fields } = draft;
  return { ...fields, media: done(media), attached: attachments.flatMap((a) => done(a) ?? []) };
}

/** A rich body with no text and nothing embedded counts as empty. */
const htmlIsEmpty = (html: string) => html.replace(/<[^>]*>/g, "").trim() === "";

/**
 * What stops a save, in the order the user should fix it, or the payload to seal: files still
 * uploading, the fields the page type requires, an event that ends before it starts, and what the
 * payload's schema refuses (too long, too many).
 */
export function checkDraft(draft: CardDraft, required: readonly CoreField[]): { problems: DraftProblem[] } | { payload: MotePayload } {
  const problems: DraftProblem[] = [];
  if (isBusy(draft.media) || draft.attachments.some(isBusy)) problems.push({ code: "waitForAttachment" });
  for (const field of required) {
    const missing = field === "title" ? draft.title.trim() === "" : field === "content" ? draft.content.trim() === "" && htmlIsEmpty(draft.html) : done(draft.media) === null;
    if (missing) problems.push({ code: "requiredFieldMissing", field });
  }
  if (problems.length > 0) return { problems };
  const made = payloadOfFields(fieldsOf({ ...draft, html: htmlIsEmpty(draft.html) ? "" : draft.html }));
  if ("problem" in made) return { problems: [made.problem === "dateInvalid" ? { code: "dateInvalid", field: "event" } : { code: "invalid" }] };
  return { payload: made.payload };
}

/** Whether a picked file may go into a slot at all (spec 001 §5): the media slot takes image/* and video/* only. */
export function admission(file: Pick<File, "size" | "type">, slot: "media" | "attachment"): Rejection | null {
  if (file.size > ATTACHMENT_MAX_BYTES) return "tooLarge";
  if (slot === "media" && !/^(image|video)\//.test(file.type)) return "notMedia";
  return null;
}
