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
import { ATTACHMENT_PART_SIZE } from "@sealwork/contracts";
import { config } from "./config";
import { isConditionFailure } from "./db/conditions";
import { db } from "./db/service";
import { fail } from "./errors";
import { logger } from "./http/logger";
import { type FileSpace, s3 } from "./storage";
import "./conversation/errors";
import "./sweep/entities";

/**
 * Encrypted files between the browser and the bucket, for every container that holds them (a
 * conversation's attachments, a group's drive): one implementation of presigned uploads, their
 * completion and download URLs. The browser encrypts and uploads straight to the bucket; the
 * server keeps only ids, sizes and states (in the container's own entity) and checks that the
 * bucket holds exactly the announced sizes before a file can be used.
 *
 * Presigned URLs live only as long as their purpose. A single PUT (at most one part, 8 MiB) gets
 * 15 minutes; the parts of a multipart upload are all presigned at start and uploaded one after
 * the other, so they get an hour (1 GiB at 300 kB/s). Every upload URL signs the exact
 * Content-Length, so it takes no byte more or less than announced.
 */
export namespace Uploads {
  const PUT_URL_SECONDS = 15 * 60;
  const PART_URL_SECONDS = 60 * 60;
  const DOWNLOAD_URL_SECONDS = 5 * 60;
  /**
   * An upload not used within a day is forgotten: the upload sweep deletes its item and bytes
   * (watch below); the entities' TTL, at the same time, is the backstop for the item.
   */
  export const PENDING_SECONDS = 24 * 60 * 60;
  /** How long a sweep's look-again note outlives its due time (the TTL's backstop, should the sweep stall). */
  const WATCH_GRACE_SECONDS = 30 * 24 * 60 * 60;

  const bucket = () => config().BUCKET_NAME;

  /** What the server keeps of an upload to complete it. */
  export interface Pending {
    size: number;
    thumbSize: number;
    uploadId?: string;
  }

  /**
   * Presigns an upload of `size` encrypted bytes (and a thumbnail of `thumbSize`, when announced):
   * a multipart upload at the file's key (only the server can complete it), or a single PUT to the
   * staging key that `complete` copies.
   */
  export async function start(space: FileSpace, fileId: number, size: number, thumbSize: number | undefined) {
    await watch(space, fileId);
    const key = space.object(fileId);
    const partCount = Math.ceil(size / ATTACHMENT_PART_SIZE);
    const multipart = partCount > 1;
    let uploadId: string | undefined;
    let parts: { n: number; url: string }[];
    if (multipart) {
      const created = await s3().send(new CreateMultipartUploadCommand({ Bucket: bucket(), Key: key, ContentType: "application/octet-stream" }));
      uploadId = created.UploadId!;
      parts = await Promise.all(
        Array.from({ length: partCount }, async (_, i) => {
          const ContentLength = Math.min(ATTACHMENT_PART_SIZE, size - i * ATTACHMENT_PART_SIZE);
          const part = new UploadPartCommand({ Bucket: bucket(), Key: key, UploadId: uploadId, PartNumber: i + 1, ContentLength });
          return { n: i + 1, url: await getSignedUrl(s3(), part, { expiresIn: PART_URL_SECONDS }) };
        }),
      );
    } else {
      parts = [{ n: 1, url: await putUrl(space.staged(fileId), size) }];
    }
    const thumbUrl = thumbSize ? await putUrl(space.staged(fileId, "thumb"), thumbSize) : null;
    return { uploadId, answer: { id: fileId, parts, part_size: ATTACHMENT_PART_SIZE, multipart, thumb_url: thumbUrl } };
  }

  /** A PUT URL for exactly `size` bytes (the browser sends Content-Length itself; S3 checks it against the signature). */
  function putUrl(key: string, size: number): Promise<string> {
    return getSignedUrl(s3(), new PutObjectCommand({ Bucket: bucket(), Key: key, ContentLength: size }), { expiresIn: PUT_URL_SECONDS });
  }

  /**
   * The uploader says every part is in: completes a multipart upload or copies the staged PUT (and
   * thumbnail) to the file's key, and checks that the bucket holds exactly the announced sizes;
   * anything missing or different: 409 attachment_incomplete.
   */
  export async function complete(space: FileSpace, fileId: number, pending: Pending, etags: string[] | undefined): Promise<void> {
    const key = space.object(fileId);
    const thumbKey = space.object(fileId, "thumb");
    // What the browser PUT with presigned URLs: the single-part file, the thumbnail.
    const stagedFile = pending.uploadId ? undefined : space.staged(fileId);
    const stagedThumb = pending.thumbSize ? space.staged(fileId, "thumb") : undefined;
    // The thumbnail first: a missing one fails before anything that cannot be done twice.
    if (stagedThumb) await asUploaderMistake(copy(stagedThumb, thumbKey));
    if (pending.uploadId) {
      const tags = etags ?? [];
      if (tags.length !== Math.ceil(pending.size / ATTACHMENT_PART_SIZE)) fail("attachment_incomplete");
      await asUploaderMistake(
        s3().send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket(),
            Key: key,
            UploadId: pending.uploadId,
            MultipartUpload: { Parts: tags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
          }),
        ),
      );
    }
    if (stagedFile) await asUploaderMistake(copy(stagedFile, key));
    const sizes = await Promise.all([objectSize(key), pending.thumbSize ? objectSize(thumbKey) : Promise.resolve(0)]);
    if (sizes[0] !== pending.size || sizes[1] !== pending.thumbSize) fail("attachment_incomplete");
    // What is left under uploads/ expires anyway (the bucket's lifecycle rule).
    for (const Key of [stagedFile, stagedThumb].filter((k) => k !== undefined)) {
      await s3()
        .send(new DeleteObjectCommand({ Bucket: bucket(), Key }))
        .catch((error: unknown) => logger.warn("could not delete a staged upload", { key: Key, error: error as Error }));
    }
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

  /** A short-lived download URL of a completed file or its thumbnail. */
  export function downloadUrl(space: FileSpace, fileId: number, thumb: boolean): Promise<string> {
    return getSignedUrl(s3(), new GetObjectCommand({ Bucket: bucket(), Key: space.object(fileId, thumb ? "thumb" : "file") }), { expiresIn: DOWNLOAD_URL_SECONDS });
  }

  /** Copies a completed file (and its thumbnail) from one container's space to another's, as it is: still encrypted under its own key. */
  export async function copyBetween(from: FileSpace, fromId: number, to: FileSpace, toId: number, thumb: boolean): Promise<void> {
    await watch(to, toId);
    await copy(from.object(fromId), to.object(toId));
    if (thumb) await copy(from.object(fromId, "thumb"), to.object(toId, "thumb"));
  }

  /**
   * Notes a new file for the upload sweep, before any byte or item of it exists: after
   * PENDING_SECONDS the sweep asks the file's owner whether something took it, and deletes it if
   * nothing did (UploadSweep.run). Without the note a file uploaded and never sent (a cancelled
   * message, card edit or drive upload) would keep its bytes in the bucket for good, since the TTL
   * deletes only its item.
   */
  async function watch(space: FileSpace, fileId: number): Promise<void> {
    const dueAt = Math.floor(Date.now() / 1000) + PENDING_SECONDS;
    await db()
      .entities.filewatch.put({ dueAt, owner: space.owner.kind, ownerId: space.owner.id, fileId, expiresAt: dueAt + WATCH_GRACE_SECONDS })
      .go();
  }

  /**
   * The sweep's verdict on one file of `space` past its day (UploadSweep.run): kept if something
   * took it (`file` attached); otherwise its item goes (`drop`: a delete on the condition that it is
   * still not attached, so a message, card or drive item that takes it meanwhile wins) and then its
   * bytes. A file whose item is already gone (the TTL, a deleted container) loses its bytes too:
   * nothing can reach them. Answers whether it was deleted.
   */
  export async function forgetUnless(space: FileSpace, fileId: number, file: { state: string } | undefined, drop: () => Promise<unknown>): Promise<boolean> {
    if (file?.state === "attached") return false;
    if (file) {
      try {
        await drop();
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    }
    await remove(space, [fileId]);
    return true;
  }

  /** Deletes the files (and thumbnails) named; what is not there is fine. */
  export async function remove(space: FileSpace, fileIds: number[]): Promise<void> {
    const keys = fileIds.flatMap((id) => [{ Key: space.object(id) }, { Key: space.object(id, "thumb") }]);
    for (let i = 0; i < keys.length; i += 1000) {
      await s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys.slice(i, i + 1000), Quiet: true } }));
    }
  }

  /** Deletes every object of the container (its files and staged uploads). */
  export async function purge(space: FileSpace): Promise<void> {
    for (const Prefix of space.prefixes) {
      for (;;) {
        const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix, MaxKeys: 1000 }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (!keys.length) break;
        await s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys, Quiet: true } }));
      }
    }
  }
}
