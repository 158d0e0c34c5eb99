import type { PageType, Relationship, Response } from "@sealwork/contracts";
import { type MotePayload, generateRecordId, sealComment, sealMote } from "@sealwork/crypto";
import { call } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import type { FileSpace } from "../../conversations";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { currentGroupRing } from "../conversation/group-messages";
import type { GroupRing } from "../keys/group-ring";
import type { OpenedRecord } from "./open-records";

export { type OpenedComment, type OpenedRecord, type OpeningRing, openComments, openRecord, openRecords } from "./open-records";

/**
 * A page's records (motes) in the browser (docs/protocol.md, "Motes"): every card is opened here
 * with the group's verified ring (the key of the epoch it was sealed for), and every new or
 * changed card is sealed here for the current epoch under a fresh key. Comments are records of
 * their own. The server places, orders and authorises; it never sees a payload.
 */

export type RecordsAnswer = Response<"GET /api/motes">;

/** A page of cards as the server lists it, with the ring they open with (none needed for a page without cards). */
export interface RecordsSource {
  answer: RecordsAnswer;
  ring: GroupRing | null;
}

/**
 * GET a page of a page's cards (newest first; `before` the previous page's `next`), and the
 * group's ring as new as the answer says it must be. An empty page shows without the group key
 * (a member whose copy is on its way sees the empty state; adding a card waits for the key).
 */
export async function loadRecords(groupId: number, pageId: number, holder: UnlockedKeys, before?: number, signal?: AbortSignal): Promise<RecordsSource> {
  const answer = await call("GET /api/motes", { query: { page: pageId, ...(before ? { before } : {}) }, signal });
  return { answer, ring: answer.motes.length === 0 ? null : await currentGroupRing(groupId, holder, answer) };
}

/**
 * A page's cards' files (their media and attachments): uploaded for a page the user may add cards
 * to, fetched for a card they may read. Files a payload names are listed with the card
 * (`filesOf`), so the server serves them to the card's readers only.
 */
export const cardSpace = (pageId: number): FileSpace => ({
  key: queryKeys.groups.cardFiles(pageId),
  start: (body, signal) => call("POST /api/motes/files", { body: { page_id: pageId, ...body }, signal }),
  complete: (fid, body, signal) => call("POST /api/motes/files/{fid}/complete", { params: { fid }, body, signal }),
  link: (fid, thumb, signal) => call("GET /api/motes/files/{fid}", { params: { fid }, query: thumb ? { thumb: "1" } : {}, signal }),
});

/** The ids of the files a payload names (its media and attachments), as the card lists them. */
export const filesOf = (payload: MotePayload): number[] => [...new Set([...(payload.media ? [payload.media.id] : []), ...(payload.attached ?? []).map((f) => f.id)])];

function seal(ring: GroupRing, recordId: string, payload: MotePayload) {
  return sealMote(ring.key, { groupId: ring.groupId, recordId, epoch: ring.epoch }, payload);
}

/** POST /api/motes: a new card on a page, sealed for the current epoch under a record id of this browser's making (a retry sends the same). */
export async function createRecord(ring: GroupRing, pageId: number, payload: MotePayload, options: { typeId?: number; relationships?: Relationship[]; recordId?: string } = {}) {
  const recordId = options.recordId ?? generateRecordId();
  const sealed = await seal(ring, recordId, payload);
  return call("POST /api/motes", {
    body: { group_id: ring.groupId, page_id: pageId, record_id: recordId, type_id: options.typeId ?? 0, relationships: options.relationships ?? [], files: filesOf(payload), ...sealed },
  });
}

/** POST /api/motes/{id} (_method PATCH): a card's new payload under a new key for the current epoch. */
export async function editRecord(ring: GroupRing, record: Pick<OpenedRecord, "id" | "recordId">, payload: MotePayload, relationships?: Relationship[]) {
  const sealed = await seal(ring, record.recordId, payload);
  return call("PATCH /api/motes/{id}", { params: { id: record.id }, body: { ...sealed, files: filesOf(payload), ...(relationships ? { relationships } : {}) } });
}

export function deleteRecord(id: number) {
  return call("DELETE /api/motes/{id}", { params: { id } });
}

/** PATCH /api/motes/multipatch: several cards of the group at once, all or none. */
export async function multipatchRecords(ring: GroupRing, changes: { record: Pick<OpenedRecord, "id" | "recordId" | "pageId">; payload: MotePayload }[], quick = false) {
  const motes = await Promise.all(changes.map(async ({ record, payload }) => ({ id: record.id, domain_id: record.pageId, ...(await seal(ring, record.recordId, payload)) })));
  return call("PATCH /api/motes/multipatch", { body: { group_id: ring.groupId, quick: quick ? 1 : 0, motes } });
}

/** GET /api/motes/relationMotes: the cards a card's relationships name, those the caller may read. */
export function fetchRelationRecords(groupId: number, ids: number[], signal?: AbortSignal) {
  return call("GET /api/motes/relationMotes", { query: { gid: groupId, ids: [...new Set(ids)].join(",") }, signal });
}

export function fetchRecord(id: number, signal?: AbortSignal) {
  return call("GET /api/motes/{id}", { params: { id }, signal });
}

export function fetchBestPages(type: PageType, moteId: number, signal?: AbortSignal) {
  return call("GET /api/pages/best", { query: { type, mote_id: moteId }, signal });
}

export function fetchCanI(id: number, permission: "read" | "write", signal?: AbortSignal) {
  return call("GET /api/motes/{id}/canI", { params: { id }, query: { permission }, signal });
}

/** POST /api/motes/{id}/comment: a comment sealed as a record of its own (an empty one is refused here: invalid_input). */
export async function postComment(ring: GroupRing, moteId: number, text: string, recordId = generateRecordId()) {
  const sealed = await sealComment(ring.key, { groupId: ring.groupId, recordId, epoch: ring.epoch }, { text });
  return call("POST /api/motes/{id}/comment", { params: { id: moteId }, body: { record_id: recordId, ...sealed } });
}

export function deleteComment(moteId: number, commentId: number) {
  return call("POST /api/motes/{id}/comment/delete", { params: { id: moteId }, body: { comment_id: commentId } });
}
