import { isPlainMultilineText, isPlainText } from "@sealwork/contracts";
import { type FileRef, type MotePayload, motePayloadSchema } from "@sealwork/crypto";
import { parseTags } from "../../../lib/tags";

/**
 * The pure side of a page's records (motes): what the card editor's fields become as a sealed
 * payload, and which opened payloads are shown. No network, no keys: unit-tested on its own.
 */

/** The card editor's fields as typed (spec 001 §2 and §3): text as typed, tags as one comma list. */
export interface EditorFields {
  title: string;
  content: string;
  html: string;
  media: FileRef | null;
  attached: FileRef[];
  tags: string;
  eventStart: string;
  eventEnd: string;
  /** A blueprint's fields by name (without the `cf_` prefix), values as JSON carries them. */
  custom: Record<string, unknown>;
}

/** Why the editor's fields do not make a payload: the spec's keys (moteEditor.*) where it has them. */
export type EditorProblem = "dateInvalid" | "invalid";

/**
 * The payload of the editor's fields: empty fields left out, tags as the editor takes them (spec
 * 001 §5), custom fields under `cf_<name>`. An event that ends before it starts is
 * `dateInvalid` (moteEditor.dateInvalid); anything the payload schema refuses is `invalid`.
 */
export function payloadOfFields(fields: EditorFields): { payload: MotePayload } | { problem: EditorProblem } {
  if (fields.eventStart && fields.eventEnd && fields.eventStart > fields.eventEnd) return { problem: "dateInvalid" };
  const payload: Record<string, unknown> = {};
  if (fields.title.trim()) payload.title = fields.title.trim();
  if (fields.content) payload.content = fields.content;
  if (fields.html) payload._html = fields.html;
  if (fields.media) payload.media = fields.media;
  if (fields.attached.length) payload.attached = fields.attached;
  const tags = parseTags(fields.tags);
  if (tags.length) payload.tags = tags;
  if (fields.eventStart) payload.event_start = fields.eventStart;
  if (fields.eventEnd) payload.event_end = fields.eventEnd;
  for (const [name, value] of Object.entries(fields.custom)) if (value !== undefined) payload[`cf_${name}`] = value;
  const checked = motePayloadSchema.safeParse(payload);
  return checked.success ? { payload: checked.data as MotePayload } : { problem: "invalid" };
}

/** The editor's fields of a stored payload (editing a card). */
export function fieldsOfPayload(payload: MotePayload): EditorFields {
  const custom: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) if (key.startsWith("cf_")) custom[key.slice(3)] = value;
  return {
    title: payload.title ?? "",
    content: payload.content ?? "",
    html: payload._html ?? "",
    media: payload.media ?? null,
    attached: payload.attached ?? [],
    tags: (payload.tags ?? []).join(", "),
    eventStart: payload.event_start ?? "",
    eventEnd: payload.event_end ?? "",
    custom,
  };
}

/**
 * Whether a payload another member's client sealed is shown: its title and tags are one line of
 * plain text, its content plain text of several lines (no control characters or direction
 * overrides), and every attachment's name one line. Else the card shows as invalid.
 */
export function isShowable(payload: MotePayload): boolean {
  if (payload.title !== undefined && !isPlainText(payload.title)) return false;
  if (payload.content !== undefined && !isPlainMultilineText(payload.content)) return false;
  if (!(payload.tags ?? []).every(isPlainText)) return false;
  return [...(payload.attached ?? []), ...(payload.media ? [payload.media] : [])].every((f) => isPlainText(f.name) && isPlainText(f.type));
}

/** A comment's text is shown when it is plain text of several lines. */
export function isShowableComment(text: string): boolean {
  return isPlainMultilineText(text);
}

/** The detail of the patch event a save sends (spec 001 §7: "Saved items are also sent as a patch event with motes, group_id and quick"). */
export interface PatchEventDetail {
  motes: number[];
  group_id: number;
  quick: boolean;
}

export const PATCH_EVENT = "sealwork:motes-patch";

export function patchEvent(groupId: number, motes: number[], quick = false): CustomEvent<PatchEventDetail> {
  return new CustomEvent(PATCH_EVENT, { detail: { motes: [...new Set(motes)], group_id: groupId, quick } });
}
