import type { Relationship } from "@sealwork/contracts";
import { type MotePayload, generateRecordId } from "@sealwork/crypto";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { call, isApiError } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { currentGroupRing } from "../conversation/group-messages";
import { type GroupRing, forgetGroupRing, openGroupRing } from "../keys/group-ring";
import { patchEvent } from "./record-payload";
import {
  type OpenedRecord,
  createRecord,
  deleteComment,
  deleteRecord,
  editRecord,
  fetchRecord,
  fetchRelationRecords,
  loadRecords,
  multipatchRecords,
  openComments,
  openRecords,
  openingRing,
  postComment,
} from "./records";
import { forgetPageKeys, securePage } from "./page-keys";

/** Refusals that a fresh group ring and fresh page keys can answer: the change is sealed once more. */
const AGAIN = new Set(["epoch_stale", "page_key_stale", "page_key_required", "page_key_unexpected"]);

/**
 * The records (motes) of a page for the page types (pinboard, blog, gallery, calendar, …) and the
 * card editor: the server's pages of cards, opened with the group's ring (each payload once per
 * page, so a reload opens only what changed); the changes, each sealed here, followed by a fresh
 * load of the group's records and the spec's patch event (spec 001 §7).
 */
export function usePageRecords(groupId: number, pageId: number, holder: UnlockedKeys) {
  const cache = useRef(new Map<string, OpenedRecord>());
  return useInfiniteQuery({
    queryKey: queryKeys.groups.recordsOfPage(groupId, pageId),
    initialPageParam: undefined as number | undefined,
    queryFn: async ({ pageParam, signal }) => {
      const { answer, ring } = await loadRecords(groupId, pageId, holder, pageParam, signal);
      return { answer, ring, records: ring ? await openRecords(openingRing(ring, holder), answer.motes, cache.current) : [] };
    },
    getNextPageParam: (last) => last.answer.next ?? undefined,
    staleTime: 30_000,
    retry: false,
    // A member whose copy of the group key is on its way: loaded again once it is there (keys/wrap-wait.ts).
  });
}

/**
 * For a page's administrators, once per visit: its key made or handed to readers who lack it, a
 * new generation when someone holding it reads the page no more, and cards not under the key the
 * page's records go under sealed anew (docs/protocol.md, "Restricted pages"); then the page's
 * cards are loaded again if any changed.
 */
export function usePageKeeper(groupId: number, page: { id: number; is_editable: boolean }, holder: UnlockedKeys) {
  const client = useQueryClient();
  return useQuery({
    queryKey: queryKeys.groups.pageKeeper(groupId, page.id),
    enabled: page.is_editable,
    queryFn: async () => {
      const sealed = await securePage(groupId, page.id, holder, undefined, true);
      if (sealed.resealed > 0) await client.invalidateQueries({ queryKey: queryKeys.groups.recordsOfPage(groupId, page.id) });
      return sealed;
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
}

/**
 * Whom a page's new and changed cards are encrypted for, as the server's page keys say: "readers"
 * on a restricted page (its page key), else "group"; undefined until known.
 */
export function usePageSealing(groupId: number, pageId: number): "group" | "readers" | undefined {
  const sealing = useQuery({
    queryKey: queryKeys.groups.pageSealing(groupId, pageId),
    queryFn: async ({ signal }) => ((await call("GET /api/pages/{id}/keys", { params: { id: pageId }, signal })).restricted ? ("readers" as const) : ("group" as const)),
    retry: false,
  });
  return sealing.data;
}

/** One card with its comments, opened. */
export function useRecord(groupId: number, id: number, holder: UnlockedKeys) {
  return useQuery({
    queryKey: queryKeys.groups.record(groupId, id),
    queryFn: async ({ signal }) => {
      const answer = await fetchRecord(id, signal);
      const ring = await currentGroupRing(groupId, holder, { epoch: answer.mote.epoch, needs_rekey: false });
      const opening = openingRing(ring, holder);
      const [record] = await openRecords(opening, [answer.mote]);
      return { record: record!, comments: await openComments(opening, answer.comments, answer.mote.domain_id), attrib: answer.attrib, ring };
    },
    retry: false,
  });
}

/** The cards a card's relationships name (those the caller may read), opened. */
export function useRelationRecords(groupId: number, ids: readonly number[], holder: UnlockedKeys) {
  return useQuery({
    queryKey: queryKeys.groups.relations(groupId, ids),
    enabled: ids.length > 0,
    queryFn: async ({ signal }) => {
      const { motes } = await fetchRelationRecords(groupId, [...ids], signal);
      const ring = await currentGroupRing(groupId, holder, { epoch: Math.max(0, ...motes.map((m) => m.epoch)), needs_rekey: false });
      return openRecords(openingRing(ring, holder), motes);
    },
    retry: false,
  });
}

/**
 * The changes of a group's records, each sealed with the group's ring. A ring from before a rekey
 * gets 409 epoch_stale: the ring is verified again and the change sealed once more for the new
 * epoch (a new card keeps its record id, so nothing is stored twice).
 */
export function useRecordChanges(groupId: number, holder: UnlockedKeys) {
  const client = useQueryClient();
  const withRing = async <T>(change: (ring: GroupRing) => Promise<T>): Promise<T> => {
    try {
      return await change(await openGroupRing(groupId, holder));
    } catch (error) {
      // A new epoch, or a page key of another generation (or a page restricted or opened up) since the ring was opened: once more with fresh ones.
      if (!isApiError(error) || !AGAIN.has(error.code ?? "")) throw error;
      forgetGroupRing(groupId);
      forgetPageKeys();
      return change(await openGroupRing(groupId, holder));
    }
  };
  const settled = (ids: number[], quick = false) => {
    globalThis.dispatchEvent?.(patchEvent(groupId, ids, quick));
    return client.invalidateQueries({ queryKey: queryKeys.groups.records(groupId) });
  };

  const create = useMutation({
    mutationFn: (input: { pageId: number; payload: MotePayload; typeId?: number; relationships?: Relationship[]; recordId?: string }) => {
      const recordId = input.recordId ?? generateRecordId();
      return withRing((ring) => createRecord(ring, holder, input.pageId, input.payload, { ...input, recordId }));
    },
    onSuccess: (answer) => settled([answer.mote.id]),
  });
  const edit = useMutation({
    mutationFn: (input: { record: Pick<OpenedRecord, "id" | "recordId" | "pageId">; payload: MotePayload; relationships?: Relationship[] }) =>
      withRing((ring) => editRecord(ring, holder, input.record, input.payload, input.relationships)),
    onSuccess: (answer) => settled([answer.mote.id]),
  });
  const multipatch = useMutation({
    mutationFn: (input: { changes: { record: Pick<OpenedRecord, "id" | "recordId" | "pageId">; payload: MotePayload }[]; quick?: boolean }) =>
      withRing((ring) => multipatchRecords(ring, holder, input.changes, input.quick)),
    onSuccess: (answer, input) => settled(answer.success, input.quick),
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteRecord(id), onSettled: (_answer, _error, id) => settled([id]) });
  const comment = useMutation({
    mutationFn: (input: { moteId: number; pageId: number; text: string; recordId?: string }) => {
      const recordId = input.recordId ?? generateRecordId();
      return withRing((ring) => postComment(ring, holder, input, input.text, recordId));
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.groups.records(groupId) }),
  });
  const uncomment = useMutation({
    mutationFn: (input: { moteId: number; commentId: number }) => deleteComment(input.moteId, input.commentId),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.groups.records(groupId) }),
  });

  return { create, edit, multipatch, remove, comment, uncomment };
}
