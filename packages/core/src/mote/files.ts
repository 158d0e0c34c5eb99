import { completeAttachment, id as idSchema, moteFileStart } from "@sealwork/contracts";
import type * as z from "zod";
import { type Actor, PAGE_LEVEL, requireMember } from "../access";
import { nextId } from "../db/counter";
import { type TransactionEntities, db } from "../db/service";
import { fail, valid } from "../errors";
import { groupAccess } from "../group/access";
import { cardFiles } from "../storage";
import { Uploads } from "../uploads";
import type { MoteFile } from "./entities";
import { allowed, moteById, nowSeconds, pageById, placeOf, placeOn, refuseChange } from "./place";
import "../conversation/errors";
import "../group/errors";
import "./entities";
import "./errors";

/**
 * A group's cards' files as a card holds them (MoteFileEntity): their upload and download (for
 * whoever may add cards to the page, and read the card), which files a card may list, the
 * transaction items that attach new ones, and deleting those a card no longer lists.
 */
export namespace CardFiles {
  export const space = cardFiles;

  export async function byId(id: number): Promise<MoteFile | undefined> {
    const { data } = await db().entities.motefile.get({ id }).go();
    return data ?? undefined;
  }

  /**
   * The files of `ids` a card of `groupId` may list: each one this user uploaded to this group and
   * no card holds yet, or one `moteId` already holds; anything else (another's, another group's,
   * another card's, not uploaded, unknown) is 404 attachment_not_found. Answers those to attach.
   */
  export async function toAttach(groupId: number, userId: number, ids: readonly number[], moteId?: number): Promise<number[]> {
    const wanted = [...new Set(ids)];
    if (wanted.length !== ids.length) fail("mote_invalid", { message: "A file appears once." });
    const found = await Promise.all(wanted.map(byId));
    const fresh: number[] = [];
    for (const file of found) {
      if (!file || file.groupId !== groupId) fail("attachment_not_found");
      if (file.state === "attached" && moteId !== undefined && file.moteId === moteId) continue;
      if (file.state !== "uploaded" || file.sourceId !== userId) fail("attachment_not_found");
      fresh.push(file.id);
    }
    return fresh;
  }

  /** Transaction items: each file taken by the card, on the condition that it is still this user's and unattached (a race attaches it once). */
  export function attachItems(tx: TransactionEntities, ids: readonly number[], moteId: number, groupId: number, userId: number) {
    return ids.map((id) =>
      tx.motefile
        .patch({ id })
        .set({ state: "attached", moteId })
        .remove(["expiresAt"])
        .where((attr, op) => `${op.eq(attr.state, "uploaded")} AND ${op.eq(attr.groupId, groupId)} AND ${op.eq(attr.sourceId, userId)}`)
        .commit(),
    );
  }

  /** The upload sweep: a file no card took within its day loses its item and bytes (Uploads.forgetUnless). */
  export async function forgetUnused(groupId: number, id: number): Promise<boolean> {
    const file = await byId(id);
    // A file of another group under this id cannot be: ids are the instance's. Kept, to be sure.
    if (file && file.groupId !== groupId) return false;
    return Uploads.forgetUnless(cardFiles(groupId), id, file, () =>
      db()
        .entities.motefile.delete({ id })
        .where((attr, op) => op.ne(attr.state, "attached"))
        .go(),
    );
  }

  /** Deletes files a card no longer lists (or a deleted card's): their items, then their bytes. */
  export async function remove(groupId: number, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await Promise.all(ids.map((id) => db().entities.motefile.delete({ id }).go()));
    await Uploads.remove(cardFiles(groupId), [...ids]);
  }

  /** POST /api/motes/files: reserves the upload of a card's file for a page the caller may add cards to, and presigns it. */
  export async function startFile(actor: Actor, body: z.input<typeof moteFileStart>) {
    const input = valid(moteFileStart, body);
    const page = await pageById(input.page_id);
    if (!page || page.reserved) fail("mote_page_invalid");
    const a = await groupAccess(actor, page.groupId, "read", "group_forbidden", true);
    const place = placeOn(a, page);
    if (place.level < PAGE_LEVEL.read) fail("page_forbidden");
    if (!allowed(place, "create", { groupId: page.groupId, sourceId: a.me.uid })) refuseChange(place);
    const id = await nextId("motefile");
    const { uploadId, answer } = await Uploads.start(space(page.groupId), id, input.size, input.thumb_size);
    await db()
      .entities.motefile.create({ id, groupId: page.groupId, sourceId: a.me.uid, size: input.size, thumbSize: input.thumb_size ?? 0, state: "pending", uploadId, expiresAt: nowSeconds() + Uploads.PENDING_SECONDS })
      .go();
    return answer;
  }

  /** POST /api/motes/files/{fid}/complete: its uploader says every part is in (Uploads.complete). */
  export async function completeFile(actor: Actor, fileId: number, body: z.input<typeof completeAttachment>) {
    const input = valid(completeAttachment, body);
    valid(idSchema, fileId);
    const me = requireMember(actor);
    const file = await byId(fileId);
    if (!file || file.sourceId !== me.uid) fail("attachment_not_found");
    if (file.state !== "pending") return { id: fileId, size: file.size, state: file.state };
    await Uploads.complete(space(file.groupId), fileId, file, input.etags);
    await db().entities.motefile.patch({ id: fileId }).set({ state: "uploaded" }).where((attr, op) => op.eq(attr.state, "pending")).go();
    return { id: fileId, size: file.size, state: "uploaded" as const };
  }

  /** GET /api/motes/files/{fid}?thumb=: a short-lived download URL of a file a card lists, for whoever may read that card. */
  export async function downloadFile(actor: Actor, fileId: number, thumb: boolean) {
    valid(idSchema, fileId);
    requireMember(actor);
    const file = await byId(fileId);
    if (!file || file.state !== "attached" || file.moteId === undefined) fail("attachment_not_found");
    const mote = await moteById(file.moteId);
    // Someone who may not read the card learns nothing of the file either.
    await placeOf(actor, mote).catch(() => fail("attachment_not_found"));
    if (!mote!.files.includes(fileId) || (thumb && !file.thumbSize)) fail("attachment_not_found");
    return { url: await Uploads.downloadUrl(space(file.groupId), fileId, thumb), size: thumb ? file.thumbSize : file.size };
  }
}
