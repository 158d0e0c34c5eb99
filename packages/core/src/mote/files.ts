import { type TransactionEntities, db } from "../db/service";
import { fail } from "../errors";
import { cardFiles } from "../storage";
import { Uploads } from "../uploads";
import type { MoteFile } from "./entities";

/**
 * A group's cards' files as a card holds them (MoteFileEntity): which files a card may list, the
 * transaction items that attach new ones, and deleting those a card no longer lists. Who may do
 * what is Mote's question; this module keeps the files' states.
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
}
