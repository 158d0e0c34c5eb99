import * as z from "zod";
import { MEMBERS, PARTICIPANTS } from "./access";
import { route, type RouteContract } from "./route";
import * as f from "./fields";
import { conversationParams, moteView } from "./conversations";

/**
 * Files attached to conversation messages (spec 000 §3–§5; docs/api.md Attachments). The
 * browser encrypts a file in chunks (docs/protocol.md, Files in chunks) and uploads the
 * ciphertext straight to the bucket with presigned URLs; the server learns only sizes. Name,
 * type and the file key travel inside the encrypted message that attaches the file.
 */

/** Largest file a user may attach (spec: up to 1024 MB). */
export const ATTACHMENT_MAX_BYTES = 1024 * 1024 * 1024;
/** Its encrypted size may add 16 bytes per chunk; chunks are at least 1 KiB (1 MiB in practice). */
export const ATTACHMENT_MAX_ENCRYPTED = ATTACHMENT_MAX_BYTES + 16 * (ATTACHMENT_MAX_BYTES / 1024);
/** Encrypted bytes per multipart part (S3 wants at least 5 MiB for all parts but the last). */
export const ATTACHMENT_PART_SIZE = 8 * 1024 * 1024;
/** An encrypted thumbnail (200 px) is small. */
export const THUMB_MAX_BYTES = 512 * 1024;

export const attachmentParams = z.object({ id: f.idParam, aid: f.idParam });

export const newAttachment = z.object({
  /** Encrypted size in bytes. */
  size: z.number().int().min(16).max(ATTACHMENT_MAX_ENCRYPTED),
  /** Encrypted thumbnail size, for images. */
  thumb_size: z.number().int().min(1).max(THUMB_MAX_BYTES).optional(),
});

export const attachmentUpload = z.object({
  id: z.number(),
  /** One presigned PUT URL per part, in order; one part (a plain PUT) up to ATTACHMENT_PART_SIZE. */
  parts: z.array(z.object({ n: z.number(), url: z.string() })),
  part_size: z.number(),
  multipart: z.boolean(),
  /** A presigned PUT URL for the encrypted thumbnail, when one was announced. */
  thumb_url: z.string().nullable(),
});

export const completeAttachment = z.object({
  /** Multipart only: the ETag each part's PUT answered, in part order. */
  etags: z.array(z.string().min(1).max(200)).max(200).optional(),
});

/** 'Select from drive...' (spec 000 §2): a file of a group's drive, copied as it is (encrypted) to the conversation. */
export const attachmentFromDrive = z.object({ group: f.id, file: f.id });

export const attachmentState = z.object({ id: z.number(), size: z.number(), state: z.enum(["pending", "uploaded", "attached"]) });

export const attachmentQuery = z.object({ thumb: z.enum(["0", "1"]).optional() });

export const attachmentUrl = z.object({
  /** A presigned GET URL, valid for a few minutes. */
  url: z.string(),
  size: z.number(),
});

export const attachmentMotes = z.object({
  /** The messages that attach files, oldest first: the right panel's attachments list. */
  motes: z.array(moteView),
});

/** Conversation attachments: the routes, by "METHOD /path" (merged in index.ts). */
export const attachmentRoutes = {
  "GET /api/conversations/{id}/attachments": route({ access: PARTICIPANTS, params: conversationParams, response: attachmentMotes }),
  "POST /api/conversations/{id}/attachments": route({ access: PARTICIPANTS, params: conversationParams, body: newAttachment, response: attachmentUpload }),
  "POST /api/conversations/{id}/attachments/{aid}/complete": route({
    access: PARTICIPANTS,
    params: attachmentParams,
    body: completeAttachment,
    response: attachmentState,
  }),
  "GET /api/conversations/{id}/attachments/{aid}": route({ access: PARTICIPANTS, params: attachmentParams, query: attachmentQuery, response: attachmentUrl }),
  "POST /api/conversations/{id}/attachments/from-drive": route({ access: MEMBERS, params: conversationParams, body: attachmentFromDrive, response: attachmentState }),
} satisfies Record<string, RouteContract>;

/** The error codes of this area's routes (their statuses and texts: packages/core, this area's domain). */
export const attachmentErrorCodes = ["attachment_too_large", "attachment_not_found", "attachment_incomplete", "attachment_invalid"] as const;
