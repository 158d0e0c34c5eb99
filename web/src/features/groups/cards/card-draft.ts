import { ATTACHMENT_MAX_BYTES } from "@sealwork/contracts";
import type { FileRef } from "@sealwork/crypto";
import { parseTags } from "../../../lib/tags";

/**
 * The card editor's form as pure data (spec 001 §2 "Card editor popup", §3 "Editor payload", §5,
 * §9): what the user typed, the files attached and their upload states, and how that becomes the
 * payload a record seals. Page types say which fields they need; blueprints (schema-defined fields)
 * add theirs under `fields` with keys `cf_<name>` and their own checks, without changing the rest.
 */

/** Rich text: font sizes in points and the five fonts (spec 001 §2). */
export const FONT_SIZES_PT = [8, 10, 12, 14, 18, 24, 36] as const;
export const FONTS = ["Arial", "Georgia", "Tahoma", "Times New Roman", "Verdana"] as const;
/** One file at a time, at most 1024 MB (spec 001 §5, §9; the limit the upload endpoints hold too). */
export const ATTACHMENT_MAX_MB = ATTACHMENT_MAX_BYTES / 1024 / 1024;

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

export interface CardDraft {
  title: string;
  /** The rich body as the editor's HTML; empty when unused. */
  html: string;
  content: string;
  media: Upload | null;
  attachments: Upload[];
  /** As typed: comma separated (spec 001 §5). */
  tags: string;
  /** datetime-local values ("2026-11-24T09:30"): the event's wall-clock time, as the record keeps it; empty when unset. */
  eventStart: string;
  eventEnd: string;
  /** Schema-defined fields (blueprints): `cf_<name>` → JSON value. */
  fields: Record<string, unknown>;
}

/** The card as its record carries it (spec 001 §3 "Editor payload"; the mote payload of the crypto package). */
export interface CardContent {
  title: string;
  content: string;
  _html?: string;
  media?: FileRef;
  attached: FileRef[];
  tags: string[];
  event_start?: string | null;
  event_end?: string | null;
  [custom: `cf_${string}`]: unknown;
}

export type DraftProblem =
  | { code: "waitForAttachment" }
  | { code: "requiredFieldMissing"; field: CoreField }
  | { code: "dateInvalid"; field: "event" };

const DATETIME_LOCAL = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
/** A datetime-local value as the record keeps it, or undefined when empty or not one. */
const eventTime = (value: string) => (DATETIME_LOCAL.test(value) ? value : undefined);
/** Comparable: seconds added where the input left them out. */
const comparable = (value: string) => (value.length === 16 ? `${value}:00` : value);

const saved = (file: FileRef, n: number): Upload => ({ key: `saved-${n}`, name: file.name, size: file.size, type: file.type, state: "success", done: file.size, total: file.size, file });

/** The form for a new card (no content) or for editing one. */
export function draftOf(card?: CardContent): CardDraft {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(card ?? {})) if (key.startsWith("cf_")) fields[key] = value;
  return {
    title: card?.title ?? "",
    html: card?._html ?? "",
    content: card?.content ?? "",
    media: card?.media ? saved(card.media, 0) : null,
    attachments: (card?.attached ?? []).map((file, i) => saved(file, i + 1)),
    tags: (card?.tags ?? []).join(", "),
    eventStart: card?.event_start ?? "",
    eventEnd: card?.event_end ?? "",
    fields,
  };
}

/** An upload still running: saving waits for it (spec 001 §5, moteEditor.waitForAttachment). */
export const isBusy = (upload: Upload | null) => upload !== null && (upload.state === "encrypting" || upload.state === "uploading");

/** A rich body with no text and nothing embedded counts as empty. */
const htmlIsEmpty = (html: string) => html.replace(/<[^>]*>/g, "").trim() === "";

/** What stops a save, in the order the user should fix it; none when it may be saved. */
export function problemsOf(draft: CardDraft, required: readonly CoreField[]): DraftProblem[] {
  const problems: DraftProblem[] = [];
  if (isBusy(draft.media) || draft.attachments.some(isBusy)) problems.push({ code: "waitForAttachment" });
  for (const field of required) {
    const missing =
      field === "title" ? draft.title.trim() === "" : field === "content" ? draft.content.trim() === "" && htmlIsEmpty(draft.html) : draft.media?.state !== "success";
    if (missing) problems.push({ code: "requiredFieldMissing", field });
  }
  const start = eventTime(draft.eventStart);
  const end = eventTime(draft.eventEnd);
  if (start !== undefined && end !== undefined && comparable(start) > comparable(end)) problems.push({ code: "dateInvalid", field: "event" });
  return problems;
}

/** The record's content: the title trimmed, tags parsed, only finished uploads, unset fields left out. */
export function contentOf(draft: CardDraft): CardContent {
  const card: CardContent = {
    title: draft.title.trim(),
    content: draft.content,
    attached: draft.attachments.flatMap((a) => (a.state === "success" && a.file ? [a.file] : [])),
    tags: parseTags(draft.tags),
  };
  if (!htmlIsEmpty(draft.html)) card._html = draft.html;
  if (draft.media?.state === "success" && draft.media.file) card.media = draft.media.file;
  const start = eventTime(draft.eventStart);
  const end = eventTime(draft.eventEnd);
  if (start !== undefined) card.event_start = start;
  if (end !== undefined) card.event_end = end;
  for (const [key, value] of Object.entries(draft.fields)) if (key.startsWith("cf_") && value !== undefined) card[key as `cf_${string}`] = value;
  return card;
}

/** Whether a picked file may go into a slot at all (spec 001 §5): the media slot takes image/* and video/* only. */
export function admission(file: Pick<File, "size" | "type">, slot: "media" | "attachment"): Rejection | null {
  if (file.size > ATTACHMENT_MAX_BYTES) return "tooLarge";
  if (slot === "media" && !/^(image|video)\//.test(file.type)) return "notMedia";
  return null;
}
