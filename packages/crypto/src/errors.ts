/**
 * The one error type of the crypto package. Codes are stable: callers (the key popup, the
 * vault) branch on them, so a code is never renamed. Messages never contain key material,
 * plaintext or the secure code.
 */
export const CRYPTO_ERROR_CODES = [
  /** The envelope names a protocol version this code does not speak. */
  "unsupported_version",
  /** The envelope's kind is not one of the known kinds. */
  "unknown_kind",
  /** A known kind, but another operation's kind (a sealed key given to `decrypt`). */
  "wrong_kind",
  /** The algorithm is not the one this version and kind use. */
  "unsupported_algorithm",
  /** Missing, extra or mistyped fields, bad base64url, wrong lengths, out-of-range parameters. */
  "malformed_envelope",
  /** Authentication failed: wrong key, code or context, or the envelope was altered. */
  "decrypt_failed",
  /** A signature does not verify for this key and data. */
  "bad_signature",
  /** A key of the wrong algorithm or type, or key material that does not fit together. */
  "invalid_key",
  /** An argument outside the documented domain (empty secure code, bad context, lone surrogate). */
  "invalid_input",
  /** This runtime lacks WebCrypto or one of the algorithms (spec key popup code NCRP). */
  "crypto_unavailable",
  /** A record opened, but what it holds is not that record's payload (not JSON, or not its schema). */
  "invalid_payload",
  // Protocol v2 (docs/protocol.md, "Version 2"): signed records and what they prove.
  /** A signed v2 record (identity, invitation, admin, membership, conversation) without its kind's exact shape. */
  "malformed_record",
  /** A key that does not chain to a pinned instance anchor, or that differs from the pinned key without a chain from it. */
  "untrusted_key",
  /** A key older (lower seq) than the one this client has pinned: the server served an old record. */
  "stale_key",
  /** A chain that does not link: identity records with a gap, a loop or a wrong predecessor, an invitation for another address or expired; log entries out of order or with a wrong hash; a record that disagrees with the log state it names. */
  "bad_chain",
  /** A membership log that does not contain the head this client remembers (a fork), or is shorter than it (a rollback); or a record naming a log state this log does not have. */
  "log_fork",
  /** A change or record by someone who had no right to it at that point of the membership log. */
  "not_permitted",
  /** An opened key does not match the commitment its signed conversation record carries. */
  "bad_commitment",
] as const;

export type CryptoErrorCode = (typeof CRYPTO_ERROR_CODES)[number];

export class CryptoError extends Error {
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "CryptoError";
    this.code = code;
  }
}

export function isCryptoError(error: unknown, code?: CryptoErrorCode): error is CryptoError {
  return error instanceof CryptoError && (code === undefined || error.code === code);
}
