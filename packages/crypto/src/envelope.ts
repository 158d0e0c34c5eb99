import { type Bytes, base64urlEncode, tryBase64urlDecode, utf8Encode } from "./bytes";
import { canonicalJson } from "./canonical-json";
import { CryptoError } from "./errors";

/**
 * Version-1 envelopes: every ciphertext, wrapped key and signature travels as one of these.
 *
 * - Self-describing: `v`, `kind` and `alg` say how to open it; a reader refuses what it does not
 *   know instead of guessing. A version is never changed in place: different fields or
 *   algorithms make a new `v`, and version-1 readers refuse it with unsupported_version.
 * - Constant shape: each kind has a fixed set of fields, all required, no optional ones.
 *   Binary fields are unpadded base64url, integers are JSON numbers.
 * - One text per envelope: serialised as canonical JSON, and a serialised envelope is only
 *   accepted in that form, so nobody can alter an envelope's text without changing its meaning.
 * - Every field except `ct` is authenticated as AES-GCM associated data (see `associatedData`).
 */

export const PROTOCOL_VERSION = 1;

export interface SecureCodeWrapEnvelope {
  v: 1;
  kind: "secure-code-wrap";
  alg: "argon2id-hkdf-sha256-aes256gcm";
  memoryKiB: number;
  iterations: number;
  parallelism: number;
  /** 16 bytes, Argon2id salt. */
  salt: string;
  /** 12 bytes. */
  nonce: string;
  /** Raw X25519 public key (32 bytes), readable without the code so a device can compare keys. */
  encryptPublic: string;
  /** Raw Ed25519 public key (32 bytes). */
  signPublic: string;
  /** AES-256-GCM of x25519 seed || ed25519 seed (64 bytes) plus the 16-byte tag. */
  ct: string;
}

export interface SealedEnvelope {
  v: 1;
  kind: "sealed";
  alg: "x25519-hkdf-sha256-aes256gcm";
  /** Ephemeral X25519 public key, 32 bytes. */
  epk: string;
  nonce: string;
  ct: string;
}

export interface AeadEnvelope {
  v: 1;
  kind: "aead";
  alg: "aes256gcm";
  nonce: string;
  ct: string;
}

/**
 * A pickup's conversation key under a key derived from what only the guest holds (pickup code,
 * security code, and the link's secret when the pickup has one): docs/protocol.md, Pickups.
 */
export interface PickupWrapEnvelope {
  v: 1;
  kind: "pickup-wrap";
  alg: "argon2id-hkdf-sha256-aes256gcm";
  memoryKiB: number;
  iterations: number;
  parallelism: number;
  /** 16 bytes, Argon2id salt (random per pickup). */
  salt: string;
  /** 1 when the key also needs the 16-byte secret of the link's fragment, else 0. */
  link: number;
  nonce: string;
  /** AES-256-GCM of the 32-byte conversation key plus the 16-byte tag. */
  ct: string;
}

export interface SignatureEnvelope {
  v: 1;
  kind: "signature";
  alg: "ed25519";
  /** 64 bytes. */
  sig: string;
}

export interface RecordSignatureEnvelope {
  v: 1;
  kind: "record-signature";
  alg: "ed25519";
  sig: string;
}

export type Envelope =
  | SecureCodeWrapEnvelope
  | SealedEnvelope
  | AeadEnvelope
  | PickupWrapEnvelope
  | SignatureEnvelope
  | RecordSignatureEnvelope;
export type EnvelopeKind = Envelope["kind"];
export type EnvelopeOf<K extends EnvelopeKind> = Extract<Envelope, { kind: K }>;

type FieldRule = { bytes: number } | { minBytes: number; maxBytes: number } | { int: [number, number] };

/** Sealed payloads are keys and small secrets; bulk data goes through `encrypt`. */
export const MAX_SEALED_PLAINTEXT = 64 * 1024;
/** Record payloads and messages; files are chunked (docs/protocol.md). */
export const MAX_AEAD_PLAINTEXT = 16 * 1024 * 1024;
const TAG = 16;

/**
 * Argon2id bounds a version-1 reader accepts, checked before any work is done: the floor lets
 * tests run fast, the ceiling stops a forged envelope from making a browser allocate gigabytes.
 */
export const ARGON2ID_LIMITS = {
  memoryKiB: [1024, 262144],
  iterations: [1, 16],
  parallelism: [1, 4],
} as const satisfies Record<string, readonly [number, number]>;

/** The Argon2id parameters and salt of the code-derived kinds (secure-code-wrap, pickup-wrap). */
const ARGON2ID_FIELDS: Record<string, FieldRule> = {
  memoryKiB: { int: [...ARGON2ID_LIMITS.memoryKiB] },
  iterations: { int: [...ARGON2ID_LIMITS.iterations] },
  parallelism: { int: [...ARGON2ID_LIMITS.parallelism] },
  salt: { bytes: 16 },
};

const SCHEMAS: { [K in EnvelopeKind]: { alg: EnvelopeOf<K>["alg"]; fields: Record<string, FieldRule> } } = {
  "secure-code-wrap": {
    alg: "argon2id-hkdf-sha256-aes256gcm",
    fields: {
      ...ARGON2ID_FIELDS,
      nonce: { bytes: 12 },
      encryptPublic: { bytes: 32 },
      signPublic: { bytes: 32 },
      ct: { bytes: 64 + TAG },
    },
  },
  sealed: {
    alg: "x25519-hkdf-sha256-aes256gcm",
    fields: { epk: { bytes: 32 }, nonce: { bytes: 12 }, ct: { minBytes: TAG, maxBytes: MAX_SEALED_PLAINTEXT + TAG } },
  },
  aead: {
    alg: "aes256gcm",
    fields: { nonce: { bytes: 12 }, ct: { minBytes: TAG, maxBytes: MAX_AEAD_PLAINTEXT + TAG } },
  },
  "pickup-wrap": {
    alg: "argon2id-hkdf-sha256-aes256gcm",
    fields: {
      ...ARGON2ID_FIELDS,
      link: { int: [0, 1] },
      nonce: { bytes: 12 },
      ct: { bytes: 32 + TAG },
    },
  },
  signature: { alg: "ed25519", fields: { sig: { bytes: 64 } } },
  "record-signature": { alg: "ed25519", fields: { sig: { bytes: 64 } } },
};

const KINDS = new Map(Object.entries(SCHEMAS)) as Map<EnvelopeKind, (typeof SCHEMAS)[EnvelopeKind]>;

/**
 * Validates an envelope (an object, or its canonical JSON text) strictly and returns a fresh
 * copy. With `expected`, any other known kind is refused with wrong_kind.
 */
export function parseEnvelope<K extends EnvelopeKind>(input: unknown, expected: K): EnvelopeOf<K>;
export function parseEnvelope(input: unknown): Envelope;
export function parseEnvelope(input: unknown, expected?: EnvelopeKind): Envelope {
  const value = typeof input === "string" ? parseText(input) : input;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw malformed("not a JSON object");
  const record = value as Record<string, unknown>;

  if (!Object.hasOwn(record, "v") || typeof record.v !== "number") throw malformed("missing version");
  if (record.v !== PROTOCOL_VERSION) throw new CryptoError("unsupported_version", `unsupported envelope version ${String(record.v)}`);

  const kind = record.kind;
  if (typeof kind !== "string") throw malformed("missing kind");
  const schema = KINDS.get(kind as EnvelopeKind);
  if (!schema) throw new CryptoError("unknown_kind", "unknown envelope kind");
  if (expected !== undefined && kind !== expected) {
    throw new CryptoError("wrong_kind", `expected a ${expected} envelope, got ${kind}`);
  }
  if (typeof record.alg !== "string") throw malformed("missing alg");
  if (record.alg !== schema.alg) throw new CryptoError("unsupported_algorithm", `unsupported algorithm for ${kind}`);

  const allowed = new Set(["v", "kind", "alg", ...Object.keys(schema.fields)]);
  for (const key of Object.keys(record)) if (!allowed.has(key)) throw malformed(`unexpected field "${key}"`);

  const out: Record<string, unknown> = { v: PROTOCOL_VERSION, kind, alg: schema.alg };
  for (const [name, rule] of Object.entries(schema.fields)) {
    if (!Object.hasOwn(record, name)) throw malformed(`missing field "${name}"`);
    out[name] = checkField(name, record[name], rule);
  }
  if (typeof input === "string" && canonicalJson(out) !== input) throw malformed("not in canonical form");
  return out as unknown as Envelope;
}

/** The canonical JSON text of a valid envelope. */
export function serializeEnvelope(envelope: Envelope): string {
  return canonicalJson(parseEnvelope(envelope));
}

/** Decodes a binary field of an envelope that parseEnvelope has already checked. */
export function field(envelope: Envelope, name: string): Bytes {
  const bytes = tryBase64urlDecode((envelope as unknown as Record<string, unknown>)[name]);
  if (!bytes) throw malformed(`bad field "${name}"`);
  return bytes;
}

/**
 * AES-GCM associated data: the envelope without `ct`, plus the caller's associated data, as
 * canonical JSON. Binding the header means version, kind, algorithm, parameters, salt, nonce
 * and the public keys cannot be changed even where a change would not alter the key.
 */
export function associatedData(header: Record<string, unknown>, callerAad: Uint8Array = new Uint8Array(0)): Bytes {
  const { ct: _ct, ...rest } = header;
  return utf8Encode(canonicalJson({ aad: base64urlEncode(callerAad), header: rest }));
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new CryptoError("malformed_envelope", "envelope is not valid JSON", { cause });
  }
}

function checkField(name: string, value: unknown, rule: FieldRule): unknown {
  if ("int" in rule) {
    const [min, max] = rule.int;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      throw malformed(`field "${name}" must be an integer in [${min}, ${max}]`);
    }
    return value;
  }
  const [min, max] = "bytes" in rule ? [rule.bytes, rule.bytes] : [rule.minBytes, rule.maxBytes];
  // Length check on the text first, so a huge field is refused before it is decoded.
  if (typeof value !== "string" || value.length > Math.ceil((max * 4) / 3)) throw malformed(`field "${name}" is invalid`);
  const bytes = tryBase64urlDecode(value);
  if (!bytes || bytes.length < min || bytes.length > max) throw malformed(`field "${name}" is invalid`);
  return value;
}

function malformed(reason: string): CryptoError {
  return new CryptoError("malformed_envelope", `malformed envelope: ${reason}`);
}
