import type { CommentView, RecordMoteView } from "@sealwork/contracts";
import { type Actions, type Actor, type GroupMember, type MemberActor, PAGE_LEVEL, can, pageLevel, requireMember } from "../access";
import { db } from "../db/service";
import { envelopeText } from "../envelope";
import { fail } from "../errors";
import { PageKeys } from "../group";
import { findGroup, memberOf, membership } from "../group/access";
import type { GroupItem, GroupPageItem } from "../group/entities";
import { pageResource } from "../group/views";
import type { MoteComment, PageMote } from "./entities";
import "../conversation/errors";
import "../drive/errors";
import "../group/entities";
import "./entities";
import "./errors";

/**
 * What the mote verbs (mote.ts, comments.ts, files.ts) share: where a mote sits and what the actor
 * may do there (access/can.ts), the views they answer, and the reads they all make.
 */

/** Where a mote sits and what the actor is there: the group, their membership and their level on the mote's page. */
export interface Place {
  me: MemberActor;
  group: GroupItem;
  membership: GroupMember | null;
  page: GroupPageItem;
  level: number;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function moteById(id: number): Promise<PageMote | undefined> {
  const { data } = await db().entities.pagemote.get({ id }).go();
  return data ?? undefined;
}

export async function pageById(id: number): Promise<GroupPageItem | undefined> {
  const { data } = await db().entities.grouppage.get({ id }).go();
  return data ?? undefined;
}

export function level(me: MemberActor, page: GroupPageItem, member: GroupMember | null): number {
  return pageLevel(me, pageResource(page, member));
}

/** The place on `page` of an actor whose group access is known (groupAccess's answer). */
export function placeOn(a: Pick<Place, "me" | "group" | "membership">, page: GroupPageItem): Place {
  return { me: a.me, group: a.group, membership: a.membership, page, level: level(a.me, page, a.membership) };
}

/** A page that takes motes: one of the six types, of this group. */
export function takesMotes(page: GroupPageItem | undefined, groupId: number): page is GroupPageItem {
  return page !== undefined && page.groupId === groupId && !page.reserved;
}

/**
 * The place of a mote the actor may read; anything else (no such mote, its page gone, not a
 * member of its group, a page they cannot see) is 404 mote_not_found: an id of another group
 * tells nothing.
 */
export async function placeOf(actor: Actor, mote: PageMote | undefined): Promise<Place> {
  const me = requireMember(actor);
  if (!mote) fail("mote_not_found");
  const [group, member, page] = await Promise.all([findGroup(mote.groupId), memberOf(mote.groupId, me.uid), pageById(mote.pageId)]);
  if (!group || !member || !takesMotes(page, mote.groupId)) fail("mote_not_found");
  const mine = await membership(group, member, true);
  const place = { me, group, membership: mine, page, level: level(me, page, mine) };
  if (!allowed(place, "read", mote)) fail("mote_not_found");
  return place;
}

export function allowed(place: Place, action: Actions["mote"], mote: Pick<PageMote, "groupId" | "sourceId">): boolean {
  return can(place.me, action, { kind: "mote", groupId: mote.groupId, authorId: mote.sourceId, level: place.level, member: place.membership });
}

/** The refusal of a change: a read-only page says so, else the mote is another's. */
export function refuseChange(place: Place): never {
  return fail(place.level < PAGE_LEVEL.use ? "mote_read_only" : "mote_edit_forbidden");
}

export function view(mote: PageMote, place: Pick<Place, "me" | "membership" | "level">): RecordMoteView {
  return {
    id: mote.id,
    record_id: mote.recordId,
    group_id: mote.groupId,
    domain_id: mote.pageId,
    type_id: mote.typeId,
    source_id: mote.sourceId,
    timestamp: mote.created,
    modified: mote.modified,
    relationships: mote.relationships.map((r) => ({ field: r.field, id: r.id })),
    payload: mote.payload,
    dockey: mote.dockey,
    epoch: mote.epoch,
    page_key: mote.pageKey || null,
    size: mote.payload.length,
    comments: mote.comments,
    files: mote.files,
    editable: can(place.me, "edit", { kind: "mote", groupId: mote.groupId, authorId: mote.sourceId, level: place.level, member: place.membership }),
  };
}

export function commentView(comment: MoteComment, place: Place): CommentView {
  return {
    id: comment.id,
    record_id: comment.recordId,
    mote_id: comment.moteId,
    source_id: comment.sourceId,
    timestamp: comment.created,
    payload: comment.payload,
    dockey: comment.dockey,
    epoch: comment.epoch,
    page_key: comment.pageKey || null,
    deletable: can(place.me, "delete", { kind: "comment", groupId: comment.groupId, authorId: comment.sourceId, level: place.level, member: place.membership }),
  };
}

/**
 * The sealed payload and key as sent, once they are envelopes (422 mote_payload_invalid
 * otherwise), and the key they name: a page key generation on a restricted page, the group key
 * on any other (PageKeys.requireSealing).
 */
export function sealedParts(input: { payload: string; dockey: string; page_key?: number | undefined }, page: GroupPageItem) {
  PageKeys.requireSealing(page, input.page_key);
  return {
    payload: envelopeText(input.payload, "aead", "mote_payload_invalid"),
    dockey: envelopeText(input.dockey, "aead", "mote_payload_invalid"),
    pageKey: input.page_key ?? 0,
  };
}

/** The record stored for `recordId` in the group if this user made it as `kind`; another's (or another kind's): 409 record_id_taken. */
export async function createdWith(groupId: number, recordId: string, userId: number, kind: "mote" | "comment") {
  const { data } = await db().entities.moterecordid.get({ groupId, recordId }).go();
  if (!data) return undefined;
  if (data.sourceId !== userId || data.kind !== kind) fail("record_id_taken");
  return data;
}

export async function commentsOf(moteId: number): Promise<MoteComment[]> {
  const { data } = await db().entities.motecomment.query.byMote({ moteId }).go({ pages: "all" });
  return data;
}
