import { completeAttachment, id as idSchema, newAttachment } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor, GroupMember, MemberActor } from "../access";
import { nextId } from "../db/counter";
import { db } from "../db/service";
import { fail, valid } from "../errors";
import { reservedPageAccess } from "../group/access";
import { driveFiles } from "../storage";
import { Uploads } from "../uploads";
import { findItem, readableChain } from "./access";
import type { DriveFile } from "./entities";
import "../conversation/errors";
import "./entities";

/**
 * A drive's files: the encrypted bytes of its file items in the drive's space of the bucket
 * (the attachments' upload protocol, docs/api.md), uploaded by members who may use the drive page
 * and served to those who may read the item that holds them (and every folder above it).
 */
export namespace DriveFiles {
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  /** A file is served to those who may read its item and everything above it (else as absent: 404 attachment_not_found). */
  async function requireReadable(me: MemberActor, membership: GroupMember | null, file: DriveFile): Promise<void> {
    const holder = file.itemId === undefined ? undefined : await findItem(file.groupId, file.itemId);
    if (!holder || !(await readableChain(me, membership, holder))) fail("attachment_not_found");
  }

  export async function fileOf(groupId: number, id: number): Promise<DriveFile | undefined> {
    const { data } = await db().entities.drivefile.get({ groupId, id }).go();
    return data ?? undefined;
  }

  /** The upload sweep: a file no drive item took within its day loses its item and bytes (Uploads.forgetUnless). */
  export async function forgetUnused(groupId: number, id: number): Promise<boolean> {
    return Uploads.forgetUnless(driveFiles(groupId), id, await fileOf(groupId, id), () =>
      db()
        .entities.drivefile.delete({ groupId, id })
        .where((attr, op) => op.ne(attr.state, "attached"))
        .go(),
    );
  }

  /** POST /api/drive/{id}/files: reserves a file's upload in the drive's space and presigns it (use on the drive page). */
  export async function startFile(actor: Actor, groupId: number, body: z.input<typeof newAttachment>) {
    const input = valid(newAttachment, body);
    const { me } = await reservedPageAccess(actor, groupId, "drive", "use");
    const id = await nextId("drivefile");
    const { uploadId, answer } = await Uploads.start(driveFiles(groupId), id, input.size, input.thumb_size);
    await db()
      .entities.drivefile.create({ groupId, id, sourceId: me.uid, size: input.size, thumbSize: input.thumb_size ?? 0, state: "pending", uploadId, expiresAt: nowSeconds() + Uploads.PENDING_SECONDS })
      .go();
    return answer;
  }

  /** POST /api/drive/{id}/files/{fid}/complete: its uploader says every part is in (Uploads.complete). */
  export async function completeFile(actor: Actor, groupId: number, fileId: number, body: z.input<typeof completeAttachment>) {
    const input = valid(completeAttachment, body);
    valid(idSchema, fileId);
    const { me } = await reservedPageAccess(actor, groupId, "drive", "use");
    const file = await fileOf(groupId, fileId);
    if (!file || file.sourceId !== me.uid) fail("attachment_not_found");
    if (file.state !== "pending") return { id: fileId, size: file.size, state: file.state };
    await Uploads.complete(driveFiles(groupId), fileId, file, input.etags);
    await db().entities.drivefile.patch({ groupId, id: fileId }).set({ state: "uploaded" }).go();
    return { id: fileId, size: file.size, state: "uploaded" as const };
  }

  /** GET /api/drive/{id}/files/{fid}?thumb=: a short-lived download URL of a file a drive item holds (read on the drive page). */
  export async function downloadFile(actor: Actor, groupId: number, fileId: number, thumb: boolean) {
    valid(idSchema, fileId);
    const { me, membership } = await reservedPageAccess(actor, groupId, "drive", "read");
    const file = await fileOf(groupId, fileId);
    if (!file || file.state !== "attached" || (thumb && !file.thumbSize)) fail("attachment_not_found");
    await requireReadable(me, membership, file);
    return { url: await Uploads.downloadUrl(driveFiles(groupId), fileId, thumb), size: thumb ? file.thumbSize : file.size };
  }
}
