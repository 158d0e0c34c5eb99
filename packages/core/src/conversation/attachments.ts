import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { ATTACHMENT_PART_SIZE, completeAttachment, id as idSchema, newAttachment, type MoteView } from "@sealwork/contracts";
import type * as z from "zod";
import type { Actor } from "../access";
import { config } from "../config";
import { nextId } from "../db/counter";
import { db } from "../db/service";
import { type AttachmentItem } from "./entities";
import { fail, valid } from "../errors";
import { attachmentObjectKey, attachmentPrefix, s3 } from "../storage";
import { access } from "./access";
import { motesById } from "./messages";

/** Presigned URLs are short-lived: an upload asks again if it takes longer. */
const UPLOAD_URL_SECONDS = 60 * 60;
const DOWNLOAD_URL_SECONDS = 5 * 60;
/** An upload not attached to a message within a day is forgotten (TTL). */
const PENDING_SECONDS = 24 * 60 * 60;

/**
 * Files attached to conversation messages (docs/api.md Attachments). The browser encrypts and
 * uploads straight to the bucket with presigned URLs; the server keeps only ids, sizes and
 * states, and hands out download URLs to participants. A message can attach only files whose
 * every byte is in the bucket (`uploaded`), so an interrupted upload never leaves a message
 * pointing at a missing file (append, in messages.ts, checks this in its transaction).
 */
export namespace Attachment {
  const bucket = () => config().BUCKET_NAME;
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
    const key = attachmentObjectKey(conversationId, id);
    const partCount = Math.ceil(input.size / ATTACHMENT_PART_SIZE);
    const multipart = partCount > 1;
    let uploadId: string | undefined;
    let parts: { n: number; url: string }[];
    if (multipart) {
      const created = await s3().send(new CreateMultipartUploadCommand({ Bucket: bucket(), Key: key, ContentType: "application/octet-stream" }));
      uploadId = created.UploadId!;
      parts = await Promise.all(
        Array.from({ length: partCount }, async (_, i) => ({
          n: i + 1,
          url: await getSignedUrl(s3(), new UploadPartCommand({ Bucket: bucket(), Key: key, UploadId: uploadId, PartNumber: i + 1 }), { expiresIn: UPLOAD_URL_SECONDS }),
        })),
      );
    } else {
      parts = [{ n: 1, url: await putUrl(key) }];
    }
    const thumbUrl = input.thumb_size ? await putUrl(attachmentObjectKey(conversationId, id, "thumb")) : null;
    await db()
      .entities.attachment.create({
        conversationId,
        id,
        sourceId: me.uid,
        size: input.size,
        thumbSize: input.thumb_size ?? 0,
        state: "pending",
        uploadId,
        expiresAt: nowSeconds() + PENDING_SECONDS,
      })
      .go();
    return { id, parts, part_size: ATTACHMENT_PART_SIZE, multipart, thumb_url: thumbUrl };
  }

  function putUrl(key: string): Promise<string> {
    return getSignedUrl(s3(), new PutObjectCommand({ Bucket: bucket(), Key: key }), { expiresIn: UPLOAD_URL_SECONDS });
  }

  /**
   * POST /api/conversations/{id}/attachments/{aid}/complete: the uploader says every part is in;
   * the server completes a multipart upload and checks the bucket holds exactly the announced
   * sizes before the attachment can go into a message.
   */
  export async function complete(actor: Actor, conversationId: number, id: number, body: z.input<typeof completeAttachment>) {
    const { me } = await access(actor, conversationId, "write");
    const input = valid(completeAttachment, body);
    valid(idSchema, id);
    const item = await get(conversationId, id);
    if (!item || item.sourceId !== me.uid) fail("attachment_not_found");
    if (item.state !== "pending") return { id, size: item.size, state: item.state };
    const key = attachmentObjectKey(conversationId, id);
    if (item.uploadId) {
      const etags = input.etags ?? [];
      if (etags.length !== Math.ceil(item.size / ATTACHMENT_PART_SIZE)) fail("attachment_incomplete");
      try {
        await s3().send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket(),
            Key: key,
            UploadId: item.uploadId,
            MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
          }),
        );
      } catch (error) {
        if (isS3ClientError(error)) fail("attachment_incomplete");
        throw error;
      }
    }
    const sizes = await Promise.all([objectSize(key), item.thumbSize ? objectSize(attachmentObjectKey(conversationId, id, "thumb")) : Promise.resolve(0)]);
    if (sizes[0] !== item.size || sizes[1] !== item.thumbSize) fail("attachment_incomplete");
    await db().entities.attachment.patch({ conversationId, id }).set({ state: "uploaded" }).go();
    return { id, size: item.size, state: "uploaded" as const };
  }

  async function objectSize(key: string): Promise<number | undefined> {
    try {
      const head = await s3().send(new HeadObjectCommand({ Bucket: bucket(), Key: key }));
      return head.ContentLength;
    } catch (error) {
      if (isS3ClientError(error)) return undefined;
      throw error;
    }
  }

  /** 4xx answers from S3 (a missing object, a wrong part ETag) are the uploader's doing. */
  function isS3ClientError(error: unknown): boolean {
    const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
    return typeof status === "number" && status >= 400 && status < 500;
  }

  /** GET /api/conversations/{id}/attachments/{aid}?thumb=: a short-lived download URL for a participant. */
  export async function download(actor: Actor, conversationId: number, id: number, thumb: boolean) {
    await access(actor, conversationId, "read");
    valid(idSchema, id);
    const item = await get(conversationId, id);
    if (!item || item.state !== "attached" || (thumb && !item.thumbSize)) fail("attachment_not_found");
    const key = attachmentObjectKey(conversationId, id, thumb ? "thumb" : "file");
    const url = await getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket(), Key: key }), { expiresIn: DOWNLOAD_URL_SECONDS });
    return { url, size: thumb ? item.thumbSize : item.size };
  }

  /** GET /api/conversations/{id}/attachments: the messages that attach files, oldest first. */
  export async function list(actor: Actor, conversationId: number): Promise<{ motes: MoteView[] }> {
    await access(actor, conversationId, "read");
    const { data } = await db().entities.attachment.query.byConversation({ conversationId }).go({ pages: "all" });
    const moteIds = [...new Set(data.filter((a) => a.state === "attached" && a.moteId !== undefined).map((a) => a.moteId!))].sort((a, b) => a - b);
    return { motes: await motesById(conversationId, moteIds) };
  }

  /** The purge-attachments job: deletes every bucket object under the conversation's prefix. */
  export async function purgeObjects(conversationId: number): Promise<void> {
    const Prefix = attachmentPrefix(conversationId);
    for (;;) {
      const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix, MaxKeys: 1000 }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (!keys.length) return;
      await s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys, Quiet: true } }));
    }
  }
}
