import { MOTES_PAGE_MAX, type RecordMoteView, type Relationship, PAGE_TYPES, RELATION_MOTES_MAX, canIQuery, id as idSchema, moteEdit, multipatch, multipatchMote, newMote } from "@sealwork/contracts";
import * as z from "zod";
import { type Actor, PAGE_LEVEL, requireMember } from "../access";
import { attribution } from "../conversation/views";
import { getEvery } from "../db/batch";
import { nextId } from "../db/counter";
import { db, writeTransaction } from "../db/service";
import { fail, valid } from "../errors";
import { GroupKeys, PageKeys } from "../group";
import { groupAccess, pagesOf } from "../group/access";
import type { GroupPageItem } from "../group/entities";
import type { PageMote } from "./entities";
import { CardFiles } from "./files";
import { allowed, commentView, commentsOf, createdWith, level, moteById, nowSeconds, pageById, placeOf, placeOn, refuseChange, sealedParts, takesMotes, view } from "./place";
import "../conversation/errors";
import "../drive/errors";
import "../group/errors";
import "./entities";
import "./errors";

/** The queries as the handlers parsed them (ids as numbers), checked again by the verbs that take them. */
const listInput = z.object({ page: idSchema, before: idSchema.optional(), limit: z.number().int().min(1).max(MOTES_PAGE_MAX).optional() });
const relationInput = z.object({ gid: idSchema, ids: z.array(idSchema).min(1).max(RELATION_MOTES_MAX) });
const bestInput = z.object({ type: z.enum(PAGE_TYPES), mote_id: idSchema });

/**
 * Motes (cards) of a group's pages (spec 001 §3, §5, §6, §7; docs/api.md, Records (motes); their
 * comments are MoteComments, their files CardFiles). Payloads are sealed in the browser; the server holds to who may do what on
 * which page (access/can.ts: reading at the page's read level, creating at its use level, changing
 * one's own or, for group administrators, any), to the group key's current epoch (as the drive
 * does), to one record per record id and group (a conditional write, so a retried or raced
 * creation stores one), and to relationships between motes of one group.
 */
export namespace Mote {
  /** Motes by id, in one batch read (missing ones left out). */
  async function motesByIds(ids: number[]): Promise<PageMote[]> {
    if (ids.length === 0) return [];
    return getEvery((keys) => db().entities.pagemote.get(keys).go(), [...new Set(ids)].map((id) => ({ id })));
  }

  /** Relationships point at motes of the same group (not at the mote itself): 422 mote_relation_invalid. */
  async function checkRelationships(groupId: number, relationships: Relationship[], self?: number): Promise<void> {
    if (relationships.some((r) => r.id === self)) fail("mote_relation_invalid");
    const targets = await motesByIds(relationships.map((r) => r.id));
    const ours = new Set(targets.filter((t) => t.groupId === groupId).map((t) => t.id));
    if (relationships.some((r) => !ours.has(r.id))) fail("mote_relation_invalid");
  }

  /**
   * POST /api/motes: a mote on a page of the group (the page's use level; a read-only page: 403
   * mote_read_only), sealed for the group key's current epoch. A retry with the same record id by
   * its creator answers the mote stored the first time; anyone else's use of it: 409 record_id_taken.
   */
  export async function create(actor: Actor, body: z.input<typeof newMote>) {
    const input = valid(newMote, body, "mote_invalid");
    const a = await groupAccess(actor, input.group_id, "read", "group_forbidden", true);
    const page = await pageById(input.page_id);
    if (!takesMotes(page, input.group_id)) fail("mote_page_invalid");
    const place = placeOn(a, page);
    if (place.level < PAGE_LEVEL.read) fail("page_forbidden");
    if (!allowed(place, "create", { groupId: input.group_id, sourceId: a.me.uid })) refuseChange(place);
    const answer = async (id: number) => ({ mote: view((await moteById(id)) ?? fail("mote_not_found"), place) });
    const earlier = await createdWith(input.group_id, input.record_id, a.me.uid, "mote");
    if (earlier) return answer(earlier.itemId);
    const sealed = sealedParts(input, page);
    GroupKeys.requireCurrentEpoch(a.group, input.epoch);
    await checkRelationships(input.group_id, input.relationships);
    const files = await CardFiles.toAttach(input.group_id, a.me.uid, input.files);
    const now = nowSeconds();
    const stored: PageMote = {
      id: await nextId("pagemote"),
      groupId: input.group_id,
      pageId: input.page_id,
      recordId: input.record_id,
      typeId: input.type_id,
      sourceId: a.me.uid,
      created: now,
      modified: now,
      relationships: input.relationships,
      ...sealed,
      epoch: input.epoch,
      comments: 0,
      files,
    };
    const { canceled, reasons } = await writeTransaction((tx) => [
      tx.moterecordid.create({ groupId: stored.groupId, recordId: stored.recordId, kind: "mote", itemId: stored.id, moteId: stored.id, sourceId: a.me.uid }).commit(),
      tx.pagemote.create(stored).commit(),
      GroupKeys.currentEpochCheck(tx, stored.groupId, input.epoch),
      PageKeys.sealingCheck(tx, page),
      ...CardFiles.attachItems(tx, files, stored.id, stored.groupId, a.me.uid),
    ]);
    if (!canceled) return { mote: view(stored, place) };
    if (reasons[0] === "ConditionalCheckFailed") {
      const winner = await createdWith(input.group_id, input.record_id, a.me.uid, "mote");
      if (winner) return answer(winner.itemId);
      fail("record_id_taken");
    }
    if (reasons[2] === "ConditionalCheckFailed") return GroupKeys.epochRefusal(stored.groupId);
    if (reasons[3] === "ConditionalCheckFailed") fail("page_key_stale");
    if (reasons.slice(4).includes("ConditionalCheckFailed")) fail("attachment_not_found");
    return fail("internal");
  }

  /** GET /api/motes?page=&before=&limit=: a page's motes, newest first, for members at its read level. */
  export async function list(actor: Actor, query: z.input<typeof listInput>) {
    const input = valid(listInput, query);
    const me = requireMember(actor);
    const page = await pageById(input.page);
    if (!page || page.reserved) fail("page_not_found");
    const a = await groupAccess(me, page.groupId, "read", "page_forbidden", true);
    const place = placeOn(a, page);
    if (place.level < PAGE_LEVEL.read) fail("page_forbidden");
    const limit = input.limit ?? MOTES_PAGE_MAX;
    const byPage = db().entities.pagemote.query.byPage({ pageId: page.id });
    const { data } = await (input.before === undefined ? byPage : byPage.lt({ id: input.before })).go({ order: "desc", limit });
    const motes = data.filter((m) => m.groupId === page.groupId);
    return {
      motes: motes.map((m) => view(m, place)),
      attrib: await attribution(motes.map((m) => m.sourceId)),
      next: data.length === limit ? data[data.length - 1]!.id : null,
      epoch: a.group.epoch,
      needs_rekey: a.group.needsRekey,
      can_create: allowed(place, "create", { groupId: page.groupId, sourceId: me.uid }),
    };
  }

  /** GET /api/motes/{id}: one mote with its comments (oldest first). */
  export async function get(actor: Actor, id: number) {
    valid(idSchema, id);
    const mote = await moteById(id);
    const place = await placeOf(actor, mote);
    const comments = await commentsOf(id);
    return {
      mote: view(mote!, place),
      comments: comments.map((c) => commentView(c, place)),
      attrib: await attribution([mote!.sourceId, ...comments.map((c) => c.sourceId)]),
    };
  }

  /**
   * PATCH /api/motes/{id}: a new payload under a new key for the current epoch (409 epoch_stale
   * for a past one), and the relationships when given; by its author or a group administrator at
   * the page's use level.
   */
  export async function edit(actor: Actor, id: number, body: z.input<typeof moteEdit>) {
    const input = valid(moteEdit, body, "mote_invalid");
    valid(idSchema, id);
    const mote = await moteById(id);
    const place = await placeOf(actor, mote);
    if (!allowed(place, "edit", mote!)) refuseChange(place);
    const sealed = sealedParts(input, place.page);
    GroupKeys.requireCurrentEpoch(place.group, input.epoch);
    if (input.relationships) await checkRelationships(mote!.groupId, input.relationships, id);
    // Files: those listed anew attached in the same transaction; those no longer listed deleted after it.
    const fresh = input.files ? await CardFiles.toAttach(mote!.groupId, place.me.uid, input.files, id) : [];
    const dropped = input.files ? mote!.files.filter((f) => !input.files!.includes(f)) : [];
    const changes = {
      ...sealed,
      epoch: input.epoch,
      modified: nowSeconds(),
      ...(input.relationships ? { relationships: input.relationships } : {}),
      ...(input.files ? { files: input.files } : {}),
    };
    const { canceled, reasons } = await writeTransaction((tx) => [
      tx.pagemote
        .patch({ id })
        .set(changes)
        .where((attr, op) => op.eq(attr.groupId, mote!.groupId))
        .commit(),
      GroupKeys.currentEpochCheck(tx, mote!.groupId, input.epoch),
      PageKeys.sealingCheck(tx, place.page),
      ...CardFiles.attachItems(tx, fresh, id, mote!.groupId, place.me.uid),
    ]);
    if (canceled) {
      if (reasons[1] === "ConditionalCheckFailed") return GroupKeys.epochRefusal(mote!.groupId);
      if (reasons[2] === "ConditionalCheckFailed") fail("page_key_stale");
      return fail(reasons.slice(3).includes("ConditionalCheckFailed") ? "attachment_not_found" : "mote_not_found");
    }
    await CardFiles.remove(mote!.groupId, dropped);
    return { mote: view({ ...mote!, ...changes }, place) };
  }

  /** DELETE /api/motes/{id}: the mote, its record id and its comments; by its author or a group administrator. */
  export async function remove(actor: Actor, id: number) {
    valid(idSchema, id);
    const mote = await moteById(id);
    const place = await placeOf(actor, mote);
    if (!allowed(place, "delete", mote!)) refuseChange(place);
    const { canceled } = await writeTransaction((tx) => [
      tx.pagemote
        .delete({ id })
        .where((attr, op) => op.exists(attr.recordId))
        .commit(),
      tx.moterecordid.delete({ groupId: mote!.groupId, recordId: mote!.recordId }).commit(),
    ]);
    if (canceled) fail("mote_not_found");
    await CardFiles.remove(mote!.groupId, mote!.files);
    // Then its comments (none can be added now: a comment's creation needs the mote).
    const comments = await commentsOf(id);
    for (let i = 0; i < comments.length; i += 40) {
      await writeTransaction((tx) =>
        comments.slice(i, i + 40).flatMap((c) => [tx.motecomment.delete({ moteId: id, id: c.id }).commit(), tx.moterecordid.delete({ groupId: c.groupId, recordId: c.recordId }).commit()]),
      );
    }
    return { deleted: id };
  }

  /**
   * PATCH /api/motes/multipatch: several motes of one group, each a new payload under a new key
   * for the current epoch, in one transaction: all or nothing. The request needs a group id and a
   * motes array (422 mote_patch_invalid, 'Invalid parameters!'), every mote a positive id, its
   * page (domain_id) and a sealed payload (422 mote_invalid, 'Invalid mote parameters!'); each
   * mote is one the caller may edit.
   */
  export async function multi(actor: Actor, body: z.input<typeof multipatch>) {
    const input = valid(multipatch, body, "mote_patch_invalid");
    const changes = input.motes.map((m) => valid(multipatchMote, m, "mote_invalid"));
    if (new Set(changes.map((c) => c.id)).size !== changes.length) fail("mote_invalid", { message: "Each mote appears once." });
    const a = await groupAccess(actor, input.group_id, "read", "group_forbidden", true);
    for (const c of changes) GroupKeys.requireCurrentEpoch(a.group, c.epoch);
    const motes = new Map((await motesByIds(changes.map((c) => c.id))).map((m) => [m.id, m]));
    const pages = new Map<number, GroupPageItem | undefined>();
    for (const c of changes) {
      const mote = motes.get(c.id);
      if (!mote || mote.groupId !== input.group_id) fail("mote_not_found");
      if (mote.pageId !== c.domain_id) fail("mote_invalid", { message: "A mote stays on its page." });
      if (!pages.has(c.domain_id)) pages.set(c.domain_id, await pageById(c.domain_id));
      const page = pages.get(c.domain_id);
      if (!takesMotes(page, input.group_id)) fail("mote_not_found");
      const place = placeOn(a, page);
      if (!allowed(place, "read", mote)) fail("mote_not_found");
      if (!allowed(place, "edit", mote)) refuseChange(place);
    }
    // Each sealed for its page as the page is now (a page that turned restricted: under its key).
    const sealed = changes.map((c) => sealedParts(c, pages.get(c.domain_id)!));
    const checked = [...pages.values()].filter((p): p is GroupPageItem => p !== undefined);
    const modified = nowSeconds();
    const { canceled, reasons } = await writeTransaction((tx) => [
      ...changes.map((c, i) =>
        tx.pagemote
          .patch({ id: c.id })
          .set({ ...sealed[i]!, epoch: c.epoch, modified, ...(c.type_id === undefined ? {} : { typeId: c.type_id }) })
          .where((attr, op) => `${op.eq(attr.groupId, input.group_id)} AND ${op.eq(attr.pageId, c.domain_id)}`)
          .commit(),
      ),
      GroupKeys.currentEpochCheck(tx, input.group_id, changes[0]!.epoch),
      ...checked.map((p) => PageKeys.sealingCheck(tx, p)),
    ]);
    if (canceled) {
      if (reasons[changes.length] === "ConditionalCheckFailed") return GroupKeys.epochRefusal(input.group_id);
      return fail(reasons.slice(changes.length + 1).includes("ConditionalCheckFailed") ? "page_key_stale" : "mote_not_found");
    }
    return { success: changes.map((c) => c.id) };
  }

  /** GET /api/motes/relationMotes?gid=&ids=: motes of the group by id that the caller may read (others left out), in the order asked. */
  export async function relationMotes(actor: Actor, query: z.input<typeof relationInput>) {
    const input = valid(relationInput, query);
    const a = await groupAccess(actor, input.gid, "read", "group_forbidden", true);
    const found = new Map((await motesByIds(input.ids)).filter((m) => m.groupId === input.gid).map((m) => [m.id, m]));
    const pages = new Map<number, GroupPageItem | undefined>();
    const out: RecordMoteView[] = [];
    for (const id of new Set(input.ids)) {
      const mote = found.get(id);
      if (!mote) continue;
      if (!pages.has(mote.pageId)) pages.set(mote.pageId, await pageById(mote.pageId));
      const page = pages.get(mote.pageId);
      if (!takesMotes(page, input.gid)) continue;
      const place = placeOn(a, page);
      if (allowed(place, "read", mote)) out.push(view(mote, place));
    }
    return { motes: out };
  }

  /** GET /api/pages/best?type=&mote_id=: the pages of that type in the mote's group the caller may read; the mote's own page first. */
  export async function bestPages(actor: Actor, query: z.input<typeof bestInput>) {
    const input = valid(bestInput, query);
    const mote = await moteById(input.mote_id);
    const place = await placeOf(actor, mote);
    const pages = (await pagesOf(place.group.id)).filter((p) => !p.reserved && p.type === input.type && level(place.me, p, place.membership) >= PAGE_LEVEL.read);
    const ids = pages.map((p) => p.id).sort((x, y) => (x === mote!.pageId ? -1 : y === mote!.pageId ? 1 : x - y));
    return { pages: ids };
  }

  /** GET /api/motes/{id}/canI?permission=read|write: whether the caller may read it, or change it. */
  export async function canI(actor: Actor, id: number, query: z.input<typeof canIQuery>) {
    const input = valid(canIQuery, query);
    valid(idSchema, id);
    const mote = await moteById(id);
    const place = await placeOf(actor, mote);
    return { grant: allowed(place, input.permission === "read" ? "read" : "edit", mote!) };
  }


}
