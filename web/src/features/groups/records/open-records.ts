import type { CommentView, RecordMoteView, Relationship } from "@sealwork/contracts";
import { type Key, type MotePayload, isCryptoError, openComment, openCommentForPage, openMote, openMoteForPage } from "@sealwork/crypto";
import { isDistributionError } from "../../conversations";
import type { GroupRing } from "../keys/group-ring";
import { isShowable, isShowableComment } from "./record-payload";

/**
 * Opening a page's records (motes) and their comments with the group's verified ring: no network
 * here (records.ts calls the server), so it is tested on its own.
 */

/**
 * What opening needs of a ring: its group, its verified epoch and a key per epoch; for the records
 * of restricted pages the page key of a generation (page-keys.ts: a member without it opens none).
 */
export type OpeningRing = Pick<GroupRing, "groupId" | "epoch" | "keyFor"> & { pageKeyFor?: (pageId: number, generation: number) => Promise<Key> };

/** A card as the page shows it: the server's facts and the opened payload (null: it does not open, or shows as invalid). */
export interface OpenedRecord {
  id: number;
  recordId: string;
  groupId: number;
  pageId: number;
  typeId: number;
  authorId: number;
  timestamp: number;
  modified: number;
  relationships: Relationship[];
  comments: number;
  editable: boolean;
  epoch: number;
  payload: MotePayload | null;
}

export interface OpenedComment {
  id: number;
  recordId: string;
  moteId: number;
  authorId: number;
  timestamp: number;
  deletable: boolean;
  /** null: it does not open, or shows as invalid. */
  text: string | null;
}

/** Where a sealed record's key is: under an epoch of the group key, or under a generation of its page's key. */
interface KeyPlace {
  epoch: number;
  pageId: number;
  pageKey: number | null;
}

async function openOrNull<T>(ring: OpeningRing, at: KeyPlace, open: (key: Key) => Promise<T>): Promise<T | null> {
  // An epoch beyond the verified one is the server's word alone.
  if (at.pageKey === null && at.epoch > ring.epoch) return null;
  if (at.pageKey !== null && !ring.pageKeyFor) return null;
  try {
    return await open(at.pageKey === null ? await ring.keyFor(at.epoch) : await ring.pageKeyFor!(at.pageId, at.pageKey));
  } catch (error) {
    if (isCryptoError(error) || isDistributionError(error) || (error instanceof Error && error.name === "PageKeyWaitingError")) return null;
    throw error;
  }
}

/** Opens one card; one that does not open for its group, record id and epoch, or holds what this client would not show, has a null payload. */
export async function openRecord(ring: OpeningRing, view: RecordMoteView): Promise<OpenedRecord> {
  const record = { groupId: ring.groupId, recordId: view.record_id };
  const at = { epoch: view.epoch, pageId: view.domain_id, pageKey: view.page_key };
  const opened =
    view.group_id !== ring.groupId
      ? null
      : await openOrNull(ring, at, (key) =>
          at.pageKey === null ? openMote(key, view, { ...record, epoch: view.epoch }) : openMoteForPage(key, view, { ...record, pageId: at.pageId, generation: at.pageKey }),
        );
  return {
    id: view.id,
    recordId: view.record_id,
    groupId: view.group_id,
    pageId: view.domain_id,
    typeId: view.type_id,
    authorId: view.source_id,
    timestamp: view.timestamp,
    modified: view.modified,
    relationships: view.relationships,
    comments: view.comments,
    editable: view.editable,
    epoch: view.epoch,
    payload: opened && isShowable(opened) ? opened : null,
  };
}

/** Opens cards side by side; each payload once per `cache` (keyed by id, epoch, dockey and payload). */
export async function openRecords(ring: OpeningRing, views: RecordMoteView[], cache: Map<string, OpenedRecord> = new Map()): Promise<OpenedRecord[]> {
  return Promise.all(
    views.map(async (view) => {
      const key = `${view.id}:${view.epoch}:${view.page_key}:${view.dockey}:${view.payload}:${view.editable}:${view.comments}`;
      const opened = cache.get(key) ?? (await openRecord(ring, view));
      cache.set(key, opened);
      return opened;
    }),
  );
}

/** Opens a card's comments (`pageId`: the card's page, whose key a restricted page's comments are under). */
export async function openComments(ring: OpeningRing, views: CommentView[], pageId = 0): Promise<OpenedComment[]> {
  return Promise.all(
    views.map(async (view) => {
      const record = { groupId: ring.groupId, recordId: view.record_id };
      const at = { epoch: view.epoch, pageId, pageKey: view.page_key };
      const opened = await openOrNull(ring, at, (key) =>
        at.pageKey === null ? openComment(key, view, { ...record, epoch: view.epoch }) : openCommentForPage(key, view, { ...record, pageId, generation: at.pageKey }),
      );
      return {
        id: view.id,
        recordId: view.record_id,
        moteId: view.mote_id,
        authorId: view.source_id,
        timestamp: view.timestamp,
        deletable: view.deletable,
        text: opened && isShowableComment(opened.text) ? opened.text : null,
      };
    }),
  );
}
