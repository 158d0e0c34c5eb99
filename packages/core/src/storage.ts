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
export const DRIVE_FILES = "drive/";
export const CARD_FILES = "cards/";
export const STAGED_UPLOADS = "uploads/";

/**
 * Where one container's encrypted files live (a conversation's attachments, a group's drive): the
 * file's key (only the server writes there) and the staging key a browser's single PUT goes to,
 * each for the file or its thumbnail; `prefixes` holds everything of the container.
 */
export interface FileSpace {
  object(fileId: number, part?: "file" | "thumb"): string;
  staged(fileId: number, part?: "file" | "thumb"): string;
  prefixes: string[];
  /** Whose files these are: the domain the upload sweep asks whether a file was taken. */
  owner: FileOwner;
}

export interface FileOwner {
  kind: "conversation" | "drive" | "cards";
  /** The conversation's or the group's id. */
  id: number;
}

function space(owner: FileOwner, files: string, staged: string): FileSpace {
  const name = (prefix: string) => (fileId: number, part: "file" | "thumb" = "file") => `${prefix}${fileId}${part === "thumb" ? ".th" : ""}`;
  return { object: name(files), staged: name(staged), prefixes: [files, staged], owner };
}

/** A conversation's attachments. */
export const conversationFiles = (conversationId: number): FileSpace =>
  space({ kind: "conversation", id: conversationId }, attachmentPrefix(conversationId), stagedUploadPrefix(conversationId));

/** A group's drive files (staged under uploads/g<id>/, apart from conversations' numbers). */
export const driveFiles = (groupId: number): FileSpace => space({ kind: "drive", id: groupId }, `${DRIVE_FILES}${groupId}/`, `${STAGED_UPLOADS}g${groupId}/`);

/** A group's cards' files (their media and attachments; staged under uploads/c<id>/). */
export const cardFiles = (groupId: number): FileSpace => space({ kind: "cards", id: groupId }, `${CARD_FILES}${groupId}/`, `${STAGED_UPLOADS}c${groupId}/`);

/**
 * Where an attachment's encrypted bytes live in the bucket: all of a conversation's files under
 * one prefix, so deleting a conversation (a pickup) can delete them together. Only the server
 * makes objects here (CompleteMultipartUpload, CopyObject): the only URLs a browser gets for these
 * keys are UploadPart URLs, which add parts to an upload the server completes and die with it,
 * so a completed file cannot be replaced. A single-part upload (a small file, a thumbnail) goes
 * to a staging key under uploads/, copied here when the upload is completed and then deleted (the
 * bucket expires what is left under uploads/ after a day): a URL still valid after completion can
 * only write there again, never over the file that was sent. The same holds for a drive's files.
 */
export function attachmentObjectKey(conversationId: number, attachmentId: number, part: "file" | "thumb" = "file"): string {
  return conversationFiles(conversationId).object(attachmentId, part);
}

function attachmentPrefix(conversationId: number): string {
  return `${ATTACHMENTS}${conversationId}/`;
}

function stagedUploadPrefix(conversationId: number): string {
  return `${STAGED_UPLOADS}${conversationId}/`;
}
