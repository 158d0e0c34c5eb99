import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
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
import { attachmentObjectKey, attachmentPrefix, s3, stagedUploadKey, stagedUploadPrefix } from "../storage";
import { logger } from "../http/logger";
import { access } from "./access";
import { motesById } from "./messages";

/**
 * Presigned URLs live only as long as their purpose. A single PUT (at most one part, 8 MiB) gets
 * 15 minutes; the parts of a multipart upload are all presigned at start and uploaded one after
 * the other, so they get an hour (1 GiB at 300 kB/s). Every upload URL signs the exact
 * Content-Length, so it takes no byte more or less than announced.
 */
const PUT_URL_SECONDS = 15 * 60;
const PART_URL_SECONDS = 60 * 60;
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

  /**
   * POST /api/conversations/{id}/attachments: reserves an attachment and presigns its upload. A
   * multipart upload is made at the file's key (only the server can complete it); a single PUT and
   * the thumbnail go to staging keys that `complete` copies (storage.ts).
   */
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
        Array.from({ length: partCount }, async (_, i) => {
          const ContentLength = Math.min(ATTACHMENT_PART_SIZE, input.size - i * ATTACHMENT_PART_SIZE);
          const part = new UploadPartCommand({ Bucket: bucket(), Key: key, UploadId: uploadId, PartNumber: i + 1, ContentLength });
          return { n: i + 1, url: await getSignedUrl(s3(), part, { expiresIn: PART_URL_SECONDS }) };
        }),
      );
    } else {
      parts = [{ n: 1, url: await putUrl(stagedUploadKey(conversationId, id), input.size) }];
    }
    const thumbUrl = input.thumb_size ? await putUrl(stagedUploadKey(conversationId, id, "thumb"), input.thumb_size) : null;
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

  /** A PUT URL for exactly `size` bytes (the browser sends Content-Length itself; S3 checks it against the signature). */
  function putUrl(key: string, size: number): Promise<string> {
    return getSignedUrl(s3(), new PutObjectCommand({ Bucket: bucket(), Key: key, ContentLength: size }), { expiresIn: PUT_URL_SECONDS });
  }

  /**
   * POST /api/conversations/{id}/attachments/{aid}/complete: the uploader says every part is in;
   * the server completes a multipart upload or copies the staged PUT (and thumbnail) to the file's
   * key, and checks the bucket holds exactly the announced sizes before the attachment can go into
   * a message.
   */
  export async function complete(actor: Actor, conversationId: number, id: number, body: z.input<typeof completeAttachment>) {
    const { me } = await access(actor, conversationId, "write");
    const input = valid(completeAttachment, body);
    valid(idSchema, id);
    const item = await get(conversationId, id);
    if (!item || item.sourceId !== me.uid) fail("attachment_not_found");
    if (item.state !== "pending") return { id, size: item.size, state: item.state };
    const key = attachmentObjectKey(conversationId, id);
    const thumbKey = attachmentObjectKey(conversationId, id, "thumb");
    // What the browser PUT with presigned URLs: the single-part file, the thumbnail.
    const stagedFile = item.uploadId ? undefined : stagedUploadKey(conversationId, id);
    const stagedThumb = item.thumbSize ? stagedUploadKey(conversationId, id, "thumb") : undefined;
    // The thumbnail first: a missing one fails before anything that cannot be done twice.
    if (stagedThumb) await asUploaderMistake(copy(stagedThumb, thumbKey));
    if (item.uploadId) {
      const etags = input.etags ?? [];
      if (etags.length !== Math.ceil(item.size / ATTACHMENT_PART_SIZE)) fail("attachment_incomplete");
      await asUploaderMistake(
        s3().send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket(),
            Key: key,
            UploadId: item.uploadId,
            MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
          }),
        ),
      );
    }
    if (stagedFile) await asUploaderMistake(copy(stagedFile, key));
    const sizes = await Promise.all([objectSize(key), item.thumbSize ? objectSize(thumbKey) : Promise.resolve(0)]);
    if (sizes[0] !== item.size || sizes[1] !== item.thumbSize) fail("attachment_incomplete");
    await db().entities.attachment.patch({ conversationId, id }).set({ state: "uploaded" }).go();
    // What is left under uploads/ expires anyway (the bucket's lifecycle rule).
    for (const Key of [stagedFile, stagedThumb].filter((k) => k !== undefined)) {
      await s3()
        .send(new DeleteObjectCommand({ Bucket: bucket(), Key }))
        .catch((error: unknown) => logger.warn("could not delete a staged upload", { key: Key, error: error as Error }));
    }
    return { id, size: item.size, state: "uploaded" as const };
  }

  /** The staged upload becomes the file: a server-side copy, so the browser's URL never names the file's key. */
  function copy(from: string, to: string) {
    return s3().send(new CopyObjectCommand({ Bucket: bucket(), Key: to, CopySource: `${bucket()}/${from}` }));
  }

  /** A missing staged object or a wrong part ETag is the uploader's doing: 409, not 500. */
  async function asUploaderMistake<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      if (isS3ClientError(error)) fail("attachment_incomplete");
      throw error;
    }
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

  /** The purge-attachments job: deletes every bucket object of the conversation (its files and staged uploads). */
  export async function purgeObjects(conversationId: number): Promise<void> {
    for (const Prefix of [attachmentPrefix(conversationId), stagedUploadPrefix(conversationId)]) {
      for (;;) {
        const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix, MaxKeys: 1000 }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (!keys.length) break;
        await s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys, Quiet: true } }));
      }
    }
  }
}
