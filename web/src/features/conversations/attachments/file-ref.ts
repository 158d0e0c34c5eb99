import type { FileRef } from "@sealwork/crypto";

/**
 * One attached file inside an encrypted message payload: the type and its validity rules
 * (spec 000 §5) live with the message record in `@sealwork/crypto`.
 */
export { type FileRef, parseFileRef } from "@sealwork/crypto";

export const isImage = (file: Pick<FileRef, "type">) => /^image\/(png|jpeg|gif|webp|bmp|avif)$/.test(file.type);
