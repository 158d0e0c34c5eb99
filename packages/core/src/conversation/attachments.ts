import { attachmentFromDrive, completeAttachment, id as idSchema, newAttachment, type MoteView } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor } from "../access";
import { nextId } from "../db/counter";
import { db } from "../db/service";
import { type AttachmentItem } from "./entities";
import { fail, valid } from "../errors";
import { conversationFiles } from "../storage";
import { driveFileToShare } from "../drive/share";
import { Uploads } from "../uploads";
import { access } from "./access";
import { motesById } from "./messages";
import "./entities";
import "./errors";

/**
 * Files attached to conversation messages (docs/api.md Attachments), through the uploads every
 * container shares (uploads.ts). A message can attach only files whose every byte is in the
 * bucket (`uploaded`), so an interrupted upload never leaves a message pointing at a missing file
 * (append, in messages.ts, checks this in its transaction).
 */
export namespace Attachment {
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  async function get(conversationId: number, id: number): Promise<AttachmentItem | undefined> {
    const { data } = await db().entities.attachment.get({ conversationId, id }).go();
    return data ?? undefined;
  }

  /** POST /api/conversations/{id}/attachments: reserves an attachment and presigns its upload. */
  export async function start(actor: Actor, conversationId: number, body: z.input<typeof newAttachment>) {
    const { me } = await access(actor, conversationId, "write");
    const input = valid(newAttachment, body);
    const id = await nextId("attachment");
    const { uploadId, answer } = await Uploads.start(conversationFiles(conversationId), id, input.size, input.thumb_size);
    await db()
      .entities.attachment.create({
        conversationId,
        id,
        sourceId: me.uid,
        size: input.size,
        thumbSize: input.thumb_size ?? 0,
        state: "pending",
        uploadId,
        expiresAt: nowSeconds() + Uploads.PENDING_SECONDS,
      })
      .go();
    return answer;
  }

  /** POST /api/conversations/{id}/attachments/{aid}/complete: the uploader says every part is in (Uploads.complete). */
  export async function complete(actor: Actor, conversationId: number, id: number, body: z.input<typeof completeAttachment>) {
    const { me } = await access(actor, conversationId, "write");
    const input = valid(completeAttachment, body);
    valid(idSchema, id);
    const item = await get(conversationId, id);
    if (!item || item.sourceId !== me.uid) fail("attachment_not_found");
    if (item.state !== "pending") return { id, size: item.size, state: item.state };
    await Uploads.complete(conversationFiles(conversationId), id, item, input.etags);
    await db().entities.attachment.patch({ conversationId, id }).set({ state: "uploaded" }).go();
    return { id, size: item.size, state: "uploaded" as const };
  }

  /**
   * POST /api/conversations/{id}/attachments/from-drive ('Select from drive...', spec 000 §2): a
   * file of a group's drive the caller may read, copied as it is (its bytes stay encrypted under
   * the file's own key, which the message that attaches it carries) into the conversation's space,
   * uploaded and ready for a message as if this participant had uploaded it.
   */
  export async function fromDrive(actor: Actor, conversationId: number, body: z.input<typeof attachmentFromDrive>) {
    const input = valid(attachmentFromDrive, body);
    const { me } = await access(actor, conversationId, "write");
    const file = await driveFileToShare(actor, input.group, input.file);
    const id = await nextId("attachment");
    await Uploads.copyBetween(file.space, file.id, conversationFiles(conversationId), id, file.thumbSize > 0);
    await db()
      .entities.attachment.create({ conversationId, id, sourceId: me.uid, size: file.size, thumbSize: file.thumbSize, state: "uploaded", expiresAt: nowSeconds() + Uploads.PENDING_SECONDS })
      .go();
    return { id, size: file.size, state: "uploaded" as const };
  }

  /** GET /api/conversations/{id}/attachments/{aid}?thumb=: a short-lived download URL for a participant. */
  export async function download(actor: Actor, conversationId: number, id: number, thumb: boolean) {
    await access(actor, conversationId, "read");
    valid(idSchema, id);
    const item = await get(conversationId, id);
    if (!item || item.state !== "attached" || (thumb && !item.thumbSize)) fail("attachment_not_found");
    return { url: await Uploads.downloadUrl(conversationFiles(conversationId), id, thumb), size: thumb ? item.thumbSize : item.size };
  }

  /** GET /api/conversations/{id}/attachments: the messages that attach files, oldest first. */
  export async function list(actor: Actor, conversationId: number): Promise<{ motes: MoteView[] }> {
    await access(actor, conversationId, "read");
    const { data } = await db().entities.attachment.query.byConversation({ conversationId }).go({ pages: "all" });
    const moteIds = [...new Set(data.filter((a) => a.state === "attached" && a.moteId !== undefined).map((a) => a.moteId!))].sort((a, b) => a - b);
    return { motes: await motesById(conversationId, moteIds) };
  }

  /** The upload sweep: an attachment no message took within its day loses its item and bytes (Uploads.forgetUnless). */
  export async function forgetUnused(conversationId: number, id: number): Promise<boolean> {
    const item = await get(conversationId, id);
    return Uploads.forgetUnless(conversationFiles(conversationId), id, item, () =>
      db()
        .entities.attachment.delete({ conversationId, id })
        .where((attr, op) => op.ne(attr.state, "attached"))
        .go(),
    );
  }

  /** The purge-attachments job: deletes every bucket object of the conversation (its files and staged uploads). */
  export function purgeObjects(conversationId: number): Promise<void> {
    return Uploads.purge(conversationFiles(conversationId));
  }
}
