import { type EnvelopeKind, type EnvelopeOf, isCryptoError, parseEnvelope } from "@sealwork/crypto";
import { type ErrorCode, fail } from "./errors";

/**
 * The server's check of an envelope a client sends (kind, version, fields, lengths, canonical
 * form; docs/protocol.md §2): the parsed envelope, or `code` (422). The server cannot open it;
 * this keeps plaintext and garbage out of the table.
 */
export function checkEnvelope<K extends EnvelopeKind>(input: unknown, kind: K, code: ErrorCode): EnvelopeOf<K> {
  try {
    return parseEnvelope(input, kind);
  } catch (error) {
    if (isCryptoError(error)) fail(code);
    throw error;
  }
}

/** The envelope text as sent, once it passes checkEnvelope. */
export function envelopeText(text: string, kind: EnvelopeKind, code: ErrorCode): string {
  checkEnvelope(text, kind, code);
  return text;
}
