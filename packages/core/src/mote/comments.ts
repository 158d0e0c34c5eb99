import { COMMENTS_MAX, commentDelete, commentReseal, id as idSchema, newComment } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actor, can } from "../access";
import { nextId } from "../db/counter";
import { db, writeTransaction } from "../db/service";
import { fail, valid } from "../errors";
import { GroupKeys, PageKeys } from "../group";
import type { MoteComment } from "./entities";
import { commentView, commentsOf, createdWith, moteById, nowSeconds, placeOf, sealedParts } from "./place";
import "../drive/errors";
import "../group/errors";
import "./entities";
import "./errors";

/**
 * The comments of motes (cards): records of their own, sealed like the card (the group key's
 * current epoch, or the page key on a restricted page), posted by anyone who may read the card,
 * deleted by their author or a group administrator (spec 001 §7; docs/api.md, Records (motes)).
 */
export namespace MoteComments {
  /**
   * POST /api/motes/{id}/comment: a comment (a record of its own, sealed for the current epoch;
   * the browser does not post an empty one) by anyone who may read the mote; answers the mote's
   * comments. A retry with the same record id answers the same list.
   */
  export async function comment(actor: Actor, id: number, body: z.input<typeof newComment>) {
    const input = valid(newComment, body, "mote_invalid");
    valid(idSchema, id);
    const mote = await moteById(id);
    const place = await placeOf(actor, mote);
    if (!can(place.me, "post", { kind: "comment", groupId: mote!.groupId, authorId: place.me.uid, level: place.level, member: place.membership })) fail("mote_not_found");
    const sealed = sealedParts(input, place.page);
    const answer = async () => ({ comments: (await commentsOf(id)).map((c) => commentView(c, place)) });
    if (await createdWith(mote!.groupId, input.record_id, place.me.uid, "comment")) return answer();
    GroupKeys.requireCurrentEpoch(place.group, input.epoch);
    const stored: MoteComment = { moteId: id, id: await nextId("motecomment"), groupId: mote!.groupId, recordId: input.record_id, sourceId: place.me.uid, created: nowSeconds(), ...sealed, epoch: input.epoch };
    const { canceled, reasons } = await writeTransaction((tx) => [
      tx.moterecordid.create({ groupId: stored.groupId, recordId: stored.recordId, kind: "comment", itemId: stored.id, moteId: id, sourceId: stored.sourceId }).commit(),
      tx.motecomment.create(stored).commit(),
      tx.pagemote
        .update({ id })
        .add({ comments: 1 })
        .where((attr, op) => `${op.exists(attr.recordId)} AND ${op.lt(attr.comments, COMMENTS_MAX)}`)
        .commit(),
      GroupKeys.currentEpochCheck(tx, stored.groupId, input.epoch),
      PageKeys.sealingCheck(tx, place.page),
    ]);
    if (!canceled) return answer();
    const failed = (i: number) => reasons[i] === "ConditionalCheckFailed";
    if (failed(0)) {
      if (await createdWith(mote!.groupId, input.record_id, place.me.uid, "comment")) return answer();
      fail("record_id_taken");
    }
    if (failed(2)) fail((await moteById(id)) ? "mote_comments_full" : "mote_not_found");
    if (failed(3)) return GroupKeys.epochRefusal(stored.groupId);
    if (failed(4)) fail("page_key_stale");
    return fail("internal");
  }

  /** POST /api/motes/{id}/comment/delete: a comment, by its author or a group administrator. */
  export async function deleteComment(actor: Actor, id: number, body: z.input<typeof commentDelete>) {
    const input = valid(commentDelete, body);
    valid(idSchema, id);
    const mote = await moteById(id);
    const place = await placeOf(actor, mote);
    const { data: found } = await db().entities.motecomment.get({ moteId: id, id: input.comment_id }).go();
    if (!found) fail("comment_not_found");
    if (!can(place.me, "delete", { kind: "comment", groupId: found.groupId, authorId: found.sourceId, level: place.level, member: place.membership })) fail("comment_delete_forbidden");
    const { canceled } = await writeTransaction((tx) => [
      tx.motecomment
        .delete({ moteId: id, id: found.id })
        .where((attr, op) => op.exists(attr.recordId))
        .commit(),
      tx.moterecordid.delete({ groupId: found.groupId, recordId: found.recordId }).commit(),
      tx.pagemote
        .update({ id })
        .add({ comments: -1 })
        .where((attr, op) => op.exists(attr.recordId))
        .commit(),
    ]);
    if (canceled) fail("comment_not_found");
    return { success: true as const };
  }

  /**
   * POST /api/motes/{id}/comment/reseal (group administrators; else 403 mote_edit_forbidden): the
   * card's comments, each sealed anew under the key its page's records go under now (a page that
   * turned restricted, or open again: docs/protocol.md, "Restricted pages"), for the current epoch,
   * in one transaction with the epoch and page checks. A comment not of this card: 404 comment_not_found.
   */
  export async function resealComments(actor: Actor, id: number, body: z.input<typeof commentReseal>) {
    const input = valid(commentReseal, body, "mote_invalid");
    valid(idSchema, id);
    const mote = await moteById(id);
    const place = await placeOf(actor, mote);
    if (place.membership?.admin !== true) fail("mote_edit_forbidden");
    if (new Set(input.comments.map((c) => c.id)).size !== input.comments.length) fail("mote_invalid", { message: "Each comment appears once." });
    for (const c of input.comments) GroupKeys.requireCurrentEpoch(place.group, c.epoch);
    const sealed = input.comments.map((c) => ({ ...sealedParts(c, place.page), epoch: c.epoch }));
    const { canceled, reasons } = await writeTransaction((tx) => [
      ...input.comments.map((c, i) =>
        tx.motecomment
          .patch({ moteId: id, id: c.id })
          .set(sealed[i]!)
          .where((attr, op) => `${op.exists(attr.recordId)} AND ${op.eq(attr.groupId, mote!.groupId)}`)
          .commit(),
      ),
      GroupKeys.currentEpochCheck(tx, mote!.groupId, input.comments[0]!.epoch),
      PageKeys.sealingCheck(tx, place.page),
    ]);
    if (canceled) {
      const failed = (i: number) => reasons[i] === "ConditionalCheckFailed";
      if (failed(input.comments.length)) return GroupKeys.epochRefusal(mote!.groupId);
      if (failed(input.comments.length + 1)) fail("page_key_stale");
      fail("comment_not_found");
    }
    return { comments: (await commentsOf(id)).map((c) => commentView(c, place)) };
  }
}
