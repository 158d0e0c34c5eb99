import { S3Client } from "@aws-sdk/client-s3";
import { config } from "./config";
import { localCredentials } from "./db/client";

let client: S3Client | undefined;

export function s3(): S3Client {
  const { AWS_REGION, S3_ENDPOINT } = config();
  client ??= new S3Client({
    region: AWS_REGION,
    // Otherwise the SDK signs a CRC32 of the (empty) body into presigned PUT URLs, and S3 would
    // refuse the browser's upload, whose body is the file.
    requestChecksumCalculation: "WHEN_REQUIRED",
    ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT, forcePathStyle: true, credentials: localCredentials } : {}),
  });
  return client;
}

/** The bucket prefixes: the Storage stack's lifecycle rule and the functions' permissions name them. */
export const ATTACHMENTS = "attachments/";
export const STAGED_UPLOADS = "uploads/";

/**
 * Where an attachment's encrypted bytes live in the bucket: all of a conversation's files under
 * one prefix, so deleting a conversation (a pickup) can delete them together. Only the server
 * makes objects here (CompleteMultipartUpload, CopyObject): the only URLs a browser gets for these
 * keys are UploadPart URLs, which add parts to an upload the server completes and die with it,
 * so a completed file cannot be replaced.
 */
export function attachmentObjectKey(conversationId: number, attachmentId: number, part: "file" | "thumb" = "file"): string {
  return `${attachmentPrefix(conversationId)}${attachmentId}${part === "thumb" ? ".th" : ""}`;
}

export function attachmentPrefix(conversationId: number): string {
  return `${ATTACHMENTS}${conversationId}/`;
}

/**
 * Where a browser PUTs a single-part upload (a small file, a thumbnail) with its presigned URL:
 * a staging key, copied to attachmentObjectKey when the upload is completed and then deleted (the
 * bucket expires what is left under uploads/ after a day). A URL still valid after completion
 * can only write here again, never over the file that was sent.
 */
export function stagedUploadKey(conversationId: number, attachmentId: number, part: "file" | "thumb" = "file"): string {
  return `${stagedUploadPrefix(conversationId)}${attachmentId}${part === "thumb" ? ".th" : ""}`;
}

export function stagedUploadPrefix(conversationId: number): string {
  return `${STAGED_UPLOADS}${conversationId}/`;
}
