import type { Relationship } from "@sealwork/contracts";
import { type MotePayload, generateRecordId } from "@sealwork/crypto";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { isApiError } from "../../../lib/api";
import { queryKeys } from "../../../lib/query-keys";
import type { UnlockedKeys } from "../../../lib/unlocked-keys";
import { currentGroupRing } from "../conversation/group-messages";
import { type GroupRing, GroupKeyWaitingError, forgetGroupRing, openGroupRing } from "../keys/group-ring";
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
  postComment,
} from "./records";

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
      return { answer, ring, records: ring ? await openRecords(ring, answer.motes, cache.current) : [] };
    },
    getNextPageParam: (last) => last.answer.next ?? undefined,
    staleTime: 30_000,
    retry: false,
    // A member whose copy of the group key is on its way looks again every few seconds.
    refetchInterval: (query) => (query.state.error instanceof GroupKeyWaitingError ? 3_000 : false),
  });
}

/** One card with its comments, opened. */
export function useRecord(groupId: number, id: number, holder: UnlockedKeys) {
  return useQuery({
    queryKey: queryKeys.groups.record(groupId, id),
    queryFn: async ({ signal }) => {
      const answer = await fetchRecord(id, signal);
      const ring = await currentGroupRing(groupId, holder, { epoch: answer.mote.epoch, needs_rekey: false });
      const [record] = await openRecords(ring, [answer.mote]);
      return { record: record!, comments: await openComments(ring, answer.comments), attrib: answer.attrib, ring };
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
      return openRecords(ring, motes);
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
      if (!isApiError(error, 409) || error.code !== "epoch_stale") throw error;
      forgetGroupRing(groupId);
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
      return withRing((ring) => createRecord(ring, input.pageId, input.payload, { ...input, recordId }));
    },
    onSuccess: (answer) => settled([answer.mote.id]),
  });
  const edit = useMutation({
    mutationFn: (input: { record: Pick<OpenedRecord, "id" | "recordId">; payload: MotePayload; relationships?: Relationship[] }) =>
      withRing((ring) => editRecord(ring, input.record, input.payload, input.relationships)),
    onSuccess: (answer) => settled([answer.mote.id]),
  });
  const multipatch = useMutation({
    mutationFn: (input: { changes: { record: Pick<OpenedRecord, "id" | "recordId" | "pageId">; payload: MotePayload }[]; quick?: boolean }) =>
      withRing((ring) => multipatchRecords(ring, input.changes, input.quick)),
    onSuccess: (answer, input) => settled(answer.success, input.quick),
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteRecord(id), onSettled: (_answer, _error, id) => settled([id]) });
  const comment = useMutation({
    mutationFn: (input: { moteId: number; text: string; recordId?: string }) => {
      const recordId = input.recordId ?? generateRecordId();
      return withRing((ring) => postComment(ring, input.moteId, input.text, recordId));
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.groups.records(groupId) }),
  });
  const uncomment = useMutation({
    mutationFn: (input: { moteId: number; commentId: number }) => deleteComment(input.moteId, input.commentId),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.groups.records(groupId) }),
  });

  return { create, edit, multipatch, remove, comment, uncomment };
}
