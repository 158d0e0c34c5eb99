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

/**
 * Where an attachment's encrypted bytes live in the bucket: all of a conversation's files under
 * one prefix, so deleting a conversation (a pickup) can delete them together.
 */
export function attachmentObjectKey(conversationId: number, attachmentId: number, part: "file" | "thumb" = "file"): string {
  return `${attachmentPrefix(conversationId)}${attachmentId}${part === "thumb" ? ".th" : ""}`;
}

export function attachmentPrefix(conversationId: number): string {
  return `attachments/${conversationId}/`;
}
