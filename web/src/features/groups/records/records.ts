import type { PageType, Relationship, Response } from "@sealwork/contracts";
import { type MotePayload, generateRecordId, sealComment, sealCommentForPage, sealMote, sealMoteForPage } from "@sealwork/crypto";
import { call, isApiError } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import type { FileSpace } from "../../conversations";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { currentGroupRing } from "../conversation/group-messages";
import type { GroupRing } from "../keys/group-ring";
import type { OpenedRecord, OpeningRing } from "./open-records";
import { PageKeyWaitingError, type RecordTarget, openPageKeys, recordTarget } from "./page-keys";

export { type OpenedComment, type OpenedRecord, type OpeningRing, openComments, openRecord, openRecords } from "./open-records";

/**
 * A page's records (motes) in the browser (docs/protocol.md, "Motes"): every card is opened here
 * with the group's verified ring (the key of the epoch it was sealed for) or, on a restricted page,
 * with the page's key (page-keys.ts), and every new or changed card is sealed here under a fresh
 * key for the current epoch or the page key's current generation. Comments are records of their
 * own. The server places, orders and authorises; it never sees a payload.
 */

/** The group ring that opens records, with the page keys of restricted pages (fetched when a record names one). */
export function openingRing(ring: GroupRing, holder: UnlockedKeys): OpeningRing {
  const pageKeys = (pageId: number) =>
    openPageKeys(ring, holder, pageId).catch((error: unknown) => {
      // A page whose keys the server does not give this member (not a reader): its records do not open here.
      if (isApiError(error, 403) || isApiError(error, 404)) throw new PageKeyWaitingError();
      throw error;
    });
  return { groupId: ring.groupId, epoch: ring.epoch, keyFor: ring.keyFor, pageKeyFor: async (pageId, generation) => (await pageKeys(pageId)).keyFor(generation) };
}

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

async function seal(target: RecordTarget, recordId: string, payload: MotePayload) {
  const { ring, page } = target;
  if (!page) return sealMote(ring.key, { groupId: ring.groupId, recordId, epoch: ring.epoch }, payload);
  const { generation, ...sealed } = await sealMoteForPage(page.key, { groupId: ring.groupId, recordId, pageId: page.pageId, generation: page.generation }, payload);
  return { ...sealed, epoch: ring.epoch, page_key: generation };
}

/** POST /api/motes: a new card on a page, sealed for the current epoch (or page key) under a record id of this browser's making (a retry sends the same). */
export async function createRecord(ring: GroupRing, holder: UnlockedKeys, pageId: number, payload: MotePayload, options: { typeId?: number; relationships?: Relationship[]; recordId?: string } = {}) {
  const recordId = options.recordId ?? generateRecordId();
  const sealed = await seal(await recordTarget(ring, holder, pageId), recordId, payload);
  return call("POST /api/motes", {
    body: { group_id: ring.groupId, page_id: pageId, record_id: recordId, type_id: options.typeId ?? 0, relationships: options.relationships ?? [], files: filesOf(payload), ...sealed },
  });
}

/** POST /api/motes/{id} (_method PATCH): a card's new payload under a new key for the current epoch (or its page's key). */
export async function editRecord(ring: GroupRing, holder: UnlockedKeys, record: Pick<OpenedRecord, "id" | "recordId" | "pageId">, payload: MotePayload, relationships?: Relationship[]) {
  const sealed = await seal(await recordTarget(ring, holder, record.pageId), record.recordId, payload);
  return call("PATCH /api/motes/{id}", { params: { id: record.id }, body: { ...sealed, files: filesOf(payload), ...(relationships ? { relationships } : {}) } });
}

export function deleteRecord(id: number) {
  return call("DELETE /api/motes/{id}", { params: { id } });
}

/** PATCH /api/motes/multipatch: several cards of the group at once, all or none. */
export async function multipatchRecords(ring: GroupRing, holder: UnlockedKeys, changes: { record: Pick<OpenedRecord, "id" | "recordId" | "pageId">; payload: MotePayload }[], quick = false) {
  const motes = await Promise.all(
    changes.map(async ({ record, payload }) => ({ id: record.id, domain_id: record.pageId, ...(await seal(await recordTarget(ring, holder, record.pageId), record.recordId, payload)) })),
  );
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

/** POST /api/motes/{id}/comment: a comment sealed as a record of its own, under its card's page key on a restricted page (an empty one is refused here: invalid_input). */
export async function postComment(ring: GroupRing, holder: UnlockedKeys, card: { moteId: number; pageId: number }, text: string, recordId = generateRecordId()) {
  const { page } = await recordTarget(ring, holder, card.pageId);
  const sealed = page
    ? await sealCommentForPage(page.key, { groupId: ring.groupId, recordId, pageId: page.pageId, generation: page.generation }, { text }).then(({ generation, ...rest }) => ({ ...rest, epoch: ring.epoch, page_key: generation }))
    : await sealComment(ring.key, { groupId: ring.groupId, recordId, epoch: ring.epoch }, { text });
  return call("POST /api/motes/{id}/comment", { params: { id: card.moteId }, body: { record_id: recordId, ...sealed } });
}

export function deleteComment(moteId: number, commentId: number) {
  return call("POST /api/motes/{id}/comment/delete", { params: { id: moteId }, body: { comment_id: commentId } });
}
