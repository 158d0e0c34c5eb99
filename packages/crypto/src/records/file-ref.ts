import * as z from "zod";

/**
 * One attached file as it travels inside an encrypted message payload (`files` of the payload):
 * everything needed to fetch, decrypt and present it. The server knows only the attachment id
 * and the ciphertext size; name, type, size and the file key are inside the message envelope.
 */
export interface FileRef {
  /** The attachment id the server gave the upload. */
  id: number;
  name: string;
  /** MIME type as the browser reported it ("" when unknown). */
  type: string;
  /** Plaintext size in bytes. */
  size: number;
  /** The file key (base64url) and the stream header (JSON text): docs/protocol.md, Files in chunks. */
  key: string;
  header: string;
  /** Whether an encrypted thumbnail was uploaded (images). */
  thumb: boolean;
}

/**
 * The attachment validity rules (spec 000 §5, in our terms): every field of the expected type,
 * or the attachment shows as invalid. The payload came out of an authenticated envelope, but from
 * another participant's client, so it is still checked. The order of the fields is the order a
 * sealed payload writes them in.
 */
export const fileRefSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().min(1).max(1024),
  type: z.string().max(255),
  size: z.number().int().min(0),
  key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  header: z.string().min(1).max(512),
  thumb: z.boolean(),
}) satisfies z.ZodType<FileRef>;

/** A file reference as it came out of a message, checked; null when it breaks a rule. */
export function parseFileRef(value: unknown): FileRef | null {
  const parsed = fileRefSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
